"""Uploads within the server's bounds (issue 26, app_pages/shared/uploads.py).

- A parse that passes a limit of the bounded worker gets a Russian message naming the limit,
  and the open rules or base stay (before, one PDF kept a core busy for hours).
- What players' window-only uploads hold is bounded for the whole server: the least recently
  used is dropped and its window asked to upload again (before, each held about 1 GB, and more
  tabs meant more memory).
- Every file a page is handed counts against its tab, the ones refused for their size too.
- Streamlit's own store of uploaded bytes is bounded per tab and for the server, and what a session
  gone for good held is released.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.exceptions import HTTPException
from streamlit.runtime.memory_uploaded_file_manager import MemoryUploadedFileManager
from streamlit.runtime.uploaded_file_manager import UploadedFileRec
from streamlit.testing.v1 import AppTest

from app_pages import registry
from app_pages import rules as rules_page
from app_pages.shared import uploads
from cardbase import store as card_store
from rules_index import versions
from rulings import limits
from storage import held, worker
from tests import cardbase_cases as cards
from tests import rules_docs
from tests.apptest import APP

MB = 1024 * 1024
SMALL_RULES = "900. Раздел.\n900.1. Пункт, см. 900.2.\n900.2. Пункт.\nРП 9.9 от 01.01.2030\n".encode()


def _said(at: AppTest) -> str:
    parts = [e.value for e in at.error] + [w.value for w in at.warning] + [s.value for s in at.success]
    parts += [i.value for i in at.info] + [c.value for c in at.caption]
    return "\n".join(parts).replace("\\", "")


def _rules_page(at: AppTest | None = None) -> AppTest:
    at = at or AppTest.from_file(APP, default_timeout=60).run()
    return at.switch_page(registry.RULES_PAGE.script).run()


def _upload_rules(at: AppTest, name: str, data: bytes) -> AppTest:
    at.radio(key=rules_page.BERSERK_KEY).set_value(rules_page.BERSERK_YES)
    at.file_uploader(key=rules_page.upload_key(at.session_state)).set_value([(name, data, "text/plain")])
    return at.run()


# -- the worker's limits, as a page says them ---------------------------------------------------


@pytest.mark.parametrize(
    ("limit", "scale", "said"),
    [
        (
            worker.Limits(cpu_s=60, memory_mb=48, output_mb=128, wall_s=120),
            1.0,
            "разбору файла не хватило 48 МБ памяти — это предел для одного файла.",
        ),
        (
            worker.Limits(cpu_s=1, memory_mb=2048, output_mb=256, wall_s=300),
            3.0,
            "разбор файла занял больше 1 с процессорного времени — это предел для одного файла.",
        ),
    ],
    ids=["memory", "cpu"],
)
def test_a_rules_parse_over_a_limit_says_which_and_the_rules_stay(
    monkeypatch: pytest.MonkeyPatch, limit: worker.Limits, scale: float, said: str
) -> None:
    monkeypatch.setattr(uploads, "RULES", limit)
    at = _upload_rules(_rules_page(), "full.txt", rules_docs.full_rules(scale))
    shown = _said(at)
    assert f"Файл не загружен. {said}" in shown
    assert "Остались прежние правила: РП 4.1-2" in shown
    assert not at.exception


def _many_cards(copies: int) -> bytes:
    recs = []
    for k in range(copies):
        for rec in cards.records():
            recs.append({**rec, "id": f"{rec['id']}-{k}", "name": f"{rec['name']} {k}", "altto": None})
    return cards.dump(recs)


def test_a_card_base_over_its_limit_leaves_the_base_as_it_was(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(uploads, "CARDS", worker.Limits(cpu_s=60, memory_mb=16, output_mb=128, wall_s=60))
    at = AppTest.from_file(APP, default_timeout=60).run().switch_page(registry.CARDS.script).run()
    at.file_uploader(key="cards_upload").set_value(("base.json", _many_cards(300), "application/json"))
    at = at.run()
    said = _said(at)
    assert "База не загружена." in said and "не хватило 16 МБ памяти" in said, said
    assert "Осталась прежняя база" in said


# -- what windows hold, for the whole server ----------------------------------------------------


@pytest.fixture
def one_upload_at_a_time() -> Iterator[None]:
    """The server's budget for windows' uploads shrunk to one item (restored after)."""
    room = uploads.resources()
    was = room.held
    room.held = held.Held(max_bytes=limits.HELD_MB * MB, max_items=1)
    yield
    room.held = was


def test_the_least_recently_used_window_upload_is_dropped_and_its_window_told(
    one_upload_at_a_time: None,
) -> None:
    first = _upload_rules(_rules_page(), "mine.txt", SMALL_RULES)
    assert "Загружены правила РП 9.9" in _said(first)
    second = _upload_rules(_rules_page(), "theirs.txt", SMALL_RULES.replace(b"9.9", b"9.8"))
    assert "Загружены правила РП 9.8" in _said(second)
    first = _rules_page(first)
    said = _said(first)
    assert "Загруженный в это окно файл «mine.txt» больше не хранится на сервере" in said, said
    assert "Загрузите файл снова" in said
    assert "встроенные правила" in said  # the window reads the server's rules again
    assert "РП 9.8" in _said(_rules_page(second))  # the newer upload stays


@pytest.fixture
def own_budget() -> Iterator[held.Held]:
    """A budget for windows' uploads of this test alone (the process's is restored after)."""
    room = uploads.resources()
    was = room.held
    room.held = held.Held(max_bytes=limits.HELD_MB * MB, max_items=limits.HELD_ITEMS)
    yield room.held
    room.held = was


def test_rules_waiting_for_open_new_are_held_by_ticket_and_counted_once(own_budget: held.Held) -> None:
    at = _upload_rules(_rules_page(), "first.txt", SMALL_RULES)
    at = _upload_rules(at, "second.txt", SMALL_RULES.replace(b"9.9", b"9.8"))
    ticket = at.session_state["rules_upload_pending"]
    assert isinstance(ticket, held.Ticket), "the parsed upload must not sit in the session"
    assert own_budget.stats().items == 2  # the open rules and the waiting ones
    key = ("ticket", ticket.key)
    assert own_budget.get(key) is not None
    del ticket  # the test's own reference; the page's is the one that must go
    at = at.button(key="rules_upload_replace").click().run()
    assert not at.exception and "РП 9.8" in _said(at)
    # The waiting upload's ticket went when it opened: the budget does not count it twice.
    assert own_budget.get(key) is None
    assert uploads.redeem(at.session_state["rules_window_index"][0]) is not None


def test_rules_waiting_for_an_answer_dropped_for_room_ask_for_the_file_again(own_budget: held.Held) -> None:
    at = _upload_rules(_rules_page(), "first.txt", SMALL_RULES)
    at = _upload_rules(at, "second.txt", SMALL_RULES.replace(b"9.9", b"9.8"))
    ticket = at.session_state["rules_upload_pending"]
    own_budget.pop(("ticket", ticket.key))  # what the least recently used rule does when room runs out
    at = at.run()
    said = _said(at)
    assert not at.exception
    assert "Загруженный в это окно файл «second.txt» больше не хранится на сервере" in said, said
    assert not [b for b in at.button if b.key == "rules_upload_replace"]
    assert "РП 9.9" in " ".join(m.value for m in at.markdown).replace("\\", "")  # the open rules stay


def test_a_player_base_is_held_by_ticket_not_in_the_session(one_upload_at_a_time: None) -> None:
    at = AppTest.from_file(APP, default_timeout=60).run().switch_page(registry.CARDS.script).run()
    at.file_uploader(key="cards_upload").set_value(
        ("base.json", cards.BASE_JSON.read_bytes(), "application/json")
    )
    at = at.run()
    assert not at.exception
    ticket = at.session_state["cards_base_unstored"]
    assert isinstance(ticket, held.Ticket) and uploads.redeem(ticket) is not None
    _upload_rules(_rules_page(), "theirs.txt", SMALL_RULES)  # another window's upload takes the room
    at = at.switch_page(registry.CARDS.script).run()
    said = _said(at)
    assert "Загруженный в это окно файл «base.json» больше не хранится на сервере" in said, said


# -- every file a page is handed counts -------------------------------------------------------


def test_files_refused_for_their_size_still_count_against_the_tab(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(limits, "SESSION_UPLOAD_MB", 8)
    at = _upload_rules(_rules_page(), "big.txt", b"900. " + b"x" * (6 * MB))  # over a text's 5 MB
    assert "больше 5 МБ" in _said(at)
    at = _upload_rules(at, "next.txt", SMALL_RULES + b"x" * (3 * MB))  # fits alone, not after the 6 MB
    said = _said(at)
    assert "из этой вкладки уже загружено 6 МБ, а за один сеанс можно не больше 8 МБ" in said, said


# -- Streamlit's own store of uploaded bytes ----------------------------------------------------


@pytest.fixture
def bound(monkeypatch: pytest.MonkeyPatch) -> uploads._Bound:
    monkeypatch.setattr(limits, "SESSION_UPLOAD_MB", 6)
    monkeypatch.setattr(limits, "TAB_FILES_MB", 3)
    monkeypatch.setattr(limits, "SERVER_FILES_MB", 5)
    manager = MemoryUploadedFileManager("/_stcore/upload_file")
    made = uploads._Bound(manager)
    manager.add_file = made.add_file  # type: ignore[method-assign]
    return made


def _send(bound: uploads._Bound, session: str, file_id: str, mb: float = 1) -> None:
    bound._manager.add_file(
        session, UploadedFileRec(file_id, f"{file_id}.pdf", "application/pdf", b"x" * int(mb * MB))
    )


def _kept(bound: uploads._Bound, session: str, *ids: str) -> list[str]:
    return [r.file_id for r in bound._manager.get_files(session, list(ids))]


def test_a_tab_keeps_its_share_and_its_oldest_files_go_first(bound: uploads._Bound) -> None:
    for k in range(4):
        _send(bound, "tab", f"f{k}")
    assert _kept(bound, "tab", "f0", "f1", "f2", "f3") == ["f1", "f2", "f3"]


def test_every_byte_a_tab_sends_counts_even_if_no_page_reads_it(bound: uploads._Bound) -> None:
    for k in range(6):
        _send(bound, "tab", f"f{k}")
    with pytest.raises(HTTPException) as refused:
        _send(bound, "tab", "f6")
    assert refused.value.status_code == 413
    assert "больше 6 МБ за сеанс" in str(refused.value.detail)


def test_all_tabs_together_keep_the_servers_share(bound: uploads._Bound) -> None:
    for k in range(3):
        _send(bound, "first", f"a{k}")
    for k in range(3):
        _send(bound, "second", f"b{k}")
    held_bytes = sum(
        len(r.data)
        for s in ("first", "second")
        for r in bound._manager.get_files(s, [f"a{k}" for k in range(3)] + [f"b{k}" for k in range(3)])
    )
    assert held_bytes <= 5 * MB
    assert _kept(bound, "second", "b0", "b1", "b2") == ["b0", "b1", "b2"]
    assert _kept(bound, "first", "a0") == []  # the oldest of all went first


def test_a_file_streamlit_removed_no_longer_counts(bound: uploads._Bound) -> None:
    for k in range(3):
        _send(bound, "tab", f"f{k}")
    bound._manager.remove_file("tab", "f0")  # the page replaced it
    _send(bound, "tab", "f3")
    assert _kept(bound, "tab", "f1", "f2", "f3") == ["f1", "f2", "f3"]


def test_many_tiny_files_are_bounded_by_count(bound: uploads._Bound) -> None:
    for k in range(uploads.MAX_TAB_FILES + 5):
        _send(bound, "tab", f"t{k}", mb=0.001)
    ids = [f"t{k}" for k in range(uploads.MAX_TAB_FILES + 5)]
    assert len(_kept(bound, "tab", *ids)) == uploads.MAX_TAB_FILES


# -- the sweeper ------------------------------------------------------------------------------


def test_a_session_gone_for_good_releases_its_uploads_and_bytes(bound: uploads._Bound) -> None:
    room = uploads._Uploads()
    room.bound = bound
    gone = room.held.ticket("правила", 10, "«a.txt»", owner="gone")
    here = room.held.ticket("правила", 10, "«b.txt»", owner="here")
    _send(bound, "gone", "g0")
    active = {"here"}.__contains__
    assert room.sweep(now=0.0, active=active, grace=150.0) == []  # first seen gone
    assert room.sweep(now=100.0, active=active, grace=150.0) == []  # may still reconnect
    assert room.sweep(now=151.0, active=active, grace=150.0) == ["gone"]
    assert gone is not None and room.held.redeem(gone) is None
    assert _kept(bound, "gone", "g0") == []
    assert here is not None and room.held.redeem(here) == "правила"


def test_a_session_that_reconnects_keeps_what_it_holds() -> None:
    room = uploads._Uploads()
    ticket = room.held.ticket("правила", 10, "«a.txt»", owner="phone")
    room.sweep(now=0.0, active=lambda s: False, grace=150.0)  # the phone's screen went dark
    room.sweep(now=60.0, active=lambda s: True, grace=150.0)  # and it came back
    assert room.sweep(now=200.0, active=lambda s: False, grace=150.0) == []  # gone again just now
    assert ticket is not None and room.held.redeem(ticket) == "правила"


def test_a_session_goes_as_soon_as_streamlit_stops_keeping_it_for_a_reconnect() -> None:
    room = uploads._Uploads()
    ticket = room.held.ticket("правила", 10, "«a.txt»", owner="phone")
    kept = {"phone"}
    gone = lambda s: False  # noqa: E731 - the window closed
    assert room.sweep(now=0.0, active=gone, grace=150.0, kept=kept.__contains__) == []
    assert room.sweep(now=1000.0, active=gone, grace=150.0, kept=kept.__contains__) == []  # still kept
    kept.clear()  # Streamlit's reconnect time ran out
    assert room.sweep(now=1001.0, active=gone, grace=150.0, kept=kept.__contains__) == ["phone"]
    assert ticket is not None and room.held.redeem(ticket) is None


def test_a_session_reconnecting_while_swept_keeps_what_it_holds() -> None:
    """Streamlit makes a reconnecting session active before it takes it out of its store: a
    session found neither kept nor active at first, but active by the second look, stays."""
    room = uploads._Uploads()
    ticket = room.held.ticket("правила", 10, "«a.txt»", owner="phone")
    looks = iter([False, True])
    assert room.sweep(now=0.0, active=lambda s: next(looks), kept=lambda s: False) == []
    assert ticket is not None and room.held.redeem(ticket) == "правила"


def test_streamlit_s_session_store_tells_a_closed_window_from_an_expired_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """What the sweeper asks is Streamlit's own store: a closed window's session stays in it for
    the reconnect time, and is not kept once that has run out."""
    from streamlit.runtime import Runtime
    from streamlit.runtime.memory_session_storage import MemorySessionStorage
    from streamlit.runtime.session_manager import SessionInfo
    from streamlit.runtime.websocket_session_manager import WebsocketSessionManager

    storage = MemorySessionStorage(ttl_seconds=0.2)
    manager = WebsocketSessionManager(storage, MemoryUploadedFileManager("/upload"), None, lambda: None)  # type: ignore[arg-type]
    storage.save(SessionInfo(client=None, session=type("Closed", (), {"id": "closed"})()))  # type: ignore[arg-type]
    runtime = type("Served", (), {"_session_mgr": manager})()
    monkeypatch.setattr(Runtime, "instance", classmethod(lambda cls: runtime))
    kept = uploads._kept_for_reconnect()
    assert kept is not None
    assert kept("closed") and not kept("never-seen")
    time.sleep(0.3)
    assert not kept("closed")


def test_what_killed_saves_left_in_the_stores_goes_at_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(versions.ENV_VAR, str(tmp_path / "rules"))
    monkeypatch.setenv(card_store.ENV_VAR, str(tmp_path / "cards"))
    leftovers = [tmp_path / "rules" / ".upload-killed", tmp_path / "cards" / ".import-killed"]
    for folder in leftovers:
        (folder / "files").mkdir(parents=True)
        (folder / "files" / "00-base.json").write_bytes(b"x" * 1000)
        os.utime(folder, (time.time() - 3600,) * 2)
    uploads._Uploads()  # what the app makes once, at the first run of the process
    assert not any(folder.exists() for folder in leftovers)

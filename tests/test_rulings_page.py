"""The «Журнал решений» page (AppTest): players read, judges sign in and write; two judges amending
at once see a conflict, not a loss; a second press records nothing; a bad file loses nothing."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import parse_qs

import pytest
from streamlit.testing.v1 import AppTest

from app_pages import registry
from rulings import model, sqlite_file, store
from tests.apptest import plain
from tests.rulings_samples import PASSWORD, cheap_hasher

ROOT = Path(__file__).resolve().parent.parent
APP = str(ROOT / "app.py")
PAGE = registry.JOURNAL.script
HOSTILE_TITLE = "<b>Вайл</b> '); DROP TABLE rulings;-- [x](javascript:alert(1)) ../../etc/passwd"
SUBMIT_NEW = "journal_new_submit"


@pytest.fixture()
def journal_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "data" / "rulings.sqlite3"
    monkeypatch.setenv(store.ENV_VAR, str(path))
    monkeypatch.syspath_prepend(str(ROOT))
    book = store.Journal(path, hasher=cheap_hasher())
    book.add_account("Сидорова", "judge", PASSWORD)
    book.add_account("Орлов", "head", PASSWORD)
    return path


def _page(**params: str) -> AppTest:
    """The journal page inside the app (its clause links need the app's navigation)."""
    at = AppTest.from_file(APP, default_timeout=30).run()
    at.query_params.clear()
    at.query_params.update(params)
    return at.switch_page(PAGE).run()


def _sign_in(at: AppTest, name: str = "Сидорова", password: str = PASSWORD) -> AppTest:
    at.text_input(key="journal_sidebar_signin_name").input(name)
    at.text_input(key="journal_sidebar_signin_password").input(password)
    return at.button(key="journal_sidebar_signin_submit").click().run()


def _record(at: AppTest, title: str, decision: str, clauses: str, verdict: str = "illegal") -> AppTest:
    at.text_input(key="journal_new_title").input(title)
    at.text_area(key="journal_new_decision").input(decision)
    at.text_input(key="journal_new_clauses").input(clauses)
    at.radio(key="journal_new_judge_verdict").set_value(verdict)
    at.text_input(key="journal_new_table_no").input("12")
    return at.button(key=SUBMIT_NEW).click().run()


def _texts(at: AppTest) -> list[str]:
    return [t.value for t in at.text]


def test_a_player_reads_but_cannot_write_and_sees_no_server_path(journal_file: Path) -> None:
    book = store.Journal(journal_file)
    judge = book.sign_in("Сидорова", PASSWORD)
    rid = book.record(model.RulingInput(title="Спор о Сугеде", decision="Нет."), judge)
    player = _page(r=str(rid))
    assert not player.exception
    assert "Спор о Сугеде" in _texts(player)  # reading needs no sign-in
    everything = " ".join(
        [*(m.value for m in player.markdown), *(c.value for c in player.caption), *_texts(player)]
    )
    assert str(journal_file) not in plain(everything) and "sqlite3" not in everything
    # No write form: the record tab and the amend section ask for a sign-in instead.
    assert not [b for b in player.button if b.key in (SUBMIT_NEW, f"journal_amend_{rid}_submit")]
    assert any("только судьи" in i.value for i in player.info)
    assert player.text_input(key="journal_new_auth_signin_name") is not None
    # A wrong password is refused with a Russian message, next to the form.
    player = _sign_in(player, password="неверный пароль")
    assert [plain(e.value) for e in player.error] == ["Неверное имя или пароль."]
    assert store.Journal(journal_file).count() == 1


def test_a_judge_records_a_ruling_and_a_colleague_finds_it(journal_file: Path) -> None:
    at = _sign_in(_page())
    assert not at.exception and not at.error
    assert any("Вы вошли: Сидорова (судья)." in plain(c.value) for c in at.caption)
    at = _record(at, HOSTILE_TITLE, "Нет: атаковать можно только Карлика Унда.", "п. 211.3.1, 535.8")
    assert not at.exception and not at.error
    assert at.success[0].value == "Решение записано в журнал под № 1."
    # The second press of the same draft records nothing.
    at = at.button(key=SUBMIT_NEW).click().run()
    assert not at.success and "уже записано под № 1" in at.info[-1].value
    assert store.Journal(journal_file).count() == 1
    at = at.button(key="journal_new_new").click().run()  # «Новое решение» empties the form
    assert at.text_input(key="journal_new_title").value == ""
    at = _record(at, "Можно ли посадить Сугеда на летающее существо?", "Нет.", "211.8.1", verdict="illegal")
    assert at.success[0].value == "Решение записано в журнал под № 2."
    other = _page()  # another tab: a player
    other.text_input(key="journal_query").input("карлика унда").run()
    assert any(c.value == "Найдено: 1 из 2." for c in other.caption)
    assert other.selectbox(key="journal_pick").value == 1
    assert HOSTILE_TITLE in _texts(other)  # shown as plain text, verbatim
    assert all("<b>" not in m.value for m in other.markdown)
    assert any("Ответ судьи: запрещено" in plain(m.value) for m in other.markdown)
    links = [(x.proto.page, parse_qs(x.proto.query_string).get("p")) for x in other.page_link]
    assert ("", ["211.3.1"]) in links and ("", ["535.8"]) in links, links
    stored = store.Journal(journal_file).get(1)
    assert stored is not None and stored.current.title == HOSTILE_TITLE and stored.author == "Сидорова"
    assert stored.current.clauses == ("211.3.1", "535.8") and stored.current.judge_verdict == "illegal"


def test_an_unknown_clause_is_refused_with_the_nearest_ids_next_to_the_button(journal_file: Path) -> None:
    at = _record(_sign_in(_page()), "Спор", "Решение", "211.3, 999.9")
    errors = [plain(e.value) for e in at.error]
    assert len(errors) == 1
    assert errors[0].startswith("Пункта 999.9 нет в загруженных правилах. Ближайшие номера:")
    at = _record(at, "Спор", "Решение", "211.3, DROP")
    assert [plain(e.value) for e in at.error] == [
        "«DROP» не похоже на номер пункта правил (ожидается вида 211.3.1) или допущения (A1)."
    ]
    assert at.text_input(key="journal_new_title").value == "Спор"  # nothing typed is lost
    assert store.Journal(journal_file).count() == 0


def test_amend_shows_the_new_revision_at_once_with_the_changed_fields(journal_file: Path) -> None:
    book = store.Journal(journal_file)
    judge = book.sign_in("Сидорова", PASSWORD)
    rid = book.record(model.RulingInput(title="Спор о Сугеде", decision="Первое решение"), judge)
    at = _sign_in(_page())
    prefix = f"journal_amend_{rid}"
    at.text_area(key=f"{prefix}_decision").input("Второе решение")
    at = at.button(key=f"{prefix}_submit").click().run()
    assert [plain(e.value) for e in at.error] == [
        "Укажите причину правки: прежняя редакция сохранится, а причина останется в истории."
    ]
    at.text_input(key=f"{prefix}_note").input("нашёл пункт 211.8.1")
    at = at.button(key=f"{prefix}_submit").click().run()
    assert at.success[0].value == f"Правка сохранена: решение № {rid}, редакция 2."
    # The card above already shows revision 2, its author, and the history names the change.
    assert any("редакция 2 от" in plain(c.value) for c in at.caption)
    texts = _texts(at)
    assert "Второе решение" in texts and "было: Первое решение\nстало: Второе решение" in texts
    assert "Причина правки: нашёл пункт 211.8.1" in texts
    assert at.text_area(key=f"{prefix}_decision").value == "Второе решение"
    ruling = store.Journal(journal_file).get(rid)
    assert ruling is not None and [r.author for r in ruling.revisions] == ["Сидорова", "Сидорова"]


def test_two_judges_amending_at_once_see_a_conflict_and_nothing_is_lost(journal_file: Path) -> None:
    book = store.Journal(journal_file)
    rid = book.record(model.RulingInput(title="Спор", decision="Первое"), book.sign_in("Сидорова", PASSWORD))
    prefix = f"journal_amend_{rid}"
    a, b = _sign_in(_page()), _sign_in(_page(), name="Орлов")
    a.text_area(key=f"{prefix}_decision").input("Правка Сидоровой")
    a.text_input(key=f"{prefix}_note").input("A")
    b.text_area(key=f"{prefix}_decision").input("Правка Орлова")
    b.text_input(key=f"{prefix}_note").input("B")
    a = a.button(key=f"{prefix}_submit").click().run()
    assert a.success[0].value == f"Правка сохранена: решение № {rid}, редакция 2."
    b = b.button(key=f"{prefix}_submit").click().run()
    assert not b.exception and not b.success
    assert any("коллега Сидорова сохранил редакцию 2" in w.value for w in b.warning)
    markdown = [plain(m.value) for m in b.markdown]
    assert "**Ваша правка** (не сохранена)" in markdown
    assert any(m.startswith("**Правка коллеги** — редакция 2") and "Сидорова" in m for m in markdown)
    assert not any(t.startswith("было: Сидорова") for t in _texts(b))  # «Судья» is not compared
    texts = _texts(b)
    assert "было: Первое\nстало: Правка Орлова" in texts and "было: Первое\nстало: Правка Сидоровой" in texts
    assert b.text_area(key=f"{prefix}_decision").value == "Правка Орлова"  # the typed text is kept
    assert store.Journal(journal_file).get(rid).rev == 2  # type: ignore[union-attr]
    b = b.button(key=f"{prefix}_overwrite").click().run()
    assert b.success[0].value == f"Правка сохранена: решение № {rid}, редакция 3."
    ruling = store.Journal(journal_file).get(rid)
    assert ruling is not None
    assert [r.data.decision for r in ruling.revisions] == ["Первое", "Правка Сидоровой", "Правка Орлова"]
    assert [r.author for r in ruling.revisions] == ["Сидорова", "Сидорова", "Орлов"]
    # Overwriting keeps the ruling's judge and records whose revision it replaced.
    assert ruling.current.judge == "Сидорова" and ruling.revisions[-1].replaced == "ред. 2, Сидорова"
    b = b.run()
    assert any("поверх правки коллеги (ред. 2, Сидорова): Орлов" in plain(c.value) for c in b.caption)


def test_head_judge_locks_and_the_amend_form_goes(journal_file: Path) -> None:
    book = store.Journal(journal_file)
    rid = book.record(model.RulingInput(title="Спор", decision="Да."), book.sign_in("Сидорова", PASSWORD))
    head = _sign_in(_page(), name="Орлов")
    assert any(str(journal_file) in plain(c.value) for c in head.caption)  # the head judge sees the file
    head = head.button(key=f"journal_lock_{rid}").click().run()
    assert any("Закреплено главным судьёй: Орлов" in i.value for i in head.info)
    judge = _sign_in(_page())
    assert f"journal_lock_{rid}" not in [b.key for b in judge.button]
    assert f"journal_amend_{rid}_submit" not in [b.key for b in judge.button]


def test_corrupt_file_is_reported_and_the_form_is_kept(journal_file: Path) -> None:
    at = _sign_in(_page())
    garbage = b"not a database " * 500
    sqlite_file.let_go(journal_file)  # no fold of the sign-in's WAL pending while the file is replaced
    journal_file.write_bytes(garbage)
    for name in ("-wal", "-shm"):
        journal_file.with_name(journal_file.name + name).unlink(missing_ok=True)
    at = at.run()
    assert not at.exception
    assert any("повреждён" in plain(e.value) for e in at.error)
    assert all(str(journal_file) not in plain(e.value) for e in at.error)
    at = _record(at, "Спор", "Решение", "211.3")
    assert not at.exception
    assert any("повреждён" in plain(e.value) for e in at.error)
    assert at.text_input(key="journal_new_title").value == "Спор"  # the judge's text is still there
    assert any(
        getattr(b, "label", None) == "Скачать несохранённое решение (файл .md)"
        for b in at.get("download_button")
    )
    assert journal_file.read_bytes() == garbage


def test_link_opens_a_ruling_once_and_the_list_is_paged(journal_file: Path) -> None:
    book = store.Journal(journal_file, max_writes_per_minute=100)
    judge = book.sign_in("Сидорова", PASSWORD)
    for i in range(25):
        book.record(model.RulingInput(title=f"Спор {i + 1}", decision="Да."), judge)
    at = _page(r="1")
    assert at.selectbox(key="journal_pick").value == 1  # the oldest, not on the first page, still opens
    # One page of 20 cards, and the linked ruling.
    assert len(at.selectbox(key="journal_pick").options) == 21
    assert len([m for m in at.markdown if m.value.startswith("**№ ")]) == 21
    at.selectbox(key="journal_pick").set_value(25).run()
    assert at.selectbox(key="journal_pick").value == 25  # the link does not pin the choice
    at.number_input(key="journal_page_no").set_value(2).run()
    shown = [m.value for m in at.markdown if m.value.startswith("**№ ")]
    assert sorted(int(v.split()[1].rstrip(".*")) for v in shown) == [1, 2, 3, 4, 5]
    assert not [b for b in at.get("download_button") if getattr(b, "label", "").startswith("Скачать журнал")]
    at = at.button(key="journal_export_build").click().run()
    labels = [str(getattr(b, "label", "")) for b in at.get("download_button")]
    assert [x for x in labels if x.startswith("Скачать журнал")] == ["Скачать журнал: решений 25"]


def test_a_shared_journal_shows_halls_filters_them_and_both_texts_of_a_conflict(
    journal_file: Path, tmp_path: Path
) -> None:
    from rulings import sync

    kazan = store.Journal(journal_file, hall="Казань")
    by = kazan.sign_in("Сидорова", PASSWORD)
    kazan.record(model.RulingInput(title="Казанский спор", decision="Да.", event="Кубок Казани"), by)
    other = store.Journal(tmp_path / "moscow.sqlite3", hasher=cheap_hasher(), hall="Москва")
    other.add_account("Орлов", "head", PASSWORD)
    orlov = other.sign_in("Орлов", PASSWORD)
    moscow = other.record(
        model.RulingInput(title="Московский спор", decision="Нет.", event="Кубок Москвы"), orlov
    )
    sync.sync(other, kazan)
    local = kazan.by_uid(other.get(moscow).uid)  # type: ignore[union-attr]
    assert local is not None
    kazan.amend(
        local.id,
        model.RulingInput(title="Московский спор", decision="Казань: да.", event="Кубок Москвы"),
        by,
        base_rev=1,
    )
    other.amend(
        moscow,
        model.RulingInput(title="Московский спор", decision="Москва: нет.", event="Кубок Москвы"),
        orlov,
        base_rev=1,
    )
    sync.sync(other, kazan)
    at = _page()
    assert at.selectbox(key="journal_hall").options == ["— все —", "Казань", "Москва"]
    cards = [plain(c.value) for c in at.caption]
    assert any("Кубок Москвы · Москва" in c and "конфликт версий" in c for c in cards), cards
    at.selectbox(key="journal_hall").set_value("Казань").run()
    assert [plain(m.value) for m in at.markdown if m.value.startswith("**№ ")] == ["**№ 1.** Казанский спор"]
    at.selectbox(key="journal_hall").set_value("— все —").run()
    at.selectbox(key="journal_pick").set_value(local.id).run()
    assert any("исправили в двух журналах" in w.value for w in at.warning)
    assert {"Казань: да.", "Москва: нет."} <= set(_texts(at))


def test_an_unsaved_amendment_comes_back_in_a_new_session_of_the_same_judge(journal_file: Path) -> None:
    """A reload is a new session: the amendment the judge was typing comes back from the journal with
    the revision it started from (a colleague's revision saved meanwhile is still a conflict)."""
    book = store.Journal(journal_file, hasher=cheap_hasher())
    judge = book.sign_in("Сидорова", PASSWORD)
    rid = book.record(model.RulingInput(title="Спор о хозяине", decision="Хозяин прежний."), judge)
    at = _sign_in(_page(r=str(rid)))
    at.text_area(key=f"journal_amend_{rid}_decision").input("Хозяин меняется (211.4).").run()
    at.text_input(key=f"journal_amend_{rid}_note").input("уточнение").run()
    who = at.session_state["judge_signin"]
    other = store.Journal(journal_file, hasher=cheap_hasher()).sign_in("Сидорова", PASSWORD)
    theirs = model.RulingInput(title="Спор о хозяине", decision="Коллега: хозяин прежний.")
    book.amend(rid, theirs, other, base_rev=1)
    again = AppTest.from_file(APP, default_timeout=30)
    again.session_state["judge_signin"] = who  # the device's sign-in, as its cookie resumes it
    again.run()
    again.query_params.update({"r": str(rid)})
    again = again.switch_page(PAGE).run()
    assert not again.exception
    assert any("Восстановлен несохранённый черновик" in i.value for i in again.info)
    assert again.text_area(key=f"journal_amend_{rid}_decision").value == "Хозяин меняется (211.4)."
    again = again.button(key=f"journal_amend_{rid}_submit").click().run()
    assert any("коллега" in w.value.lower() for w in again.warning)  # still a conflict, nothing lost
    assert store.Journal(journal_file).get(rid).rev == 2  # type: ignore[union-attr]

"""Rulings that travel: `python -m rulings sync FROM TO` between journals of either engine."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from rulings import cli, sync
from rulings.model import Ruling
from rulings.store import Journal
from tests.pg_server import PgServer
from tests.rulings_samples import PASSWORD, dump, journal_with_judge
from tests.rulings_samples import ruling as _ruling


@pytest.fixture(params=["sqlite→postgres", "postgres→sqlite", "sqlite→sqlite"])
def two(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[str, str]:
    kinds = str(request.param).split("→")
    targets = []
    for i, kind in enumerate(kinds):
        if kind == "sqlite":
            targets.append(str(tmp_path / f"hall-{i}.sqlite3"))
        else:
            server: PgServer = request.getfixturevalue("postgres_server")
            targets.append(server.new_schema())
    return targets[0], targets[1]


def test_sync_copies_history_authors_and_times_and_twice_changes_nothing(two: tuple[str, str]) -> None:
    here, there = two
    a, by_a = journal_with_judge(here, name="Орлов", hall="Казань", max_writes_per_minute=1000)
    b, by_b = journal_with_judge(there, name="Сидорова", hall="Москва", max_writes_per_minute=1000)
    first = a.record(_ruling(title="Паразит на Вайле"), by_a)
    a.amend(
        first, _ruling(title="Паразит на Вайле", decision="Нет (п. 211.4).", note="уточнил"), by_a, base_rev=1
    )
    a.record(_ruling(title="Второй спор"), by_a)
    own = b.record(_ruling(title="Московский спор"), by_b)
    report = sync.sync(a, b)
    assert (report.rulings_new, report.revisions_new, report.conflicts) == (2, 3, [])
    copied = {r.uid: r for r in b.rulings()}
    original = a.get(first)
    assert original is not None
    got = copied[original.uid]
    assert [(v.uid, v.author, v.created_at, v.hall) for v in got.revisions] == [
        (v.uid, v.author, v.created_at, "Казань") for v in original.revisions
    ]
    assert got.current == original.current and got.hall == "Казань" and got.author == "Орлов"
    assert got.id != 0 and b.get(own) is not None and b.count() == 3
    assert [h.ruling.uid for h in b.search("паразит вайл")][:1] == [original.uid]  # indexed on arrival
    before = dump(b)
    again = sync.sync(a, b)
    assert (again.rulings_new, again.revisions_new, again.unchanged) == (0, 0, 2)
    assert dump(b) == before
    assert b.accounts() and [x.name for x in b.accounts()] == ["Сидорова"]  # accounts stay home


def test_both_sides_amended_is_a_conflict_shown_in_both_with_both_texts(two: tuple[str, str]) -> None:
    here, there = two
    a, by_a = journal_with_judge(here, name="Орлов", hall="Казань", max_writes_per_minute=1000)
    b = Journal(there, hall="Москва")
    rid = a.record(_ruling(title="Спор о хозяине"), by_a)
    sync.sync(a, b)
    b.add_account("Сидорова", "judge", PASSWORD)
    by_b = b.sign_in("Сидорова", PASSWORD)
    uid = a.get(rid).uid  # type: ignore[union-attr]
    in_b = b.by_uid(uid)
    assert in_b is not None
    a.amend(rid, _ruling(title="Спор о хозяине", decision="Текст Казани."), by_a, base_rev=1)
    b.amend(in_b.id, _ruling(title="Спор о хозяине", decision="Текст Москвы."), by_b, base_rev=1)
    there_report = sync.sync(a, b)
    back_report = sync.sync(b, a)
    assert there_report.conflicts == [in_b.id] and back_report.conflicts == [rid]
    for book, ruling_id in ((a, rid), (b, in_b.id)):
        got = book.get(ruling_id)
        assert got is not None and got.conflict
        texts = {got.current.decision} | {v.data.decision for v in got.conflict}
        assert texts == {"Текст Казани.", "Текст Москвы."}
    # A judge resolves it with an amendment written on both branches; the next sync carries that.
    resolved = a.get(rid)
    assert resolved is not None
    a.amend(rid, _ruling(title="Спор о хозяине", decision="Итог."), by_a, base_rev=resolved.rev)
    assert a.get(rid).conflict == ()  # type: ignore[union-attr]
    sync.sync(a, b)
    final = b.get(in_b.id)
    assert final is not None and final.conflict == () and final.current.decision == "Итог."
    assert dump(a) == dump(b)


def test_accounts_travel_only_when_asked(two: tuple[str, str]) -> None:
    here, there = two
    a, _ = journal_with_judge(here, name="Орлов", role="head")
    b = Journal(there)
    sync.sync(a, b)
    assert b.accounts() == []
    report = sync.sync(a, b, with_accounts=True)
    assert report.accounts_new == ["Орлов"] and [x.label for x in b.accounts()] == ["Орлов (главный судья)"]
    assert b.sign_in("Орлов", PASSWORD).name == "Орлов"  # the hash travelled, never the password


def test_the_command_line_syncs_both_ways_in_one_command(tmp_path: Path, postgres_server: PgServer) -> None:
    hall = str(tmp_path / "hall.sqlite3")
    league = postgres_server.new_schema()
    a, by_a = journal_with_judge(hall, name="Орлов", hall="Казань")
    b, by_b = journal_with_judge(league, name="Сидорова", hall="Москва")
    a.record(_ruling(title="Казанский спор"), by_a)
    b.record(_ruling(title="Московский спор"), by_b)
    out, err = io.StringIO(), io.StringIO()
    assert cli.main(["sync", hall, league, "--both"], out=out, err=err) == 0, err.getvalue()
    text = out.getvalue()
    assert "новых решений 1" in text and "Москва" not in err.getvalue()
    assert sorted(r.current.title for r in a.rulings()) == ["Казанский спор", "Московский спор"]
    assert dump(a) == dump(b)
    assert all(isinstance(r, Ruling) for r in b.rulings())

"""Rulings that travel: `python -m rulings sync FROM TO` between journals of either engine."""

from __future__ import annotations

import dataclasses
import io
from pathlib import Path

import pytest

from rulings import cli, model, records, sync
from rulings.model import Revision, Ruling
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


def test_a_revision_no_judge_could_have_written_does_not_travel(two: tuple[str, str]) -> None:
    """A revision with a correct checksum but a text the journal refuses from a judge (here a
    decision over the limit, as another program could have written it into the hall's file) is not
    copied and is named in the report; the ruling's other revisions and other rulings travel."""
    here, there = two
    a, by = journal_with_judge(here, name="Орлов", max_writes_per_minute=1000)
    b, _ = journal_with_judge(there, name="Сидорова", max_writes_per_minute=1000)
    fine = a.record(_ruling(title="Обычный спор"), by)
    odd = a.record(_ruling(title="Спор со странной правкой"), by)
    first = a.get(odd)
    assert first is not None
    too_long = "Д" * (model.FIELD_LIMITS["decision"] + 1)
    written = Revision(
        rev=2,
        created_at=first.revisions[-1].created_at,
        data=dataclasses.replace(first.current, decision=too_long),
        author="Орлов",
        uid=records.new_uid(),
        base_uids=(first.revisions[-1].uid,),
    )
    a._run(True, lambda conn, _v: records.insert_revision(conn, odd, first.uid, 2, written, ""), serial=True)
    assert [r.damaged for r in (a.get(odd) or first).revisions] == [False, False]  # not damage: a valid row
    report = sync.sync(a, b)
    assert len(report.refused) == 1 and report.refused[0].startswith(f"{first.uid} ред. 2 (")
    assert "длиннее" in report.refused[0]
    copied = {r.uid: r for r in b.rulings()}
    assert [v.rev for v in copied[first.uid].revisions] == [1]
    assert copied[first.uid].current.decision == first.current.decision
    kept = a.get(fine)
    assert kept is not None and kept.uid in copied
    lines = report.lines("зал", "лига")
    assert any("журнал не принял бы от судьи" in line and first.uid in line for line in lines)

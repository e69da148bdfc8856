"""The rulings journal: nothing a judge records is ever lost, altered or turned into markup or SQL."""

from __future__ import annotations

import json
import multiprocessing
import re
import sqlite3
from pathlib import Path

import pytest

from engine import journal
from engine.journal import Journal, JournalError, JournalLockedError, RulingInput, RulingInputError

HOSTILE = [
    "'); DROP TABLE rulings; --",
    "Robert'); DELETE FROM revisions WHERE 1=1; --\"",
    "<script>alert('x')</script><img src=x onerror=alert(1)>",
    "[ссылка](javascript:alert(1)) ![картинка](http://example.com/a.png) <http://example.com>",
    "# Заголовок\n- пункт\n1. список\n> цитата\n    код с отступом\n---",
    "**жирный** _курсив_ `код` ~~зачёркнутый~~ | таблица | ::: $формула$",
    "../../etc/passwd ..\\..\\windows\\system32 /abs/path C:\\x\\y",
    "```\nзакрытие блока кода\n````",
    "Кавычки «ёлочки» ‘’ “” и апостроф Бул'Багур; символ NUL-подобный \u2028 и эмодзи 🃏",
    "&amp; &lt;не сущность&gt; \\ обратная косая \\\\ двойная",
    "www.example.com http://example.com:8080/x?y=1",
]


def _ruling(title: str = "Может ли Вайл атаковать не Карлика Унда?", **kw: object) -> RulingInput:
    fields: dict[str, object] = {
        "title": title,
        "decision": "Нет: Вайл может атаковать только Карлика Унда (п. 211.3.1).",
        "clauses": ("211.3.1",),
        "event": "Кубок города",
        "table_no": "7",
        "round": "3",
        "players": "Иванов — Петров",
        "judge": "Сидорова",
        "rules_version": "РП 4.1-2",
        "verdict": "illegal",
        "outcome": "атака отменена",
    }
    fields.update(kw)
    return RulingInput(**fields)  # type: ignore[arg-type]


def _writer(path: str, worker: int, count: int) -> None:
    j = Journal(path, busy_timeout_ms=60_000)
    for i in range(count):
        j.record(_ruling(title=f"Спор {worker}-{i}", decision=f"Решение {worker}-{i}", table_no=str(worker)))


def test_parallel_writers_lose_nothing(tmp_path: Path) -> None:
    path = tmp_path / "data" / "rulings.sqlite3"
    workers, count = 6, 20
    ctx = multiprocessing.get_context("spawn")
    procs = [ctx.Process(target=_writer, args=(str(path), w, count)) for w in range(workers)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(timeout=240)
        assert p.exitcode == 0, f"процесс-писатель упал: код {p.exitcode}"
    rulings = Journal(path).rulings()
    titles = sorted(r.current.title for r in rulings)
    assert titles == sorted(f"Спор {w}-{i}" for w in range(workers) for i in range(count))
    assert len({r.id for r in rulings}) == workers * count
    for r in rulings:
        worker, i = r.current.title.removeprefix("Спор ").split("-")
        assert r.current.decision == f"Решение {worker}-{i}"
        assert r.current.table_no == worker
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def test_record_open_and_history(tmp_path: Path) -> None:
    j = Journal(tmp_path / "j.sqlite3")
    rid = j.record(_ruling())
    rev = j.amend(rid, _ruling(decision="Нет, и атака на Орка запрещена.", note="добавил про Орка"))
    assert rev == 2
    rev = j.amend(rid, _ruling(decision="Окончательно: нет.", clauses=("211.3.1", "535.8"), note="ещё пункт"))
    ruling = j.get(rid)
    assert ruling is not None
    assert [r.rev for r in ruling.revisions] == [1, 2, 3]
    assert ruling.revisions[0].data.decision.startswith("Нет: Вайл может атаковать только")
    assert ruling.current.decision == "Окончательно: нет."
    assert ruling.current.clauses == ("211.3.1", "535.8")
    assert ruling.created_at == ruling.revisions[0].created_at
    assert ruling.updated_at == ruling.revisions[-1].created_at > ruling.created_at
    assert j.count() == 1
    assert j.get(rid + 1) is None
    with pytest.raises(KeyError):
        j.amend(rid + 1, _ruling())


def test_revisions_cannot_be_rewritten_even_by_hand(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    rid = Journal(path).record(_ruling())
    with sqlite3.connect(path) as conn:
        with pytest.raises(sqlite3.DatabaseError, match="append-only"):
            conn.execute("UPDATE revisions SET decision = 'подделка' WHERE ruling_id = ?", (rid,))
        with pytest.raises(sqlite3.DatabaseError, match="append-only"):
            conn.execute("DELETE FROM revisions")
        with pytest.raises(sqlite3.DatabaseError, match="never deleted"):
            conn.execute("DELETE FROM rulings")
    got = Journal(path).get(rid)
    assert got is not None and got.current.decision.startswith("Нет: Вайл")


@pytest.mark.parametrize("text", HOSTILE)
def test_hostile_strings_stored_verbatim(tmp_path: Path, text: str) -> None:
    j = Journal(tmp_path / "j.sqlite3")
    rid = j.record(
        _ruling(
            title=text, decision=text, players=text, judge=text, event=text, note=text, scenario_yaml=text
        )
    )
    got = j.get(rid)
    assert got is not None
    for name in ("title", "decision", "players", "judge", "event", "note"):
        assert getattr(got.current, name) == text.strip() or getattr(got.current, name) == text
    assert got.current.scenario_yaml == text
    assert got.current.decision == text  # the decision is never trimmed
    # The tables are intact and nothing else was touched.
    assert j.count() == 1
    assert [h.ruling.id for h in j.search(text)] in ([rid], [])


def _unescape(markdown_text: str) -> str:
    """What a CommonMark renderer shows for md_text output: escapes dropped, hard breaks as newlines."""
    text = markdown_text.replace("  \n", "\n").replace("\u00a0", " ")
    return re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", text)


@pytest.mark.parametrize("text", HOSTILE)
def test_markdown_text_renders_verbatim_and_forms_no_markup(text: str) -> None:
    out = journal.md_text(text)
    assert _unescape(out) == "\n".join(line.rstrip() for line in text.replace("\r\n", "\n").split("\n"))
    # No unescaped mark that opens HTML, a link, an image, emphasis or code.
    assert not re.search(r"(?<!\\)[<>\[\]`*_&|]", out.replace("\\\\", ""))
    for line in out.split("  \n"):
        assert not re.match(r"^(#|[-+>]|\d+[.)]\s| {4}|\t)", line), line


def test_code_fence_cannot_be_closed_from_inside() -> None:
    text = "a: 1\n```\n<script>x</script>\n````"
    block = journal.md_code(text, "yaml")
    fence = block.split("\n", 1)[0].removesuffix("yaml")
    assert len(fence) == 5 and block.endswith("\n" + fence)
    inner = block.split("\n")[1:-1]
    assert all(not line.startswith(fence) for line in inner)


def test_export_one_and_all_reads_well(tmp_path: Path) -> None:
    j = Journal(tmp_path / "j.sqlite3")
    trace = [
        {
            "clause": "211.3.1",
            "kind": "forbidden",
            "reason": "Вайл может атаковать только Карлика Унда",
            "changes": [],
            "children": [
                {
                    "clause": "A1",
                    "kind": "assumption",
                    "reason": "<b>рядом</b>",
                    "changes": [],
                    "children": [],
                }
            ],
        },
    ]
    rid = j.record(_ruling(trace_json=json.dumps(trace, ensure_ascii=False), scenario_yaml="title: x\n"))
    j.amend(rid, _ruling(decision="<b>Нет</b>", note="правка"))
    j.record(_ruling(title=HOSTILE[0]))
    one = journal.ruling_markdown(j.get(rid))  # type: ignore[arg-type]
    assert one.startswith(f"## Решение № {rid}: Может ли Вайл атаковать не Карлика Унда?")
    assert "- **Пункты правил:** п. 211.3.1 (РП 4.1-2)" in one
    assert "- **Стол:** 7" in one and "- **Тур:** 3" in one and "- **Судья:** Сидорова" in one
    assert "\\<b\\>Нет\\</b\\>" in one and "<b>" not in one
    assert "### История правок" in one and "Редакция 1" in one and "Редакция 2" in one
    everything = journal.journal_markdown(j.rulings())
    assert everything.startswith("# Журнал решений")
    assert "Решений: 2." in everything
    assert everything.count("## Решение №") == 2
    assert "\n---\n" in everything
    # The first ruling (with its trace) before the second.
    assert everything.index(f"Решение № {rid}:") < everything.index(f"Решение № {rid + 1}:")
    first = j.get(rid)
    assert first is not None and first.revisions[0].data.trace_json
    exported_first = journal.ruling_markdown(
        journal.Ruling(
            first.id, first.created_at, first.updated_at, first.revisions[0].data, first.revisions[:1]
        )
    )
    assert "- **ЗАПРЕЩЕНО, п. 211.3.1:** Вайл может атаковать только Карлика Унда" in exported_first
    assert "  - **допущение, A1:** \\<b\\>рядом\\</b\\>" in exported_first
    assert "```yaml\ntitle: x\n```" in exported_first


def test_corrupt_file_gives_russian_message_and_is_never_overwritten(tmp_path: Path) -> None:
    path = tmp_path / "rulings.sqlite3"
    garbage = b"this is not sqlite, it holds a judge's only copy " * 200
    path.write_bytes(garbage)
    j = Journal(path)
    for call in (j.rulings, j.count, lambda: j.record(_ruling()), lambda: j.search("Вайл")):
        with pytest.raises(JournalError) as err:
            call()
        message = str(err.value)
        assert "повреждён" in message and str(path) in message and "не перезаписывает" in message
    assert path.read_bytes() == garbage
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rulings.sqlite3"]


def test_damaged_pages_are_reported_not_replaced(tmp_path: Path) -> None:
    path = tmp_path / "rulings.sqlite3"
    j = Journal(path)
    for i in range(30):
        j.record(_ruling(title=f"Спор {i}", decision="x" * 2000))
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        page = int(conn.execute("PRAGMA page_size").fetchone()[0])
        root = int(conn.execute("SELECT rootpage FROM sqlite_master WHERE name = 'revisions'").fetchone()[0])
    raw = bytearray(path.read_bytes())
    start = page * (root - 1)
    raw[start : start + 400] = b"\xff" * 400  # smash the revisions table's root page
    path.write_bytes(bytes(raw))
    with pytest.raises(JournalError) as err:
        Journal(path).rulings()
    assert str(path) in str(err.value)
    assert path.read_bytes() == bytes(raw)


def test_foreign_sqlite_file_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "other.sqlite3"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE accounts (name TEXT)")
        conn.execute("INSERT INTO accounts VALUES ('x')")
    before = path.read_bytes()
    with pytest.raises(JournalError, match="не журнал решений"):
        Journal(path).record(_ruling())
    assert path.read_bytes() == before


def test_locked_file_gives_clear_message_and_loses_nothing(tmp_path: Path) -> None:
    path = tmp_path / "rulings.sqlite3"
    first = Journal(path).record(_ruling(title="Первое решение"))
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(JournalLockedError) as err:
            Journal(path, busy_timeout_ms=200).record(_ruling(title="Второе решение"))
        message = str(err.value)
        assert "занят" in message and str(path) in message and "Повторите" in message
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    j = Journal(path)
    second = j.record(_ruling(title="Второе решение"))
    assert [r.current.title for r in sorted(j.rulings(), key=lambda r: r.id)] == [
        "Первое решение",
        "Второе решение",
    ]
    assert second == first + 1


def test_absent_file_is_an_empty_journal_and_is_not_created_by_reading(tmp_path: Path) -> None:
    path = tmp_path / "data" / "rulings.sqlite3"
    j = Journal(path)
    assert j.rulings() == [] and j.get(1) is None and j.count() == 0 and j.search("Вайл") == []
    assert not path.exists()
    j.record(_ruling())
    assert path.exists()


def test_path_from_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(journal.ENV_VAR, raising=False)
    assert journal.default_path() == journal.PROJECT_ROOT / "data" / "rulings.sqlite3"
    monkeypatch.setenv(journal.ENV_VAR, str(tmp_path / "elsewhere.sqlite3"))
    assert Journal().path == tmp_path / "elsewhere.sqlite3"


@pytest.mark.parametrize(
    ("kw", "message"),
    [
        ({"title": "  "}, "Вопрос"),
        ({"decision": ""}, "Решение судьи"),
        ({"clauses": ("211.3.1", "DROP TABLE")}, "DROP TABLE"),
        ({"trace_json": "{не json"}, "Трассировка"),
        ({"note": "x" * (journal.MAX_FIELD_CHARS + 1)}, "Причина правки"),
    ],
)
def test_bad_input_is_refused_with_the_field_named(
    tmp_path: Path, kw: dict[str, object], message: str
) -> None:
    j = Journal(tmp_path / "j.sqlite3")
    with pytest.raises(RulingInputError, match=message):
        j.record(_ruling(**kw))  # type: ignore[arg-type]
    assert j.count() == 0


def test_search_finds_word_forms_and_clause_numbers(tmp_path: Path) -> None:
    j = Journal(tmp_path / "j.sqlite3")
    vail = j.record(_ruling())
    other = j.record(
        _ruling(title="Можно ли посадить Сугеда на летающее существо?", decision="Нет.", clauses=("211.8.1",))
    )
    assert [h.ruling.id for h in j.search("Карлику Унду атака")][:1] == [vail]
    assert [h.ruling.id for h in j.search("сугед летающего")] == [other]
    assert [h.ruling.id for h in j.search("211.8")] == [other]
    assert [h.ruling.id for h in j.search("211.3.1")] == [vail]
    assert j.search("   ") == []
    hit = j.search("Вайл атаковать")[0]
    assert hit.ruling.id == vail and hit.score == 1.0 and hit.matched == ("вайл", "атаковать")



def test_search_meets_word_forms_the_stemmer_alone_splits(tmp_path: Path) -> None:
    # Snowball stems «паразит» to «параз» but «паразитом» to «паразит», «инкарнация» and
    # «инкарнировал» apart: the rules index's word-family table joins them here too.
    j = Journal(tmp_path / "j.sqlite3")
    para = j.record(_ruling(title="Остаётся ли Унд паразитом после смены контроля?", clauses=("211.3.1",)))
    inc = j.record(_ruling(title="Когда карта инкарнировала во второй раз?", clauses=("535.7.3",)))
    assert [h.ruling.id for h in j.search("паразит")] == [para]
    assert [h.ruling.id for h in j.search("инкарнация")] == [inc]

def test_journal_and_desk_modules_hold_no_mutable_state() -> None:
    """Many judges share one process: module globals must be constants, never per-user state."""
    import types

    from app_pages import desk, desk_answers, desk_model
    from app_pages import journal as journal_page

    for module in (journal, desk_model, desk, desk_answers, journal_page):
        for name, value in vars(module).items():
            if name.startswith("__"):
                continue
            assert not isinstance(value, list | set | dict | bytearray | types.SimpleNamespace), (
                f"{module.__name__}.{name}"
            )


def test_empty_file_reads_as_empty_journal_and_becomes_one(tmp_path: Path) -> None:
    path = tmp_path / "rulings.sqlite3"
    path.write_bytes(b"")
    j = Journal(path)
    assert j.rulings() == [] and j.count() == 0 and j.get(1) is None
    rid = j.record(_ruling())
    assert [r.id for r in j.rulings()] == [rid]


def test_desk_trace_prints_as_numbered_actions_with_verdicts() -> None:
    trace = [
        {
            "action": "take_control: {card: vail, by: A}",
            "verdict": "legal",
            "trace": [
                {
                    "clause": "535.8",
                    "kind": "effect",
                    "reason": "A берёт Вайла под контроль",
                    "changes": [],
                    "children": [],
                }
            ],
        },
        {
            "action": "attack: {attacker: vail, target: orc}",
            "verdict": "illegal",
            "trace": [
                {
                    "clause": "211.3.1",
                    "kind": "forbidden",
                    "reason": "только Карлика Унда",
                    "changes": [],
                    "children": [],
                }
            ],
        },
    ]
    lines = journal.trace_markdown(json.dumps(trace, ensure_ascii=False))
    assert lines == [
        "1. take\\_control: {card: vail, by: A} — **законно**",
        "   - **эффект, п. 535.8:** A берёт Вайла под контроль",
        "2. attack: {attacker: vail, target: orc} — **запрещено**",
        "   - **ЗАПРЕЩЕНО, п. 211.3.1:** только Карлика Унда",
    ]
    assert journal.trace_markdown("{не json") == ["```\n{не json\n```"]

"""Fuzzing of what judges and files feed the app (hypothesis): rules texts and journal fields.

Rules texts: `rules_index.load_texts` on random text raises nothing but CorpusError. Journal fields:
any ruling a form could send is either refused with RulingInputError or stored and read back
exactly (trimmed short fields), and its export and search never fail. `FUZZ_TEXT_EXAMPLES` raises
the example counts (the defaults keep `make test` short).
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rules_index
from rules_index import CorpusError
from rulings import export, model, search
from rulings.store import Journal
from tests.rulings_samples import journal_with_judge

EXAMPLES = int(os.environ.get("FUZZ_TEXT_EXAMPLES", "120"))
SLOW = [HealthCheck.too_slow, HealthCheck.data_too_large]

# Lines that look like rules: clause numbers, examples, tables, headings, odd spacing.
_RULE_LINES = st.one_of(
    st.from_regex(r"\d{1,3}(\.\d{1,3}){0,4}\.? [А-Яа-яЁё ,.«»()-]{0,40}", fullmatch=True),
    st.sampled_from(
        ["ПРИМЕР:", "ПРИМЕР 2.", "Раздел 2. Бой", "|a|b|", "—", "", "  ", "\t211.3", "1.", "0.0.0"]
    ),
    st.text(max_size=60),
)


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=SLOW)
@given(lines=st.lists(_RULE_LINES, max_size=40), suffix=st.sampled_from([".txt", ".md", ".rst"]))
def test_rules_texts_raise_only_corpus_errors(lines: list[str], suffix: str) -> None:
    text = "\n".join(lines)
    try:
        index = rules_index.load_texts([("правила" + suffix, text.encode("utf-8"))])
    except CorpusError as exc:
        assert str(exc)
        return
    for p in index.paragraphs[:20]:
        assert index.has(p.id)
        index.nearest_ids(p.id)


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=SLOW)
@given(raw=st.binary(max_size=400))
def test_rules_bytes_raise_only_corpus_errors(raw: bytes) -> None:
    with contextlib.suppress(CorpusError):
        rules_index.load_texts([("правила.txt", raw)])


_FIELD = st.one_of(
    st.text(max_size=40),
    st.sampled_from(["", "  ", "'); DROP TABLE rulings;--", "<b>x</b>", "```", "\x00", "\u2028", "🃏"]),
    st.text(min_size=290, max_size=320),
)
_CLAUSE = st.one_of(
    st.sampled_from(["211.3.1", "535.8", "A1", "211.", "п.211", "x", ""]), st.text(max_size=8)
)


@pytest.fixture(scope="module")
def journal(tmp_path_factory: pytest.TempPathFactory) -> tuple[Journal, object]:
    path = Path(tmp_path_factory.mktemp("fuzz")) / "j.sqlite3"
    return journal_with_judge(path, max_writes_per_minute=1_000_000)


@settings(
    max_examples=EXAMPLES, deadline=None, suppress_health_check=[*SLOW, HealthCheck.function_scoped_fixture]
)
@given(
    title=_FIELD,
    decision=_FIELD,
    players=_FIELD,
    note=_FIELD,
    verdict=st.sampled_from(["", "legal", "illegal", "undetermined", "законно"]),
    clauses=st.lists(_CLAUSE, max_size=5),
    trace=st.sampled_from(["", "[]", '[{"action": "a", "verdict": "legal", "trace": []}]', "{", "null"]),
)
def test_journal_fields_are_refused_in_russian_or_kept_exactly(
    journal: tuple[Journal, object],
    title: str,
    decision: str,
    players: str,
    note: str,
    verdict: str,
    clauses: list[str],
    trace: str,
) -> None:
    book, by = journal
    data = model.RulingInput(
        title=title, decision=decision, players=players, note=note, judge_verdict=verdict,
        clauses=tuple(clauses), trace_json=trace,
    )  # fmt: skip
    try:
        rid = book.record(data, by)  # type: ignore[arg-type]
    except model.RulingInputError as exc:
        assert str(exc) and not str(exc).isascii()  # a Russian message
        return
    got = book.get(rid)
    assert got is not None
    assert got.current.decision == decision and got.current.title == title.strip()
    assert got.current.players == players.strip() and got.current.judge_verdict == verdict
    export.ruling_markdown(got)
    model.answer_line(got.current)
    search.search_rulings([got], title or "Вайл")

"""«Готовые ответы» for the search page: scenarios and journal rulings whose question matches a query.

A player's question often has a ruling already. This module ranks the scenario library (its titles,
sources and answers, run once per process through the engine for their verdicts and clauses) and the
rulings journal against the query with the journal's own scoring (rulings.search.match), and renders the
best few beside the clause hits. Text from files and judges is shown with st.text only.
"""

from __future__ import annotations

import dataclasses
import types
import urllib.parse
from collections.abc import Sequence
from pathlib import Path

import streamlit as st
import yaml

import casebook
from rules_index import RulesIndex
from rulings import export as ruling_export
from rulings import model, store
from rulings import search as ruling_search

ROOT = Path(__file__).resolve().parent.parent
VERDICT_RU = types.MappingProxyType(
    {"legal": "законно", "illegal": "запрещено", "undetermined": "не определено текстом"}
)
# Material Symbols icons (Streamlit ships the font; emoji would be empty boxes without an emoji font).
VERDICT_ICON = types.MappingProxyType(
    {"legal": ":material/check_circle:", "illegal": ":material/block:", "undetermined": ":material/help:"}
)
DESK_PAGE = "app_pages/desk.py"
JOURNAL_PAGE = "app_pages/journal.py"
MIN_SCORE = 0.5


@dataclasses.dataclass(frozen=True)
class Answer:
    """One ready answer: a scenario of the library or a journal ruling."""

    kind: str  # "scenario" | "ruling"
    title: str
    detail: str  # where it comes from: «разбор», «решение № 3, стол 7»
    verdict: str  # legal | illegal | undetermined | "" (a ruling recorded without the engine)
    clauses: tuple[str, ...]
    page: str  # DESK_PAGE or JOURNAL_PAGE
    params: tuple[tuple[str, str], ...]  # its query parameters, built only from ids we listed ourselves
    score: float
    steps: tuple[str, ...] = ()  # a scenario's verdict per step
    summary: str = ""  # the answer in words: a scenario's `answer`, a ruling's decision

    @property
    def link(self) -> str:
        """The same place as a URL path (for a judge to share)."""
        path = "/desk" if self.page == DESK_PAGE else "/journal"
        return path + "?" + "&".join(f"{k}={urllib.parse.quote(v)}" for k, v in self.params)


@dataclasses.dataclass(frozen=True)
class ScenarioDigest:
    path: str  # relative to the project, e.g. scenarios/official/karlik_und.yaml
    group: str
    title: str
    text: str  # title, source and answer, for matching
    verdict: str  # the first step that is not legal decides the headline; else legal
    clauses: tuple[str, ...]
    steps: tuple[str, ...] = ()
    answer: str = ""  # the scenario's `answer`: the judge's answer to its question, in words
    fired: frozenset[str] = frozenset()  # every clause in any step's trace
    title_stems: frozenset[str] = frozenset()  # computed once, not per query
    body_stems: frozenset[str] = frozenset()


def _digest(e: casebook.Entry) -> ScenarioDigest:
    verdicts = e.verdicts
    verdict = next((v for v in verdicts if v in ("illegal", "undetermined")), "legal" if verdicts else "")
    words = " ".join(x for x in (e.title, e.source, e.answer) if x)
    return ScenarioDigest(
        path=e.path,
        group=e.group_label,
        title=e.title,
        text=words,
        verdict=verdict,
        clauses=e.clauses[:8],
        steps=verdicts,
        answer=e.answer,
        fired=e.fired,
        title_stems=frozenset(ruling_search.stems(e.title)),
        body_stems=frozenset(ruling_search.stems(words)),
    )


@st.cache_resource(show_spinner="Прогоняю сценарии библиотеки…")
def scenario_digests() -> tuple[ScenarioDigest, ...]:
    """Every library scenario with its verdict and clauses (immutable; built once per process)."""
    import engine
    from app_pages import common

    entries = casebook.library_scenarios(
        ROOT, run=True, index=common.base_rules().index, library=engine.load_library()
    )
    return tuple(_digest(e) for e in entries if e.ran)


@st.cache_resource(show_spinner=False)
def stopwords() -> frozenset[str]:
    """Question words the search ignores (rules_index/data/stopwords.yaml, shared with the rules search)."""
    path = ROOT / "rules_index" / "data" / "stopwords.yaml"
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError):
        return frozenset()
    return (
        frozenset(str(w).lower().replace("ё", "е") for w in data) if isinstance(data, list) else frozenset()
    )


def find_answers(
    query: str,
    rulings: Sequence[model.Ruling],
    digests: Sequence[ScenarioDigest],
    top: int = 5,
    stop: frozenset[str] = frozenset(),
) -> list[Answer]:
    """Scenarios and rulings matching the query, best first (ties: rulings, the judges' own, first)."""
    query_words, query_stems = ruling_search.query_terms(query, stop)
    if not query_stems:
        return []
    found: list[Answer] = []
    for d in digests:
        score = ruling_search.match(query_words, query_stems, d.title_stems, d.body_stems, d.clauses).score
        if score >= MIN_SCORE:
            params = (("scn", d.path),)
            found.append(
                Answer(
                    "scenario",
                    d.title,
                    d.group,
                    d.verdict,
                    d.clauses,
                    DESK_PAGE,
                    params,
                    score,
                    d.steps,
                    d.answer,
                )
            )
    for hit in ruling_search.search_rulings(rulings, query, top=top * 2, stopwords=stop):
        if hit.score < MIN_SCORE:
            continue
        cur = hit.ruling.current
        where = f"решение № {hit.ruling.id}" + (f", стол {cur.table_no}" if cur.table_no else "")
        where += f", {cur.event}" if cur.event else ""
        steps = ruling_export.engine_steps_text(cur)  # the engine's verdict of every step, beside
        where += f"; движок по шагам: {steps}" if steps else ""
        found.append(
            Answer(
                "ruling",
                cur.title,
                where,
                cur.judge_verdict,  # the headline is the judge's answer, not the engine's last step
                cur.clauses,
                JOURNAL_PAGE,
                (("r", str(hit.ruling.id)),),
                hit.score,
                summary=cur.decision,
            )
        )
    found.sort(key=lambda a: (-a.score, a.kind != "ruling", a.title))
    return found[:top]


def render_answers(query: str) -> None:
    """The «Готовые ответы» block of the search page; silent when nothing matches or on any storage error."""
    if not query.strip():
        return
    try:
        rulings = store.Journal().rulings()
        problem = ""
    except model.JournalError as exc:
        rulings, problem = [], str(exc)
    answers = find_answers(query, rulings, scenario_digests(), stop=stopwords())
    if not answers and not problem:
        return
    from app_pages import common

    index = common.current_index()
    with st.container(border=True, key="search_answers"):
        st.markdown("**Готовые ответы: сценарии и решения судей**")
        for a in answers:
            with st.container(border=True):
                _render_answer(index, a)
        if problem:
            st.text("Журнал решений недоступен: " + problem)


def verdict_words(verdict: str, steps: Sequence[str] = ()) -> str:
    """The engine's word on an answer, in words, never a row of symbols.

    One step: its verdict («запрещено»). Several steps: their count by verdict and no headline
    («шагов 6: законно 3, запрещено 2, …»): the Карлик Унд example answers «да» to its question
    though two of its steps are refused, so a single «запрещено» would mislead.
    """
    if len(steps) > 1:
        counts = {v: steps.count(v) for v in VERDICT_RU if v in steps}
        return f"шагов {len(steps)}: " + ", ".join(f"{VERDICT_RU[v]} {n}" for v, n in counts.items())
    return VERDICT_RU.get(verdict, "вердикт не записан")


def verdict_icon(verdict: str, steps: Sequence[str] = ()) -> str:
    return ":material/checklist:" if len(steps) > 1 else VERDICT_ICON.get(verdict, ":material/draft:")


def short(text: str, limit: int = 280) -> str:
    """The start of a long answer, cut at a word."""
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    return text[:limit].rsplit(" ", 1)[0] + " …"


def _render_answer(index: RulesIndex, a: Answer) -> None:
    """Title first (it is what the judge compares with the question), then the verdict and the links.
    Links are st.page_link: the app does not reload, so a judge's uploaded rules stay loaded."""
    from app_pages import common

    st.text(f"{a.title} ({a.detail})")
    if a.summary:
        st.caption(common.escape_md("Ответ: " + short(a.summary)))
    st.markdown(
        f"{verdict_icon(a.verdict, a.steps)} **{common.escape_md(verdict_words(a.verdict, a.steps))}**"
    )
    with st.container(horizontal=True, gap="small"):
        if a.kind == "scenario":
            label, page_icon = "Открыть на столе судьи", ":material/grid_on:"
        else:
            label, page_icon = "Открыть в журнале", ":material/edit_note:"
        st.page_link(a.page, label=label, icon=page_icon, query_params=dict(a.params))
        for c in a.clauses:
            if c.replace(".", "").isdigit():
                common.clause_chip(index, c)


def clause_usage(cid: str, digests: Sequence[ScenarioDigest]) -> tuple[list[ScenarioDigest], list[str]]:
    """The library scenarios in which clause `cid` fires, and the engine handlers that implement it."""
    import engine

    scenarios = [d for d in digests if cid in d.fired]
    return scenarios, list(engine.handlers_by_clause().get(cid, []))


def _brief_verdict(d: ScenarioDigest) -> str:
    """A link label's head, short enough for a phone: one step's verdict, or the number of steps."""
    return f"шагов {len(d.steps)}" if len(d.steps) > 1 else VERDICT_RU.get(d.verdict, "вердикт не записан")


def render_clause_usage(cid: str) -> None:
    """For the clause page: «Сценарии» (each opens on the desk) and «Обработчики движка» of a clause."""
    from app_pages import common

    scenarios, handlers = clause_usage(cid, scenario_digests())
    st.subheader("Сценарии и движок")
    if scenarios:
        st.caption(f"Пункт срабатывает в сценариях библиотеки: {len(scenarios)} (щелчок открывает на столе)")
        for d in scenarios:
            st.page_link(
                DESK_PAGE,
                label=f"{_brief_verdict(d)} · {common.escape_md(d.title)} ({d.group})",
                icon=verdict_icon(d.verdict, d.steps),
                query_params={"scn": d.path},
                width="stretch",
            )
    else:
        st.caption("Ни один сценарий библиотеки не задействует этот пункт.")
    if handlers:
        st.caption("Обработчики движка, которые его применяют (engine/rules/):")
        # A list, not st.code: the clause page keeps a single code block, the citation to copy.
        st.markdown("\n".join(f"- `{h}`" for h in handlers))
    else:
        st.caption("Движок этот пункт не применяет.")

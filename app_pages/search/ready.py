"""«Готовые ответы» on the search page and «Сценарии и движок» on the clause page: rendering only.

What is an answer, how answers rank and for which rules they show lives in casebook.answers; here
the library's scenarios are run once per process (`st.cache_resource`), the journal is read, and
the result is drawn. Text from files and judges is escaped before it is shown.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence

import streamlit as st

import engine
import lexicon
from app_pages import registry
from app_pages.journal import form as journal_form
from app_pages.shared import common, linklist
from cardbase import sources
from casebook import answers
from rules_index import RulesIndex, ids
from rulings import model
from rulings import search as ruling_search

ROOT = registry.PROJECT


def scenario_digests() -> tuple[answers.ScenarioDigest, ...]:
    """Every library scenario with its verdicts and clauses, run on the process's base rules
    (immutable; built once per process and base rules)."""
    return _digests(common.corpus_argument(sys.argv[1:]))


@st.cache_resource(show_spinner="Прогоняю сценарии библиотеки…", max_entries=2)
def _digests(corpus: str | None) -> tuple[answers.ScenarioDigest, ...]:
    """Keyed by what the base rules are read from (`--corpus`): the scenarios are run on them."""
    # real-card scenarios (`card_base`) run on their base, opened by cardbase
    return common.kept_for_good(
        answers.scenario_digests(
            ROOT, common.shared_rules(corpus).index, engine.load_library(), sources.scenario_cards()
        )
    )


def ready_answers(
    query: str, index: RulesIndex, cited_rank: Mapping[str, int], top: int
) -> tuple[list[answers.Answer], str]:
    """The ready answers for a query on these rules; and the journal's storage problem, if any."""
    if not query.strip() or not index.is_berserk_rules:
        return [], ""
    try:
        # The journal's own index finds the candidates (the whole league's, on a shared journal);
        # casebook.answers ranks them with the scenarios by the same scoring.
        hits = journal_form.open_journal().search(query, top=top * 4, stopwords=ruling_search.stopwords())
        rulings = [h.ruling for h in hits]
        problem = ""
    except model.JournalError as exc:
        rulings, problem = [], str(exc)
    found = answers.find_answers(
        query, rulings, scenario_digests(), index=index, cited_rank=cited_rank, top=top
    )
    return found, problem


def opens(a: answers.Answer) -> registry.Page:
    """The page an answer opens: a scenario on the desk, a ruling in the journal."""
    return registry.DESK if a.kind == "scenario" else registry.JOURNAL


def render_answers(
    index: RulesIndex,
    found: Sequence[answers.Answer],
    problem: str,
    leaving: linklist.Leaving | None = None,
) -> None:
    """The «Готовые ответы» block: nothing when there is nothing to show (`leaving`: linklist.draw)."""
    if not found and not problem:
        return
    st.subheader("Готовые ответы: сценарии и решения судей", anchor=False)
    if found:
        linklist.draw("search_answers", [answer_entry(index, a) for a in found], leaving)
    if problem:
        st.text("Журнал решений недоступен: " + problem)


def answer_entry(index: RulesIndex, a: answers.Answer) -> linklist.Entry:
    """A ready answer as the list draws it: the question (bold), the judge's answer in words, the
    verdict (per step, saying what each step asked), in normal text, since this is what a player
    reads; then the links: the desk or the journal, and the clauses it cites."""
    if a.by_steps:
        icon = ":material/checklist:"  # several steps, several verdicts: no single headline
    elif a.verdict in lexicon.VERDICTS:
        icon = lexicon.verdict_icon(a.verdict)
    else:
        icon = ":material/draft:"
    paras = [linklist.Para(((a.title, True),))]
    if a.summary:
        paras.append(linklist.Para((("Ответ: " + answers.short(a.summary), False),)))
    paras.append(linklist.Para(((answers.verdict_head(a), False),), icon=linklist.icon_name(icon)))
    lines = answers.step_lines(a)
    if lines:
        paras.append(linklist.Para((("\n".join(lines), False),)))
    if a.kind == "scenario":
        label, page_icon = "Открыть на столе судьи", ":material/grid_on:"
    else:
        label, page_icon = "Открыть в журнале", ":material/edit_note:"
    links = [linklist.Link(opens(a), dict(a.params), ((label, False),), linklist.icon_name(page_icon))]
    links += [
        common.clause_list_link(index, c, ((f"п. {c}", False),)) for c in a.clauses if ids.is_clause_id(c)
    ]
    return linklist.Entry(paras=tuple(paras), links=tuple(links))


def render_clause_usage(cid: str) -> None:
    """For the clause page: «Сценарии» (each opens on the desk) and «Обработчики движка» of a clause."""
    scenarios, handlers = answers.clause_usage(cid, scenario_digests())
    st.subheader("Сценарии и движок")
    if scenarios:
        found = lexicon.plural(len(scenarios), "сценарии", "сценариях", "сценариях")
        st.caption(f"Пункт срабатывает в {found} библиотеки (щелчок открывает на столе)")
        entries = []
        for d in scenarios:
            icon = ":material/checklist:" if len(d.steps) > 1 else lexicon.verdict_icon(d.verdict)
            label = ((f"{answers.brief_verdict(d)} · {d.title} ({d.group})", False),)
            link = linklist.Link(registry.DESK, {"scn": d.path}, label, linklist.icon_name(icon))
            entries.append(linklist.Entry(link))
        linklist.draw("clause_scenarios", entries, compact=True)
    else:
        st.caption("Ни один сценарий библиотеки не задействует этот пункт.")
    if handlers:
        st.caption(
            "Движок применяет этот пункт: "
            + lexicon.plural(len(handlers), "обработчик", "обработчика", "обработчиков")
            + "."
        )
        # Their names are code, for the engine's authors: folded, never what a player reads.
        with st.expander("Для авторов движка и сценариев: имена обработчиков", key="clause_handlers_authors"):
            # A list, not st.code: the clause page keeps a single code block, the citation to copy.
            st.markdown("\n".join(f"- `{h}`" for h in handlers))
    else:
        st.caption("Движок этот пункт не применяет.")

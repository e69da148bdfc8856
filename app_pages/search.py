"""Поиск — the app's root page: one box for numbers, words, slang and card names.

The root also shows a clause when the URL names one (`/?p=211.4`), so that every clause and
every search has a link on the app's root that opens the same view for another judge. The
sidebar's «Поиск» is `search_only` (its own path, /search): choosing it always leaves a clause.

Screen order for a query: what was understood (and which words the rules lack), the best
clause hits, then the ready answers (scenarios and judges' rulings), then the other hits.
"""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

import lexicon
import rules_index
from app_pages import clause, common, desk_answers
from rules_index import Hit, RulesIndex, ids, understood
from rules_index.search import SearchResult
from rulings import model as ruling_model
from rulings import store as ruling_store

BOX_KEY = "search_box"
# The ?q= value the box last took from the URL: a new URL value (a shared link, the back
# button) refills the box, while the judge's own typing is left alone.
_SYNCED_KEY = "search_box_synced"
_TOP = 10
# Clause hits shown before the ready answers: the best one, and the next ones while they score
# at least this share of it (at most _FIRST).
_FIRST = 3
_CLOSE = 0.6
_ANSWERS = 3


def _submit() -> None:
    """Enter in the box: the query goes into the URL, which makes it a link and a history step."""
    query = str(st.session_state.get(BOX_KEY, "")).strip()
    st.session_state[_SYNCED_KEY] = query
    if query:
        st.query_params.from_dict(common.search_params(common.current_index(), query))
    else:
        st.query_params.clear()


def _sync_box_from_url(query: str) -> None:
    if BOX_KEY not in st.session_state or st.session_state.get(_SYNCED_KEY) != query:
        st.session_state[BOX_KEY] = query
        st.session_state[_SYNCED_KEY] = query


def first_hits(hits: Sequence[Hit]) -> int:
    """How many clause hits go above the ready answers: the best, and those close to it."""
    if not hits:
        return 0
    best = hits[0].score
    n = 1
    while n < min(_FIRST, len(hits)) and hits[n].score >= _CLOSE * best:
        n += 1
    return n


def order_answers(answers: Sequence[desk_answers.Answer], hits: Sequence[Hit]) -> list[desk_answers.Answer]:
    """Ready answers that cite the best clause hits first (the better the hit, the earlier), then
    the rest in their own order: for «двигать симбиота» the 211.10 ruling before the Сугед one."""
    rank = {h.id: i for i, h in enumerate(hits)}

    def key(pair: tuple[int, desk_answers.Answer]) -> tuple[int, int]:
        i, a = pair
        cited = [rank[c] for c in a.clauses if c in rank]
        return (min(cited) if cited else len(rank), i)

    return [a for _, a in sorted(enumerate(answers), key=key)]


def _render_understood(result: SearchResult) -> None:
    """Which typed words matched what, and which matched nothing (in plain text, readable)."""
    said = (understood.understood(result.words), understood.not_found(result.words))
    lines = [line for line in said if line]
    if lines:
        with st.container(key="search_understood"):
            st.markdown("  \n".join(common.escape_md(line) for line in lines))


def _render_hit(index: RulesIndex, hit: Hit) -> None:
    with st.container(border=True):
        section = hit.title or f"раздел {hit.id.split('.')[0]}"
        title = f"**{common.escape_md(hit.id)}** · {common.escape_md(section)}"
        common.clause_link(
            index, hit.id, label=title, icon=":material/description:", occurrence=hit.occurrence
        )
        if hit.spans:
            st.markdown(common.marked_md(hit.spans))
        elif hit.snippet:
            st.markdown(common.escape_md(hit.snippet))
        notes = understood.hit_notes(hit.matched)
        if notes:
            st.caption(common.escape_md(notes))


def verdict_line(a: desk_answers.Answer) -> str:
    """The engine's or the judge's word in plain words, per step when the answer has steps:
    «Проверено движком: можно» / «Проверено движком по шагам: 1 — нельзя; 2 — можно»."""
    codes = [v for v in a.steps if v in lexicon.VERDICTS]
    if len(codes) > 1:
        steps = "; ".join(f"{i} — {lexicon.option_mark(v)}" for i, v in enumerate(codes, 1))
        return f"Проверено движком по шагам: {steps}"
    if a.verdict in lexicon.VERDICTS:
        who = "Решение судьи" if a.kind == "ruling" else "Проверено движком"
        return f"{who}: {lexicon.option_mark(a.verdict)}"
    return "Вердикт не записан"


def _render_answer(index: RulesIndex, a: desk_answers.Answer) -> None:
    """The question, the judge's answer in words, then the verdict and the links; normal text
    (not grey), since this is what a player reads."""
    with st.container(border=True):
        st.markdown(f"**{common.escape_md(a.title)}**")
        if a.summary:
            st.markdown(common.escape_md("Ответ: " + desk_answers.short(a.summary)))
        if len(a.steps) > 1:
            icon = ":material/checklist:"  # several steps, several verdicts: no single headline
        elif a.verdict in lexicon.VERDICTS:
            icon = lexicon.verdict_icon(a.verdict)
        else:
            icon = ":material/draft:"
        st.markdown(f"{icon} {common.escape_md(verdict_line(a))} ({common.escape_md(a.detail)})")
        with st.container(horizontal=True, gap="small"):
            if a.kind == "scenario":
                label, page_icon = "Открыть на столе судьи", ":material/grid_on:"
            else:
                label, page_icon = "Открыть в журнале", ":material/edit_note:"
            st.page_link(a.page, label=label, icon=page_icon, query_params=dict(a.params))
            for c in a.clauses:
                if ids.is_clause_id(c):
                    common.clause_chip(index, c)


def answer_query(result: SearchResult) -> str:
    """The query the ready answers are matched against: without bare counts, which match
    nothing on their own («3 ываыва» is not a question about «инкарнация 3»)."""
    counts = {w.word for w in result.words if w.how == "count"}
    return " ".join(w for w in result.query.split() if w.strip("?!.,") not in counts)


def _ready_answers(query: str, hits: Sequence[Hit]) -> tuple[list[desk_answers.Answer], str]:
    """The ready answers for a query, ordered by the clause hits; and a storage problem, if any."""
    if not query.strip():
        return [], ""
    try:
        rulings = ruling_store.Journal().rulings()
        problem = ""
    except ruling_model.JournalError as exc:
        rulings, problem = [], str(exc)
    digests = desk_answers.scenario_digests()
    found = desk_answers.find_answers(query, rulings, digests, stop=desk_answers.stopwords())
    return order_answers(found, hits)[:_ANSWERS], problem


def _render_answers(index: RulesIndex, answers: Sequence[desk_answers.Answer], problem: str) -> None:
    if not answers and not problem:
        return
    with st.container(key="search_answers"):
        st.subheader("Готовые ответы: сценарии и решения судей")
        for a in answers:
            _render_answer(index, a)
        if problem:
            st.text("Журнал решений недоступен: " + problem)


def render_search(index: RulesIndex) -> None:
    query = str(st.query_params.get(common.QUERY_PARAM, "")).strip()
    _sync_box_from_url(query)
    st.title("Поиск по правилам")
    common.rules_caption(index)
    st.text_input(
        "Номер пункта, слова, жаргон или название карты",
        key=BOX_KEY,
        on_change=_submit,
        max_chars=500,
        placeholder="например: 211,10 · хост улетел · Карлик Унд",
    )
    if not query:
        st.caption(
            "Введите запрос и нажмите Enter. Понимает номера пунктов (211.10, 211,10, п. 211.3–211.5), "
            "формы слов, опечатки, жаргон игроков и названия карт."
        )
        return
    common.version_notice(index)
    try:
        result = index.lookup(query, top=_TOP)
    except rules_index.QueryError as err:
        st.warning(common.escape_md(str(err)), icon=common.ICON_WARNING)
        return
    _render_understood(result)
    hits = list(result.hits)
    answers, problem = _ready_answers(answer_query(result), hits)
    if not hits:
        st.info(
            common.escape_md(understood.NOTHING) + " Попробуйте другое слово или номер пункта.",
            icon=common.ICON_INFO,
        )
        _render_answers(index, answers, problem)
        return
    split = first_hits(hits)
    st.caption(f"Найдено пунктов: {len(hits)} (лучшие сверху)")
    with st.container(key="search_hits"):
        for hit in hits[:split]:
            _render_hit(index, hit)
    _render_answers(index, answers, problem)
    if hits[split:]:
        with st.container(key="search_hits_more"):
            if answers:
                st.subheader("Другие пункты")
            for hit in hits[split:]:
                _render_hit(index, hit)


def search_only() -> None:
    """The sidebar's «Поиск»: the search box, never a clause (a ?p= left in the URL is dropped)."""
    st.query_params.pop(common.CLAUSE_PARAM, None)
    render_search(common.current_index())


def main() -> None:
    index = common.current_index()
    cid = st.query_params.get(common.CLAUSE_PARAM)
    if cid:
        clause.render_clause(index, common.clause_id(str(cid)))
    else:
        render_search(index)


if __name__ == "__main__":
    main()

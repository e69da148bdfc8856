"""Поиск — the app's root page: one box for numbers, words, slang and card names.

The root also shows a clause when the URL names one (`/?p=211.4`), so that every clause and
every search has a link on the app's root that opens the same view for another judge.
"""

from __future__ import annotations

import streamlit as st

import rules_index
from app_pages import clause, common, desk_answers
from rules_index import Hit, RulesIndex

BOX_KEY = "search_box"
# The ?q= value the box last took from the URL: a new URL value (a shared link, the back
# button) refills the box, while the judge's own typing is left alone.
_SYNCED_KEY = "search_box_synced"
_TOP = 10


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


def _match_notes(hit: Hit) -> str:
    notes = []
    for m in hit.matched:
        how = common.HOW_LABELS.get(m.how, m.how)
        if m.found and m.found.casefold() != m.word.casefold():
            notes.append(f"«{m.word}» → «{m.found}» ({how})")
        else:
            notes.append(f"«{m.word}» ({how})")
    return "Как нашлось: " + "; ".join(notes) if notes else ""


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
        notes = _match_notes(hit)
        if notes:
            st.caption(common.escape_md(notes))


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
        placeholder="например: 211.3.1, паразит, хост, Карлик Унд",
    )
    if not query:
        st.caption(
            "Введите запрос и нажмите Enter. Понимает номера пунктов, формы слов, опечатки, "
            "жаргон игроков и названия карт."
        )
        return
    common.version_notice(index)
    desk_answers.render_answers(query)  # scenarios and journal rulings that answer the question
    try:
        hits = index.search(query, top=_TOP)
    except rules_index.QueryError as err:
        st.warning(common.escape_md(str(err)), icon=common.ICON_WARNING)
        return
    if not hits:
        st.info(
            f"По запросу «{common.escape_md(query)}» в правилах ничего не найдено. "
            "Попробуйте другое слово или номер пункта.",
            icon=common.ICON_INFO,
        )
        return
    st.caption(f"Найдено пунктов: {len(hits)} (лучшие сверху)")
    with st.container(key="search_hits"):
        for hit in hits:
            _render_hit(index, hit)


def main() -> None:
    index = common.current_index()
    cid = st.query_params.get(common.CLAUSE_PARAM)
    if cid:
        clause.render_clause(index, common.clause_id(str(cid)))
    else:
        render_search(index)


if __name__ == "__main__":
    main()

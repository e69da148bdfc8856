"""Поиск — the app's root page: one box for numbers, words, slang and card names.

The root also shows a clause when the URL names one (`/?p=211.4`), so that every clause and
every search has a link on the app's root that opens the same view for another judge. The
sidebar's «Поиск» is `search_only` (its own path, /search): choosing it always leaves a clause.

Screen order for a query: what was understood (and which words the rules lack), whether the
rules answer it and on what evidence (rules_index.understood.answer_lines), the best clause hits,
then the ready answers (scenarios and judges' rulings, casebook.answers), then the other hits.
When the rules say nothing about it, «ничего нет» and why, the clauses a clause number it types
points to (when the rules lack that clause) or the clause whose text breaks off where it asks, and
only a judge's ruling on the very same question.
Card names of the window's card base are passed to the rules search as names it does not know
(rules_index.Named): «Горный клещ» finds the rules for parasites.

The box and what it finds are one `st.fragment` (issue 24): Enter reruns only them, not the menu,
the title and the rules line above. A search reads the rules a whole run would read now (the store
read afresh, as app.py does once per run: a window that has not chosen a version follows a new
default, one whose version was removed falls back); when they are not what the page around it was
drawn for, the whole page is redrawn, so the rules line never names other rules than the hits.
"""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

import rules_index
from app_pages import registry
from app_pages.shared import common, linklist
from cardbase import links
from rules_index import Hit, Named, RulesIndex, understood
from rules_index.model import SearchResult
from storage import clean

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
# When the rules say nothing about a question, the library's scenarios (they play out the rules
# text) answer nothing either; a judge's ruling shows if it is the same question (every word in
# its title: rulings.search.match scores 1). A scenario about «ход» in another sense is no
# answer to «кто ходит первым».
_SAME_QUESTION = 1.0
# The query each link followed from the search was followed from, by the link's parameters (this
# tab's; the newest _LEFT_MAX): what Back from that link comes back to (`_back_to_search`).
_LEFT_KEY = "search_left_from"
_LEFT_MAX = 50
# The page imports the card bases, the ready answers and the clause view where it uses them: an
# empty search page (a new server's first window, issue 24) needs none of them, and their imports
# (the engine, the scenario library, the journal) were a fifth of that run's time. cardbase.links,
# which names a card base's link parameter, imports none of them.


# What the last whole run drew above the fragment for (the version and its rules line, kept by
# common.fragment_rules), and the flag a whole run sets just before it runs the fragment inline.
_DRAWN_FOR = "search_drawn_for"
_WHOLE_RUN = "search_whole_run"


def _submit() -> None:
    """Enter in the box: the query goes into the URL, which makes it a link and a history step.
    The link names the rules a whole run would read now (the store is read afresh: a search is
    a run, whether of the page or of its fragment)."""
    common.new_run()
    query = clean.scrub(str(st.session_state.get(BOX_KEY, ""))).strip()
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


def _render_understood(result: SearchResult) -> None:
    """Which typed words matched what, and which matched nothing (in plain text, readable)."""
    said = (understood.understood(result.words), understood.not_found(result.words))
    lines = [line for line in said if line]
    if lines:
        with st.container(key="search_understood"):
            st.markdown("  \n".join(common.escape_md(line) for line in lines))


def _render_evidence(result: SearchResult, count: str = "") -> None:
    """Why the rules answer the query (the clause and how each word is there), or why not; then
    how many clauses were found, in the same grey lines (one element, not two: issue 24)."""
    lines = [common.escape_md(line) for line in understood.answer_lines(result.answer)]
    if lines:
        with st.container(key="search_evidence"):
            st.caption("  \n".join([*lines, count] if count else lines))
    elif count:
        st.caption(count)


def cut_off_entry(index: RulesIndex, cid: str, tail: str) -> linklist.Entry:
    """The clause whose source breaks off where the question is: its link and the sentence it
    breaks off in («… Если бестелесный симбиот»), marked as cut."""
    return linklist.Entry(
        head=common.clause_list_link(index, cid, ((cid, True), (" · текст обрывается", False))),
        paras=(
            linklist.Para(((f"… {tail}", False),)),
            linklist.Para(((understood.CUT_OFF_NOTE, False),), muted=True),
        ),
    )


def hit_entry(index: RulesIndex, hit: Hit) -> linklist.Entry:
    """A hit as the list draws it: its link (the clause's number and section), its snippet with
    the matched words in bold (not colour: a phone in sunlight), then its «Как нашлось» note,
    small and grey."""
    section = hit.title or f"раздел {hit.id.split('.')[0]}"
    paras = []
    if hit.spans:
        paras.append(linklist.Para(tuple((" ".join(t.split("\n")), m) for t, m in hit.spans)))
    elif hit.snippet:
        paras.append(linklist.Para(((hit.snippet, False),)))
    notes = understood.hit_notes(hit.matched)
    if notes:
        paras.append(linklist.Para(((notes, False),), muted=True))
    return linklist.Entry(
        head=common.clause_list_link(
            index, hit.id, ((hit.id, True), (f" · {section}", False)), hit.occurrence
        ),
        paras=tuple(paras),
    )


def base_cards(query: str) -> list[Named]:
    """The cards of this window's card base that the query names, as the rules search takes them
    («горного клеща» → Горный клещ, read as «паразит»). A base that fails to read falls back to
    the embedded library (card_base.current), so the search never fails for it."""
    from app_pages.shared import card_base

    return [Named(c.words, c.record.name, c.search) for c in card_base.current().queries.find(query)]


def render_search(index: RulesIndex) -> None:
    if st.query_params.get(links.BASE_PARAM):
        from app_pages.shared import card_base

        card_base.follow_link()  # a shared link made on a card base searches with that base's names
    st.title("Поиск по правилам")
    common.rules_caption(index)
    st.session_state[_WHOLE_RUN] = True
    _search()


@st.fragment
def _search() -> None:
    """The box and what it finds: Enter reruns only this (issue 24). Arguments are not taken: a
    fragment keeps its arguments between its runs, and the index is the process's or the upload
    budget's to keep, not a fragment's."""
    alone = not st.session_state.pop(_WHOLE_RUN, False)  # Enter in the box: a run of this alone
    index = common.fragment_rules(_DRAWN_FOR, alone)  # the store read afresh; other rules: the page
    query = clean.scrub(
        str(st.query_params.get(common.QUERY_PARAM, ""))
    ).strip()  # the link's text, cleaned once
    _sync_box_from_url(query)
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
        result = index.lookup(query, top=_TOP, named=base_cards(query))
    except rules_index.QueryError as err:
        st.warning(common.escape_md(str(err)), icon=common.ICON_WARNING)
        return
    from app_pages.search import ready
    from casebook import answers

    _render_understood(result)
    hits = list(result.hits)
    rank = {h.id: i for i, h in enumerate(hits)}
    found, problem = ready.ready_answers(answers.answer_query(result), index, rank, _ANSWERS)
    if not result.answer.answered:
        found = [a for a in found if a.kind == "ruling" and a.score >= _SAME_QUESTION]
    if result.nothing:
        st.info(
            common.escape_md(understood.NOTHING) + " Попробуйте другое слово или номер пункта.",
            icon=common.ICON_INFO,
        )
        cut = result.answer.clause if result.answer.cut_off else ""
        # the clauses a clause number of the query finds: itself (when its words ask what it does
        # not say), those citing it or nearest it (when the loaded rules lack it)
        pointers = [h for h in hits if h.id != cut]
        _render_evidence(result, understood.POINTERS if pointers else "")
        if cut:
            # the text breaks off where the question is: the clause itself, to read what is there
            entry = cut_off_entry(index, cut, result.answer.cut_off)
            linklist.draw("search_cut_off", [entry], _leaving)
        if pointers:
            linklist.draw("search_pointers", [hit_entry(index, h) for h in pointers], _leaving)
        ready.render_answers(index, found, problem, _leaving)
        return
    _render_evidence(result, f"Найдено пунктов: {len(hits)} (лучшие сверху)")
    split = first_hits(hits)
    linklist.draw("search_hits", [hit_entry(index, h) for h in hits[:split]], _leaving)
    ready.render_answers(index, found, problem, _leaving)
    if hits[split:]:
        if found:
            st.subheader("Другие пункты", anchor=False)
        linklist.draw("search_hits_more", [hit_entry(index, h) for h in hits[split:]], _leaving)


def _leaving(page: registry.Page, params: dict[str, str]) -> None:
    """A hit or a ready answer is followed: remember the query it was followed from, by the link's
    parameters, for `_back_to_search`."""
    query = str(st.query_params.get(common.QUERY_PARAM, ""))
    if not query:
        return
    left = st.session_state.setdefault(_LEFT_KEY, {})
    key = _link_key(params)
    left.pop(key, None)
    left[key] = query
    while len(left) > _LEFT_MAX:
        left.pop(next(iter(left)))


def _link_key(params: dict[str, str]) -> tuple[tuple[str, str], ...]:
    return tuple(sorted((str(k), str(v)) for k, v in params.items()))


def _back_to_search() -> None:
    """The browser's Back from a clause (or the desk, the journal) opened from the menu's search.

    Streamlit, switching from /search to another page with parameters, first writes those
    parameters into the address of the page it leaves: the history step Back returns to reads
    «/search?p=211.7&v=…», not the query that was searched. The link's parameters say which query
    that was (remembered by `_leaving` in this tab's state), so the search comes back as it was.
    A ?p= that no link of this tab left is dropped: the menu's search never shows a clause."""
    here = {k: str(v) for k, v in st.query_params.to_dict().items()}
    query = st.session_state.get(_LEFT_KEY, {}).get(_link_key(here)) if here else None
    if query:
        version = here.get(common.VERSION_PARAM)
        st.query_params.from_dict(
            {common.QUERY_PARAM: query, **({common.VERSION_PARAM: version} if version else {})}
        )
    else:
        st.query_params.pop(common.CLAUSE_PARAM, None)


def search_only() -> None:
    """The sidebar's «Поиск»: the search box, never a clause (a ?p= left in the URL is dropped;
    one that Back brought back is the search it was opened from: `_back_to_search`)."""
    _back_to_search()
    render_search(common.current_index())


def main() -> None:
    index = common.current_index()
    cid = st.query_params.get(common.CLAUSE_PARAM)
    if cid:
        from app_pages import clause

        clause.render_clause(index, common.clause_id(str(cid)))
    else:
        render_search(index)


if __name__ == "__main__":
    main()

"""Пункт — one clause with its context: section path, text, examples, links both ways, graph.

Shown on the app's root for `/?p=<id>` (see search.py); on its own page it also offers a way
to open a clause by number and the list of sections.
"""

from __future__ import annotations

import streamlit as st

from app_pages import registry
from app_pages.search import ready
from app_pages.shared import common, linklist, version_diff
from rules_index import Paragraph, RulesIndex, ids
from rules_index.numbers import typed_list

NUMBER_KEY = "clause_number"
_OPEN_REQUEST = "clause_open_request"
_TYPED = "clause_number_typed"


def _breadcrumb(index: RulesIndex, cid: str) -> None:
    """Links to every ancestor, the top-level section first."""
    chain: list[str] = []
    parent = index.parent(cid)
    while parent is not None:
        chain.append(parent)
        parent = index.parent(parent)
    for ancestor in reversed(chain):
        if index.has(ancestor):
            title = index.section_title(ancestor) if "." not in ancestor else None
            label = common.clause_label(index, ancestor, title or None)
            common.clause_link(index, ancestor, label=label, icon=":material/arrow_upward:")
        else:
            st.caption(f":material/block: {common.escape_md(ancestor)} — нет в загруженном тексте правил")


def _section_caption(index: RulesIndex, cid: str) -> str:
    top = cid.split(".")[0]
    title = index.section_title(cid)
    if title:
        return f"Раздел {top} «{title}»"
    return f"Раздел {top} (заголовка раздела нет в тексте)"


def _render_text(para: Paragraph) -> None:
    if para.cut_off:
        st.warning(
            "Обрыв: текст пункта в источнике обрывается, продолжения нет.", icon=":material/content_cut:"
        )
    common.show_text(para.full_text)
    for example in para.examples:
        with st.container(border=True):
            st.markdown(":material/lightbulb: **Пример**")
            common.show_text(example)


def _render_citation(index: RulesIndex, cid: str) -> None:
    label = index.version_label or index.version or "версия не указана"
    st.caption("Цитата для решения (кнопка копирования — в правом углу поля):")
    st.code(f"п. {cid} ({label})", language=None, wrap_lines=True)


def _render_links(index: RulesIndex, cid: str) -> None:
    """Subclauses, the clauses this one cites and those citing it (with the citing sentence): each
    list one element (linklist, issue 24), a link a line."""
    children = index.children(cid)
    if children:
        st.subheader("Подпункты")
        icon = ":material/subdirectory_arrow_right:"
        _links(
            "clause_children",
            [linklist.Entry(common.clause_list_link(index, c, icon=icon)) for c in children],
        )
    st.subheader("Ссылается на")
    cites = list(dict.fromkeys(c.target for c in index.cites(cid)))
    if not cites:
        st.caption("Ссылок на другие пункты нет.")
    icon = ":material/arrow_forward:"
    _links("clause_cites", [linklist.Entry(common.clause_list_link(index, c, icon=icon)) for c in cites])
    st.subheader("На него ссылаются")
    cited_by = _citing(index, cid)
    if not cited_by:
        st.caption("Ни один пункт загруженных правил на него не ссылается.")
    _links("clause_cited_by", cited_by)


def _citing(index: RulesIndex, cid: str) -> list[linklist.Entry]:
    """Each clause citing `cid` once, with the sentence that cites it (small and grey)."""
    out: list[linklist.Entry] = []
    seen: set[str] = set()
    for citation in index.cited_by(cid):
        if citation.source in seen:
            continue
        seen.add(citation.source)
        sentence = linklist.Para(((common.short(citation.sentence, 200), False),), muted=True)
        head = common.clause_list_link(index, citation.source, icon=":material/arrow_back:")
        out.append(linklist.Entry(head, (sentence,)))
    return out


def _links(key: str, entries: list[linklist.Entry]) -> None:
    if entries:
        linklist.draw(key, entries, compact=True)


def _render_graph(index: RulesIndex, cid: str) -> None:
    graph = index.neighbourhood(cid, 1)
    if graph.number_of_nodes() <= 1:
        return
    st.subheader("Соседи в графе ссылок")
    st.caption(
        "Сплошная серая стрелка — подпункт, пунктирная синяя — ссылка в тексте; "
        "пунктирная рамка с надписью «нет в тексте» — пункт, которого нет в загруженных правилах."
    )
    # A few nodes drawn at their own size; a bigger neighbourhood shrinks to the screen's width.
    small = graph.number_of_nodes() <= 3
    st.graphviz_chart(index.to_dot(graph), width="content" if small else "stretch")


def _render_missing(index: RulesIndex, cid: str) -> None:
    st.title(f"п. {common.escape_md(cid)}")
    if index.is_absent(cid):
        st.error(
            f"Нет в тексте: пункта {common.escape_md(cid)} нет в загруженных правилах "
            f"({common.escape_md(common.version_text(index))}). На него ссылаются, "
            "но проверить ссылку по этому тексту нельзя.",
            icon=common.ICON_ABSENT,
        )
        st.subheader("На него ссылаются")
        _links("clause_cited_by", _citing(index, cid))
        return
    st.warning(
        f"Не найдено: пункта «{common.escape_md(cid)}» нет в загруженных правилах.",
        icon=":material/help:",
    )
    nearest = index.nearest_ids(cid, 5)
    if nearest:
        st.caption("Ближайшие номера:")
        _links("clause_nearest", [linklist.Entry(common.clause_list_link(index, n)) for n in nearest])


def _new_search() -> None:
    # On a phone the navigation hides behind the menu button; the way back to the box stays here.
    registry.link(registry.ROOT, label="Новый поиск", icon=":material/search:")


def render_clause(index: RulesIndex, cid: str) -> None:
    """The clause view: everything a judge needs to read and cite `cid`."""
    _new_search()
    common.version_notice(index)
    cid = index.resolve(cid) or cid  # «210.11a» typed with a Latin letter means «210.11а»
    para = common.entry(index, cid)
    if para is None:
        _render_missing(index, cid)
        return
    _breadcrumb(index, cid)
    st.title(f"п. {common.escape_md(cid)}")
    st.caption(
        common.escape_md(_section_caption(index, cid)) + f" · {common.escape_md(common.version_text(index))}"
    )
    common.duplicate_notice(index, cid, para)
    _render_text(para)
    _render_citation(index, cid)
    version_diff.render_other_side(index, cid)
    st.caption(common.escape_md(f"Источник: {para.where}"))
    _render_links(index, cid)
    ready.render_clause_usage(cid)
    _render_graph(index, cid)


def _open_number() -> None:
    """The number box on the «Пункт» page: one number opens that clause on the app's root;
    a range or a list («пп. 211.3–211.5», «211.4, 211.6») is listed below the box."""
    typed = str(st.session_state.get(NUMBER_KEY, "")).strip()
    refs = ids.typed_refs(typed)
    numbers = ids.parse_typed(typed)
    if len(refs) == 1 and refs[0].last is None and numbers:
        st.session_state[_OPEN_REQUEST] = numbers[0]
    st.session_state[_TYPED] = typed


def render_picker(index: RulesIndex) -> None:
    st.title("Пункт правил")
    common.rules_caption(index)
    st.text_input(
        "Номер пункта",
        key=NUMBER_KEY,
        on_change=_open_number,
        placeholder="например: 211.4, 211,10 или пп. 211.3–211.5",
    )
    wanted = st.session_state.pop(_OPEN_REQUEST, None)
    if isinstance(wanted, str) and wanted:
        registry.switch(registry.ROOT, common.clause_params(index, wanted))
    typed = str(st.session_state.get(_TYPED, "")).strip()
    if typed:
        numbers = typed_list((p.id for p in index.paragraphs), typed)
        if not numbers:
            st.warning(
                f"«{common.escape_md(typed)}» — не номер пункта. Номер пишут так: 211.4, 211,10, п. 535.5.1.",
                icon=common.ICON_WARNING,
            )
        else:
            st.caption("Пункты, которые вы назвали:")
            for cid in numbers:
                common.clause_link(index, cid)
    st.subheader("Разделы")
    for section in index.sections():
        title = index.section_title(section)
        if index.has(section):
            common.clause_link(index, section, label=common.clause_label(index, section, title or None))
        else:
            first = next((p.id for p in index.section(section)), None)
            if first is not None:
                note = f"(заголовка нет в тексте; первый пункт {first})"
                label = f"**{common.escape_md(section)}** {common.escape_md(note)}"
                common.clause_link(index, first, label=label)


def main() -> None:
    index = common.current_index()
    cid = st.query_params.get(common.CLAUSE_PARAM)
    if cid:
        render_clause(index, common.clause_id(str(cid)))
    else:
        render_picker(index)


if __name__ == "__main__":
    main()

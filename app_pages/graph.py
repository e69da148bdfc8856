"""Граф — the cross-reference graph one section at a time (a whole corpus will not draw).

`/graph?s=535` opens a section directly; the chosen section goes into the URL.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from app_pages.shared import common
from rules_index import RulesIndex

SECTION_KEY = "graph_section"


def _section_label(index: RulesIndex, section: str) -> str:
    title = index.section_title(section)
    count = len(index.section(section))
    name = f"{section} «{title}»" if title else f"{section} (без заголовка)"
    return f"{name} — пунктов: {count}"


def _choose() -> None:
    chosen = st.session_state.get(SECTION_KEY)
    if isinstance(chosen, str):
        st.query_params[common.SECTION_PARAM] = chosen
        st.query_params.update(common.version_params(common.current_index()))


def section_graph(index: RulesIndex, section: str) -> Any:
    """The section's clauses with the clauses they cite (absent ones included) and the links."""
    graph = index.graph
    members = {p.id for p in index.section(section)}
    nodes = set(members)
    for node in members:
        if node in graph:
            nodes.update(graph.successors(node))
    return graph.subgraph(nodes)


def main() -> None:
    index = common.current_index()
    st.title("Граф ссылок")
    common.rules_caption(index)
    common.version_notice(index)
    sections = index.sections()
    if not sections:
        st.info("В загруженных правилах нет разделов.", icon=common.ICON_INFO)
        return
    wanted = str(st.query_params.get(common.SECTION_PARAM, ""))
    # The URL decides (a shared link, the back button); the box writes its choice into the URL.
    if wanted in sections:
        st.session_state[SECTION_KEY] = wanted
    elif st.session_state.get(SECTION_KEY) not in sections:
        st.session_state[SECTION_KEY] = sections[0]
    section = st.selectbox(
        "Раздел",
        sections,
        key=SECTION_KEY,
        format_func=lambda s: _section_label(index, s),
        on_change=_choose,
    )
    sub = section_graph(index, section)
    st.caption(
        "Сплошная серая стрелка — подпункт, пунктирная синяя — ссылка в тексте; "
        "пунктирная рамка с надписью «нет в тексте» — пункт, которого нет в загруженных правилах. "
        "На телефоне граф можно увеличить жестом; пункты раздела — списком ниже."
    )
    st.graphviz_chart(index.to_dot(sub), width="stretch")
    absent = sorted(n for n, attrs in sub.nodes(data=True) if attrs.get("absent"))
    if absent:
        st.subheader("Нет в тексте правил")
        for cid in absent:
            common.clause_link(index, cid)
    with st.expander("Пункты раздела списком", expanded=False):
        for para in index.section(section):
            common.clause_link(index, para.id)


if __name__ == "__main__":
    main()

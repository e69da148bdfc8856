"""«Что это затрагивает» on «Что изменилось»: the journal's rulings and the library's scenarios that
cite a clause the «Стало» version changed, each with the citation to use now (casebook.impact).

Rendering only, and read-only: players read this page too, and nothing here changes a ruling or a
scenario. A ruling links to the journal (`?r=`), a scenario to the desk (`?scn=`), both with the
«Стало» version's `v=`, so they open under the new rules (the journal then shows its notice, the
desk the new numbering). The library's run is the one the ready answers use
(ready.scenario_digests: once per process, immutable); the journal is read on each run, as
the journal page reads it. How many items a part shows is this window's (st.session_state).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

import streamlit as st

from app_pages import registry
from app_pages.search import ready
from app_pages.shared import common
from app_pages.shared.version_diff import WINDOW, Choice
from casebook import impact
from casebook.affected import AffectedScenario
from rules_index.diff import RulesDiff
from rulings import model, store
from rulings.affected import AffectedRuling, written_for

# Items a part shows at first, and how many more a click on «Показать ещё» adds.
SHOWN = 20
# This window's count of shown items per part (session keys), and the buttons that raise it.
_SHOWN_KEY = "changes_affected_shown_{part}"
MORE_KEY = "changes_affected_more_{part}"
# A part whose list is this short is open from the start.
OPEN_UP_TO = 5


def gather(result: RulesDiff) -> impact.Impact:
    """The rulings and scenarios the diff touches (the library is run once per process)."""
    try:
        rulings = store.Journal().rulings()
        problem = ""
    except model.JournalError as exc:
        rulings, problem = [], exc.public
    label = impact.library_label(common.base_rules().index)
    digests = ready.scenario_digests() if written_for(label, result.old) else ()
    return impact.impact(result, rulings, digests, label, problem)


def _link_version(new: Choice) -> dict[str, str]:
    """`v=` of the «Стало» side (this window's own rules need none)."""
    return {} if new.key == WINDOW else {common.VERSION_PARAM: common.version_value(new.key)}


def _shown(part: str, total: int) -> int:
    wanted = st.session_state.get(_SHOWN_KEY.format(part=part), SHOWN)
    return min(total, wanted if isinstance(wanted, int) and wanted > 0 else SHOWN)


def _more(part: str) -> None:
    key = _SHOWN_KEY.format(part=part)
    wanted = st.session_state.get(key, SHOWN)
    st.session_state[key] = (wanted if isinstance(wanted, int) else SHOWN) + SHOWN


def _more_button(part: str, shown: int, total: int) -> None:
    if shown >= total:
        return
    st.caption(f"Показаны {shown} из {total}.")
    st.button(
        f"Показать ещё {min(SHOWN, total - shown)}",
        key=MORE_KEY.format(part=part),
        on_click=_more,
        args=(part,),
        icon=":material/expand_more:",
    )


def _lines(found: impact.Impact, item: AffectedRuling | AffectedScenario) -> str:
    return "  \n".join(common.escape_md(line) for line in found.lines(item.fates))


def _ruling(found: impact.Impact, r: AffectedRuling, version: Mapping[str, str]) -> None:
    with st.container(border=True, key=f"affected_ruling_{r.ruling_id}"):
        st.markdown(f"**№ {r.ruling_id} · {common.escape_md(common.short(r.title, 160))}**")
        st.markdown(_lines(found, r))
        if r.version_unknown:
            old = found.old.name  # escaped once, with the sentence
            st.caption(
                common.escape_md(f"В решении не указана версия правил: проверено как записанное по {old}.")
            )
        registry.link(
            registry.JOURNAL,
            label="Открыть в журнале",
            icon=":material/edit_note:",
            query_params={"r": str(r.ruling_id), **version},
            width="content",
        )


def _scenario(found: impact.Impact, s: AffectedScenario, version: Mapping[str, str]) -> None:
    with st.container(border=True, key=scenario_key(s.path)):
        st.markdown(f"**{common.escape_md(common.short(s.title, 160))}**")
        st.markdown(_lines(found, s))
        registry.link(
            registry.DESK,
            label="Открыть на столе судьи",
            icon=":material/grid_on:",
            query_params={"scn": s.path, **version},
            width="content",
        )


def scenario_key(path: str) -> str:
    """The card's key: «affected_scenario_535-2_recruit_during_battle» for
    scenarios/rulings/535.2_recruit_during_battle.yaml."""
    stem = path.rsplit("/", 1)[-1].rsplit(".", 1)[0]
    return "affected_scenario_" + re.sub(r"[^\w-]", "-", stem)


def _label(what: str, items: Sequence[AffectedRuling] | Sequence[AffectedScenario]) -> str:
    reread = sum(impact.text_changed(i) for i in items)
    return f"{what}: {len(items)}" + (f" (у {reread} изменился текст пунктов)" if reread else "")


def render(result: RulesDiff, new: Choice) -> None:
    """The section: the counts first, then the journal's rulings and the library's scenarios."""
    found = gather(result)
    version = _link_version(new)
    with st.container(key="changes_affected"):
        st.subheader("Что это затрагивает")
        st.markdown(f"**{common.escape_md(found.counts_line())}**")
        new_name = common.escape_md(found.new.name)
        st.caption(
            f"Решения и сценарии, которые ссылаются на пункты, изменившиеся в {new_name}, и что "
            "цитировать теперь. Здесь ничего не меняется: ссылка открывает решение в журнале или "
            f"сценарий на столе по правилам {new_name}."
        )
        _part("rulings", "Решения журнала", ":material/edit_note:", found.rulings, found, version)
        _part("scenarios", "Сценарии библиотеки", ":material/grid_on:", found.scenarios, found, version)


def _part(
    part: str,
    what: str,
    icon: str,
    items: Sequence[AffectedRuling] | Sequence[AffectedScenario],
    found: impact.Impact,
    version: Mapping[str, str],
) -> None:
    """One list in an expander (open when short); an empty one says so in words, not folded away."""
    if not items:
        empty = found.rulings_empty_text() if part == "rulings" else found.scenarios_empty_text()
        with st.container(key=f"changes_affected_{part}"):
            st.markdown(f"{icon} **{what}.** {common.escape_md(empty)}")
        return
    with st.expander(
        _label(what, items), expanded=len(items) <= OPEN_UP_TO, icon=icon, key=f"changes_affected_{part}"
    ):
        shown = _shown(part, len(items))
        for item in items[:shown]:
            if isinstance(item, AffectedRuling):
                _ruling(found, item, version)
            else:
                _scenario(found, item, version)
        _more_button(part, shown, len(items))

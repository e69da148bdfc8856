"""The desk pages' share of Streamlit: this judge's desk in st.session_state, messages carried to the
next run, and the process-wide read-only resources (card library, rules)."""

from __future__ import annotations

import types

import streamlit as st

import engine
from app_pages import common
from desk import model
from rules_index import RulesIndex

MESSAGE_ICONS = types.MappingProxyType(
    {"error": common.ICON_ERROR, "success": common.ICON_OK, "warning": common.ICON_WARNING}
)


@st.cache_resource(show_spinner=False)
def library() -> engine.CardLibrary:
    """The card library (immutable after build: safe to share between sessions)."""
    return engine.load_library()


def rules() -> RulesIndex:
    """The process-wide rules (built once by the rules browser's cache), for validating scenarios."""
    return common.base_rules().index


def current() -> model.Desk:
    desk = st.session_state.get("desk")
    if not isinstance(desk, model.Desk):
        desk = model.Desk()
        st.session_state["desk"] = desk
    return desk


def store(desk: model.Desk, loaded: bool = False) -> None:
    """Store the desk; `loaded` (a new desk from a file, a link or the library) renews the form keys so
    the title and setup widgets show the new desk's values instead of the previous desk's."""
    st.session_state["desk"] = desk
    if loaded:
        st.session_state["desk_gen"] = int(st.session_state.get("desk_gen", 0)) + 1


def gen() -> int:
    return int(st.session_state.get("desk_gen", 0))


def flash(level: str, text: str) -> None:
    """A message for the next run (a callback's outcome, shown where the page draws messages)."""
    st.session_state.setdefault("desk_flash", []).append((level, text))


def show_flash() -> None:
    for level, text in st.session_state.pop("desk_flash", []):
        # Messages carry file names, card names and parser text: escaped, so they show as written.
        show = {"error": st.error, "success": st.success, "warning": st.warning}.get(level, st.info)
        show(common.escape_md(text), icon=MESSAGE_ICONS.get(level, common.ICON_INFO))


def replayed(desk: model.Desk) -> model.Replay | str:
    """The desk played out (cached per session by the desk's identity), or a Russian error."""
    key = desk.key()
    cached = st.session_state.get("desk_replay")
    if isinstance(cached, tuple) and cached[0] == key:
        return cached[1]  # type: ignore[no-any-return]
    try:
        rp: model.Replay | str = model.replay(desk, library())
    except (engine.SetupError, model.DeskError) as exc:
        rp = f"Позицию нельзя построить: {exc}"
    st.session_state["desk_replay"] = (key, rp)
    return rp

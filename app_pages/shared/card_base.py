"""Which card base this judge's window uses, and the process-wide read-only copies of the bases.

A base is read once per process per id (`st.cache_resource`: the `Loaded` bundle is immutable), and
each window keeps only the id of its base in `st.session_state`. A window starts with the server's
default base (the embedded library until a judge makes an imported base the default); a link with
`?base=<id>` switches to that base. A base that imported but could not be stored lives in this
window's session alone.

The desk calls `current_library()` where it called `engine.load_library()`.
"""

from __future__ import annotations

import streamlit as st

import cardbase
import engine
from app_pages.shared import common
from cardbase import explain, links, store

_BASE_KEY = "cards_base_id"
_UNSTORED_KEY = "cards_base_unstored"  # a Loaded that could not be stored (this window only)
_PROBLEM_KEY = "cards_base_problem"


@st.cache_resource(show_spinner="Загружаю базу карт…", max_entries=8)
def _loaded(bid: str) -> cardbase.Loaded:
    """A base by id, read and indexed once per process (raises CardBaseError)."""
    return cardbase.Loaded.of(cardbase.open_base(bid))


def card_store() -> store.CardStore:
    """The server's store (it holds only a path: nothing shared is mutable)."""
    return store.default_store()


def current_id() -> str:
    bid = st.session_state.get(_BASE_KEY)
    return bid if isinstance(bid, str) else card_store().default_id()


def use(bid: str) -> None:
    """Make a stored base (or BUILTIN) this window's base."""
    st.session_state[_BASE_KEY] = bid
    st.session_state.pop(_UNSTORED_KEY, None)
    st.session_state.pop(_PROBLEM_KEY, None)


def use_unstored(loaded: cardbase.Loaded) -> None:
    """Make a base that could not be stored this window's base (it goes with the session)."""
    st.session_state[_UNSTORED_KEY] = loaded
    st.session_state[_BASE_KEY] = loaded.base.id


def follow_link() -> None:
    """A link's `?base=<id>` makes that base this window's, once (an unknown id is said so)."""
    wanted = str(st.query_params.get(links.BASE_PARAM, "")).strip()
    if not wanted or wanted == st.session_state.get("cards_base_link_seen"):
        return
    st.session_state["cards_base_link_seen"] = wanted
    if wanted == current_id():
        return
    if wanted == cardbase.BUILTIN or card_store().get(wanted) is not None:
        use(wanted)
    else:
        st.session_state[_PROBLEM_KEY] = (
            f"Ссылка сделана по базе карт «{wanted}», а её на сервере нет (удалили или ссылка неверна). "
            "Открыта база этого окна."
        )


def current() -> cardbase.Loaded:
    """This window's base; one that fails to read falls back to the embedded library (the reason
    is kept for `problem()`)."""
    unstored = st.session_state.get(_UNSTORED_KEY)
    if isinstance(unstored, cardbase.Loaded) and unstored.base.id == current_id():
        return unstored
    bid = current_id()
    try:
        return _loaded(bid)
    except cardbase.CardBaseError as exc:
        st.session_state[_PROBLEM_KEY] = f"{exc} Открыта встроенная библиотека движка."
        st.session_state[_BASE_KEY] = cardbase.BUILTIN
        return _loaded(cardbase.BUILTIN)


def problem() -> str | None:
    value = st.session_state.get(_PROBLEM_KEY)
    return value if isinstance(value, str) else None


def take_problem() -> str | None:
    """`problem()`, said once (the desk shows it among its messages)."""
    value = st.session_state.pop(_PROBLEM_KEY, None)
    return value if isinstance(value, str) else None


def current_library() -> engine.CardLibrary:
    """The engine library of this window's base: what the desk should pass to the engine."""
    return current().library


def forget_cache() -> None:
    """After a base is removed, drop the process's copies (other windows re-read on next use)."""
    _loaded.clear()


def modelled_markdown(m: cardbase.Modelled, *, source: bool = True) -> str:
    """One modelled feature of a card as a Markdown list item: its name, parameters, where it was
    read from (`source`) and what of it the engine does not model."""
    ex = explain.explain(m)
    lines = [f"- **{common.escape_md(ex.title)}**"]
    lines += [f"  - {common.escape_md(p)}" for p in ex.params]
    if source:
        lines.append(f"  - откуда: {common.escape_md(ex.source)}")
    if ex.caveat:
        lines.append(f"  - не смоделировано: {common.escape_md(ex.caveat)}")
    return "\n".join(lines)

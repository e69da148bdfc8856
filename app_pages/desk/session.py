"""The desk pages' share of Streamlit: this judge's desk in st.session_state, the selected card,
the open card form, a desk waiting for «заменить?», messages carried to the next run, and the
process-wide read-only resources (card library, rules).

The card library is this window's card base (app_pages.card_base: the embedded library until a
base is loaded; each base is read once per process and shared read-only); a link's `?base=<id>`
switches the window to that base first."""

from __future__ import annotations

import types
from collections.abc import Mapping
from typing import Any

import streamlit as st

import engine
from app_pages.desk import taps
from app_pages.shared import card_base, common
from desk import model
from rules_index import RulesIndex

MESSAGE_ICONS = types.MappingProxyType(
    {"error": common.ICON_ERROR, "success": common.ICON_OK, "warning": common.ICON_WARNING}
)
_SHOW = types.MappingProxyType({"error": st.error, "success": st.success, "warning": st.warning})


def fold(label: str, key: str, **kw: Any) -> Any | None:
    """A folded part whose content runs only while it is open (one tap opens it): the container to
    draw into, or None while folded. A desk action then never pays for the text, the files or the
    trace nobody is reading."""
    box = st.expander(label, key=key, on_change="rerun", **kw)
    return box if box.open else None


class Folds:
    """Folded parts drawn one after another (the desk's parts under the field: the text, saving, the
    journal, opening another desk …). A closed part is its summary alone, gathered with the closed
    parts beside it into one element of ours (taps.Row with `fold`: one tap opens it); an open part
    is Streamlit's expander under the same key (`fold`), with its content; its summary closes it.
    A switch to the desk drew its six closed parts as six expanders, each a block of Streamlit's
    own (issue 24: about 30 ms of the browser's time, six messages); now they are one element, the
    same bytes as the last run's (sent as a reference to them). Whether a part is open is kept
    under its key either way (a test opens it as a judge would: helpers.unfold). Anything else drawn
    among them is drawn after `flush`."""

    def __init__(self, prefix: str) -> None:
        self.bar = taps.Bar(prefix)

    def fold(self, label: str, key: str, icon: str | None = None) -> Any | None:
        """The open part's container to draw into, or None while it is closed (its summary kept
        for the bar)."""
        if taps.is_open(key):
            self.bar.flush()
            return fold(label, key, icon=icon)
        symbol = icon[len(":material/") : -1] if icon and icon.startswith(":material/") else ""
        self.bar.add(taps.Row(key, fold=label, icon=symbol))
        return None

    def flush(self) -> None:
        """Draw the closed parts' summaries gathered so far."""
        self.bar.flush()


def library() -> engine.CardLibrary:
    """This window's card library: its card base's (after a link's `?base=` is followed), cached
    per base id by card_base; immutable, so safe to share between sessions."""
    card_base.follow_link()
    return card_base.current_library()


def base_id() -> str:
    """The id of the base the desk's library comes from (the replay cache is per base)."""
    card_base.follow_link()
    return card_base.current().base.id


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
        st.session_state["desk_gen"] = gen() + 1
        st.session_state.pop("desk_sel", None)
        st.session_state.pop("desk_dialog", None)


def gen() -> int:
    return int(st.session_state.get("desk_gen", 0))


def serial(name: str) -> int:
    """A counter that renews a widget's key (a form that must not keep the previous card's values)."""
    return int(st.session_state.get(f"desk_serial_{name}", 0))


def renew(name: str) -> None:
    st.session_state[f"desk_serial_{name}"] = serial(name) + 1


def flash(level: str, text: str, where: str = "answer") -> None:
    """A message for the next run, shown where the judge is looking (the panel's answer box);
    `where` is kept for callers that name a place."""
    st.session_state.setdefault("desk_flash", []).append((level, text, where))


def show_flash(answering: str = "") -> None:
    """Show the messages waiting and count them (the page scrolls a new answer into view). The last
    ones stay on later runs while `answering` (the desk and the selection they answered) is the
    same: a run that answers nothing new (leaving a text box sends one) must not take them away, or
    everything under them moves up as the judge clicks there and the click is lost."""
    shown = list(st.session_state.get("desk_flash", []))
    st.session_state["desk_flash"] = []
    if shown:
        st.session_state["desk_flash_seen"] = int(st.session_state.get("desk_flash_seen", 0)) + len(shown)
        st.session_state["desk_flash_kept"] = (answering, shown)
    else:
        kept = st.session_state.get("desk_flash_kept")
        if isinstance(kept, tuple) and kept[0] == answering:
            shown = list(kept[1])
        else:
            st.session_state.pop("desk_flash_kept", None)
    for level, text, _ in shown:
        # Messages carry file names, card names and parser text: escaped, so they show as written.
        _SHOW.get(level, st.info)(common.escape_md(text), icon=MESSAGE_ICONS.get(level, common.ICON_INFO))


def replayed(desk: model.Desk) -> model.Replay | str:
    """The desk played out (cached per session by the desk's identity), or a Russian error."""
    key = (base_id(), desk.key())
    cached = st.session_state.get("desk_replay")
    if isinstance(cached, tuple) and cached[0] == key:
        return cached[1]  # type: ignore[no-any-return]
    try:
        rp: model.Replay | str = model.replay(desk, library())
    except (engine.SetupError, model.DeskError) as exc:
        rp = f"Позицию нельзя построить: {exc}"
    st.session_state["desk_replay"] = (key, rp)
    return rp


def props_of(state: engine.GameState) -> dict[str, dict[str, Any]]:
    return {cid: dict(engine.card_props(state, cid)) for cid in state.card_ids()}


def current_props() -> dict[str, dict[str, Any]]:
    rp = replayed(current())
    return {} if isinstance(rp, str) else props_of(rp.current)


def selected(props: Mapping[str, object]) -> str | None:
    """The selected card, if it is still on this desk."""
    cid = st.session_state.get("desk_sel")
    return cid if isinstance(cid, str) and cid in props else None


def select(cid: str | None) -> None:
    st.session_state["desk_sel"] = cid


def open_dialog(kind: str, where: str, name: str = "", note: str = "") -> None:
    """Open the card form («cell», c4) with fresh widget keys: nothing carries over. `name`
    pre-fills its card (a «поставить на стол» link), `note` says where that card comes from."""
    renew("dialog")
    st.session_state["desk_dialog"] = (kind, where)
    if name:
        st.session_state[f"{dialog_key()}_name"] = name
    st.session_state["desk_dialog_note"] = note


def dialog_key() -> str:
    """The widget-key prefix of the open card form (renewed with every form)."""
    return f"desk_new_{serial('dialog')}"


def dialog_note() -> str:
    return str(st.session_state.get("desk_dialog_note") or "")


def close_dialog() -> None:
    st.session_state.pop("desk_dialog", None)
    st.session_state.pop("desk_dialog_note", None)


def dialog() -> tuple[str, str] | None:
    value = st.session_state.get("desk_dialog")
    return value if isinstance(value, tuple) else None


def offer(desk: model.Desk, message: str, ask: bool | None = None) -> None:
    """Put `desk` on the table: at once on an empty desk, after «заменить?» on one with work."""
    now = current()
    if ask is None:
        ask = now.has_work and desk != now
    if ask:
        st.session_state["desk_offer"] = (desk, message)
        return
    store(desk, loaded=True)
    flash("success", message)


def offered() -> tuple[model.Desk, str] | None:
    value = st.session_state.get("desk_offer")
    return value if isinstance(value, tuple) else None


def accept_offer() -> None:
    value = offered()
    st.session_state.pop("desk_offer", None)
    if value is not None:
        store(value[0], loaded=True)
        flash("success", value[1])


def decline_offer() -> None:
    if st.session_state.pop("desk_offer", None) is not None:
        flash("info", "Стол оставлен как был.")

"""«Стол судьи»: set up the disputed position, apply actions, read the engine's trace, save, share, record.

The engine decides everything; this page draws the desk kept in st.session_state["desk"] (one judge's
desk per session) and turns clicks into engine actions. Text a judge typed (card names, titles, file
names) is shown with st.text or as widget option labels, never as Markdown or HTML.
"""

from __future__ import annotations

import dataclasses
import types
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import streamlit as st

import casebook
import engine
import lexicon
from app_pages import common
from app_pages import desk_model as dm
from app_pages import journal as journal_page
from rules_index import RulesIndex

ROOT = Path(__file__).resolve().parent.parent
MAX_UPLOAD_BYTES = casebook.MAX_BYTES
COLUMNS = "abcde"
ZONES = (
    ("aux", "Вспомогательная зона"),
    ("hand", "Рука"),
    ("deck", "Колода (сверху вниз)"),
    ("graveyard", "Кладбище"),
    ("exile", "Изгнание"),
)
SUBTYPE_RU = types.MappingProxyType(
    {
        "ground": "наземное",
        "flyer": "летающее",
        "companion": "симбиот-компаньон",
        "parasite": "симбиот-паразит",
    }
)
TYPE_RU = types.MappingProxyType({"creature": "существо", "artifact": "артефакт", "terrain": "местность"})
# The values of enumerated action arguments, in the judge's words (the YAML keeps the English keys).
ENUM_RU = types.MappingProxyType(
    {
        "strike": "удар",
        "ranged": "дальняя атака",
        "poison": "отравление",
        "magic": "магический удар",
        "influence": "воздействие",
        "top": "наверх колоды",
        "bottom": "под низ колоды",
        **TYPE_RU,
        **SUBTYPE_RU,
    }
)
# Icons are Material Symbols (Streamlit ships the font), never emoji: a browser without an emoji
# font draws emoji as empty boxes. Each icon goes with a word, so meaning never rests on colour.
KIND_VIEW = types.MappingProxyType(
    {  # trace step kind -> (icon, Russian word)
        "allowed": (":material/check_circle:", "разрешено"),
        "forbidden": (":material/block:", "запрещено"),
        "effect": (":material/bolt:", "эффект"),
        "state_check": (":material/search:", "проверка состояния"),
        "not_applied": (":material/remove_circle:", "не применено"),
        "undetermined": (":material/help:", "не определено текстом"),
        "assumption": (":material/push_pin:", "допущение"),
        "conflict": (":material/warning:", "противоречие правил"),
    }
)
VERDICT_VIEW = types.MappingProxyType(
    {
        "legal": (":material/check_circle:", "Законно"),
        "illegal": (":material/block:", "Запрещено"),
        "undetermined": (":material/help:", "Не определено текстом правил"),
    }
)
# Plain-text marks (st.text, option labels: no icon font there) from fonts every system has.
# One mark per verdict of an option: what applying it gives (lexicon's words).
OPTION_MARKS = types.MappingProxyType(
    {v: f"{lexicon.verdict_mark(v)} {lexicon.option_mark(v)}" for v in lexicon.VERDICTS}
)
CONTROL_MARK = "⚑"
PHASE_RU = types.MappingProxyType(
    {
        "recruit": "подфаза Набора",
        "placement": "Шаг рассадки",
        "reveal": "подфаза Вскрытия",
        "battle": "бой",
    }
)
PLACE_RU = types.MappingProxyType(
    {
        "aux": "вспомогательная зона",
        "deck": "колода",
        "hand": "рука",
        "graveyard": "кладбище",
        "exile": "изгнание",
    }
)


# -- shared, read-only resources (immutable after build: safe to share between sessions) -----------


@st.cache_resource(show_spinner=False)
def _library() -> engine.CardLibrary:
    return engine.load_library()


def _rules() -> RulesIndex:
    """The process-wide rules (built once by the rules browser's cache), for validating scenarios."""
    return common.base_rules().index


@st.cache_data(show_spinner=False)
def _scenario_files() -> list[tuple[str, str, str]]:
    """(relative path, group label, title) of every scenario in the library, official first."""
    return [(e.path, e.group_label.capitalize(), e.title) for e in casebook.library_scenarios(ROOT)]


# -- session state helpers ---------------------------------------------------------------------------


def _desk() -> dm.Desk:
    desk = st.session_state.get("desk")
    if not isinstance(desk, dm.Desk):
        desk = dm.Desk()
        st.session_state["desk"] = desk
    return desk


def _set_desk(desk: dm.Desk, loaded: bool = False) -> None:
    """Store the desk; `loaded` (a new desk from a file, a link or the library) renews the form keys so
    the title and setup widgets show the new desk's values instead of the previous desk's."""
    st.session_state["desk"] = desk
    if loaded:
        st.session_state["desk_gen"] = int(st.session_state.get("desk_gen", 0)) + 1


def _gen() -> int:
    return int(st.session_state.get("desk_gen", 0))


def _cell_clicked(cell: str) -> None:
    st.session_state["desk_clicked_cell"] = cell


def _flash(level: str, text: str) -> None:
    st.session_state.setdefault("desk_flash", []).append((level, text))


def _show_flash() -> None:
    for level, text in st.session_state.pop("desk_flash", []):
        # Messages carry file names, card names and parser text: escaped, so they show as written.
        show = {"error": st.error, "success": st.success, "warning": st.warning}.get(level, st.info)
        icon = {"error": common.ICON_ERROR, "success": common.ICON_OK, "warning": common.ICON_WARNING}
        show(common.escape_md(text), icon=icon.get(level, common.ICON_INFO))


def _replay(desk: dm.Desk) -> dm.Replay | str:
    """The desk played out (cached per session by the desk's identity), or a Russian error."""
    key = desk.key()
    cached = st.session_state.get("desk_replay")
    if isinstance(cached, tuple) and cached[0] == key:
        return cached[1]  # type: ignore[no-any-return]
    try:
        rp: dm.Replay | str = dm.replay(desk, _library())
    except (engine.SetupError, dm.DeskError) as exc:
        rp = f"Позицию нельзя построить: {exc}"
    st.session_state["desk_replay"] = (key, rp)
    return rp


def clause_ref(cid: str) -> None:
    """A clause as a link into the rules browser (st.page_link: the app does not reload, so the
    judge's uploaded rules and desk stay); an assumption id as a plain label."""
    if not cid:
        st.caption("без пункта правил (служебный шаг)")
        return
    if cid.startswith("A"):
        st.caption(common.escape_md(f"допущение {cid} (не текст правил, см. допущения движка)"))
        return
    index = common.current_index()
    para = index.get(cid)
    tail = f" — {common.short(para.text, 40)}" if para is not None else ""
    common.clause_link(index, cid, label=common.escape_md(f"п. {cid}{tail}"), icon=":material/description:")


# -- loading -----------------------------------------------------------------------------------------


def _load_scenario_text(text: str, name: str) -> None:
    try:
        sc = casebook.load_scenario_text(text, name, index=_rules(), library=_library())
        desk = dm.from_scenario(sc, text, _library())
    except Exception as exc:  # invalid file (ScenarioError) or an engine fault: the desk stays as it was
        _flash("error", f"Сценарий не загружен, стол не изменился. {exc}")
        return
    _set_desk(desk, loaded=True)
    _flash("success", f"Загружен сценарий «{sc.title}» ({len(sc.steps)} шагов).")


def _load_upload(name: str, raw: bytes) -> None:
    if len(raw) > MAX_UPLOAD_BYTES:
        _flash("error", f"Файл «{name}» больше {MAX_UPLOAD_BYTES} байт; стол не изменился.")
        return
    if name.lower().endswith(".json"):
        try:
            desk = dm.from_file_text(raw)
            dm.replay(desk, _library())
        except (dm.DeskError, engine.SetupError) as exc:
            _flash("error", f"Файл стола «{name}» не открыт, стол не изменился: {exc}")
            return
        _set_desk(desk, loaded=True)
        _flash("success", f"Открыт стол из файла «{name}».")
        return
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        _flash("error", f"Файл «{name}» не в кодировке UTF-8; стол не изменился.")
        return
    _load_scenario_text(text, name)


def _load_from_url() -> None:
    """`?scn=<library path>` opens a library scenario (only a path we listed ourselves: the parameter is
    looked up, never joined into a path); `?desk=<token>` opens a shared desk."""
    wanted = st.query_params.get("scn")
    if not wanted:
        st.session_state.pop("desk_url_scn", None)  # the same scenario link, clicked again, reopens it
    if wanted and wanted != st.session_state.get("desk_url_scn"):
        st.session_state["desk_url_scn"] = wanted
        known = {f[0]: f for f in _scenario_files()}
        if wanted in known:
            path = ROOT / known[wanted][0]
            try:
                _load_scenario_text(path.read_text(encoding="utf-8"), known[wanted][0])
            except (OSError, UnicodeDecodeError) as exc:
                _flash("error", f"Сценарий не прочитан: {exc}")
        else:
            _flash("error", "Такого сценария в библиотеке нет; стол не изменился.")
        return
    token = st.query_params.get("desk")
    if not token or token == st.session_state.get("desk_url_token"):
        return
    st.session_state["desk_url_token"] = token
    try:
        desk = dm.decode(str(token))
        dm.replay(desk, _library())
    except (dm.DeskError, engine.SetupError) as exc:
        _flash("error", f"Ссылка на стол не открылась: {exc}")
        return
    _set_desk(desk, loaded=True)


# -- drawing the desk --------------------------------------------------------------------------------


def card_text(p: Mapping[str, Any], cid: str) -> str:
    """One card in words: name, id, owner, controller with its marker, class, states, wounds, tokens."""
    kind = SUBTYPE_RU.get(str(p.get("subtype")), "") if p.get("type") == "creature" else ""
    kind = kind or TYPE_RU.get(str(p.get("type")), str(p.get("type")))
    parts = [f"{p.get('name')} [{cid}]", kind]
    if p.get("incorporeal"):
        parts.append("бестелесное")
    parts.append(f"владелец {p.get('owner')}")
    if p.get("control_marker"):
        parts.append(f"{CONTROL_MARK} маркер контроля: управляет {p.get('controller')}")
    parts.append("закрыта" if p.get("closed") else "открыта")
    parts.append("скрыта" if p.get("hidden") else "вскрыта")
    life = p.get("life")
    if p.get("type") == "creature":
        parts.append(f"раны {p.get('wounds', 0)}/{life if life is not None else '?'}")
    if p.get("tokens"):
        parts.append(f"жетоны {p.get('tokens')}")
    if p.get("alive") is False:
        parts.append("погибло")
    return " · ".join(str(x) for x in parts if x)


def card_block(p: Mapping[str, Any], cid: str, symbiote: bool = False) -> str:
    """The same facts as card_text, one short line each, for a narrow grid cell."""
    kind = SUBTYPE_RU.get(str(p.get("subtype")), "") if p.get("type") == "creature" else ""
    kind = kind or TYPE_RU.get(str(p.get("type")), str(p.get("type")))
    lines = [("↳ симбиот: " if symbiote else "") + f"{p.get('name')} [{cid}]", kind]
    if p.get("incorporeal"):
        lines.append("бестелесное")
    lines.append(f"владелец {p.get('owner')}")
    if p.get("control_marker"):
        lines.append(f"{CONTROL_MARK} маркер: управляет {p.get('controller')}")
    lines.append(
        ("закрыта" if p.get("closed") else "открыта") + ", " + ("скрыта" if p.get("hidden") else "вскрыта")
    )
    if p.get("type") == "creature":
        life = p.get("life")
        lines.append(f"раны {p.get('wounds', 0)}/{life if life is not None else '?'}")
    if p.get("tokens"):
        lines.append(f"жетоны {p.get('tokens')}")
    if p.get("alive") is False:
        lines.append("погибло")
    return "\n".join(str(x) for x in lines if x)


def _row_label(row: int) -> str:
    if row <= 3:
        return f"ряд {row} — {4 - row}-й ряд игрока A"
    return f"ряд {row} — {row - 3}-й ряд игрока B"


def _props(state: engine.GameState) -> dict[str, dict[str, Any]]:
    return {cid: dict(engine.card_props(state, cid)) for cid in state.card_ids()}


def _draw_grid(
    props: Mapping[str, Mapping[str, Any]], marks: Mapping[str, tuple[str, str]], pick: str
) -> None:
    """The 5×6 field, B's half on top (rows 6–4), A's below (rows 3–1). `marks` are the legal (True)
    and refused (False) cells of the chosen action; `pick` names what a click on a cell fills in."""
    by_cell: dict[str, list[str]] = {}
    for cid, p in props.items():
        if p.get("zone") == "battle" and p.get("cell") and not p.get("host"):
            by_cell.setdefault(str(p["cell"]), []).append(cid)
    st.html(_GRID_CSS)
    with st.container(key="desk_grid"):
        _draw_grid_cells(by_cell, props, marks, pick)


# Streamlit stacks columns one under another below 640 px: 30 cells in a column is no battlefield.
# On a narrow screen the grid keeps its five columns with smaller type (a static style of ours;
# nothing a judge typed goes into it).
_GRID_CSS = """<style>
@media (max-width: 640px) {
  .st-key-desk_grid [data-testid="stHorizontalBlock"] {
    flex-wrap: nowrap !important; gap: 0.2rem !important;
  }
  .st-key-desk_grid [data-testid="stColumn"] {
    min-width: 0 !important; width: 20% !important; flex: 1 1 0 !important;
  }
  .st-key-desk_grid [data-testid="stLayoutWrapper"] > [data-testid="stVerticalBlock"] {
    padding: 0.2rem !important; gap: 0.3rem !important;
  }
  .st-key-desk_grid [data-testid="stText"] { font-size: 0.6rem; line-height: 1.15; overflow-wrap: anywhere; }
  .st-key-desk_grid button { padding: 0.1rem 0.2rem !important; min-height: 2rem; }
  .st-key-desk_grid button p { font-size: 0.65rem; }
}
</style>"""


def _draw_grid_cells(
    by_cell: Mapping[str, list[str]],
    props: Mapping[str, Mapping[str, Any]],
    marks: Mapping[str, tuple[str, str]],
    pick: str,
) -> None:
    for half, rows in (("B", (6, 5, 4)), ("A", (3, 2, 1))):
        st.markdown(f"**Половина игрока {half}**")
        for row in rows:
            st.caption(_row_label(row))
            cols = st.columns(5, gap="small")
            for col, letter in zip(cols, COLUMNS, strict=True):
                cell = f"{letter}{row}"
                with col.container(border=True):
                    mark = marks.get(cell)
                    label = cell
                    if mark is not None:
                        label += " " + OPTION_MARKS[mark[0]]
                    st.button(
                        label,
                        key=f"desk_cell_{cell}",
                        # Tooltips and radio options render Markdown: a card name a judge typed is escaped.
                        help=common.escape_md(mark[1]) if mark else f"Клетка {cell}: {pick}",
                        type="primary" if mark is not None and mark[0] else "secondary",
                        width="stretch",
                        on_click=_cell_clicked,
                        args=(cell,),
                    )
                    for cid in by_cell.get(cell, []):
                        st.text(card_block(props[cid], cid))
                        sym = props[cid].get("symbiote")
                        if sym and str(sym) in props:
                            st.text(card_block(props[str(sym)], str(sym), symbiote=True))


def _draw_table(props: Mapping[str, Mapping[str, Any]], marks: Mapping[str, tuple[str, str]]) -> None:
    """The field as a 6×5 text table that keeps its shape on a narrow screen (rows 6→1, B on top)."""
    rows: dict[str, list[str]] = {}
    for row in (6, 5, 4, 3, 2, 1):
        label = f"{row} ({'B' if row >= 4 else 'A'}: {row - 3 if row >= 4 else 4 - row}-й ряд)"
        line = []
        for letter in COLUMNS:
            cell = f"{letter}{row}"
            parts = []
            mark = marks.get(cell)
            if mark is not None:
                parts.append(OPTION_MARKS[mark[0]])
            for cid, p in props.items():
                if p.get("zone") == "battle" and p.get("cell") == cell:
                    flag = f" {CONTROL_MARK}" + str(p.get("controller")) if p.get("control_marker") else ""
                    prefix = "↳ " if p.get("host") else ""
                    wounds = f"{p.get('wounds', 0)}/{p.get('life')}"
                    parts.append(f"{prefix}{p.get('name')} [{cid}] {p.get('owner')}{flag} {wounds}")
            line.append("; ".join(parts))
        rows[label] = line
    st.dataframe(
        {"ряд": list(rows), **{c: [rows[r][i] for r in rows] for i, c in enumerate(COLUMNS)}},
        hide_index=True,
        key="desk_table",
    )


def _draw_zones(props: Mapping[str, Mapping[str, Any]], state: engine.GameState) -> None:
    for player in ("A", "B"):
        st.markdown(f"**Игрок {player}{' — активный' if state.active == player else ''}**")
        shown = 0
        for zone, label in ZONES:
            if zone == "deck":
                ids = [cid for cid in state.deck(player) if cid in props]
            else:
                ids = [
                    cid
                    for cid, p in props.items()
                    if p.get("zone") == zone
                    and (p.get("controller") if zone == "aux" else p.get("owner")) == player
                ]
            if not ids:
                continue
            shown += 1
            st.caption(f"{label}: {len(ids)}")
            for cid in ids:
                st.text(card_text(props[cid], cid))
        if not shown:
            st.caption("вспомогательная зона, рука, колода, кладбище и изгнание пусты")


def _draw_trace(steps: Sequence[engine.TraceStep], depth: int = 0) -> None:
    """Each step: its kind (icon and word; forbidden ones in a red box), its clause as a link, the
    reason and the changes. Nested steps sit in a bordered box under their parent."""
    for step in steps:
        icon, word = KIND_VIEW.get(step.kind, (":material/circle:", step.kind))
        head = f"**{word}**" + (f" — п. {common.escape_md(step.clause)}" if step.clause[:1].isdigit() else "")
        if step.kind in ("forbidden", "conflict"):
            st.error(head, icon=icon)
        elif step.kind == "undetermined":
            st.warning(head, icon=icon)
        else:
            st.markdown(f"{icon} {head}")
        clause_ref(step.clause)
        st.text(step.reason)
        for change in step.changes:
            st.text("→ " + change)
        if step.children:
            with st.container(border=True):
                _draw_trace(step.children, depth + 1)


def action_words(action: engine.Action) -> str:
    """The action in the judge's words: «Объявить нападение: атакующий — vail, цель — many»."""
    data = action.to_dict()
    kind = next(iter(data), "")
    spec = engine.ACTION_SPECS.get(kind)
    if spec is None:
        return repr(action)
    labels = {a.name: a.label for a in spec.args}
    args = data.get(kind, {})
    parts = []
    for name, value in args.items():
        shown = ", ".join(map(str, value)) if isinstance(value, list | tuple) else str(value)
        parts.append(f"{labels.get(name, name)} — {PLACE_RU.get(shown, ENUM_RU.get(shown, shown))}")
    return spec.label + (": " + "; ".join(parts) if parts else "")


def _verdict_banner(outcome: engine.Outcome, action: engine.Action) -> None:
    icon, word = VERDICT_VIEW.get(outcome.verdict, (":material/circle:", outcome.verdict))
    forbidden = list(dict.fromkeys(outcome.forbidden_by))
    by = ", ".join(f"п. {c}" if c[:1].isdigit() else f"допущение {c}" for c in forbidden)
    text = f"**{word}**" + (f" — запрещает {common.escape_md(by)}" if by else "")
    {"legal": st.success, "illegal": st.error}.get(outcome.verdict, st.warning)(text, icon=icon)
    for cid in forbidden:
        clause_ref(cid)
    st.text(action_words(action) + "\n" + repr(action))


# -- forms: setup ------------------------------------------------------------------------------------


def _place_options(desk: dm.Desk) -> list[str]:
    cells = [f"{c}{r}" for r in range(1, 7) for c in COLUMNS]
    return [*cells, "aux", "hand", "deck", "graveyard", "exile", "host"]


def _place_label(value: str) -> str:
    if value == "host":
        return "на карту (симбиот)"
    return PLACE_RU.get(value, f"клетка {value}")


def _setup_changed(field: str, key: str) -> None:
    value = st.session_state.get(key)
    if value is None:
        return
    desk = _desk()
    if desk.started:
        return
    if field == "phase":
        desk = dataclasses.replace(desk, phase=str(value))
    elif field == "active":
        desk = dataclasses.replace(desk, active=str(value))
    elif field == "turn":
        desk = dataclasses.replace(desk, turn=int(value))
    else:
        desk = dataclasses.replace(desk, seed=int(value))
    _set_desk(desk)


def _setup_panel(desk: dm.Desk, clicked: str | None) -> None:
    lib = _library()
    st.markdown("**Позиция до начала действий**")
    c1, c2, c3, c4 = st.columns(4)
    phases = list(PHASE_RU)
    g = _gen()
    # Each widget writes to the desk only when the judge changes it (on_change), so a desk that
    # arrives from a file or a link is never overwritten by the widgets' previous values.
    c1.selectbox(
        "Фаза",
        phases,
        index=phases.index(desk.phase),
        format_func=lambda ph: PHASE_RU.get(ph, ph),
        key=f"desk_phase_{g}",
        on_change=_setup_changed,
        args=("phase", f"desk_phase_{g}"),
    )
    c2.radio(
        "Активный игрок",
        ["A", "B"],
        index=["A", "B"].index(desk.active),
        key=f"desk_active_{g}",
        horizontal=True,
        on_change=_setup_changed,
        args=("active", f"desk_active_{g}"),
    )
    c3.number_input(
        "Ход",
        min_value=1,
        max_value=999,
        value=desk.turn,
        key=f"desk_turn_{g}",
        on_change=_setup_changed,
        args=("turn", f"desk_turn_{g}"),
    )
    c4.number_input(
        "Зерно перемешивания",
        min_value=0,
        max_value=2**31,
        value=desk.seed,
        key=f"desk_seed_{g}",
        on_change=_setup_changed,
        args=("seed", f"desk_seed_{g}"),
    )

    if clicked:
        st.session_state["desk_add_at"] = clicked
    with st.form("desk_add_form", clear_on_submit=False):
        st.markdown("**Добавить карту** (клик по клетке поля выбирает её здесь)")
        source = st.radio(
            "Откуда",
            ["library", "adhoc"],
            horizontal=True,
            key="desk_add_source",
            format_func=lambda s: "из библиотеки" if s == "library" else "своя карта по шаблону",
        )
        a1, a2 = st.columns(2)
        name = a1.selectbox("Карта из библиотеки", lib.names(), key="desk_add_name")
        template = a2.selectbox("Шаблон своей карты", lib.templates(), key="desk_add_template")
        b1, b2, b3 = st.columns(3)
        adhoc_name = b1.text_input("Название своей карты", key="desk_add_adhoc_name", max_chars=80)
        adhoc_life = b2.number_input(
            "Жизнь своей карты", min_value=0, max_value=99, value=5, key="desk_add_life"
        )
        adhoc_incorporeal = b3.checkbox("Бестелесное", key="desk_add_incorporeal")
        d1, d2, d3 = st.columns(3)
        owner = d1.radio("Владелец", ["A", "B"], horizontal=True, key="desk_add_owner")
        controller = d2.radio("Управляет", ["владелец", "A", "B"], horizontal=True, key="desk_add_controller")
        cid = d3.text_input("id (латиницей; пусто — подберу)", key="desk_add_id", max_chars=40)
        e1, e2 = st.columns(2)
        at = e1.selectbox("Где", _place_options(desk), format_func=_place_label, key="desk_add_at")
        ids = [str(c.get("id")) for c in desk.cards]
        host = e2.selectbox("Хозяин (для симбиота)", ["", *ids], key="desk_add_host")
        f1, f2, f3, f4, f5 = st.columns(5)
        closed = f1.checkbox("Закрыта", key="desk_add_closed")
        hidden = f2.checkbox("Скрыта", key="desk_add_hidden")
        wounds = int(f3.number_input("Раны", min_value=0, max_value=99, key="desk_add_wounds"))
        tokens = int(f4.number_input("Жетоны", min_value=0, max_value=99, key="desk_add_tokens"))
        incarnated = f5.checkbox("Инкарнирована", key="desk_add_incarnated")
        submitted = st.form_submit_button("Положить карту", type="primary", key="desk_add_submit")
    if submitted:
        if source == "adhoc":
            if not adhoc_name.strip():
                st.error("Укажите название своей карты.")
                return
            adhoc: dict[str, Any] = {
                "template": str(template),
                "name": adhoc_name.strip(),
                "life": int(adhoc_life),
            }
            if adhoc_incorporeal:
                adhoc["incorporeal"] = True
            card: str | dict[str, Any] = adhoc
            base = cid.strip() or "card"
        else:
            card = str(name)
            base = cid.strip() or _latin_id(str(name))
        new_id = cid.strip() if cid.strip() else dm.new_card_id(desk, base)
        entry: dict[str, Any] = {"id": new_id, "card": card, "owner": owner}
        if at == "host":
            if not host:
                st.error("Выберите хозяина для симбиота.")
                return
            entry["host"] = host
        else:
            entry["at"] = at
        if controller in ("A", "B") and controller != owner:
            entry["controller"] = controller
        for key, value in (("closed", closed), ("hidden", hidden), ("incarnated", incarnated)):
            if value:
                entry[key] = True
        if wounds:
            entry["wounds"] = wounds
        if tokens:
            entry["tokens"] = tokens
        _put(desk, entry, f"Карта {new_id} на столе.")

    if desk.cards:
        st.markdown("**Изменить или убрать карту**")
        g1, g2 = st.columns([3, 1])
        ids = [str(c.get("id")) for c in desk.cards]
        chosen = g1.selectbox("Карта", ids, key="desk_edit_pick")
        entry_now = next(c for c in desk.cards if c.get("id") == chosen)
        if g2.button("Убрать карту", key="desk_remove"):
            try:
                _set_desk(dm.remove_card(desk, str(chosen), lib))
                _flash("success", f"Карта {chosen} убрана.")
            except (dm.DeskError, engine.SetupError) as exc:
                _flash("error", f"Карта не убрана: {exc}")
            st.rerun()
        with st.form(f"desk_edit_form_{chosen}"):
            places = _place_options(desk)
            now_at = "host" if entry_now.get("host") else str(entry_now.get("at", "a1"))
            h1, h2, h3 = st.columns(3)
            new_at = h1.selectbox(
                "Где",
                places,
                index=places.index(now_at) if now_at in places else 0,
                format_func=_place_label,
                key=f"desk_edit_at_{chosen}",
            )
            host_options = ["", *[i for i in ids if i != chosen]]
            now_host = str(entry_now.get("host") or "")
            new_host = h2.selectbox(
                "Хозяин",
                host_options,
                index=host_options.index(now_host) if now_host in host_options else 0,
                key=f"desk_edit_host_{chosen}",
            )
            ctrl_options = ["A", "B"]
            new_ctrl = h3.radio(
                "Управляет",
                ctrl_options,
                index=ctrl_options.index(str(entry_now.get("controller") or entry_now["owner"])),
                horizontal=True,
                key=f"desk_edit_ctrl_{chosen}",
            )
            i1, i2, i3, i4 = st.columns(4)
            new_closed = i1.checkbox(
                "Закрыта", value=bool(entry_now.get("closed")), key=f"desk_edit_closed_{chosen}"
            )
            new_hidden = i2.checkbox(
                "Скрыта", value=bool(entry_now.get("hidden")), key=f"desk_edit_hidden_{chosen}"
            )
            new_wounds = int(
                i3.number_input(
                    "Раны",
                    min_value=0,
                    max_value=99,
                    value=int(entry_now.get("wounds", 0)),
                    key=f"desk_edit_wounds_{chosen}",
                )
            )
            new_tokens = int(
                i4.number_input(
                    "Жетоны",
                    min_value=0,
                    max_value=99,
                    value=int(entry_now.get("tokens", 0)),
                    key=f"desk_edit_tokens_{chosen}",
                )
            )
            if st.form_submit_button("Сохранить карту", key=f"desk_edit_submit_{chosen}"):
                edited = {k: v for k, v in entry_now.items() if k not in ("at", "host", "controller")}
                if new_at == "host":
                    edited["host"] = new_host
                else:
                    edited["at"] = new_at
                if new_ctrl != entry_now["owner"]:
                    edited["controller"] = new_ctrl
                for key, value in (("closed", new_closed), ("hidden", new_hidden)):
                    edited.pop(key, None)
                    if value:
                        edited[key] = True
                for key, num in (("wounds", new_wounds), ("tokens", new_tokens)):
                    edited.pop(key, None)
                    if num:
                        edited[key] = num
                _put(desk, edited, f"Карта {chosen} изменена.")


def _latin_id(name: str) -> str:
    table = str.maketrans(
        {
            "а": "a",
            "б": "b",
            "в": "v",
            "г": "g",
            "д": "d",
            "е": "e",
            "ё": "e",
            "ж": "zh",
            "з": "z",
            "и": "i",
            "й": "i",
            "к": "k",
            "л": "l",
            "м": "m",
            "н": "n",
            "о": "o",
            "п": "p",
            "р": "r",
            "с": "s",
            "т": "t",
            "у": "u",
            "ф": "f",
            "х": "h",
            "ц": "c",
            "ч": "ch",
            "ш": "sh",
            "щ": "sch",
            "ъ": "",
            "ы": "y",
            "ь": "",
            "э": "e",
            "ю": "yu",
            "я": "ya",
            " ": "_",
        }
    )
    return name.lower().translate(table)


def _put(desk: dm.Desk, entry: Mapping[str, Any], ok: str) -> None:
    try:
        _set_desk(dm.put_card(desk, entry, _library()))
    except (dm.DeskError, engine.SetupError) as exc:
        _flash("error", f"Расклад не изменился: {exc}")
    else:
        _flash("success", ok)
    st.rerun()


# -- forms: actions ----------------------------------------------------------------------------------


def _card_label(props: Mapping[str, Mapping[str, Any]], cid: str) -> str:
    if not cid:
        return "—"
    p = props.get(cid, {})
    where = p.get("cell") or PLACE_RU.get(str(p.get("zone")), p.get("zone"))
    return f"{p.get('name', cid)} [{cid}] ({where}, владелец {p.get('owner')})"


def _legal_map(state: engine.GameState, kind: str, fixed: Mapping[str, object]) -> list[engine.OptionVerdict]:
    try:
        return list(engine.legal_options(state, kind, **dict(fixed)))
    except Exception:  # the marks are a help: without them the judge still picks and applies
        return []


def _action_panel(
    desk: dm.Desk, rp: dm.Replay, props: Mapping[str, Mapping[str, Any]], clicked: str | None
) -> dict[str, tuple[str, str]]:
    """The action picker; returns the cell marks for the grid (legal/refused cells of the chosen action)."""
    state = rp.current
    pending = state.pending
    if pending is not None:
        _pending_panel(desk, pending)
        return {}
    kinds = [k for k in engine.ACTION_SPECS if k != "choose"]
    kind = st.selectbox(
        "Действие", kinds, format_func=lambda k: f"{engine.ACTION_SPECS[k].label} ({k})", key="desk_kind"
    )
    spec = engine.ACTION_SPECS[str(kind)]
    args: dict[str, object] = {}
    card_ids = list(props)
    first_card = next((a.name for a in spec.args if a.type == "card" and a.required), None)
    verdicts: list[engine.OptionVerdict] = []
    cell_arg = next((a.name for a in spec.args if a.type in ("cell", "place")), None)
    if clicked and cell_arg:
        st.session_state[f"desk_arg_{kind}_{cell_arg}"] = clicked
    elif clicked:
        on_cell = [cid for cid, p in props.items() if p.get("cell") == clicked and not p.get("host")]
        target = next(
            (
                a.name
                for a in spec.args
                if a.type == "card" and not st.session_state.get(f"desk_arg_{kind}_{a.name}")
            ),
            first_card,
        )
        if on_cell and target:
            st.session_state[f"desk_arg_{kind}_{target}"] = on_cell[0]
    marks: dict[str, tuple[str, str]] = {}
    for arg in spec.args:
        key = f"desk_arg_{kind}_{arg.name}"
        # The engine's labels may name the auxiliary zone by its YAML key «aux»: the judge reads Russian.
        label = arg.label.replace(" или aux", " или вспомогательная зона") + (
            "" if arg.required else " (необязательно)"
        )
        hints: dict[str, tuple[str, str]] = {}
        for ov in verdicts:
            offered = ov.args.get(arg.name)
            if isinstance(offered, str):
                why = f"{ov.citation}: {ov.reason}" if ov.clause else ov.reason
                hints[offered] = (ov.verdict, why)
        if arg.type == "card":
            options = ["", *card_ids]
            for hinted, mark in hints.items():  # a legal (or refused) host or target: mark its cell too
                cell = props.get(hinted, {}).get("cell")
                if cell and (str(cell) not in marks or mark[0] == "legal"):
                    marks[str(cell)] = (mark[0], f"{_card_label(props, hinted)}: {mark[1]}")

            def fmt(cid: str, hints: Mapping[str, tuple[str, str]] = hints) -> str:
                base = _card_label(props, cid)
                if cid in hints:
                    base += " — " + OPTION_MARKS[hints[cid][0]]
                return base

            if st.session_state.get(key) not in options:
                st.session_state.pop(key, None)
            value: object = st.selectbox(label, options, format_func=fmt, key=key)
            if value:
                args[arg.name] = value
        elif arg.type in ("cell", "place"):
            cells = [f"{c}{r}" for r in range(1, 7) for c in COLUMNS]
            options = ["", *cells, *(["aux"] if arg.type == "place" else [])]
            for c, h in hints.items():
                marks[c] = h

            def fmt_cell(c: str, hints: Mapping[str, tuple[str, str]] = hints) -> str:
                if not c:
                    return "—"
                shown = PLACE_RU.get(c, c)
                if c in hints:
                    shown += " — " + OPTION_MARKS[hints[c][0]]
                return shown

            if st.session_state.get(key) not in options:
                st.session_state.pop(key, None)
            value = st.selectbox(label + " (или клик по клетке поля)", options, format_func=fmt_cell, key=key)
            if value:
                args[arg.name] = value
        elif arg.type == "player":
            value = st.radio(label, ["", "A", "B"], horizontal=True, key=key, format_func=lambda p: p or "—")
            if value:
                args[arg.name] = value
        elif arg.type == "int":
            args[arg.name] = int(st.number_input(label, min_value=0, max_value=99, value=1, key=key))
        elif arg.type == "bool":
            args[arg.name] = st.checkbox(label, value=bool(arg.default), key=key)
        elif arg.type == "cells":
            cells = [f"{c}{r}" for r in range(1, 7) for c in COLUMNS]
            picked = st.multiselect(label, cells, key=key)
            if picked:
                args[arg.name] = list(picked)
        else:
            choices = list(arg.choices)
            if choices:
                default = str(arg.default) if arg.default in choices else ""
                opts = ["", *choices]
                value = st.selectbox(
                    label,
                    opts,
                    index=opts.index(default),
                    key=key,
                    format_func=lambda v: f"{ENUM_RU.get(v, v)} ({v})" if v else "—",
                )
            else:
                value = st.text_input(label, key=key, max_chars=80)
            if value:
                args[arg.name] = value
        if arg.name == first_card and arg.name in args:
            verdicts = _legal_map(state, str(kind), {arg.name: args[arg.name]})
            if verdicts:
                counts = ", ".join(
                    f"{OPTION_MARKS[v]} — {sum(1 for o in verdicts if o.verdict == v)}"
                    for v in lexicon.VERDICTS
                    if any(o.verdict == v for o in verdicts)
                )
                st.caption(f"Движок проверил вариантов: {len(verdicts)}: {counts}.")
    arg_types = tuple((a.name, a.type) for a in spec.args)
    st.button(
        "Применить действие",
        type="primary",
        key="desk_apply",
        on_click=_apply_from_widgets,
        args=(str(kind), arg_types),
    )
    return marks


def _apply_action(kind: str, args: Mapping[str, object]) -> None:
    """Apply one action to this judge's desk; a malformed action leaves the desk as it was."""
    try:
        action = engine.parse_action(kind, dict(args))
        new_desk = dm.with_action(_desk(), action)
    except (engine.ActionError, dm.DeskError) as exc:
        _flash("error", f"Действие не применено, стол не изменился: {exc}")
        return
    _set_desk(new_desk)


def _apply_from_widgets(kind: str, arg_types: tuple[tuple[str, str], ...]) -> None:
    """«Применить действие» callback: it runs before the script, so one run draws the new desk."""
    args: dict[str, object] = {}
    for name, arg_type in arg_types:
        value = st.session_state.get(f"desk_arg_{kind}_{name}")
        if value is None or value == "" or value == []:
            continue
        args[name] = (
            int(value) if arg_type == "int" else list(value) if isinstance(value, list | tuple) else value
        )
    _apply_action(kind, args)


def _choose_from_widget() -> None:
    choice = st.session_state.get("desk_choice")
    if choice is not None:
        _apply_action("choose", {"option": choice})


def _edit_desk(change: Callable[[dm.Desk], dm.Desk]) -> None:
    _set_desk(change(_desk()))


def _pending_panel(desk: dm.Desk, pending: engine.Pending) -> None:
    with st.container(border=True):
        st.markdown(f":material/help: **Нужен выбор** — решает игрок {common.escape_md(pending.who)}")
        clause_ref(pending.clause)
        st.text(pending.question)
        keys = [o.key for o in pending.options]
        labels = {o.key: o.label for o in pending.options}

        def option_label(key: str) -> str:
            return common.escape_md(labels.get(key, key))  # radio options render Markdown

        st.radio("Вариант", keys, format_func=option_label, key="desk_choice")
        st.button("Ответить", type="primary", key="desk_choose", on_click=_choose_from_widget)


# -- the page ----------------------------------------------------------------------------------------


def _short_title(path: str, title: str) -> str:
    """«211.3.1 · Остаются ли Карлик Унд паразитом…»: the clause from the file name, the question cut."""
    clause = Path(path).stem.split("_", 1)[0]
    question = title.split(": ", 1)[-1]
    return f"{clause} · {question[:40].rstrip()}{'…' if len(question) > 40 else ''}"


def _open_library_pick(key: str) -> None:
    """Open the library scenario chosen in widget `key` (a path we listed ourselves, never typed)."""
    picked = st.session_state.get(key)
    known = {f[0] for f in _scenario_files()}
    if picked not in known:
        return
    try:
        text = (ROOT / str(picked)).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        _flash("error", f"Файл {picked} не читается: {exc}")
    else:
        _load_scenario_text(text, str(picked))
    if key == "desk_official_pick":
        st.session_state[key] = None  # a pill opens its scenario; it does not stay pressed


def _load_panel(desk: dm.Desk) -> None:
    with st.expander("Открыть сценарий, файл стола или начать заново", expanded=not desk.cards):
        files = _scenario_files()
        official = [f[0] for f in files if f[0].startswith("scenarios/official/")]
        titles = {f[0]: f"{f[1]}: {f[2]}" for f in files}
        if official:
            st.pills(
                "Официальные примеры из правил (один щелчок открывает)",
                official,
                format_func=lambda p: _short_title(str(p), titles.get(str(p), str(p))),
                key="desk_official_pick",
                on_change=_open_library_pick,
                args=("desk_official_pick",),
            )
        if files:
            st.selectbox(
                "Все сценарии библиотеки: официальные примеры и разборы",
                [f[0] for f in files],
                format_func=lambda p: titles.get(p, p),
                key="desk_library_pick",
            )
            st.button(
                "Открыть сценарий",
                key="desk_library_open",
                on_click=_open_library_pick,
                args=("desk_library_pick",),
            )
        upload = st.file_uploader(
            "Свой файл: сценарий (.yaml) или стол (.json), до 1 МБ",
            type=["yaml", "yml", "json"],
            key="desk_upload",
            max_upload_size=1,
        )
        if upload is not None and st.button("Открыть файл", key="desk_upload_open"):
            _load_upload(upload.name, upload.getvalue())
            st.rerun()
        if st.button("Новый пустой стол", key="desk_new"):
            _set_desk(dm.Desk(), loaded=True)
            st.rerun()


def _history_panel(desk: dm.Desk, rp: dm.Replay) -> None:
    # Two rows of two: four buttons in one row cut their labels short even on a laptop.
    c1, c2 = st.columns(2)
    c3, c4 = st.columns(2)
    c1.button(
        "Отменить",
        icon=":material/undo:",
        key="desk_undo",
        disabled=desk.cursor == 0,
        on_click=_edit_desk,
        args=(dm.undo,),
        width="stretch",
    )
    c2.button(
        "Вернуть",
        icon=":material/redo:",
        width="stretch",
        key="desk_redo",
        disabled=desk.cursor >= len(desk.actions),
        on_click=_edit_desk,
        args=(dm.redo,),
    )
    c3.button(
        "К исходной позиции",
        icon=":material/restart_alt:",
        width="stretch",
        key="desk_restart",
        disabled=desk.cursor == 0,
        on_click=_edit_desk,
        args=(dm.restart,),
    )
    c4.button(
        "Править расклад",
        icon=":material/edit:",
        width="stretch",
        key="desk_clear",
        disabled=not desk.started,
        help="Забыть действия и вернуться к раскладке карт",
        on_click=_edit_desk,
        args=(dm.clear_actions,),
    )
    st.caption(f"Действий применено: {desk.cursor} из {len(desk.actions)}.")


def _trace_panel(rp: dm.Replay) -> None:
    if not rp.outcomes:
        st.info("Действий ещё не было: выберите действие и примените его.")
        return
    _verdict_banner(rp.outcomes[-1], rp.actions[-1])
    _draw_trace(rp.outcomes[-1].trace)
    if len(rp.outcomes) > 1:
        with st.expander(f"Все шаги ({len(rp.outcomes)})"):
            for i, (action, outcome) in enumerate(zip(rp.actions, rp.outcomes, strict=True), 1):
                icon, word = VERDICT_VIEW.get(outcome.verdict, (":material/circle:", outcome.verdict))
                st.markdown(f"{i}\\. {icon} **{word}**")
                st.text(action_words(action) + "\n" + repr(action))
                _draw_trace(outcome.trace, 1)


def _expectations_panel(desk: dm.Desk) -> None:
    if not desk.scenario_text:
        return
    try:
        sc = casebook.load_scenario_text(
            desk.scenario_text, desk.scenario_name, index=_rules(), library=_library()
        )
        result = casebook.run_scenario(sc, _rules(), _library())
    except Exception as exc:  # a broken file or an engine fault: a message, never a traceback
        st.error(common.escape_md(f"Сценарий не проверен: {exc}"))
        return
    held = sum(1 for s in result.steps for e in s.expectations if e.ok)
    total = sum(len(s.expectations) for s in result.steps)
    head = "Все ожидания сценария выполняются" if result.ok else "Не все ожидания сценария выполняются"
    icon = common.ICON_OK if result.ok else common.ICON_ERROR
    with st.expander(f"{head}: {held} из {total}", expanded=not result.ok, icon=icon):
        st.text(f"Файл: {desk.scenario_name}")
        for step in result.steps:
            good = step.status in ("ok", "xfail") and not step.failed
            mark = ":material/check_circle: как ожидалось" if good else ":material/cancel: не как ожидалось"
            verdict = VERDICT_VIEW.get(step.verdict or "", ("", step.verdict or "—"))[1].lower()
            st.markdown(f"**Шаг {step.number}** {mark} — вердикт: {common.escape_md(verdict)}")
            st.text(repr(step.action))
            for e in step.expectations:
                st.text(
                    ("✔ выполнено: " if e.ok else "✘ не выполнено: ")
                    + e.what
                    + (f" ({e.detail})" if e.detail else "")
                )
            if step.pending_unanswered is not None:
                st.text(f"✘ выбор не дан: {step.pending_unanswered.question}")
            if step.error:
                st.text(f"✘ ошибка: {step.error}")


def _save_panel(desk: dm.Desk, rp: dm.Replay) -> None:
    rules_label = _rules().version_label
    st.markdown("**Сохранить и поделиться**")
    title = st.text_input(
        "Вопрос (заголовок сценария)", value=desk.title, key=f"desk_title_{_gen()}", max_chars=300
    )
    if title != desk.title:
        _set_desk(dataclasses.replace(desk, title=title))
        desk = _desk()
    yaml_text = dm.to_scenario_yaml(desk, rp, rules=rules_label)
    c1, c2 = st.columns(2)
    c1.download_button(
        "Скачать сценарий (YAML)",
        data=yaml_text,
        file_name="stol-sudi.yaml",
        mime="application/x-yaml",
        key="desk_save_yaml",
        on_click="ignore",  # a download changes nothing: no rerun
    )
    c2.download_button(
        "Скачать файл стола (открывается точно таким же)",
        data=dm.to_file_text(desk),
        file_name="stol-sudi.json",
        mime="application/json",
        key="desk_save_json",
        on_click="ignore",  # a download changes nothing: no rerun
    )
    token = dm.encode(desk)
    base = str(getattr(st.context, "url", "") or "").split("?")[0]
    st.caption("Ссылка на этот стол (скопируйте и отправьте другому судье):")
    st.code(f"{base}?desk={token}", language=None, wrap_lines=True)
    with st.expander("Записать решение в журнал"):
        journal_page.ruling_form(
            "desk_ruling",
            prefill={
                "title": desk.title,
                "clauses": dm.cited_clauses(rp),
                "verdict": rp.outcomes[-1].verdict if rp.outcomes else "",
                "rules_version": rules_label or "",
                "scenario_yaml": yaml_text,
                "trace_json": dm.trace_json(rp),
            },
        )


def render() -> None:
    st.set_page_config(layout="wide")  # the 5×6 field needs the width; other pages keep theirs
    st.title("Стол судьи")
    _load_from_url()
    _show_flash()
    desk = _desk()
    _load_panel(desk)
    rp = _replay(desk)
    if isinstance(rp, str):
        st.error(common.escape_md(rp))
        if desk.cursor:
            st.button(
                "↶ Отменить последнее действие", key="desk_undo_broken", on_click=_edit_desk, args=(dm.undo,)
            )
        if st.button("Начать с пустого стола", key="desk_reset_broken"):
            _set_desk(dm.Desk(), loaded=True)
            st.rerun()
        return
    state = rp.current
    props = _props(state)
    turn = f", ход {state.turn}" if state.phase == "battle" else ""
    st.caption(
        f"{PHASE_RU.get(state.phase, state.phase)}{turn}; активный игрок {state.active}. Карт: {len(props)}."
    )
    if desk.title:
        st.text("Вопрос: " + desk.title)
    clicked = st.session_state.pop("desk_clicked_cell", None)
    board = st.container()  # drawn last (it needs the chosen action's marks) but shown on top
    work, side = st.columns([3, 2], gap="medium")
    with work:
        tab_act, tab_setup = st.tabs(["Действие и разбор", "Расклад"])
        with tab_setup:
            if desk.started:
                st.info("Расклад меняется до первого действия. Кнопка «Править расклад» забудет действия.")
            else:
                _setup_panel(desk, clicked)
        with tab_act:
            marks = _action_panel(desk, rp, props, clicked)
            _history_panel(desk, rp)
            _trace_panel(rp)
    with side:
        st.markdown("**Зоны вне поля**")
        _draw_zones(props, state)
    with board:
        if st.toggle("Компактное поле: таблица вместо клеток-кнопок", key="desk_compact"):
            _draw_table(props, marks)
        else:
            _draw_grid(props, marks, "выбрать её для действия или для новой карты")
    _expectations_panel(desk)
    _save_panel(desk, rp)
    # The address bar names this desk and nothing else: a «?scn=» that opened it, or a clause link's
    # «?p=» that the back button brought along, would make a shared URL open something else.
    token = dm.encode(_desk())
    if st.query_params.to_dict() != {"desk": token}:
        st.session_state["desk_url_token"] = token
        st.query_params.from_dict({"desk": token})


if __name__ == "__main__":
    render()

"""The desk in words: one formatter for a card (a line, a block for a grid cell, a label for a list),
the rows of the field, the zones beside it and an action as a judge says it.

Every word comes from lexicon; every row name from the engine's board (assumption A4). Plain
text only: the pages decide how to escape it for Markdown.
"""

from __future__ import annotations

import re
import types
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import engine
import lexicon
from casebook import wording
from rules_index import ids

Props = Mapping[str, Any]
CONTROL_MARK = "⚑"
# Plain-text marks (st.text, option labels: no icon font there) from fonts every system has.
# One mark per verdict of an option: what applying it gives.
OPTION_MARKS: Mapping[str, str] = types.MappingProxyType(
    {v: f"{lexicon.verdict_mark(v)} {lexicon.option_mark(v)}" for v in lexicon.VERDICTS}
)
ROWS_TOP_DOWN = (6, 5, 4, 3, 2, 1)


def card_class(p: Props) -> str:
    """«симбиот-паразит», «наземное существо», «артефакт»."""
    return lexicon.class_of_card(str(p.get("type")), p.get("subtype"))


def card_facts(p: Props) -> list[str]:
    """The card's facts after its name: class, owner, controller, states, wounds, tokens."""
    facts = [card_class(p)]
    if p.get("incorporeal"):
        facts.append("бестелесное")
    facts.append(f"владелец {p.get('owner')}")
    if p.get("control_marker"):
        facts.append(f"{CONTROL_MARK} маркер контроля: управляет {p.get('controller')}")
    facts.append("закрыта" if p.get("closed") else "открыта")
    facts.append("скрыта" if p.get("hidden") else "вскрыта")
    if p.get("type") == "creature":
        life = p.get("life")
        facts.append(f"раны {p.get('wounds', 0)}/{life if life is not None else '?'}")
    if p.get("tokens"):
        facts.append(f"жетоны {p.get('tokens')}")
    if p.get("alive") is False:
        facts.append("погибло")
    return facts


def names(props: Mapping[str, Props]) -> dict[str, str]:
    """Each card as a judge names it: its name, and where it is when another card has the same
    name («Орк (d4)», «Орк (в руке)»). Ids are for scenario authors, never for this."""
    counts: dict[str, int] = {}
    for p in props.values():
        key = lexicon.fold(str(p.get("name", "")))
        counts[key] = counts.get(key, 0) + 1
    out = {}
    for cid, p in props.items():
        name = str(p.get("name", cid))
        out[cid] = f"{name} ({where(p)})" if counts[lexicon.fold(name)] > 1 else name
    return out


def name_of(props: Mapping[str, Props], cid: str) -> str:
    """One card by its name (with its place when the name is not unique)."""
    return names(props).get(cid, cid)


# «Вайл» (vail) — how the engine names a card in its reasons (CardState.label).
_LABEL = re.compile(r"«([^»]+)» \(([A-Za-z_][A-Za-z0-9_\-]*)\)")


def humane(text: str, names_by_id: Mapping[str, str]) -> str:
    """An engine reason with its cards named for people: «Вайл» (vail) → «Вайл», a bare id
    («источника orc нет») → «Орк»; two cards of one name keep their places («Орк (d4)»)."""

    def label(m: re.Match[str]) -> str:
        return f"«{names_by_id.get(m.group(2), m.group(1))}»"

    text = _LABEL.sub(label, text)
    for cid, name in sorted(names_by_id.items(), key=lambda kv: -len(kv[0])):
        if engine.is_cell(cid):  # «c4» in a reason is the cell
            continue
        text = re.sub(rf"(?<![\w«/.-]){re.escape(cid)}(?![\w»/.-])", f"«{name}»", text)
    return text


def card_text(p: Props, name: str | None = None) -> str:
    """One card in one line: «Вайл · наземное существо · владелец B · …»."""
    return " · ".join([name or str(p.get("name")), *card_facts(p)])


def where(p: Props) -> str:
    """A card's place in a word: its cell, or its zone."""
    return str(p.get("cell") or lexicon.zone(str(p.get("zone"))))


def card_label(props: Mapping[str, Props], cid: str) -> str:
    """A card in a list of choices: «Вайл (c4, владелец B)»; «—» for no card."""
    if not cid:
        return "—"
    p = props.get(cid, {})
    return f"{p.get('name', cid)} ({where(p)}, владелец {p.get('owner')})"


def row_label(row: int) -> str:
    """«ряд 4 — 1-й ряд игрока B» (the board's row names, assumption A4)."""
    cell = f"{engine.COLUMNS[0]}{row}"
    half = engine.half_of(cell)
    return f"ряд {row} — {engine.row_rank(half, cell)}-й ряд {lexicon.player(half, 'gen')}"


def table_row_label(row: int) -> str:
    """«6 (B: 3-й ряд)», short enough for the first column of a table on a phone."""
    cell = f"{engine.COLUMNS[0]}{row}"
    half = engine.half_of(cell)
    return f"{row} ({half}: {engine.row_rank(half, cell)}-й ряд)"


def place_word(value: str) -> str:
    """A place a card may be put: «клетка c4», «рука», «на карту (симбиот)»."""
    if value == "host":
        return "на карту (симбиот)"
    return f"клетка {value}" if engine.is_cell(value) else lexicon.zone(value)


def on_cells(props: Mapping[str, Props]) -> dict[str, list[str]]:
    """The cards standing on each cell (symbiotes are shown with their hosts, not here)."""
    out: dict[str, list[str]] = {}
    for cid, p in props.items():
        if p.get("zone") == "battle" and p.get("cell") and not p.get("host"):
            out.setdefault(str(p["cell"]), []).append(cid)
    return out


def side_zones(
    props: Mapping[str, Props], state: engine.GameState, player: str
) -> list[tuple[str, list[str]]]:
    """(zone label, card ids) of one player's non-empty zones beside the field: the auxiliary zone
    by controller, the others by owner; the deck top first."""
    out: list[tuple[str, list[str]]] = []
    for zone in lexicon.OFF_FIELD_ZONES:
        if zone == "deck":
            ids = [cid for cid in state.deck(player) if cid in props]
        else:
            by = "controller" if zone == "aux" else "owner"
            ids = [cid for cid, p in props.items() if p.get("zone") == zone and p.get(by) == player]
        if ids:
            label = lexicon.zone(zone).capitalize() + (" (сверху вниз)" if zone == "deck" else "")
            out.append((label, ids))
    return out


def position_line(state: engine.GameState, cards: int) -> str:
    """«бой, ход 1; активный игрок A. Карт: 3.»"""
    turn = f", ход {state.turn}" if state.phase == "battle" else ""
    return f"{lexicon.phase(state.phase)}{turn}; активный игрок {state.active}. Карт: {cards}."


def step_citation(
    step: engine.TraceStep, action: engine.Action, cite: Callable[[str], str] = lexicon.cite
) -> str:
    """What a trace step rests on: «п. 211.3.1», «допущение A7», or — for a step without a clause,
    the declared action's own effect — «действие «Взять под контроль»». `cite` names a clause
    (desk.citations: in the numbering of the rules the window reads)."""
    if step.clause:
        return cite(step.clause)
    return f"действие «{wording.action_label(action)}»"


def forbidden_by(outcome: engine.Outcome) -> list[str]:
    """The citations that forbid an outcome, each once, in order."""
    return list(dict.fromkeys(outcome.forbidden_by))


def verdict_head(outcome: engine.Outcome, cite: Callable[[str], str] = lexicon.cite) -> str:
    """«Запрещено — запрещает п. 211.3.1» (plain text; the page adds emphasis)."""
    word = lexicon.verdict(outcome.verdict).capitalize()
    by = ", ".join(cite(c) for c in forbidden_by(outcome))
    return word + (f" — запрещает {by}" if by else "")


def verdict_counts(verdicts: Sequence[engine.OptionVerdict]) -> str:
    """«Движок проверил вариантов: 3: ✔ можно — 1, ✘ нельзя — 2.»"""
    counts = ", ".join(
        f"{OPTION_MARKS[v]} — {sum(1 for o in verdicts if o.verdict == v)}"
        for v in lexicon.VERDICTS
        if any(o.verdict == v for o in verdicts)
    )
    return f"Движок проверил вариантов: {len(verdicts)}: {counts}."


def _short(text: str, limit: int = 130) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1].rstrip(" ,;:") + "…"


def verdict_reasons(
    outcome: engine.Outcome,
    cite: Callable[[str], str] = lexicon.cite,
    names_by_id: Mapping[str, str] | None = None,
) -> list[str]:
    """Why, in a line (two for «не определено»), for the place the judge tapped; the trace holds
    the rest:
    - forbidden: the rule that forbids it;
    - undetermined: what the text does decide (an allowed step, cited) and where it stops;
    - legal: what the action did (a clause's effect first), or what the text could not check.
    Each line names its clause («п. 211.3.1: …»); cards by name, never by id."""
    names_by_id = names_by_id or {}
    steps = [s for s in outcome.steps() if s.kind != "assumption"]

    def line(s: engine.TraceStep, head: str = "") -> str:
        rests = f"{cite(s.clause)}: " if s.clause else ""
        return head + rests + _short(humane(s.reason, names_by_id))

    if outcome.verdict == "illegal":
        forbidden = [s for s in steps if s.kind == "forbidden"]
        return [line(forbidden[0])] if forbidden else []
    # where the text stops: undetermined, or (in a legal outcome) what it could not check
    silent = [s for s in steps if s.kind in ("undetermined", "conflict", "unchecked")]
    if outcome.verdict == "undetermined":
        # what the rules text allows first (a clause before one of our assumptions), then where it stops
        allowed = sorted(
            (s for s in steps if s.kind == "allowed"), key=lambda s: ids.is_assumption_id(s.clause)
        )
        return [line(s, "разрешено — ") for s in allowed[:1]] + [
            line(s, "не определено — ") for s in silent[:1]
        ]
    # what it did: the steps a clause decides first (a wound the text turns away says so), then
    # the action's own effect
    done = [s for s in steps if s.kind in ("effect", "allowed")]
    done = sorted(done, key=lambda s: (not s.clause, s.kind != "effect"))[:1]
    return [line(s, "не проверено — ") for s in silent[:1]] or [line(s) for s in done]

"""The actions a selected card can take, each option with what applying it gives.

Read from the action declarations (engine.ACTION_SPECS), not listed here: a kind whose first card
argument is picked from the board is offered with the selected card in that argument. What else
the kind needs decides how it is offered:

- nothing (destroy, exile …): one button, its mark on it;
- one more card or player (attack's target, take_control's player …): a button for each candidate;
- a cell (move, relocate, recruit): the field marks every cell, and a click on one applies;
- a number (wound, heal): an amount and a source to pick, then one button with its mark.

A kind with other required arguments stays in the full action form. Every mark is what
`engine.legal_options` found by applying the option: «можно», «нельзя: п. …», «не определено: п. …».
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

import engine
import lexicon
from desk.actions import Cite, Mark, legal_map, why
from desk.view import Props


@dataclasses.dataclass(frozen=True)
class Choice:
    """One option of a quick action: its arguments, verdict, mark and the reason behind it."""

    args: Mapping[str, object]
    verdict: str
    words: str  # the option in words: «Орк (d4)», «игрок A»
    mark: str  # «✘ нельзя: п. 211.3.1»
    reason: str
    cited: bool = True  # a rule or an assumption decides it (not an argument the engine refused)

    @property
    def label(self) -> str:
        return f"{self.words} — {self.mark}" if self.words else self.mark


@dataclasses.dataclass(frozen=True)
class Quick:
    kind: str
    label: str  # the kind's declared label
    style: str  # button | pick | cells | amount
    card_arg: str  # where the selected card goes
    arg: str = ""  # the argument picked (pick, cells) or the number (amount)
    choices: tuple[Choice, ...] = ()

    @property
    def open(self) -> bool:
        """Some option is allowed or at least not forbidden (an amount action is judged once given)."""
        return self.style == "amount" or any(c.verdict != "illegal" for c in self.choices)

    @property
    def relevant(self) -> bool:
        """Worth showing at all: not every option refused for a reason no rule gives (a card out of
        play, a type it already has)."""
        return self.open or any(c.cited for c in self.choices)


def mark_text(ov: engine.OptionVerdict, cite: Cite = lexicon.cite) -> str:
    """«✔ можно», «✘ нельзя: п. 211.3.1», «? не определено: п. 211.9» (an assumption reads as
    «допущение A7», never «п. A7»); `cite` names the clause in the window's rules."""
    head = f"{lexicon.verdict_mark(ov.verdict)} {ov.mark}"
    if ov.verdict == "legal":
        return head
    if ov.clause:
        return f"{head}: {cite(ov.clause)}"
    # no clause decides it (the action as asked cannot be taken): the reason itself, briefly
    reason = " ".join(ov.reason.split())
    return f"{head}: {reason[:48].rstrip(' ,;:') + '…' if len(reason) > 48 else reason}" if reason else head


def value_words(props: Mapping[str, Props], arg: engine.ArgSpec | None, value: object) -> str:
    """An option's value as the judge reads it: «Орк (d4)», «игрок A», «c3»."""
    if arg is not None and arg.type == "card" and isinstance(value, str):
        p = props.get(value, {})
        return f"{p.get('name', value)} ({p.get('cell') or lexicon.zone(str(p.get('zone')))})"
    if arg is not None and arg.type == "player":
        return lexicon.player(str(value))
    return "" if value is None else str(value)


def choice_of(
    props: Mapping[str, Props],
    spec: engine.ActionSpec,
    arg: str,
    ov: engine.OptionVerdict,
    cite: Cite = lexicon.cite,
    *,
    words: str | None = None,
) -> Choice:
    """One option as a button shows it; `words` given, they name it instead of the argument."""
    if words is None:
        words = value_words(props, spec.arg(arg), ov.args.get(arg)) if arg else ""
    return Choice(dict(ov.args), ov.verdict, words, mark_text(ov, cite), why(ov, cite), ov.clause is not None)


def quick_actions(
    state: engine.GameState, props: Mapping[str, Props], cid: str, cite: Cite = lexicon.cite
) -> list[Quick]:
    """The quick actions of card `cid` in this position, in the declarations' order."""
    out = []
    for kind, spec in engine.ACTION_SPECS.items():
        first = next((a for a in spec.args if a.type == "card" and a.required), None)
        if kind == "choose" or first is None or not first.pool:
            continue
        quick = _quick(state, props, spec, first.name, cid, cite)
        if quick is not None and quick.relevant:
            out.append(quick)
    return out


def _quick(
    state: engine.GameState,
    props: Mapping[str, Props],
    spec: engine.ActionSpec,
    arg: str,
    cid: str,
    cite: Cite,
) -> Quick | None:
    rest = [a for a in spec.args if a.required and a.name != arg]
    chosen_args = [a for a in spec.args if a.name in spec.choice and a.name != arg]
    cell = next((a for a in chosen_args if a.type in ("cell", "place")), None)
    picks = [n for n in spec.choice if n != arg]
    fixed = {arg: cid}
    if cell is not None and all(a.name == cell.name for a in rest):
        options = legal_map(state, spec.kind, fixed)
        chosen = tuple(choice_of(props, spec, cell.name, ov, cite) for ov in options)
        return Quick(spec.kind, spec.label, "cells", arg, cell.name, chosen)
    if not rest and not picks:
        options = legal_map(state, spec.kind, fixed)
        if len(options) != 1:
            return None
        return Quick(
            spec.kind, spec.label, "button", arg, choices=(choice_of(props, spec, "", options[0], cite),)
        )
    if len(rest) == 1 and rest[0].type in ("card", "player") and picks == [rest[0].name]:
        options = legal_map(state, spec.kind, fixed)
        chosen = tuple(choice_of(props, spec, rest[0].name, ov, cite) for ov in options)
        return Quick(spec.kind, spec.label, "pick", arg, rest[0].name, chosen) if chosen else None
    if len(rest) == 1 and rest[0].type == "int" and not picks:
        probe = legal_map(state, spec.kind, {**fixed, rest[0].name: 1})
        chosen = tuple(choice_of(props, spec, "", ov, cite) for ov in probe)
        return Quick(spec.kind, spec.label, "amount", arg, rest[0].name, chosen)
    return None


def cell_marks(quick: Quick) -> dict[str, Mark]:
    """The mark of every cell for a cell action (what a click on the cell would give)."""
    out: dict[str, Mark] = {}
    for c in quick.choices:
        cell = c.args.get(quick.arg)
        if isinstance(cell, str) and engine.is_cell(cell):
            out[cell] = Mark(c.verdict, f"{quick.label}: {cell} — {c.mark}. {c.reason}", c.mark)
    return out


def sources(props: Mapping[str, Props], cid: str) -> list[str]:
    """The cards that may be named as a source (any other card in the battle zone)."""
    return [c for c, p in props.items() if c != cid and p.get("alive")]


def given_option(
    state: engine.GameState, kind: str, args: Mapping[str, object], cite: Cite = lexicon.cite
) -> Choice | None:
    """The verdict of one fully given action (an amount action once its number is picked)."""
    options = legal_map(state, kind, dict(args))
    if len(options) != 1:
        return None
    return choice_of({}, engine.ACTION_SPECS[kind], "", options[0], cite)


def position_actions(state: engine.GameState, cite: Cite = lexicon.cite) -> list[tuple[str, Choice]]:
    """The actions that take no card (end the turn, the next phase …), each with its mark."""
    out = []
    for kind, spec in engine.ACTION_SPECS.items():
        if kind == "choose" or any(a.required or a.type == "card" for a in spec.args):
            continue
        options = legal_map(state, kind, {})
        if len(options) == 1:
            out.append((kind, choice_of({}, spec, "", options[0], cite, words=spec.label)))
    return out

"""legal_options: «what can be done now?» for one action kind, each refusal with its clause.

Each candidate is checked by running engine.apply on it, so the answer always agrees with
what apply would do.
"""

from __future__ import annotations

import dataclasses
import itertools
import types
from collections.abc import Mapping

from engine import actions, board, core, errors, state

# For each kind: the arguments a judge picks from the board (varied when not fixed).
CHOICE_ARGS: Mapping[str, tuple[str, ...]] = types.MappingProxyType(
    {
        "recruit": ("card", "at"),
        "place_symbiote": ("card", "host"),
        "attach": ("card", "host"),
        "move": ("card", "to"),
        "relocate": ("card", "to"),
        "attack": ("attacker", "target"),
        "summon": ("cell", "host"),
        "resurrect": ("card", "cell", "host"),
        "take_control": ("card", "by"),
        "lose_control": ("card",),
        "destroy": ("card",),
        "exile": ("card",),
        "return_to_deck": ("card",),
        "wound": ("card",),
        "heal": ("card",),
        "change_type": ("card",),
        "set_incorporeal": ("card",),
        "mark_cells": ("cells",),
        "choose": ("option",),
    }
)


@dataclasses.dataclass(frozen=True)
class OptionVerdict:
    args: dict[str, object]
    legal: bool
    clause: str | None
    reason: str


def _candidates(gs: state.GameState, kind: str, arg: str, fixed: Mapping[str, object]) -> list[object]:
    cards = gs.cards
    in_play = [c for c in cards.values() if c.in_play]
    if arg == "option":
        return [o.key for o in gs.pending.options] if gs.pending else []
    if kind == "take_control" and arg == "by":
        return list(board.PLAYERS)
    if arg in ("cell", "to"):
        return list(board.CELLS)
    if arg == "at":
        return [*board.CELLS, "aux"]
    if arg == "cells":
        origin = cards.get(str(fixed.get("card", "")))
        if origin is None or origin.cell is None:
            return []
        out: list[object] = []
        oc, orow = board.coords(origin.cell)
        for dc, dr in itertools.product((-1, 0, 1), repeat=2):
            if dc == dr == 0:
                continue
            line: list[str] = []
            for i in range(1, 4):
                cell = board.cell_at(oc + dc * i, orow + dr * i)
                if cell is None:
                    break
                line.append(cell)
                out.append(list(line))
        return out
    if kind in ("summon", "resurrect") and arg == "host":
        target = cards.get(str(fixed.get("card", "")))
        if target is None or not target.is_symbiote:
            return []
        return [c.id for c in in_play if c.zone == "battle" and c.host is None]
    if kind == "resurrect" and arg == "card":
        return [c.id for c in cards.values() if c.zone == "graveyard"]
    if kind == "recruit" and arg == "card":
        return [c.id for c in cards.values() if not c.in_play]
    if kind == "place_symbiote" and arg == "card":
        return [c.id for c in in_play if c.is_symbiote and c.host is None]
    if arg in ("host", "target"):
        return [c.id for c in in_play if c.id != fixed.get("card") and c.id != fixed.get("attacker")]
    if kind in ("move", "attack") and arg in ("card", "attacker"):
        return [c.id for c in in_play if c.controller == gs.active and c.is_creature]
    if kind == "exile" or kind == "return_to_deck":
        return [c.id for c in cards.values() if c.zone not in ("exile", "deck")]
    return [c.id for c in in_play]


def legal_options(gs: state.GameState, kind: str, **fixed: object) -> list[OptionVerdict]:
    """Every choice for the unfixed board arguments of `kind`, each with its verdict.

    A summon's or resurrection's `cell` is varied for a non-symbiote and `host` for a symbiote;
    an option that raises a further choice counts as legal. Raises ActionError for an unknown
    kind or a missing required argument that is not a board choice.
    """
    spec = actions.ACTION_SPECS.get(kind)
    if spec is None:
        raise errors.ActionError(f"Неизвестное действие «{kind}»")
    choice = CHOICE_ARGS.get(kind, ())
    target = gs.cards.get(str(fixed.get("card", "")))
    if kind in ("summon", "resurrect") and "card" in fixed:
        choice = ("host",) if target is not None and target.is_symbiote else ("cell",)
    vary = [a for a in choice if a not in fixed]
    if kind in ("summon", "resurrect") and target is None and "card" not in fixed:
        vary = [a for a in vary if a not in ("host",)]
    for arg in spec.args:
        if arg.required and arg.name not in fixed and arg.name not in vary:
            raise errors.ActionError(f"legal_options({kind}): укажите аргумент «{arg.name}» ({arg.label})")
    pools = [_candidates(gs, kind, a, fixed) for a in vary]
    out: list[OptionVerdict] = []
    for combo in itertools.product(*pools):
        args = dict(fixed)
        args.update(zip(vary, combo, strict=True))
        try:
            action = actions.parse_action(kind, args)
        except errors.ActionError as exc:
            out.append(OptionVerdict(args, False, None, str(exc)))
            continue
        outcome = core.apply(gs, action)
        if outcome.verdict == "illegal":
            step = next((s for s in outcome.steps() if s.kind == "forbidden"), None)
            out.append(OptionVerdict(args, False, step.clause if step else None, step.reason if step else ""))
        elif outcome.verdict == "undetermined":
            step = next((s for s in outcome.steps() if s.kind == "undetermined"), None)
            out.append(
                OptionVerdict(
                    args,
                    False,
                    step.clause if step else None,
                    "не определено: " + (step.reason if step else ""),
                )
            )
        else:
            allowed = [s for s in outcome.steps() if s.kind == "allowed" and s.clause]
            clause = allowed[0].clause if allowed else None
            note = "можно" + (" (потребуется выбор)" if outcome.pending else "")
            out.append(OptionVerdict(args, True, clause, note))
    return out

"""apply(): one action against one position, returning a new position, a verdict and a trace.

Precedence (one place): a pending choice must be answered first; an unknown kind is refused;
then the action's handler runs its legality checks (any «forbidden» makes the action illegal and
the state is returned unchanged); then the state checks (general.settle). A choice the rules
give a player stops the action: the returned state carries the pending choice, and `choose`
replays the action with the answers so far (deterministic, shuffles included).
"""

from __future__ import annotations

import dataclasses
import types
from collections.abc import Callable, Mapping

from engine import actions, context, state, trace
from engine.rules import battle, general, squad, symbiotes

Handler = Callable[[context.Ctx, actions.Action], None]

HANDLERS: Mapping[str, Handler] = types.MappingProxyType(
    {
        "recruit": squad.do_recruit,
        "place_symbiote": symbiotes.do_place_symbiote,
        "next_phase": battle.do_next_phase,
        "end_reveal": symbiotes.do_end_reveal,
        "start_turn": battle.do_start_turn,
        "end_turn": battle.do_end_turn,
        "move": battle.do_move,
        "relocate": battle.do_relocate,
        "attach": symbiotes.do_attach,
        "change_type": battle.do_change_type,
        "set_incorporeal": battle.do_set_incorporeal,
        "destroy": battle.do_destroy,
        "exile": battle.do_exile,
        "return_to_deck": battle.do_return_to_deck,
        "take_control": squad.do_take_control,
        "lose_control": squad.do_lose_control,
        "summon": squad.do_summon,
        "resurrect": squad.do_resurrect,
        "attack": battle.do_attack,
        "wound": battle.do_wound,
        "heal": battle.do_heal,
        "mark_cells": battle.do_mark_cells,
    }
)


def _refuse(gs: state.GameState, reason: str) -> trace.Outcome:
    return trace.Outcome(
        state=gs, verdict="illegal", trace=(trace.TraceStep("", "forbidden", reason),), pending=gs.pending
    )


def apply(gs: state.GameState, action: actions.Action, *, tracing: bool = True) -> trace.Outcome:
    """Apply `action` to `gs`. Never mutates `gs`; when illegal, `outcome.state is gs`."""
    if action.kind == "choose":
        waiting = gs.waiting
        if waiting is None:
            return _refuse(gs, "выбирать нечего: движок не ждёт ответа")
        option = str(action.get("option"))
        keys = [o.key for o in waiting.pending.options]
        if option not in keys:
            offered = "; ".join(f"{o.key} — {o.label}" for o in waiting.pending.options)
            return _refuse(gs, f"варианта «{option}» нет. {waiting.pending.question} Варианты: {offered}")
        base = dataclasses.replace(gs, waiting=None)
        out = _run(base, waiting.action, (*waiting.answers, option), tracing)
        if out.verdict == "illegal":
            return dataclasses.replace(out, state=gs, pending=gs.pending)
        return out
    if gs.waiting is not None:
        return _refuse(gs, f"сначала ответьте на вопрос «{gs.waiting.pending.question}» (действие choose)")
    handler = HANDLERS.get(action.kind)
    if handler is None:
        return _refuse(gs, f"действие «{action.kind}» движку неизвестно")
    return _run(gs, action, (), tracing)


def _run(
    base: state.GameState, action: actions.Action, answers: tuple[str, ...], tracing: bool
) -> trace.Outcome:
    ctx = context.Ctx(base, answers, tracing)
    try:
        HANDLERS[action.kind](ctx, action)
        if not ctx.illegal and not ctx.keep_state:
            general.settle(ctx)
    except context.NeedChoice as need:
        waiting = state.PendingAction(pending=need.pending, action=action, answers=answers)
        verdict = "undetermined" if ctx.undetermined else "legal"
        return trace.Outcome(
            state=dataclasses.replace(base, waiting=waiting),
            verdict=verdict,
            trace=ctx.tr.result(),
            pending=need.pending,
        )
    except context.BadChoice as bad:
        return _refuse(base, bad.message)
    steps = ctx.tr.result()
    if ctx.illegal:
        return trace.Outcome(state=base, verdict="illegal", trace=steps)
    if ctx.keep_state:
        return trace.Outcome(state=base, verdict="undetermined" if ctx.undetermined else "legal", trace=steps)
    return trace.Outcome(
        state=ctx.finish(), verdict="undetermined" if ctx.undetermined else "legal", trace=steps
    )

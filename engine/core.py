"""engine.core: apply(), one action against one position, returning a new position, a verdict and a trace.

Precedence (one place): a pending choice must be answered first; an unknown kind is refused;
then the action's handler runs its legality checks (any «forbidden» makes the action illegal and
the state is returned unchanged); then the state checks (zones.settle). A choice the rules
give a player stops the action: the returned state carries the pending choice, and `choose`
replays the action with the answers so far (deterministic, shuffles included).

The action kinds are those the rule modules declare (engine.rules.CATALOGUE) plus `choose`, which
is this module's own: it answers the pending choice.
"""

from __future__ import annotations

import dataclasses
import types
from collections.abc import Mapping

from engine import context, errors, trace
from engine.model import actions, state
from engine.rules import CATALOGUE, zones

CHOOSE = actions.ActionSpec(
    "choose",
    "Ответить на выбор",
    (actions.ArgSpec("option", "str", True, "вариант", pool="option"),),
    ("option",),
)

# Every action kind: the declared ones, in the catalogue's order, then `choose`.
ACTION_SPECS: Mapping[str, actions.ActionSpec] = types.MappingProxyType(
    {**CATALOGUE.actions, "choose": CHOOSE}
)


def parse_action(name: str, args: Mapping[str, object] | None = None) -> actions.Action:
    """Validate and build an action. Raises ActionError (Russian, naming the argument)."""
    spec = ACTION_SPECS.get(name)
    if spec is None:
        raise errors.ActionError(f"Неизвестное действие «{name}» (известны: {', '.join(ACTION_SPECS)})")
    return actions.check_args(spec, args)


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
    if action.kind not in CATALOGUE.handlers:
        return _refuse(gs, f"действие «{action.kind}» движку неизвестно")
    return _run(gs, action, (), tracing)


def _run(
    base: state.GameState, action: actions.Action, answers: tuple[str, ...], tracing: bool
) -> trace.Outcome:
    ctx = context.Ctx(base, CATALOGUE, answers, tracing)
    try:
        CATALOGUE.handlers[action.kind](ctx, action)
        if not ctx.illegal and not ctx.keep_state:
            zones.settle(ctx)
    except context.NeedChoice as need:
        waiting = state.PendingAction(pending=need.pending, action=action, answers=answers)
        verdict = "undetermined" if ctx.undetermined else "legal"
        return trace.Outcome(
            state=dataclasses.replace(base, waiting=waiting),
            verdict=verdict,
            trace=ctx.tr.result(),
            pending=need.pending,
            deciding=tuple(ctx.deciding),
        )
    except context.BadChoice as bad:
        return _refuse(base, bad.message)
    steps = ctx.tr.result()
    deciding = tuple(ctx.deciding)
    if ctx.illegal:
        return trace.Outcome(state=base, verdict="illegal", trace=steps, deciding=deciding)
    verdict = "undetermined" if ctx.undetermined else "legal"
    after = base if ctx.keep_state else ctx.finish()
    return trace.Outcome(state=after, verdict=verdict, trace=steps, deciding=deciding)

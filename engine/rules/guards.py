"""The checks an action handler starts with, in one order: the card exists, it is the battle,
the card is in the battle zone. Each refusal names the argument or the card; none cites a clause,
because these are about the action as written, not about a rule.
"""

from __future__ import annotations

import lexicon
from engine import context
from engine.model import actions, state


def card_arg(ctx: context.Ctx, act: actions.Action, name: str = "card") -> state.CardState | None:
    """The card an argument names, or None with a refusal."""
    card = ctx.get(act.get(name))
    if card is None:
        ctx.forbid("", f"карты {act.get(name)} нет в раскладе (аргумент {name})")
    return card


def in_battle(ctx: context.Ctx) -> bool:
    if ctx.phase != "battle":
        ctx.forbid("", f"это действие — в бою, а сейчас {lexicon.phase(ctx.phase)}")
        return False
    return True


def in_play(ctx: context.Ctx, card: state.CardState) -> bool:
    if not card.in_play:
        ctx.forbid("", f"{card.label} не в зоне битвы ({lexicon.zone(card.zone)})")
        return False
    return True


def target(
    ctx: context.Ctx, act: actions.Action, name: str = "card", *, battle: bool = False
) -> state.CardState | None:
    """The card an argument names if it exists, (in the battle, when `battle`) and is in play."""
    card = card_arg(ctx, act, name)
    if card is None or (battle and not in_battle(ctx)) or not in_play(ctx, card):
        return None
    return card


def creature(ctx: context.Ctx, act: actions.Action, refusal: str) -> state.CardState | None:
    """A creature in play named by `card`; `refusal` (with «{card}») when it is not a creature."""
    card = target(ctx, act)
    if card is not None and not card.is_creature:
        ctx.forbid("", refusal.format(card=card.label))
        return None
    return card

"""Zones, death and the state checks run after every action: the code every section shares.

It imports no section. What a section adds at these moments it registers as a hook
(engine/rules/registry.HOOK_POINTS), and this module calls the hooks through the context's
catalogue: a card leaving a zone (535.7.1 tokens), a card that left play (211.4 its symbiote), a
change of zone or controller (535.1.1 markers), a destruction (534 replacement effects), a dying
card's «при гибели» abilities and where it goes (535.7.3), and the state checks.

Most of this is not in our rules text: where a step relies on a fact the text does not state, it
cites an assumption (A2 death, A6 where a card goes).
"""

from __future__ import annotations

import lexicon
from engine import context
from engine.rules.registry import rule

MAX_SETTLE_ROUNDS = 50


def _zones_changed(ctx: context.Ctx) -> None:
    for check in ctx.hooks("zones_changed"):
        check(ctx)


@rule("A6")
def send(
    ctx: context.Ctx, cid: str, zone: str, *, position: str = "top", exiled_by: str | None = None
) -> None:
    """Move a card to its owner's `zone` (graveyard, exile, deck, hand) with every rule consequence."""
    card = ctx.c(cid)
    was_in_play = card.in_play
    if card.zone == "deck" and cid in ctx.decks[card.owner]:
        ctx.decks[card.owner].remove(cid)
    for leaving in ctx.hooks("leaving_zone"):
        leaving(ctx, card)
    card = ctx.c(cid)
    if card.controller != card.owner:
        ctx.assume(
            "A6",
            f"{card.label} уходит из зоны битвы и снова под контролем владельца, "
            f"{lexicon.player(card.owner, 'gen')}",
        )
    ctx.cards[cid] = card.removed_to(zone, exiled_by)
    if zone == "deck":
        if position == "bottom":
            ctx.decks[card.owner].append(cid)
        else:
            ctx.decks[card.owner].insert(0, cid)
    ctx.change(
        f"{card.label}: {lexicon.zone(card.zone)} → {lexicon.zone(zone)} {lexicon.player(card.owner, 'gen')}"
    )
    if was_in_play:
        for left in ctx.hooks("left_play"):
            left(ctx, cid)
    _zones_changed(ctx)


def die(ctx: context.Ctx, cid: str, source: str | None, why: str, clause: str = "") -> None:
    """A card in play is destroyed: replacement effects (534), «при гибели», then its zone (the
    graveyard unless a rule says otherwise, 535.7.3). `clause` is the rule (or assumption) that
    kills it, if any: the death step cites it; a destruction the judge declared is the action itself."""
    card = ctx.c(cid)
    if not card.in_play or cid in ctx.dying:
        return  # already gone, or already dying: a card dies once
    ctx.dying.add(cid)
    try:
        _resolve_death(ctx, cid, source, why, clause)
    finally:
        ctx.dying.discard(cid)


def _resolve_death(ctx: context.Ctx, cid: str, source: str | None, why: str, clause: str) -> None:
    card = ctx.c(cid)
    with ctx.group(clause, "effect", f"{card.label} погибает: {why}"):
        for replace in ctx.hooks("destroy_replacement"):
            instead = replace(ctx, cid, source)
            if instead:
                send(ctx, cid, instead, exiled_by=source)
                return
        for trigger, ability, _index in ctx.card_hooks("dying", ctx.c(cid)):
            trigger(ctx, ctx.c(cid), ability)
        if not ctx.c(cid).in_play:
            return
        for where in ctx.hooks("death_zone"):
            zone = where(ctx, cid)
            if zone:
                send(ctx, cid, zone)
                return
        send(ctx, cid, "graveyard")


def place_in_play(
    ctx: context.Ctx,
    cid: str,
    *,
    cell: str | None,
    host: str | None,
    controller: str,
    closed: bool,
    hidden: bool,
) -> None:
    """Put a card from a zone into the battle zone (a cell, the auxiliary zone, or onto a host)."""
    card = ctx.c(cid)
    if card.zone == "deck" and cid in ctx.decks[card.owner]:
        ctx.decks[card.owner].remove(cid)
    for leaving in ctx.hooks("leaving_zone"):
        leaving(ctx, card)
    if host is not None:
        zone, at = "battle", ctx.c(host).cell
    elif cell is None:
        zone, at = "aux", None
    else:
        zone, at = "battle", cell
    ctx.update(
        cid,
        zone=zone,
        cell=at,
        host=host,
        controller=controller,
        closed=closed,
        hidden=hidden,
        wounds=0,
        tokens=0,
    )
    where = (
        f"на {ctx.c(host).label}" if host else (f"на клетку {cell}" if cell else "во вспомогательную зону")
    )
    ctx.change(
        f"{card.label} → {where}, {'закрыта' if closed else 'открыта'}, "
        f"{'скрыта' if hidden else 'вскрыта'}, под контролем {lexicon.player(controller, 'gen')}"
    )
    _zones_changed(ctx)


@rule("A2")
def settle(ctx: context.Ctx) -> None:
    """State checks after an action, repeated until nothing changes: deaths from wounds (A2), then
    every section's state checks (symbiotes without a legal host, control markers, incarnations
    waiting for the rules to allow them)."""
    for _ in range(MAX_SETTLE_ROUNDS):
        changed = False
        for card in list(ctx.cards.values()):
            card = ctx.c(card.id)
            if card.in_play and card.is_creature and card.life is not None and card.wounds >= card.life:
                ctx.assume("A2", f"у {card.label} {card.wounds} ран при жизни {card.life}: существо погибает")
                die(ctx, card.id, None, "раны достигли жизни (A2)")
                changed = True
        for check in ctx.hooks("state_check"):
            if check(ctx):
                changed = True
        if not changed:
            return

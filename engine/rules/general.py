"""Zones, death and the state checks run after every action.

Most of this is not in our rules text: where a step relies on a fact the text does not state it
cites an assumption (A2 death, A5 auxiliary zone, A6 where a card goes). The clause-bearing
consequences (211.4, 211.5, 535.1.1, 535.7.1–535.7.3) are delegated to their section modules.
"""

from __future__ import annotations

from engine import board, context, state
from engine.rules import replacement, squad, symbiotes
from engine.rules.registry import rule

MAX_SETTLE_ROUNDS = 50


def send(
    ctx: context.Ctx, cid: str, zone: str, *, position: str = "top", exiled_by: str | None = None
) -> None:
    """Move a card to its owner's `zone` (graveyard, exile, deck, hand) with every rule consequence."""
    card = ctx.c(cid)
    was_in_play = card.in_play
    if card.zone == "deck" and cid in ctx.decks[card.owner]:
        ctx.decks[card.owner].remove(cid)
    if card.zone == "graveyard" and card.tokens:
        squad.lose_tokens(ctx, card)
        card = ctx.c(cid)
    if card.controller != card.owner:
        ctx.assume(
            "A6",
            f"{card.label} уходит из зоны битвы и снова под контролем владельца, "
            f"{board.player(card.owner, 'gen')}",
        )
    ctx.update(
        cid,
        zone=zone,
        cell=None,
        host=None,
        controller=card.owner,
        closed=False,
        hidden=False,
        wounds=0,
        borrowed=None,
        turn_uses=0,
        host_changed=False,
        type=card.card.type,
        subtype=card.card.subtype,
        incorporeal=card.card.incorporeal,
        exiled_by=exiled_by if zone == "exile" else None,
    )
    if zone == "deck":
        if position == "bottom":
            ctx.decks[card.owner].append(cid)
        else:
            ctx.decks[card.owner].insert(0, cid)
    ctx.change(
        f"{card.label}: {state.ZONE_RU.get(card.zone, card.zone)} → {state.ZONE_RU[zone]} "
        f"{board.player(card.owner, 'gen')}"
    )
    if was_in_play:
        symbiotes.host_left(ctx, cid)
    squad.sync_markers(ctx)


def die(ctx: context.Ctx, cid: str, source: str | None, why: str, clause: str = "") -> None:
    """A card in play is destroyed: the replacement pipeline (Многоликий), «при гибели», then
    graveyard or exile (535.7.3). `clause` is the rule (or assumption) that kills it, if any:
    the death step cites it; a destruction the judge declared is the action itself."""
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
        dest = replacement.destroy_destination(ctx, cid, source)
        if dest == "exile":
            send(ctx, cid, "exile", exiled_by=source)
            return
        squad.on_death_triggers(ctx, cid)
        if not ctx.c(cid).in_play:
            return
        if ctx.c(cid).incarnated:
            squad.incarnated_dies(ctx, cid)
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
    if card.zone == "graveyard" and card.tokens:
        squad.lose_tokens(ctx, card)
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
        f"{'скрыта' if hidden else 'вскрыта'}, под контролем {board.player(controller, 'gen')}"
    )
    squad.sync_markers(ctx)


@rule("211.4", "211.5", "535.1.1", "535.7.2")
def settle(ctx: context.Ctx) -> None:
    """State checks after an action, repeated until nothing changes: deaths from wounds (A2),
    symbiotes left without a legal host (211.4, 211.5), control markers (535.1.1) and
    incarnations that were waiting for the rules to allow them (535.7.2)."""
    for _ in range(MAX_SETTLE_ROUNDS):
        changed = False
        for card in list(ctx.cards.values()):
            card = ctx.c(card.id)
            if card.in_play and card.is_creature and card.life is not None and card.wounds >= card.life:
                ctx.assume("A2", f"у {card.label} {card.wounds} ран при жизни {card.life}: существо погибает")
                die(ctx, card.id, None, "раны достигли жизни (A2)")
                changed = True
        if symbiotes.check_hosts(ctx):
            changed = True
        if squad.sync_markers(ctx):
            changed = True
        if squad.retry_incarnations(ctx):
            changed = True
        if not changed:
            return

"""Section 211, a host and its symbiote together: the symbiote's abilities keep affecting its host
after a change of host or of the host's controller (211.3.1: Карлик Унд's lock and wounds), and the
pair share one cell and stand next to each other, and may attack each other (211.9).

Clauses: 211.3.1, 211.9.
"""

from __future__ import annotations

import lexicon
from engine import context
from engine.model import board, state
from engine.model.abilities import Ability
from engine.rules.events import Event
from engine.rules.registry import hook, rule


def _changed_relation(ctx: context.Ctx, s: state.CardState, h: state.CardState) -> bool:
    """Has the symbiote changed host or has the host changed controller (so 211.3.1 is the rule
    that keeps its abilities working)?"""
    return s.host_changed or h.controller != h.owner


@rule("211.3.1", "A8")
def host_lock(ctx: context.Ctx, actor: state.CardState, what: str, target: str | None) -> bool:
    """A symbiote's «host may declare nothing but an attack on it» (Карлик Унд). Returns True when
    it forbids; an attack on the symbiote is what it allows. Cites 211.3.1 when a change of host or
    controller did not switch it off, the card text (A8) otherwise."""
    s = ctx.symbiote_of(actor.id)
    if s is None or ctx.ability(s, "host_lock") is None:
        return False
    if target == s.id:
        said = f"{actor.label} — хозяин {s.label}: нападение на {s.label} текст карты разрешает"
        if _changed_relation(ctx, s, actor):
            ctx.allow("211.3.1", said + "; особенность симбиота не отключилась от смены хозяина или контроля")
        else:
            ctx.allow("A8", said)
        return False
    reason = (
        f"{actor.label} — хозяин {s.label}: может заявлять только нападение на {s.label}, а заявлено: {what}"
    )
    if _changed_relation(ctx, s, actor):
        ctx.forbid(
            "211.3.1",
            reason + f"; смена хозяина или контроля не отключает особенности симбиота "
            f"(паразит {s.label} под контролем {lexicon.player(s.controller, 'gen')}, хозяин — "
            f"под контролем {lexicon.player(actor.controller, 'gen')})",
        )
    else:
        ctx.forbid("A8", reason + " (текст карты)")
    return True


@rule("211.3.1", "A8")
def host_cannot_move(ctx: context.Ctx, actor: state.CardState) -> bool:
    """A symbiote's «хозяин … не может двигаться» (Болотный присосок): its host's declared
    movement is refused. Cites 211.3.1 when a change of host or controller did not switch it off,
    the card text (A8) otherwise. True when it forbids."""
    s = ctx.symbiote_of(actor.id)
    if s is None or ctx.ability(s, "host_cannot_move") is None:
        return False
    reason = f"{actor.label} — хозяин {s.label}, а по тексту {s.label} его хозяин не может двигаться"
    if _changed_relation(ctx, s, actor):
        ctx.forbid("211.3.1", reason + "; смена хозяина или контроля не отключает особенности симбиота")
    else:
        ctx.forbid("A8", reason + " (текст карты)")
    return True


@hook("wound_guard", ability="wounds_only_from_host")
@rule("211.3.1", "A8")
def wounds_only_from_host(ctx: context.Ctx, target: state.CardState, ab: Ability, ev: Event) -> bool:
    """«Получает раны только от своего хозяина» (Карлик Унд). True when the wound is prevented."""
    source = ev.source
    if target.host is None:
        return False
    h = ctx.c(target.host)
    if source == target.host:
        said = f"{target.label} получает раны от своего хозяина {h.label}"
        if _changed_relation(ctx, target, h):
            ctx.allow("211.3.1", said + "; особенность не отключилась от смены хозяина или контроля")
        else:
            ctx.allow("A8", said)
        return False
    src = ctx.get(source)
    who = src.label if src else "источника без карты"
    reason = f"{target.label} получает раны только от хозяина {h.label}, а не от {who}: раны не наносятся"
    if _changed_relation(ctx, target, h):
        ctx.step("211.3.1", "effect", reason + "; особенность не отключилась от смены хозяина или контроля")
    else:
        ctx.step("A8", "effect", reason)
    return True


@rule("211.9")
def attack_with_host(ctx: context.Ctx, attacker: state.CardState, target: state.CardState) -> bool:
    """Host and symbiote attacking each other: the text allows the declaration and puts the pair
    next to each other on one cell (211.9); how the attack goes, «по общим правилам», our text
    lacks: the trace says it was not checked. True when this clause decides the declaration."""
    if attacker.host == target.id:
        who = f"{attacker.label} — симбиот {target.label}: симбиот может объявлять атаку по хозяину"
    elif target.host == attacker.id:
        who = f"{attacker.label} — хозяин {target.label}: хозяин может объявлять атаку по симбиоту"
    else:
        return False
    ctx.allow("211.9", f"{who}; они на одной клетке {attacker.cell} и считаются стоящими рядом")
    ctx.unchecked(
        "211.9",
        "атака идёт «по общим правилам»: общие правила нападения — нет в тексте, их условия не проверены",
    )
    return True


def cards_adjacent(a: state.CardState, b: state.CardState) -> bool:
    """Cards standing next to each other: neighbouring cells (A1), or a symbiote and its host,
    which occupy one cell and count as adjacent (211.9)."""
    if a.id == b.id or a.zone != "battle" or b.zone != "battle" or a.cell is None or b.cell is None:
        return False
    return a.host == b.id or b.host == a.id or board.adjacent(a.cell, b.cell)


@rule("211.9", "A1")
def explain_adjacent(ctx: context.Ctx, card: state.CardState, near: list[state.CardState]) -> None:
    """Say why each of `near` stands next to `card`: its host or symbiote by 211.9, a card on a
    neighbouring cell by assumption A1."""
    bound = [c for c in near if c.id in (card.host, getattr(ctx.symbiote_of(card.id), "id", None))]
    for c in bound:
        role = "хозяин" if c.id == card.host else "симбиот"
        ctx.allow(
            "211.9", f"{c.label} — {role} {card.label}: симбиот и хозяин считаются стоящими рядом картами"
        )
    if any(c not in bound for c in near) and card.cell:
        cells = ", ".join(sorted({c.cell or "" for c in near if c not in bound}))
        ctx.assume("A1", f"рядом с {card.label} ({card.cell}) — соседние клетки, включая диагонали: {cells}")

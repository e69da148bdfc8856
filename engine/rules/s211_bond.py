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
    it forbids; cites 211.3.1 when a change of host or controller did not switch it off."""
    s = ctx.symbiote_of(actor.id)
    if s is None or ctx.ability(s, "host_lock") is None:
        return False
    if target == s.id:
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


@hook("wound_guard", ability="wounds_only_from_host")
@rule("211.3.1", "A8")
def wounds_only_from_host(ctx: context.Ctx, target: state.CardState, ab: Ability, ev: Event) -> bool:
    """«Получает раны только от своего хозяина» (Карлик Унд). True when the wound is prevented."""
    source = ev.source
    if target.host is None:
        return False
    if source == target.host:
        ctx.allow("A8", f"{target.label} получает раны от своего хозяина {ctx.c(target.host).label}")
        return False
    h = ctx.c(target.host)
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
    """Host and symbiote attacking each other: adjacent (211.9), legal «по общим правилам», which
    our text lacks. True when this clause decides the attack."""
    if attacker.host == target.id or target.host == attacker.id:
        cell = attacker.cell
        ctx.allow(
            "211.9", f"{attacker.label} и {target.label} — хозяин и симбиот: одна клетка {cell}, стоят рядом"
        )
        ctx.undet(
            "211.9",
            "нападение хозяина на симбиота и симбиота на хозяина идёт «по общим правилам», "
            "а общих правил нападения в нашем тексте нет",
        )
        return True
    return False


@rule("211.9")
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

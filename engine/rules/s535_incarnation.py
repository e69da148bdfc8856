"""Section 535.7 «Инкарнация»: tokens at the start of the owner's turn, incarnating when they
reach X, waiting while that would break the rules, and an incarnated card's death.

Clauses: 535.7, 535.7.1, 535.7.2, 535.7.3, 535.7.4.
"""

from __future__ import annotations

import lexicon
from engine import context
from engine.model import board, state
from engine.model.abilities import Ability
from engine.rules import s211_hosts, s535_squad, zones
from engine.rules.registry import hook, rule


@hook("leaving_zone")
@rule("535.7.1")
def lose_tokens(ctx: context.Ctx, card: state.CardState) -> None:
    """A card leaving the graveyard loses its incarnation tokens (535.7.1)."""
    if card.zone != "graveyard" or not card.tokens:
        return
    ctx.update(card.id, tokens=0)
    ctx.step(
        "535.7.1",
        "effect",
        f"{card.label} покидает кладбище и теряет все жетоны инкарнации ({card.tokens}); "
        "стек не используется",
        f"{card.label}: жетонов {card.tokens} → 0",
    )


def incarnation_x(card: state.CardState) -> tuple[int, int, Ability] | None:
    abs_ = [a for a in card.card.abilities if a.kind == "incarnation"]
    if not abs_:
        return None
    best = max(abs_, key=lambda a: int(a.get("x", 0)))
    return int(best.get("x", 0)), len(abs_), best


@hook("turn_start")
@rule("535.7", "535.7.1", "535.7.3", "535.7.4")
def incarnation_tokens(ctx: context.Ctx, player: str) -> None:
    """Start of `player`'s turn: cards in their graveyard with an unused «инкарнация X» get a token;
    at X they incarnate (535.7.1)."""
    for card in sorted(ctx.cards.values(), key=lambda c: c.id):
        if card.zone != "graveyard" or card.owner != player:
            continue
        info = incarnation_x(card)
        if info is None:
            continue
        x, count, _ab = info
        if card.incarnated:
            ctx.step(
                "535.7.3",
                "not_applied",
                f"{card.label} уже инкарнировал в этом бою (1 раз за бой): жетон не кладётся",
            )
            continue
        if count > 1:
            ctx.step(
                "535.7.4",
                "state_check",
                f"у {card.label} несколько особенностей «инкарнация»: применяется одна, с наибольшим X = {x}",
            )
        if card.tokens >= x:
            continue
        ctx.update(card.id, tokens=card.tokens + 1)
        ctx.step(
            "535.7.1",
            "effect",
            f"в начале хода {lexicon.player(player, 'gen')} {card.label} на кладбище получает жетон "
            "инкарнации "
            f"({card.tokens + 1} из {x}); эффект правил",
            f"{card.label}: жетонов {card.tokens} → {card.tokens + 1}",
        )
        if card.tokens + 1 >= x:
            try_incarnate(ctx, card.id, retry=False)


def _incarnation_problems(
    ctx: context.Ctx, card: state.CardState
) -> tuple[list[tuple[str, str]], list[state.CardState], list[str]]:
    """What stops `card` incarnating now, with the hosts (a symbiote) or free third-row cells it
    could go to (535.7, 535.9, 211.8)."""
    p = card.owner
    probs: list[tuple[str, str]] = []
    bad = s535_squad.join_problem(ctx, card, p)
    if bad:
        probs.append(("535.9", bad))
    info = incarnation_x(card)
    places_on = info[2].get("places_on") if info else None
    if card.is_symbiote:
        for cl, _k, reason in s211_hosts.summon_target_problems(ctx, card, places_on, "инкарнировать"):
            probs.append((cl, reason))
        if probs:
            return probs, [], []
        hosts = s211_hosts.possible_hosts(ctx, card, str(places_on), p)
        if not hosts:
            probs.append(("211.8", f"нет карты, на которую можно поместить {card.label}"))
        return probs, hosts, []
    if ctx.is_flyer_like(card):
        return probs, [], []
    free = [c for c in board.row_cells(p, 3) if ctx.occupant(c) is None]
    if not free:
        probs.append(("535.7", f"в третьем ряду {lexicon.player(p, 'gen')} нет свободной клетки"))
    return probs, [], free


@rule("211.8", "535.4", "535.7", "535.7.1", "535.7.2", "A4", "A13")
def try_incarnate(ctx: context.Ctx, cid: str, retry: bool) -> bool:
    """Incarnate a card whose tokens reached X: third row, closed, revealed, free cell, own
    control (535.7). If that breaks a rule it waits in the graveyard (535.7.2)."""
    card = ctx.c(cid)
    p = card.owner
    probs, hosts, free = _incarnation_problems(ctx, card)
    if probs:
        if not retry:
            if any(cl == "535.9" for cl, _r in probs):
                ctx.assume("A13", s535_squad.SQUAD_MEANS)
            ctx.step(
                "535.7.2",
                "state_check",
                f"инкарнация {card.label} нарушила бы правила ("
                + "; ".join(f"{cl}: {r}" for cl, r in probs)
                + "): карта остаётся на кладбище и инкарнирует, как только правила перестанут нарушаться",
            )
        return False
    with ctx.group(
        "535.7",
        "effect",
        f"{card.label} инкарнирует "
        f"({'правила больше не нарушаются, 535.7.2' if retry else 'жетонов достаточно'})",
    ):
        if retry:
            ctx.step(
                "535.7.2",
                "effect",
                f"правила больше не нарушаются: {card.label} инкарнирует, теряя все жетоны",
            )
        if card.is_symbiote:
            hid = ctx.ask_card(p, "211.8", f"На какую карту инкарнирует {card.label}?", hosts)
            zones.place_in_play(ctx, cid, cell=None, host=hid, controller=p, closed=True, hidden=False)
            ctx.step("211.8", "effect", f"{ctx.c(hid).label} становится хозяином {card.label}")
        elif ctx.is_flyer_like(card):
            ctx.step("535.4", "effect", f"{card.label} инкарнирует сразу во вспомогательную зону")
            zones.place_in_play(ctx, cid, cell=None, host=None, controller=p, closed=True, hidden=False)
        else:
            cell = (
                free[0]
                if len(free) == 1
                else ctx.ask(
                    p,
                    "535.7",
                    f"На какую клетку третьего ряда инкарнирует {card.label}?",
                    [(c, c) for c in free],
                )
            )
            ctx.assume("A4", f"третий ряд {lexicon.player(p, 'gen')} — ряд {board.row_number(p, 3)}")
            ctx.step(
                "535.7", "allowed", f"{cell} — свободная клетка в третьем ряду {lexicon.player(p, 'gen')}"
            )
            zones.place_in_play(ctx, cid, cell=cell, host=None, controller=p, closed=True, hidden=False)
        ctx.update(cid, incarnated=True)
        ctx.step(
            "535.7",
            "effect",
            f"{card.label} в зоне битвы: закрыт, вскрыт, под контролем {lexicon.player(p, 'gen')}",
        )
    return True


@hook("state_check")
@rule("535.7.2")
def retry_incarnations(ctx: context.Ctx) -> bool:
    """535.7.2: incarnations that waited for the rules to stop being broken."""
    changed = False
    for card in list(ctx.cards.values()):
        if card.zone != "graveyard" or card.incarnated:
            continue
        info = incarnation_x(card)
        if info is None or card.tokens < info[0]:
            continue
        probs, _hosts, _free = _incarnation_problems(ctx, card)
        if not probs and try_incarnate(ctx, card.id, retry=True):
            changed = True
    return changed


@hook("death_zone")
@rule("535.7.3")
def incarnated_dies(ctx: context.Ctx, cid: str) -> str | None:
    """An incarnated card that dies is exiled, after its «при гибели» (535.7.3)."""
    card = ctx.c(cid)
    if not card.incarnated:
        return None
    ctx.step(
        "535.7.3", "effect", f"{card.label} уже инкарнировал и погибает: изгоняется (после «при гибели»)"
    )
    return "exile"

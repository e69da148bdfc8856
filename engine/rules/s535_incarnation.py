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

Problem = context.Problem


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
@rule("535.7.1", "535.7.3", "535.7.4")
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


@rule("211.8", "535.7", "A4")
def _incarnation_problems(
    ctx: context.Ctx, card: state.CardState
) -> tuple[list[Problem], s211_hosts.Hosts | None, list[str]]:
    """What stops `card` incarnating now, with the hosts (a symbiote) or free third-row cells it
    could go to (535.7, 535.9, 211.8)."""
    p = card.owner
    probs: list[Problem] = []
    bad = s535_squad.join_problem(ctx, card, p)
    if bad is not None:
        probs.append(bad)
    info = incarnation_x(card)
    places_on = info[2].get("places_on") if info else None
    if card.is_symbiote:
        probs.extend(s211_hosts.summon_target_problems(ctx, card, places_on, "инкарнировать"))
        if probs:
            return probs, None, []
        hosts = s211_hosts.possible_hosts(ctx, card, str(places_on), p)
        if not hosts.fit and not hosts.unsure:
            probs.extend(
                ctx.found(
                    [Problem("211.8", "forbidden", f"нет карты, на которую можно поместить {card.label}")]
                )
            )
        return probs, hosts, []
    if ctx.is_flyer_like(card):
        return probs, None, []
    free = [c for c in board.row_cells(p, 3) if ctx.occupant(c) is None]
    if not free:
        probs.extend(
            ctx.found(
                [
                    Problem(
                        "535.7",
                        "forbidden",
                        f"в третьем ряду {lexicon.player(p, 'gen')} нет свободной клетки",
                        rests_on=("A4",),
                    )
                ]
            )
        )
    return probs, None, free


@rule("211.8", "535.4", "535.7", "535.7.2", "535.9", "A4", "A13")
def try_incarnate(ctx: context.Ctx, cid: str, retry: bool) -> bool:
    """Incarnate a card whose tokens reached X: third row, closed, revealed, free cell, own
    control (535.7). If that breaks a rule it waits in the graveyard (535.7.2); if our text cannot
    say whether it would (a symbiote whose only hosts are where 211.5 is cut off), it waits too and
    the verdict says undetermined."""
    card = ctx.c(cid)
    p = card.owner
    probs, hosts, free = _incarnation_problems(ctx, card)
    if probs:
        if not retry:
            if any(pr.clause == "535.9" for pr in probs):
                ctx.assume("A13", s535_squad.SQUAD_MEANS)
            with ctx.group(
                "535.7.2",
                "state_check",
                f"инкарнация {card.label} нарушила бы правила: карта остаётся на кладбище и инкарнирует, "
                "как только правила перестанут нарушаться",
            ):
                if hosts is not None:
                    s211_hosts.note_ruled_out(ctx, hosts)
                for pr in probs:
                    ctx.note(pr)
        return False
    if hosts is not None and not hosts.fit:
        if not retry:
            for _h, pr in hosts.unsure:
                ctx.undet(pr.clause, pr.reason)
            ctx.step(
                hosts.unsure[0][1].clause,
                "not_applied",
                f"{card.label} пока остаётся на кладбище: нарушит ли его инкарнация правила, "
                "наш текст не решает",
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
        if hosts is not None:
            s211_hosts.note_ruled_out(ctx, hosts)
            hid = ctx.ask_card(p, "211.8", f"На какую карту инкарнирует {card.label}?", list(hosts.fit))
            zones.place_in_play(ctx, cid, cell=None, host=hid, controller=p, closed=True, hidden=False)
            ctx.step("211.8", "effect", f"{ctx.c(hid).label} становится хозяином {card.label}")
        elif ctx.is_flyer_like(card):
            ctx.step("535.4", "effect", f"{card.label} инкарнирует сразу во вспомогательную зону")
            zones.place_in_play(ctx, cid, cell=None, host=None, controller=p, closed=True, hidden=False)
        else:
            cell = ctx.ask(
                p, "535.7", f"На какую клетку третьего ряда инкарнирует {card.label}?", [(c, c) for c in free]
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
def retry_incarnations(ctx: context.Ctx) -> bool:
    """535.7.2: incarnations that waited for the rules to stop being broken."""
    changed = False
    for card in list(ctx.cards.values()):
        if card.zone != "graveyard" or card.incarnated:
            continue
        info = incarnation_x(card)
        if info is None or card.tokens < info[0]:
            continue
        with ctx.hypothetical():  # still waiting decides nothing new: the wait was cited when it began
            probs, hosts, _free = _incarnation_problems(ctx, card)
        if not probs and (hosts is None or hosts.fit) and try_incarnate(ctx, card.id, retry=True):
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

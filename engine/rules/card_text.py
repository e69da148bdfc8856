"""Abilities that come from a card's own text, each cited as the card-text assumption (A8).

Our rules text does not say what a card's ability does; the card does (in our library, in our own
words). Each ability kind here is declared in engine/model/abilities.py and implemented by its
hooks: the replacement effects of Многоликий, Вожак сатиров and Бул'Багур's lantern (offers to the
534 pipeline), Многоликий's borrowing at the start and end of turns, «при гибели», Выкормыш слуа's
strike against its host, and the lantern's marking of cells (a judge's action).
"""

from __future__ import annotations

import lexicon
from engine import context
from engine.model import actions, board, state
from engine.model.abilities import Ability
from engine.rules import guards, s211_bond, s534_replacement
from engine.rules.events import Effect, Event, Offer
from engine.rules.registry import action, arg, hook, rule

# -- replacement effects (534) ----------------------------------------------------------------


@hook("replacement", ability="wound_modifier")
def wound_modifier(
    ctx: context.Ctx, card: state.CardState, ab: Ability, ev: Event, target: state.CardState
) -> Offer | None:
    """A numeric change of the wounds dealt to this card or to the cells it marked (534.5)."""
    if ev.kind != "wound" or not _modifier_matches(ctx, card, ab, ev, target):
        return None
    label = f"«{ab.get('name')}» {card.label}: {int(ab.get('delta')):+d} к ранам {target.label}"
    return Offer(label, False, s534_replacement.apply_number)


def _modifier_matches(
    ctx: context.Ctx, card: state.CardState, ab: Ability, ev: Event, target: state.CardState
) -> bool:
    where = ab.get("target")
    if where == "self" and target.id != card.id:
        return False
    if where == "marked_cells":
        cells = {c for m in ctx.marks if m.card == card.id for c in m.cells}
        if target.cell not in cells or target.zone != "battle":
            return False
    kinds = ab.get("damage_kinds") or ()
    own = ab.get("own_strike") and ev.dmg == "strike" and ev.source == card.id
    if ev.dmg not in kinds and not own:
        return False
    if ab.get("source_flying"):
        src = ctx.get(ev.source)
        if src is None or not (src.is_creature and src.subtype == "flyer"):
            return False
    return True


@hook("replacement", ability="replace_destroy_with_exile")
def exile_instead(
    ctx: context.Ctx, card: state.CardState, ab: Ability, ev: Event, target: state.CardState
) -> Offer | None:
    """Многоликий: destroying an enemy creature, it exiles it instead."""
    if ev.kind != "destroy" or ev.source != card.id:
        return None
    if not target.is_creature or target.controller == card.controller:
        return None
    return Offer(f"{card.label} изгоняет {target.label} вместо уничтожения", False, _exile)


@rule("A8")
def _exile(ctx: context.Ctx, ev: Event, eff: Effect) -> Event | None:
    ev.kind = "exile"
    target = ctx.c(ev.target)
    ctx.step(
        "A8",
        "effect",
        f"эффект замещения по тексту карты: {eff.label}",
        f"{target.label}: уничтожение → изгнание",
    )
    s534_replacement.applied_once(ctx, eff)
    return None


@hook("replacement", ability="replace_heal_with_wound")
@rule("534.7", "A8")
def heal_to_wound(
    ctx: context.Ctx, card: state.CardState, ab: Ability, ev: Event, target: state.CardState
) -> Offer | None:
    """Вожак сатиров: while unwounded, it may wound a creature next to it instead of being healed,
    up to per_turn times a turn (534.7: a replacing ability needs a target)."""
    if ev.kind != "heal" or ev.target != card.id or card.wounds != 0:
        return None
    limit = int(ab.get("per_turn"))
    if card.turn_uses >= limit:
        s534_replacement.note_once(
            ctx,
            ev,
            f"{card.id}:spent",
            "A8",
            f"{card.label} уже заместил лечение {lexicon.plural(limit, 'раз', 'раза', 'раз')} за этот ход "
            "(больше по тексту карты нельзя)",
        )
        return None
    if not _next_to(ctx, card):
        s534_replacement.note_once(
            ctx,
            ev,
            f"{card.id}:alone",
            "534.7",
            f"рядом с {card.label} нет существ: замещающей особенности некого выбрать целью, она не "
            "применяется",
        )
        return None
    return Offer(f"{card.label}: вместо лечения ранить стоящее рядом существо", True, _wound_instead)


def _next_to(ctx: context.Ctx, card: state.CardState) -> list[state.CardState]:
    """The creatures standing next to `card` (211.9, A1): the targets Вожак сатиров may choose."""
    return [
        c for c in ctx.cards.values() if c.in_play and c.is_creature and s211_bond.cards_adjacent(c, card)
    ]


def _wound_instead(ctx: context.Ctx, ev: Event, eff: Effect) -> Event | None:
    card = ctx.c(eff.card)
    near = _next_to(ctx, card)
    s211_bond.explain_adjacent(ctx, card, near)
    return s534_replacement.generate_replacing(
        ctx, ev, eff, near, str(eff.ability.get("damage_kind")), str(eff.ability.get("counts_as"))
    )


# -- Многоликий: the abilities of a creature it exiled --------------------------------------


@hook("turn_start", ability="take_exiled_abilities")
@rule("A8")
def borrow_abilities(ctx: context.Ctx, card: state.CardState, ab: Ability, player: str) -> None:
    """At the start of the opponent's turn it takes the abilities of a creature it exiled, until
    the end of its controller's turn."""
    if card.controller == player:
        return
    exiled = [c for c in ctx.cards.values() if c.zone == "exile" and c.exiled_by == card.id and c.is_creature]
    if not exiled:
        return
    key = ctx.ask(
        card.controller,
        "A8",
        f"Особенности какого изгнанного существа берёт {card.label}?",
        [(c.id, c.label) for c in exiled],
    )
    ctx.update(card.id, borrowed=key)
    ctx.step(
        "A8",
        "effect",
        f"в начале хода противника {card.label} получает особенности изгнанного им "
        f"{ctx.c(key).label} до конца хода {lexicon.player(card.controller, 'gen')}",
        f"{card.label}: взяты особенности {ctx.c(key).label}",
    )


@hook("turn_end", ability="take_exiled_abilities")
@rule("A8")
def return_abilities(ctx: context.Ctx, card: state.CardState, ab: Ability, player: str) -> None:
    """At the end of its controller's turn the borrowed abilities are gone."""
    if card.borrowed and card.controller == player:
        ctx.update(card.id, borrowed=None)
        ctx.step(
            "A8",
            "effect",
            f"конец хода {lexicon.player(player, 'gen')}: {card.label} теряет взятые особенности",
        )


# -- «при гибели» ---------------------------------------------------------------------------


@hook("dying", ability="on_death")
@rule("535.7.3", "A8")
def on_death(ctx: context.Ctx, card: state.CardState, ab: Ability) -> None:
    """«При гибели»: wounds the enemy creatures standing next to it (before an incarnated card is
    exiled, 535.7.3)."""
    amount = int(ab.get("amount"))
    wounds = lexicon.plural(amount, "рану", "раны", "ран")
    with ctx.group("A8", "effect", f"срабатывает «при гибели» {card.label}: {wounds} стоящим рядом врагам"):
        if card.incarnated:
            ctx.step(
                "535.7.3",
                "state_check",
                "особенности «при гибели» срабатывают до изгнания инкарнировавшей карты",
            )
        if card.cell is None:
            return
        victims = [
            other
            for other in ctx.cards.values()
            if other.in_play
            and other.is_creature
            and other.controller != card.controller
            and s211_bond.cards_adjacent(other, card)
        ]
        s211_bond.explain_adjacent(ctx, card, victims)
        for victim in victims:
            if not ctx.c(victim.id).in_play:
                continue
            s534_replacement.execute_wound(
                ctx, Event(kind="wound", target=victim.id, amount=amount, source=card.id, dmg="influence")
            )


# -- Выкормыш слуа: its strike against its host ----------------------------------------------


@hook("strike", ability="host_strike_bonus")
@rule("A8")
def strike_against_host(ctx: context.Ctx, source: state.CardState, ab: Ability, ev: Event) -> None:
    """«Пока паразит, +1 к простому удару по своему хозяину»: the strike's value grows when this
    card, a parasite, strikes its own host. Any other wound it deals is said to be unchanged."""
    if ev.kind != "wound" or ev.dmg != "strike" or ev.source != source.id:
        return
    bonus = int(ab.get("amount"))
    target = ctx.c(ev.target)
    if source.subtype != "parasite" or source.host is None:
        ctx.step(
            "A8", "not_applied", f"{source.label} не паразит: «+{bonus} к удару по хозяину» не действует"
        )
        return
    if source.host != target.id:
        host = ctx.c(source.host)
        ctx.step(
            "A8",
            "not_applied",
            f"{target.label} — не хозяин {source.label} (хозяин — {host.label}): «+{bonus} к удару по "
            "хозяину» "
            "не действует",
        )
        return
    before = ev.amount
    ev.amount += bonus
    ctx.step(
        "A8",
        "effect",
        f"по тексту карты {source.label}, пока паразит, наносит своему хозяину {target.label} простой удар "
        f"на {bonus} сильнее",
        f"удар {source.label}: {before} → {ev.amount}",
    )


# -- Бул'Багур: «свет фонаря» ----------------------------------------------------------------


@action(
    "mark_cells",
    "Отметить клетки особенностью («свет фонаря»)",
    arg("card", "card", "чья особенность", required=True),
    arg("cells", "cells", "клетки", required=True, pool="line_from_card"),
    choice=("cells",),
)
@rule("A8")
def do_mark_cells(ctx: context.Ctx, act: actions.Action) -> None:
    """mark_cells: up to N cells in a straight line from the card, chosen at the start of the
    opponent's turn; they stay marked until the end of its controller's next turn."""
    card = guards.target(ctx, act, battle=True)
    if card is None:
        return
    ab = ctx.ability(card, "lantern")
    if ab is None:
        ctx.forbid("A8", f"у {card.label} нет особенности, отмечающей клетки")
        return
    cells = tuple(act.get("cells"))
    limit = int(ab.get("cells"))
    name = str(ab.get("name"))
    if ctx.active == card.controller:
        ctx.forbid(
            "A8",
            f"«{name}» выбирается в начале хода противника, а сейчас ход {lexicon.player(ctx.active, 'gen')}",
        )
        return
    if card.cell is None:
        ctx.forbid("A8", f"{card.label} не стоит на клетке поля: клеток «на прямой от него» нет")
        return
    if len(cells) > limit or not board.straight_line(card.cell, cells):
        ctx.forbid(
            "A8",
            f"нужно до {lexicon.plural(limit, 'клетки', 'клеток', 'клеток')} подряд на одной прямой от "
            f"{card.label} ({card.cell}), а указано: {', '.join(cells)}",
        )
        return
    ctx.marks = [m for m in ctx.marks if m.card != card.id]
    ctx.marks.append(state.Mark(card=card.id, name=name, cells=cells, until_turn=ctx.turn + 1))
    ctx.step(
        "A8",
        "effect",
        f"«{name}» {card.label}: отмечены клетки {', '.join(cells)} до конца "
        f"следующего хода {lexicon.player(card.controller, 'gen')}",
        f"отмечены: {', '.join(cells)}",
    )

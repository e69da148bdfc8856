"""Section 211.8.1 in battle: a card put onto a card by its own ability (Сугед, Выкормыш слуа,
Многоликий with an ability it took). Only a symbiote may be put on a card, unless the ability
says explicitly that the creature becomes a companion or a parasite (211.8.1); the card it goes
on becomes its host (211.3).

Clauses: 211.3, 211.8.1, 211.11.
"""

from __future__ import annotations

import lexicon
from engine import context
from engine.model import actions, board, state
from engine.model.abilities import Ability
from engine.rules import s211_hosts as hosts
from engine.rules.registry import action, arg, rule


@action(
    "attach",
    "Поместить карту на карту особенностью",
    arg("card", "card", "помещаемая карта", required=True, pool="in_play"),
    arg("host", "card", "на какую карту", required=True, pool="other_in_play"),
    arg("by", "card", "карта, чья особенность (по умолчанию сама помещаемая)"),
    choice=("card", "host"),
)
@rule("A8")
def do_attach(ctx: context.Ctx, action: actions.Action) -> None:
    """attach: a card is put onto another by its own ability (Сугед, Выкормыш слуа, Многоликий
    with an ability it took)."""
    card, h = ctx.get(action.get("card")), ctx.get(action.get("host"))
    src = ctx.get(action.get("by", action.get("card")))
    missing = [
        f"{arg} = {action.get(arg)}"
        for arg, found in (("card", card), ("host", h), ("by", src))
        if found is None and action.get(arg) is not None
    ]
    if missing or card is None or h is None or src is None:
        ctx.forbid("", f"таких карт нет в раскладе: {', '.join(missing)}")
        return
    if ctx.phase != "battle":
        ctx.forbid("", f"особенности помещения применяются в бою, а сейчас {lexicon.phase(ctx.phase)}")
        return
    if not card.in_play:
        ctx.forbid("", f"{card.label} не в зоне битвы")
        return
    ab = attach_ability(ctx, src, h)
    if ab is None or src.id != card.id:
        ctx.forbid("A8", f"у {src.label} нет особенности, помещающей {card.label} на карту")
        return
    if card.borrowed and ab not in card.card.abilities:
        ctx.assume("A8", f"{card.label} использует особенность, взятую у {ctx.c(card.borrowed).label}")
    if ab.kind == "become_parasite":
        _become_parasite(ctx, card, h, ab)
    else:
        _place_on_own_creature(ctx, card, h, ab)


def attach_ability(ctx: context.Ctx, card: state.CardState, host: state.CardState) -> Ability | None:
    """The ability that would put `card` on `host`: becoming a parasite of the creature attacking it,
    else being placed on another creature of its squad."""
    parasite = ctx.ability(card, "become_parasite")
    own = ctx.ability(card, "place_on_own_creature")
    if parasite is not None and (own is None or ctx.last_attack == (host.id, card.id)):
        return parasite
    return own


@rule("211.8.1", "A8")
def _become_parasite(ctx: context.Ctx, card: state.CardState, h: state.CardState, ab: Ability) -> None:
    """Выкормыш слуа: becomes a parasite of its attacker; the text changes the subtype explicitly,
    so 211.8.1 lets it go onto a card."""
    if ab.get("once_per_battle") and "become_parasite" in card.used:
        ctx.forbid("A8", f"{card.label} уже использовал эту особенность в этом бою (1 раз за бой)")
        return
    if ctx.last_attack != (h.id, card.id):
        ctx.forbid("A8", f"{h.label} сейчас не атакует {card.label}: стать паразитом атакующего нельзя")
        return
    if not card.is_creature:
        ctx.forbid(
            "211.8.1",
            f"{card.label} — {hosts.kind_words(card)}, не существо: сменить подтип существа на паразита "
            "он не может, а на карту могут быть помещены только симбиоты",
        )
        return
    ctx.allow(
        "211.8.1", f"особенность {card.label} явно меняет его подтип на паразита: помещение на карту возможно"
    )
    s_view = ctx.update(card.id, subtype="parasite")
    if not hosts.record(ctx, hosts.host_problems(ctx, s_view, h), s_view, h):
        return
    ctx.update(card.id, used=card.used | {"become_parasite"})
    ctx.step(
        "211.8.1",
        "effect",
        f"{card.label} становится паразитом",
        f"{card.label}: подтип {hosts.kind_words(card)} → паразит",
    )
    if card.host is None and card.cell is not None:
        ctx.change(f"{card.label} покидает клетку {card.cell}")
    hosts.set_host(ctx, card.id, h.id)  # a symbiote of its own dies in the state check (211.4)


@rule("211.8.1", "211.11", "A1", "A8", "A12")
def _place_on_own_creature(ctx: context.Ctx, card: state.CardState, h: state.CardState, ab: Ability) -> None:
    """Сугед: placed on another creature of its squad within range. The text does not change the
    subtype, so only a symbiote may use it (211.8.1); the rule is checked before the timing of the
    card text (A12), since it forbids in any turn."""
    if not card.is_symbiote:
        ctx.forbid(
            "211.8.1",
            f"{card.label} — {hosts.kind_words(card)}, не симбиот, а особенность не говорит о смене подтипа "
            "на компаньона или паразита: поместить его на карту нельзя",
        )
        return
    ctx.allow("211.8.1", f"{card.label} — симбиот ({hosts.kind_words(card)}): может быть помещён на карту")
    if ctx.active != card.controller:
        ctx.forbid(
            "A12",
            f"особенность «в конце хода» {card.label} заявляется в ход его игрока "
            f"({lexicon.player(card.controller, 'gen')}), а сейчас ход {lexicon.player(ctx.active, 'gen')}",
        )
        return
    if h.controller != card.controller or h.id == card.host:
        ctx.forbid("A8", f"{h.label} — не другое существо {lexicon.player(card.controller, 'gen')}")
        return
    reach = int(ab.get("range", 1))
    if card.cell is None or h.cell is None or board.distance(card.cell, h.cell) > reach:
        ctx.forbid(
            "A8", f"{h.label} дальше {lexicon.plural(reach, 'клетки', 'клеток', 'клеток')} от {card.label}"
        )
        return
    ctx.assume(
        "A1", f"расстояние от {card.cell} до {h.cell}: {board.distance(card.cell, h.cell)} (с диагоналями)"
    )
    if not hosts.record(ctx, hosts.host_problems(ctx, card, h), card, h):
        return
    ctx.allow("211.11", f"перемещение {card.label} отдельно от хозяина явно указано в тексте особенности")
    hosts.set_host(ctx, card.id, h.id)

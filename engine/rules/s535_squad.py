"""Section 535 «Взятие карт в отряд»: owner and controller, the control marker, recruiting,
taking and losing control, and who may not join a squad. Summoning and resurrection (535.4–535.6)
are s535_summon; incarnation (535.7) is s535_incarnation.

Clauses: 535.1, 535.1.1, 535.2, 535.3, 535.8, 535.8.1, 535.9.
"""

from __future__ import annotations

import lexicon
from engine import context
from engine.model import actions, board, state
from engine.model.abilities import Ability
from engine.rules import zones
from engine.rules.registry import action, arg, hook, rule

Problem = context.Problem

# How A13 reads 535.9's «в его отряде присутствует [текст]».
SQUAD_MEANS = (
    "отряд игрока — карты под его контролем в зоне битвы; [текст] 535.9 сравнивается по названиям "
    "(«с существами [стихии]» — по стихиям карт)"
)
# The abilities «не может быть взята в отряд с [текст]» (535.9): by card names or by elements.
JOIN_KINDS = ("cannot_join_with", "cannot_join_with_element")


@hook("zones_changed")
@hook("state_check")
@rule("535.1.1")
def sync_markers(ctx: context.Ctx) -> bool:
    """The control marker is on a card exactly while owner and controller differ (535.1.1)."""
    changed = False
    for c in list(ctx.cards.values()):
        want = c.controller != c.owner
        if c.marker != want:
            ctx.update(c.id, marker=want)
            what = "наложен" if want else "снят"
            ctx.step(
                "535.1.1",
                "state_check",
                f"{c.label}: маркер контроля {what} (владелец — {lexicon.player(c.owner)}, контролирует — "
                f"{lexicon.player(c.controller)}); "
                "это эффект правил игры, стек не используется",
                f"{c.label}: маркер контроля {what}",
            )
            changed = True
    return changed


def _excluded(ab: Ability, other: state.CardState) -> bool:
    """Is `other` the [текст] of a «не может быть взята в отряд с [текст]» ability (535.9)?"""
    if ab.kind == "cannot_join_with":
        return lexicon.fold(other.name) in {lexicon.fold(str(n)) for n in ab.get("cards") or ()}
    if ab.kind == "cannot_join_with_element":
        if ab.get("creatures_only") and not other.is_creature:
            return False
        wanted = {lexicon.fold(str(e)) for e in ab.get("elements") or ()}
        return any(lexicon.fold(e.strip()) in wanted for e in other.card.element.split(","))
    return False


def _excluded_words(ab: Ability) -> str:
    """The [текст] of the ability as it reads in a reason."""
    if ab.kind == "cannot_join_with_element":
        whom = "существами" if ab.get("creatures_only") else "картами"
        return f"{whom} стихии {', '.join(ab.get('elements'))}"
    return ", ".join(ab.get("cards"))


@rule("535.9")
def join_problem(ctx: context.Ctx, card: state.CardState, player: str) -> Problem | None:
    """Why `player` may not summon, resurrect, incarnate or take `card` (535.9), or None."""
    for ab in ctx.abilities(card):
        if ab.kind not in JOIN_KINDS:
            continue
        present = [c for c in ctx.squad(player) if c.id != card.id and _excluded(ab, c)]
        if present:
            why = (
                f"{card.label} «не может быть взята в отряд с» {_excluded_words(ab)}, а в отряде "
                f"{lexicon.player(player, 'gen')} есть {', '.join(c.label for c in present)}"
            )
            return ctx.found([Problem("535.9", "forbidden", why)])[0]
    return None


@rule("535.9", "A13")
def forbid_join(ctx: context.Ctx, player: str, what: str, why: Problem) -> None:
    """Refuse a summon, resurrection or taking of control by 535.9's second bullet, naming A13
    (what «в его отряде присутствует» means here)."""
    ctx.assume("A13", SQUAD_MEANS)
    ctx.forbid("535.9", f"{lexicon.player(player)} не может {what}: {why.reason}")


@rule("535.9")
def squad_conflicts(ctx: context.Ctx, cards: list[state.CardState]) -> Problem | None:
    """In the recruit subphase a squad is illegal with a card «не может быть взята в отряд с [X]»
    and X in it (535.9, first bullet)."""
    for c in cards:
        for ab in c.card.abilities:
            if ab.kind not in JOIN_KINDS:
                continue
            bad = [o for o in cards if o.id != c.id and _excluded(ab, o)]
            if bad:
                others = ", ".join(o.label for o in bad)
                why = f"в отряде {c.label} («не может быть взята в отряд с» …) и {others}"
                return ctx.found([Problem("535.9", "forbidden", why)])[0]
    return None


@action(
    "recruit",
    "Взять карту в отряд в подфазу Набора",
    arg("card", "card", "карта", required=True, pool="not_in_play"),
    arg("by", "player", "игрок (по умолчанию владелец)"),
    arg("at", "place", "клетка или aux", pool="place"),
    choice=("card", "at"),
)
@rule("535.2", "535.3", "535.9", "A4", "A5")
def do_recruit(ctx: context.Ctx, action: actions.Action) -> None:
    """recruit: a card joins the squad in the recruit subphase (535.2, 535.3; 403.2 is missing)."""
    card = ctx.get(action.get("card"))
    if card is None:
        ctx.forbid("", f"карты {action.get('card')} нет в раскладе")
        return
    by = action.get("by") or card.owner
    if ctx.phase != "recruit":
        ctx.forbid("535.2", f"набор карты в отряд — в подфазу Набора, а сейчас {lexicon.phase(ctx.phase)}")
        return
    if card.in_play:
        ctx.forbid("535.3", f"{card.label} уже в отряде {lexicon.player(card.controller, 'gen')}")
        return
    at = action.get("at")
    flyer = ctx.is_flyer_like(card)
    if flyer:
        ctx.assume("A5", f"{card.label} располагается во вспомогательной зоне")
        at = None
    elif at is None or at == "aux":
        ctx.forbid(
            "A5",
            f"укажите клетку at для {card.label}: во вспомогательной зоне располагаются только летающие "
            "существа и карты «располагается во вспомогательной зоне»",
        )
        return
    elif (occ := ctx.occupant(at)) is not None:
        ctx.forbid("A4", f"клетка {at} занята картой {occ.label}")
        return
    squad = [*ctx.squad(by), card]
    bad = squad_conflicts(ctx, squad)
    if bad is not None:
        ctx.forbid("535.9", f"отряд {lexicon.player(by, 'gen')} нелегален: {bad.reason}")
        return
    ctx.allow("535.2", f"набор {card.label} в отряд в подфазу Набора — это взятие карты в отряд")
    zones.place_in_play(ctx, card.id, cell=at, host=None, controller=by, closed=False, hidden=True)
    ctx.step("535.3", "effect", f"{lexicon.player(by, cap=True)} взял {card.label} в отряд и контролирует её")
    ctx.undet(
        "535.3",
        "набор карт в отряд осуществляется по п. 403.2, которого нет в нашем тексте: "
        "стоимость, размер отряда и прочие ограничения набора не проверены",
    )


@action(
    "take_control",
    "Взять под контроль",
    arg("card", "card", "карта", required=True, pool="in_play"),
    arg("by", "player", "игрок", required=True, pool="player"),
    arg("source", "card", "карта, чья особенность берёт под контроль"),
    choice=("card", "by"),
)
@rule("535.8", "535.2", "535.1", "211.3.1")
def do_take_control(ctx: context.Ctx, action: actions.Action) -> None:
    """take_control: a player becomes the controller of a card (535.8); with `source`, by that
    card's ability «взять под контроль», whose conditions are checked (A8)."""
    card = ctx.get(action.get("card"))
    by = str(action.get("by"))
    if card is None:
        ctx.forbid("", f"карты {action.get('card')} нет в раскладе")
        return
    if action.get("source") is not None and not _by_ability(ctx, card, by, action.get("source")):
        return
    if not card.in_play:
        ctx.forbid(
            "535.8", f"{card.label} не в зоне битвы ({lexicon.zone(card.zone)}): брать под контроль нечего"
        )
        return
    if card.controller == by:
        ctx.forbid("535.8", f"{lexicon.player(by, cap=True)} уже контролирует {card.label}")
        return
    bad = join_problem(ctx, card, by)
    if bad is not None:
        forbid_join(ctx, by, "взять под контроль", bad)
        return
    old = card.controller
    ctx.allow("535.2", "взятие карты противника под свой контроль — это взятие карты в отряд")
    ctx.update(card.id, controller=by)
    ctx.step(
        "535.8",
        "effect",
        f"{lexicon.player(by, cap=True)} становится игроком, контролирующим {card.label}; "
        f"{lexicon.player(old)} перестаёт её контролировать",
        f"{card.label}: контролирует {lexicon.player(by)}",
    )
    ctx.step(
        "535.1",
        "state_check",
        f"владелец {card.label} остаётся прежним — {lexicon.player(card.owner)}: "
        "никакие эффекты не меняют владельца",
    )
    sync_markers(ctx)
    s = ctx.symbiote_of(card.id)
    if s is not None:
        ctx.step(
            "211.3.1",
            "effect",
            f"у хозяина {card.label} сменился контролирующий игрок: подтип симбиота {s.label} не меняется "
            f"(остаётся: {lexicon.subtype(s.subtype or '')}), его особенности не деактивируются и "
            "продолжают влиять на хозяина",
        )


@rule("A1", "A8")
def _by_ability(ctx: context.Ctx, card: state.CardState, by: str, source_id: object) -> bool:
    """The source card's ability «может взять под контроль существо противника» holds here: the
    source is `by`'s card in play, the target an enemy creature (standing next to it, if the text
    says so). False with the refusal. Once per battle, when the text says so."""
    src = ctx.get(str(source_id))
    if src is None:
        ctx.forbid("", f"карты {source_id} нет в раскладе")
        return False
    ab = ctx.ability(src, "take_control")
    if ab is None:
        ctx.forbid("A8", f"у {src.label} нет особенности, берущей карту под контроль")
        return False
    if not src.in_play or src.controller != by:
        ctx.forbid("A8", f"{src.label} не в зоне битвы под контролем {lexicon.player(by, 'gen')}")
        return False
    if not card.is_creature or card.controller == by:
        ctx.forbid(
            "A8", f"особенность {src.label} берёт под контроль существо противника, а {card.label} — нет"
        )
        return False
    if ab.get("once_per_battle") and "take_control" in src.used:
        ctx.forbid("A8", f"{src.label} уже использовал эту особенность в этом бою (1 раз за бой)")
        return False
    if ab.get("adjacent"):
        near = src.cell is not None and card.cell is not None and board.adjacent(src.cell, card.cell)
        if not near:
            ctx.forbid(
                "A8", f"{card.label} не стоит рядом с {src.label}: особенность берёт только стоящее рядом"
            )
            return False
        ctx.assume("A1", f"{card.cell} рядом с {src.cell}: соседние клетки считаются с диагоналями")
    ctx.allow("A8", f"особенность {src.label} берёт под контроль существо противника {card.label}")
    if ab.get("once_per_battle"):
        ctx.update(src.id, used=src.used | {"take_control"})
    return True


@action(
    "lose_control",
    "Потерять контроль",
    arg("card", "card", "карта", required=True, pool="in_play"),
    choice=("card",),
)
@rule("535.8", "535.8.1", "535.1", "535.9", "A13")
def do_lose_control(ctx: context.Ctx, action: actions.Action) -> None:
    """lose_control: the opponent becomes the controller (535.8) unless the card cannot join their
    squad (535.8.1; its «сменить владельца» conflicts with 535.1, which we keep)."""
    card = ctx.get(action.get("card"))
    if card is None:
        ctx.forbid("", f"карты {action.get('card')} нет в раскладе")
        return
    if not card.in_play:
        ctx.forbid("535.8", f"{card.label} не в зоне битвы: терять контроль не над чем")
        return
    p = card.controller
    o = board.other(p)
    bad = join_problem(ctx, card, o)
    if bad is not None:
        ctx.assume("A13", SQUAD_MEANS)
        ctx.step("535.9", "state_check", f"{lexicon.player(o, cap=True)} не может взять карту: {bad.reason}")
        ctx.step(
            "535.8.1",
            "effect",
            f"{lexicon.player(p, cap=True)} потерял контроль над {card.label}, но карта не может быть "
            f"взята в отряд {lexicon.player(o, 'gen')}: {lexicon.player(p)} продолжает её "
            "контролировать",
        )
        ctx.step(
            "535.8.1",
            "conflict",
            "535.8.1 говорит «пока какой-либо другой эффект не предпишет этой карте сменить владельца», но "
            "по 535.1 никакие эффекты не могут изменить владельца. Движок держится 535.1: владелец "
            f"{card.label} — {lexicon.player(card.owner)} и не меняется",
        )
        ctx.step("535.1", "state_check", f"владелец {card.label} — {lexicon.player(card.owner)}")
        return
    ctx.update(card.id, controller=o)
    ctx.step(
        "535.8",
        "effect",
        f"{lexicon.player(p, cap=True)} потерял контроль над {card.label}: противник, {lexicon.player(o)}, "
        "автоматически становится контролирующим игроком",
        f"{card.label}: контролирует {lexicon.player(o)}",
    )
    ctx.step("535.1", "state_check", f"владелец {card.label} остаётся прежним — {lexicon.player(card.owner)}")
    sync_markers(ctx)

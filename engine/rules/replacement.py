"""Replacement effects (534.4–534.8) as a pipeline over one game action.

Each effect applies at most once to an action (534.4); the player who could apply several picks
one (534.4.1), the active player when both could (534.4.2); a numeric change keeps the action's
kind and source (534.5, A9); the result may be replaced again (534.6); a replacing ability (one
that picks a target) puts a generated action on the stack instead (534.7, 534.7.1, 534.7.2); at
the protection check a replacement counts as influence (534.8).
"""

from __future__ import annotations

import dataclasses

from engine import board, context, library, state
from engine.rules import general, symbiotes
from engine.rules.registry import rule


@dataclasses.dataclass
class Event:
    """One game action in the pipeline (mutable, owned by one apply call)."""

    kind: str  # wound | heal | destroy | exile | none
    target: str
    amount: int = 0
    source: str | None = None
    dmg: str = "strike"
    applied: set[str] = dataclasses.field(default_factory=set)
    noted: set[str] = dataclasses.field(default_factory=set)
    base_amount: int = 0
    replaced: bool = False
    generated_by: str | None = None
    counts_as: str = "influence"


@dataclasses.dataclass(frozen=True)
class Effect:
    key: str
    card: str
    player: str
    label: str
    optional: bool
    ability: library.Ability


def _effects(ctx: context.Ctx, ev: Event) -> list[Effect]:
    """Every replacement effect in play that matches the event, applied or not."""
    out: list[Effect] = []
    target = ctx.get(ev.target)
    if target is None:
        return out
    for card in ctx.cards.values():
        if not card.in_play:
            continue
        for i, ab in enumerate(ctx.abilities(card)):
            found = _matches(ctx, card, ab, ev, target)
            if found is not None:
                label, optional = found
                out.append(Effect(f"{card.id}#{i}:{ab.kind}", card.id, card.controller, label, optional, ab))
    return out


def _matches(
    ctx: context.Ctx, card: state.CardState, ab: library.Ability, ev: Event, target: state.CardState
) -> tuple[str, bool] | None:
    """(label, optional) when `card`'s ability `ab` can replace `ev`, else None."""
    if ab.kind == "wound_modifier" and ev.kind == "wound" and _modifier_matches(ctx, card, ab, ev, target):
        name = ab.get("name", "изменение ран")
        return f"«{name}» {card.label}: {int(ab.get('delta', 0)):+d} к ранам {target.label}", False
    if (
        ab.kind == "replace_destroy_with_exile"
        and ev.kind == "destroy"
        and ev.source == card.id
        and target.is_creature
        and target.controller != card.controller
    ):
        return f"{card.label} изгоняет {target.label} вместо уничтожения", False
    if (
        ab.kind == "replace_heal_with_wound"
        and ev.kind == "heal"
        and ev.target == card.id
        and card.wounds == 0
    ):
        limit = int(ab.get("per_turn", 3))
        if card.turn_uses >= limit:
            _note_once(
                ctx,
                ev,
                f"{card.id}:spent",
                "A8",
                f"{card.label} уже заместил лечение {board.plural(limit, 'раз', 'раза', 'раз')} за этот ход "
                "(больше по тексту карты нельзя)",
            )
        elif not _replacing_targets(ctx, card):
            _note_once(
                ctx,
                ev,
                f"{card.id}:alone",
                "534.7",
                f"рядом с {card.label} нет существ: замещающей особенности некого выбрать целью, "
                "она не применяется",
            )
        else:
            return f"{card.label}: вместо лечения ранить стоящее рядом существо", True
    return None


def _note_once(ctx: context.Ctx, ev: Event, key: str, clause: str, reason: str) -> None:
    """A «why not» step, once per game action however often the pipeline looks again."""
    if key not in ev.noted:
        ev.noted.add(key)
        ctx.step(clause, "not_applied", reason)


def _replacing_targets(ctx: context.Ctx, card: state.CardState) -> list[state.CardState]:
    """The creatures standing next to `card` (211.9, A1): the targets Вожак сатиров may choose."""
    return [
        c for c in ctx.cards.values() if c.in_play and c.is_creature and symbiotes.cards_adjacent(c, card)
    ]


def _modifier_matches(
    ctx: context.Ctx, card: state.CardState, ab: library.Ability, ev: Event, target: state.CardState
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


@rule("534.4", "534.4.1", "534.4.2", "534.6")
def run(ctx: context.Ctx, ev: Event) -> list[Event]:
    """Apply replacement effects to `ev` until none is left; returns generated actions (534.7)."""
    generated: list[Event] = []
    while ev.kind != "none":
        matching = _effects(ctx, ev)
        for e in matching:
            if e.key in ev.applied and e.key not in ev.noted:
                ev.noted.add(e.key)
                ctx.step(
                    "534.4",
                    "not_applied",
                    f"{e.label}: уже применён к этому игродействию — повторно не применяется",
                )
        fresh = [e for e in matching if e.key not in ev.applied]
        if not fresh:
            break
        chosen = _pick(ctx, ev, fresh)
        if chosen is None:
            for e in fresh:
                if e.optional:
                    ev.applied.add(e.key)
                    ev.noted.add(e.key)
            continue
        if ev.replaced:
            ctx.step(
                "534.6",
                "allowed",
                f"эффект замещения применяется к результату другого замещения: {chosen.label}",
            )
        ev.applied.add(chosen.key)
        ev.replaced = True
        gen = _apply(ctx, ev, chosen)
        if gen is not None:
            generated.append(gen)
    return generated


def _pick(ctx: context.Ctx, ev: Event, fresh: list[Effect]) -> Effect | None:
    if len(fresh) == 1 and not fresh[0].optional:
        return fresh[0]
    players = {e.player for e in fresh}
    if len(players) == 2:
        who, clause = ctx.active, "534.4.2"
        ctx.step(
            clause,
            "state_check",
            f"эффекты замещения могут применить оба игрока: выбирает активный, {board.player(who)}",
        )
    elif len(fresh) == 1:
        # one optional effect («может»): whether to apply it is the card text's choice
        who, clause = fresh[0].player, "A8"
    else:
        who, clause = fresh[0].player, "534.4.1"
        if len(fresh) > 1:
            ctx.step(
                clause,
                "state_check",
                f"{board.player(who, cap=True)} может применить несколько "
                "эффектов замещения: выбирает, какой применить",
            )
    options = [(f"{i + 1}", e.label) for i, e in enumerate(fresh)]
    if all(e.optional for e in fresh):
        options.append(("none", "не применять"))
    target = ctx.c(ev.target)
    key = ctx.ask(
        who, clause, f"Какой эффект замещения применить к игродействию над {target.label}?", options
    )
    if key == "none":
        return None
    return fresh[int(key) - 1]


@rule("534.4")
def _once(ctx: context.Ctx, eff: Effect) -> None:
    """The effect is now applied to this game action and will not be applied to it again (534.4)."""
    ctx.step(
        "534.4",
        "effect",
        f"эффект замещения ({eff.label}) применён к этому игродействию — 1 раз, повторно не применится",
    )


def _apply(ctx: context.Ctx, ev: Event, eff: Effect) -> Event | None:
    """Apply the chosen effect to `ev`; a replacing ability returns the action it generates."""
    if eff.ability.kind == "wound_modifier":
        _apply_number(ctx, ev, eff)
        return None
    if eff.ability.kind == "replace_destroy_with_exile":
        ev.kind = "exile"
        target = ctx.c(ev.target)
        ctx.step(
            "A8",
            "effect",
            f"эффект замещения по тексту карты: {eff.label}",
            f"{target.label}: уничтожение → изгнание",
        )
        _once(ctx, eff)
        return None
    return _apply_replacing(ctx, ev, eff)


@rule("534.4", "534.5")
def _apply_number(ctx: context.Ctx, ev: Event, eff: Effect) -> None:
    """A numeric change of the wounds keeps the action's kind and source (534.5, A9)."""
    target = ctx.c(ev.target)
    before = ev.amount
    ev.amount = max(0, ev.amount + int(eff.ability.get("delta", 0)))
    ctx.step(
        "A8",
        "effect",
        f"эффект замещения по тексту карты: {eff.label}",
        f"раны {target.label}: {before} → {ev.amount}",
    )
    _once(ctx, eff)
    src = ctx.get(ev.source)
    ctx.step(
        "534.5",
        "effect",
        f"меняется только число ран: они по-прежнему считаются полученными от "
        f"{library.DAMAGE_GEN[ev.dmg]}{' ' + src.label if src else ''}",
    )
    ctx.assume(
        "A9",
        "сохранённая «ассоциированная информация» — вид игродействия и его источник "
        "(раздел 537 «История боя» в нашем тексте отсутствует)",
    )


@rule("534.7", "534.7.1", "534.7.2")
def _apply_replacing(ctx: context.Ctx, ev: Event, eff: Effect) -> Event:
    """A replacing ability (534.7, Вожак сатиров): the healing is removed and an ability that
    wounds the chosen target goes on the stack; it is not replaced on the way in (534.7.1)."""
    card = ctx.c(eff.card)
    near = _replacing_targets(ctx, card)
    symbiotes.explain_adjacent(ctx, card, near)
    key = ctx.ask(
        card.controller,
        "534.7",
        f"Кого ранит {card.label} вместо лечения на {ev.amount}?",
        [(c.id, f"{c.label} на {c.cell}") for c in near],
    )
    victim = ctx.c(key)
    ctx.update(card.id, turn_uses=card.turn_uses + 1)
    ctx.step(
        "534.7",
        "effect",
        f"замещающая особенность {card.label}: лечение на {ev.amount} удалено; в стек помещена особенность, "
        f"которая ранит {victim.label} на {ev.amount} (воздействие)",
        f"{card.label}: за этот ход использовано {board.plural(card.turn_uses + 1, 'раз', 'раза', 'раз')}",
    )
    ctx.step(
        "534.7.1",
        "not_applied",
        "в момент помещения в стек замещающая особенность не замещается другими "
        "эффектами; её эффект может быть замещён при выполнении",
    )
    ctx.assume("A10", "порождённая особенность выполняется сразу (порядок по 536 в нашем тексте отсутствует)")
    ev.kind = "none"
    return Event(
        kind="wound",
        target=victim.id,
        amount=ev.amount,
        source=card.id,
        dmg=str(eff.ability.get("damage_kind", "influence")),
        applied=set(ev.applied),
        base_amount=ev.amount,
        replaced=True,
        generated_by=card.id,
        counts_as=str(eff.ability.get("counts_as", "influence")),
    )


@rule("534.7.2")
def note_inherited(ctx: context.Ctx, ev: Event) -> None:
    if ev.generated_by and ev.applied:
        ctx.step(
            "534.7.2",
            "state_check",
            "эффекты замещения, уже применённые к исходному игродействию, не применяются к эффекту "
            "замещающей особенности (п. 534.4)",
        )


@rule("534.8")
def protection(ctx: context.Ctx, ev: Event) -> None:
    """Protections of the target against the (possibly replaced) wound (534.8)."""
    target = ctx.c(ev.target)
    prots: set[str] = set()
    for ab in ctx.abilities(target):
        if ab.kind == "protection":
            prots.update(ab.get("from") or ())
    if not prots:
        return
    src = ctx.get(ev.source)
    if ev.replaced and ev.counts_as == "influence":
        if "influence" in prots:
            if ev.generated_by:
                ctx.step(
                    "534.8",
                    "effect",
                    f"на шаге проверки защит замещающая особенность считается воздействием; "
                    f"у {target.label} защита от воздействий: раны не наносятся",
                    f"раны {target.label}: {ev.amount} → 0",
                )
                ev.amount = 0
                return
            if ev.amount > ev.base_amount:
                ctx.step(
                    "534.8",
                    "effect",
                    f"на шаге проверки защит эффект замещения считается воздействием; у "
                    f"{target.label} защита от воздействий: добавленные раны не наносятся",
                    f"раны {target.label}: {ev.amount} → {ev.base_amount}",
                )
                ev.amount = ev.base_amount
        else:
            ctx.step(
                "534.8",
                "state_check",
                f"эффект замещения на шаге проверки защит считается воздействием; "
                f"у {target.label} нет защиты от воздействий",
            )
    if ev.dmg in prots and ev.amount:
        ctx.step(
            "A8",
            "effect",
            f"у {target.label} защита от: {library.DAMAGE_RU[ev.dmg]} — раны не наносятся",
            f"раны {target.label}: {ev.amount} → 0",
        )
        ev.amount = 0
    if "flyers" in prots and src is not None and src.subtype == "flyer" and ev.amount:
        ctx.step(
            "A8", "effect", f"у {target.label} защита от летающих, а {src.label} летающее: раны не наносятся"
        )
        ev.amount = 0


def destroy_destination(ctx: context.Ctx, cid: str, source: str | None) -> str:
    """Where a destroyed card goes after replacement effects: graveyard or exile."""
    ev = Event(kind="destroy", target=cid, source=source)
    run(ctx, ev)
    return "exile" if ev.kind == "exile" else "graveyard"


def execute_wound(ctx: context.Ctx, ev: Event) -> None:
    """A wound through the pipeline, protections, then the wounds and a death check (A2).

    Recursion (a death whose «при гибели» wounds others, a generated wound) ends: each level
    needs a card still in play to die, and a dead card leaves play.
    """
    target = ctx.c(ev.target)
    ev.base_amount = ev.amount
    with ctx.group("", "effect", f"{target.label} получает ран: {ev.amount} ({library.DAMAGE_RU[ev.dmg]})"):
        note_inherited(ctx, ev)
        generated = run(ctx, ev)
        target = ctx.c(ev.target)
        if ev.kind == "wound" and target.in_play and target.id in ctx.dying:
            ctx.step("A2", "not_applied", f"{target.label} уже погибает: раны ему больше не наносятся")
        elif ev.kind == "wound" and target.in_play:
            if symbiotes.wounds_only_from_host(ctx, target, ev.source):
                ev.amount = 0
            protection(ctx, ev)
            if ev.amount:
                ctx.update(target.id, wounds=target.wounds + ev.amount)
                ctx.change(
                    f"{target.label}: ран {target.wounds} → {target.wounds + ev.amount} (жизнь {target.life})"
                )
                target = ctx.c(target.id)
                if target.life is not None and target.wounds >= target.life:
                    # The death step cites A2 and carries its wording (trace._assumption_note).
                    why = f"раны достигли жизни ({target.wounds}/{target.life})"
                    general.die(ctx, target.id, ev.source, why, "A2")
        for gen in generated:
            execute_wound(ctx, gen)


def execute_heal(ctx: context.Ctx, ev: Event) -> None:
    target = ctx.c(ev.target)
    with ctx.group("", "effect", f"лечение {target.label} на {ev.amount}"):
        generated = run(ctx, ev)
        target = ctx.c(ev.target)
        if ev.kind == "heal":
            healed = min(ev.amount, target.wounds)
            ctx.update(target.id, wounds=target.wounds - healed)
            ctx.change(f"{target.label}: ран {target.wounds} → {target.wounds - healed}")
        for gen in generated:
            execute_wound(ctx, gen)

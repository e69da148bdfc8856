"""Replacement effects (534.4–534.8) as a pipeline over one game action.

Each effect applies at most once to an action (534.4); the player who could apply several picks
one (534.4.1), the active player when both could (534.4.2); a numeric change keeps the action's
kind and source (534.5, A9); the result may be replaced again (534.6); a replacing ability (one
that picks a target) puts a generated action on the stack instead (534.7, 534.7.1, 534.7.2); at
the protection check a replacement counts as influence (534.8).

Which effects exist is not this module's business: an ability kind that can replace a game action
registers a `replacement` hook (engine/rules/card_text.py) that answers with an Offer; this module
asks every card in play, orders the offers and applies them by the rules of 534.
"""

from __future__ import annotations

import lexicon
from engine import context
from engine.model import state
from engine.rules import zones
from engine.rules.events import Effect, Event
from engine.rules.registry import hook, rule


def _effects(ctx: context.Ctx, ev: Event) -> list[Effect]:
    """Every replacement effect in play that matches the event, applied or not."""
    out: list[Effect] = []
    target = ctx.get(ev.target)
    if target is None:
        return out
    for card in ctx.cards.values():
        if not card.in_play:
            continue
        for offer_of, ab, i in ctx.card_hooks("replacement", card):
            offer = offer_of(ctx, card, ab, ev, target)
            if offer is not None:
                key = f"{card.id}#{i}:{ab.kind}"
                out.append(
                    Effect(key, card.id, card.controller, offer.label, offer.optional, ab, offer.apply)
                )
    return out


def note_once(ctx: context.Ctx, ev: Event, key: str, clause: str, reason: str) -> None:
    """A «why not» step, once per game action however often the pipeline looks again."""
    if key not in ev.noted:
        ev.noted.add(key)
        ctx.step(clause, "not_applied", reason)


@rule("534.4", "534.6")
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
        gen = chosen.apply(ctx, ev, chosen)
        if gen is not None:
            generated.append(gen)
    return generated


@rule("534.4.1", "534.4.2", "A8")
def _pick(ctx: context.Ctx, ev: Event, fresh: list[Effect]) -> Effect | None:
    if len(fresh) == 1 and not fresh[0].optional:
        return fresh[0]
    players = {e.player for e in fresh}
    if len(players) == 2:
        who, clause = ctx.active, "534.4.2"
        ctx.step(
            clause,
            "state_check",
            f"эффекты замещения могут применить оба игрока: выбирает активный, {lexicon.player(who)}",
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
                f"{lexicon.player(who, cap=True)} может применить несколько "
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
def applied_once(ctx: context.Ctx, eff: Effect) -> None:
    """The effect is now applied to this game action and will not be applied to it again (534.4)."""
    ctx.step(
        "534.4",
        "effect",
        f"эффект замещения ({eff.label}) применён к этому игродействию — 1 раз, повторно не применится",
    )


@rule("534.5", "A8", "A9")
def apply_number(ctx: context.Ctx, ev: Event, eff: Effect) -> Event | None:
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
    applied_once(ctx, eff)
    src = ctx.get(ev.source)
    ctx.step(
        "534.5",
        "effect",
        f"меняется только число ран: они по-прежнему считаются полученными от "
        f"{lexicon.damage_gen(ev.dmg)}{' ' + src.label if src else ''}",
    )
    ctx.assume(
        "A9",
        "сохранённая «ассоциированная информация» — вид игродействия и его источник "
        "(раздел 537 «История боя» в нашем тексте отсутствует)",
    )
    return None


@rule("534.7", "534.7.1", "A10")
def generate_replacing(
    ctx: context.Ctx, ev: Event, eff: Effect, near: list[state.CardState], damage_kind: str, counts_as: str
) -> Event:
    """A replacing ability (534.7, Вожак сатиров): the healing is removed and an ability that
    wounds the chosen target among `near` goes on the stack; it is not replaced on the way in
    (534.7.1)."""
    card = ctx.c(eff.card)
    key = ctx.ask_card(
        card.controller, "534.7", f"Кого ранит {card.label} вместо лечения на {ev.amount}?", near
    )
    victim = ctx.c(key)
    ctx.update(card.id, turn_uses=card.turn_uses + 1)
    ctx.step(
        "534.7",
        "effect",
        f"замещающая особенность {card.label}: лечение на {ev.amount} удалено; в стек помещена особенность, "
        f"которая ранит {victim.label} на {ev.amount} (воздействие)",
        f"{card.label}: за этот ход использовано {lexicon.plural(card.turn_uses + 1, 'раз', 'раза', 'раз')}",
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
        dmg=damage_kind,
        applied=set(ev.applied),
        base_amount=ev.amount,
        replaced=True,
        generated_by=card.id,
        counts_as=counts_as,
    )


@rule("534.4", "534.7.2")
def note_inherited(ctx: context.Ctx, ev: Event) -> None:
    """The replacement effects already applied to the original action stay applied to the one a
    replacing ability generates (534.7.2, by 534.4: each effect once per action)."""
    if ev.generated_by and ev.applied:
        ctx.step(
            "534.7.2",
            "state_check",
            "эффекты замещения, уже применённые к исходному игродействию, не применяются к эффекту "
            "замещающей особенности",
        )
        ctx.step(
            "534.4", "state_check", "один и тот же эффект замещения применяется к игродействию только раз"
        )


def _protections(ctx: context.Ctx, card: state.CardState) -> set[str]:
    return {p for ab in ctx.abilities(card) if ab.kind == "protection" for p in ab.get("from") or ()}


@rule("A8")
def strike_prevented(ctx: context.Ctx, ev: Event) -> bool:
    """Does the text keep every wound of this strike off its target, whatever its number: a wound
    guard (Карлик Унд: only from its host), a protection from its kind or from flyers? The guard
    or protection says so in the trace. Replacement effects are not asked: they change a number."""
    target = ctx.c(ev.target)
    if any(guard(ctx, target, ab, ev) for guard, ab, _i in ctx.card_hooks("wound_guard", target)):
        return True
    prots = _protections(ctx, target)
    src = ctx.get(ev.source)
    if ev.dmg in prots:
        ctx.step("A8", "effect", f"у {target.label} защита от: {lexicon.damage(ev.dmg)} — раны не наносятся")
        return True
    if "flyers" in prots and src is not None and src.subtype == "flyer":
        ctx.step(
            "A8", "effect", f"у {target.label} защита от летающих, а {src.label} летающее: раны не наносятся"
        )
        return True
    return False


@rule("534.8", "A8")
def protection(ctx: context.Ctx, ev: Event) -> None:
    """Protections of the target against the (possibly replaced) wound (534.8)."""
    target = ctx.c(ev.target)
    prots = _protections(ctx, target)
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
            f"у {target.label} защита от: {lexicon.damage(ev.dmg)} — раны не наносятся",
            f"раны {target.label}: {ev.amount} → 0",
        )
        ev.amount = 0
    if "flyers" in prots and src is not None and src.subtype == "flyer" and ev.amount:
        ctx.step(
            "A8", "effect", f"у {target.label} защита от летающих, а {src.label} летающее: раны не наносятся"
        )
        ev.amount = 0


@hook("destroy_replacement")
def destroy_destination(ctx: context.Ctx, cid: str, source: str | None) -> str | None:
    """A destruction through the replacement effects: «exile» when one replaced it with exile."""
    ev = Event(kind="destroy", target=cid, source=source)
    run(ctx, ev)
    return "exile" if ev.kind == "exile" else None


@rule("A2")
def execute_wound(ctx: context.Ctx, ev: Event) -> None:
    """A wound through the pipeline, protections, then the wounds and a death check (A2).

    Recursion (a death whose «при гибели» wounds others, a generated wound) ends: each level
    needs a card still in play to die, and a dead card leaves play.
    """
    target = ctx.c(ev.target)
    source = ctx.get(ev.source)
    if source is not None:
        for strike, ab, _i in ctx.card_hooks("strike", source):
            strike(ctx, source, ab, ev)
    ev.base_amount = ev.amount
    with ctx.group("", "effect", f"{target.label} получает ран: {ev.amount} ({lexicon.damage(ev.dmg)})"):
        note_inherited(ctx, ev)
        generated = run(ctx, ev)
        target = ctx.c(ev.target)
        if ev.kind == "wound" and target.in_play and target.id in ctx.dying:
            ctx.step("A2", "not_applied", f"{target.label} уже погибает: раны ему больше не наносятся")
        elif ev.kind == "wound" and target.in_play:
            if any(guard(ctx, target, ab, ev) for guard, ab, _i in ctx.card_hooks("wound_guard", target)):
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
                    zones.die(ctx, target.id, ev.source, why, "A2")
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

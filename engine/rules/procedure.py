"""Game procedure around our clauses: phases, turns, movement, attacks, wounds, healing, removal,
type changes. Our rules text does not hold these procedures; where they matter they cite
assumptions (A1, A3, A5, A7, A12) and hand over to the clause modules (211, 534, 535), and at the
start and end of a turn they call the hooks that sections and card texts register.
"""

from __future__ import annotations

import lexicon
from engine import context
from engine.model import actions, board, state
from engine.model import cards as library
from engine.rules import guards, s211_bond, s211_hosts, s211_movement, s534_replacement, zones
from engine.rules.events import Event
from engine.rules.registry import action, arg, rule

PHASE_ORDER = ("recruit", "placement", "reveal")


@action("next_phase", "Перейти к следующей части подготовки (Набор → рассадка → Вскрытие)")
@rule("A14")
def do_next_phase(ctx: context.Ctx, action: actions.Action) -> None:
    """next_phase: подфаза Набора → Шаг рассадки → его подфаза Вскрытия (the order of 211.2, 535.3)."""
    if ctx.phase not in ("recruit", "placement"):
        hint = "закончите Вскрытие действием end_reveal" if ctx.phase == "reveal" else "бой уже идёт"
        ctx.forbid("A14", f"сейчас {lexicon.phase(ctx.phase)}: {hint}")
        return
    old = ctx.phase
    ctx.phase = PHASE_ORDER[PHASE_ORDER.index(old) + 1]
    ctx.step("A14", "effect", f"{lexicon.phase_ended(old)}: начинается {lexicon.phase(ctx.phase)}")


@action("start_turn", "Начать ход", arg("player", "player", "игрок (по умолчанию активный)"))
@rule("A15")
def do_start_turn(ctx: context.Ctx, action: actions.Action) -> None:
    """start_turn: the turn begins (A15); sections and card texts act at its start through their
    hooks (incarnation tokens, 535.7.1; Многоликий's borrowing)."""
    if not _turns_go_on(ctx, "начать ход"):
        return
    player = action.get("player") or ctx.active
    if player != ctx.active:
        ctx.forbid(
            "A15",
            f"сейчас очередь {lexicon.player(ctx.active, 'gen')}; "
            f"ход {lexicon.player(player, 'gen')} начнётся после end_turn",
        )
        return
    if ctx.started:
        ctx.forbid("A15", f"ход {ctx.turn} ({lexicon.player(player, 'gen')}) уже начат")
        return
    ctx.started = True
    ctx.step("A15", "effect", f"начинается ход {ctx.turn} {lexicon.player(player, 'gen')}")
    for begin in ctx.hooks("turn_start"):
        begin(ctx, player)
    for card in sorted(ctx.cards.values(), key=lambda c: c.id):
        for begin, ab, _i in ctx.card_hooks("turn_start", card):
            if ctx.c(card.id).in_play:
                begin(ctx, ctx.c(card.id), ab, player)


@rule("A15")
def _turns_go_on(ctx: context.Ctx, what: str) -> bool:
    """Turns are the battle's (A15): before it, a turn neither starts nor ends."""
    if ctx.phase != "battle":
        ctx.forbid("A15", f"ходы идут в бою, а сейчас {lexicon.phase(ctx.phase)}: {what} нельзя")
        return False
    return True


@action("end_turn", "Закончить ход")
@rule("A8", "A15")
def do_end_turn(ctx: context.Ctx, action: actions.Action) -> None:
    """end_turn: what lasts «until the end of the turn» ends (hooks), per-turn uses reset, marked
    cells whose time is up are unmarked, and the opponent's turn comes next."""
    if not _turns_go_on(ctx, "закончить ход"):
        return
    player = ctx.active
    for card in list(ctx.cards.values()):
        for end, ab, _i in ctx.card_hooks("turn_end", card):
            if ctx.c(card.id).in_play:
                end(ctx, ctx.c(card.id), ab, player)
    for end in ctx.hooks("turn_end"):
        end(ctx, player)
    for card in list(ctx.cards.values()):
        if card.turn_uses:
            ctx.update(card.id, turn_uses=0)
    kept = [m for m in ctx.marks if m.until_turn > ctx.turn]
    if len(kept) != len(ctx.marks):
        ctx.step("A8", "effect", "действие отмеченных клеток закончилось")
        ctx.marks = kept
    ctx.last_attack = None
    ctx.active = board.other(player)
    ctx.turn += 1
    ctx.started = False
    ctx.step(
        "A15",
        "effect",
        f"ход {lexicon.player(player, 'gen')} окончен; следующий ход ({ctx.turn}) — "
        f"{lexicon.player(ctx.active, 'gen')}",
    )


@rule("A3", "A7")
def _may_act(ctx: context.Ctx, card: state.CardState, what: str) -> bool:
    if card.controller != ctx.active:
        ctx.forbid(
            "A7",
            f"{what} заявляет активный игрок своими существами; {card.label} под контролем "
            f"{lexicon.player(card.controller, 'gen')}, а ход {lexicon.player(ctx.active, 'gen')}",
        )
        return False
    if not card.is_creature:
        ctx.forbid("A7", f"{card.label} — {lexicon.card_type(card.type)}, а {what} заявляют существа")
        return False
    if card.closed:
        ctx.forbid("A3", f"{card.label} закрыт: закрытое существо не заявляет {what}")
        return False
    return True


@rule("A8")
def _cannot_stand_on(
    ctx: context.Ctx, card: state.CardState, to: str, free_cell: str, *, by_ability: bool
) -> bool:
    """Checks shared by movement and relocation (`by_ability`): a free cell (`free_cell` cites A7
    for movement, A4 otherwise), the card's own text, and its symbiote's restrictions (211.11).
    True when forbidden."""
    occ = ctx.occupant(to)
    if occ is not None:
        ctx.forbid(free_cell, f"клетка {to} занята картой {occ.label}: на клетке стоит не больше одной карты")
        return True
    if s211_movement.cannot_enter(ctx, card, to):
        ctx.forbid("A8", f"{card.label} не может перемещаться на {to} (текст карты)")
        return True
    return card.host is None and s211_movement.symbiote_restricts_host(ctx, card, to, by_ability=by_ability)


@action(
    "move",
    "Заявить движение",
    arg("card", "card", "существо", required=True, pool="active_creature"),
    arg("to", "cell", "клетка", required=True, pool="cell"),
    choice=("card", "to"),
)
@rule("A1", "A5", "A7", "A8")
def do_move(ctx: context.Ctx, action: actions.Action) -> None:
    """move: a creature's declared movement (211.10, 211.11; distance and free cell: A7)."""
    card = guards.target(ctx, action, battle=True)
    if card is None:
        return
    to = str(action.get("to"))
    if s211_movement.movement_declared(ctx, card):
        return
    if not _may_act(ctx, card, "движение"):
        return
    if s211_bond.host_lock(ctx, card, f"движение на {to}", None):
        return
    if s211_bond.host_cannot_move(ctx, card):
        return
    if ctx.ability(card, "cannot_move") is not None:
        ctx.forbid("A8", f"{card.label} не может двигаться (текст карты)")
        return
    if card.zone == "aux" or card.cell is None:
        ctx.assume("A5", f"{card.label} во вспомогательной зоне, а не на клетке поля")
        ctx.undet("A7", f"{card.label} во вспомогательной зоне: правил движения летающих в нашем тексте нет")
        ctx.keep_state = True
        return
    if _cannot_stand_on(ctx, card, to, "A7", by_ability=False):
        return
    dist = board.distance(card.cell, to)
    if dist > card.card.move:
        ctx.forbid(
            "A7",
            f"{to} в {lexicon.plural(dist, 'шаге', 'шагах', 'шагах')} от {card.cell}, "
            f"а запас движения {card.label} — {card.card.move}",
        )
        return
    ctx.assume(
        "A1",
        f"от {card.cell} до {to} {lexicon.plural(dist, 'шаг', 'шага', 'шагов')}: шаг по диагонали — один",
    )
    ctx.assume(
        "A7",
        f"движение {card.label} с {card.cell} на свободную клетку {to} "
        f"({lexicon.plural(dist, 'шаг', 'шага', 'шагов')}, запас {card.card.move})",
    )
    old = card.cell
    ctx.update(card.id, cell=to)
    ctx.step("", "effect", f"{card.label} двигается {old} → {to}", f"{card.label}: клетка {old} → {to}")
    s211_movement.carry_symbiote(ctx, card, to)


@action(
    "relocate",
    "Переместить особенностью",
    arg("card", "card", "карта", required=True, pool="in_play"),
    arg("to", "cell", "клетка", required=True, pool="cell"),
    arg("by", "card", "карта, чья особенность перемещает"),
    arg("symbiote_alone", "bool", "особенность явно разрешает перемещать симбиота отдельно", default=False),
    choice=("card", "to"),
)
@rule("211.11", "211.7", "A4", "A5", "A8")
def do_relocate(ctx: context.Ctx, action: actions.Action) -> None:
    """relocate: moved by an ability (211.11)."""
    card = guards.target(ctx, action)
    if card is None:
        return
    to = str(action.get("to"))
    if s211_movement.relocate_symbiote(ctx, card, bool(action.get("symbiote_alone", False))):
        return
    if ctx.ability(card, "cannot_be_relocated") is not None:
        ctx.forbid("A8", f"{card.label} не может быть перемещён (текст карты)")
        return
    if card.cell is None:
        ctx.undet(
            "A5",
            f"{card.label} во вспомогательной зоне: перемещение оттуда на клетку нашим текстом не описано",
        )
        ctx.keep_state = True
        return
    if _cannot_stand_on(ctx, card, to, "A4", by_ability=True):
        return
    old = card.cell
    if card.host is not None:
        ctx.update(card.id, host=None, cell=to)
        ctx.step(
            "211.11",
            "effect",
            f"{card.label} перемещён отдельно от хозяина на {to}",
            f"{card.label}: без хозяина, клетка {to}",
        )
        ctx.undet(
            "211.7",
            f"{card.label} остался посреди боя без хозяина: 211.7 говорит о симбиоте без хозяина только "
            "по окончании подфазы Вскрытия, что с ним происходит в бою, в нашем тексте не сказано",
        )
        return
    ctx.update(card.id, cell=to)
    ctx.step("", "effect", f"{card.label} перемещён {old} → {to}", f"{card.label}: клетка {old} → {to}")
    s211_movement.carry_symbiote(ctx, card, to)


@action(
    "attack",
    "Объявить нападение",
    arg("attacker", "card", "атакующий", required=True, pool="active_creature"),
    arg("target", "card", "цель", required=True, pool="other_in_play"),
    arg("wounds", "int", "раны от удара (не указаны — движок спросит, если текст молчит)"),
    choice=("attacker", "target"),
)
@rule("211.9", "A1", "A5", "A7")
def do_attack(ctx: context.Ctx, action: actions.Action) -> None:
    """attack: is the declaration legal? (211.3.1 via the host lock, 211.9; otherwise A7). Then
    its wounds: what the text decides (a target that takes wounds only from its host, a protection)
    is applied; where the text is silent the judge gives the number (`wounds`, or a question)."""
    attacker = guards.card_arg(ctx, action, "attacker")
    target = guards.card_arg(ctx, action, "target") if attacker else None
    if attacker is None or target is None or not guards.in_battle(ctx):
        return
    if not guards.in_play(ctx, attacker) or not guards.in_play(ctx, target):
        return
    if attacker.id == target.id:
        ctx.forbid("", f"{attacker.label} не может нападать на себя")
        return
    if not _may_act(ctx, attacker, "нападение"):
        return
    if s211_bond.host_lock(ctx, attacker, f"нападение на {target.label}", target.id):
        return
    if s211_bond.attack_with_host(ctx, attacker, target):
        ctx.last_attack = (attacker.id, target.id)
        _strike(ctx, attacker, target, action, "211.9")
        return
    if attacker.cell is None or target.cell is None or attacker.zone == "aux" or target.zone == "aux":
        flyer = attacker if attacker.zone == "aux" else target
        ctx.assume("A5", f"{flyer.label} во вспомогательной зоне, а не на клетке поля")
        ctx.undet(
            "A7", f"{flyer.label} во вспомогательной зоне: правил нападения летающих в нашем тексте нет"
        )
        ctx.keep_state = True
        return
    if not board.adjacent(attacker.cell, target.cell):
        ctx.assume("A1", f"{target.cell} не соседняя с {attacker.cell} клетка, даже по диагонали")
        ctx.forbid(
            "A7",
            f"{target.label} ({target.cell}) не стоит рядом с {attacker.label} ({attacker.cell}): "
            "нападение ближнего боя — на соседнюю клетку",
        )
        return
    ctx.assume("A1", f"{target.cell} рядом с {attacker.cell}: соседние клетки считаются с диагоналями")
    ctx.assume(
        "A7",
        f"нападение ближнего боя {attacker.label} ({attacker.cell}) на стоящую рядом карту "
        f"{target.label} ({target.cell})",
    )
    ctx.last_attack = (attacker.id, target.id)
    ctx.step("", "effect", f"{attacker.label} объявляет нападение на {target.label}")
    _strike(ctx, attacker, target, action, "A7")


NO_STRIKE = "none"


@rule("A8")
def _strike(
    ctx: context.Ctx, attacker: state.CardState, target: state.CardState, action: actions.Action, clause: str
) -> None:
    """The wounds of a declared attack. The text decides some (a wound guard, a protection): then
    no number is asked. Otherwise how many wounds a strike deals comes from the general rules of
    attack (dice, weak, medium or strong strike), which our text lacks: the judge gives it, as the
    `wounds` argument or by answering the question (`clause`: 211.9 or A7)."""
    if not target.is_creature:
        return
    given = action.get("wounds")
    ev = Event(kind="wound", target=target.id, amount=int(given or 0), source=attacker.id, dmg="strike")
    if given is None:
        with ctx.quiet():  # asked first without a word: the pipeline below says it once
            prevented = s534_replacement.strike_prevented(ctx, ev)
        if prevented and s534_replacement.strike_prevented(ctx, ev):
            ctx.step(
                "A8", "effect", f"удар {attacker.label} не наносит ран {target.label}: так решает текст карты"
            )
            return
        # up to the wounds that leave it alive no longer, at most 10: the desk draws them as buttons
        left = (target.life or 10) - target.wounds
        top = max(0, min(10, left))
        answer = ctx.ask(
            attacker.controller,
            clause,
            f"Сколько ран наносит удар {attacker.label} по {target.label}? Общих правил нападения (слабый, "
            "средний или сильный удар) в нашем тексте нет: число указывает судья, а движок применяет к нему "
            "то, что решает текст (эффекты замещения, защиты)",
            [(NO_STRIKE, "удар не нанесён (блок, промах, ответ — по общим правилам)")]
            + [(str(n), lexicon.plural(n, "рана", "раны", "ран")) for n in range(top + 1)],
            judge=True,
        )
        if answer == NO_STRIKE:
            ctx.step(
                clause,
                "not_applied",
                f"удар {attacker.label} по {target.label} не нанесён: раны не наносятся",
            )
            return
        ev.amount = int(answer)
    s534_replacement.execute_wound(ctx, ev)


@action(
    "wound",
    "Нанести раны",
    arg("card", "card", "кому", required=True, pool="in_play"),
    arg("amount", "int", "сколько", required=True),
    arg("source", "card", "источник"),
    arg("kind", "kind", "вид", default="strike", choices=library.DAMAGE_KINDS),
    choice=("card",),
)
def do_wound(ctx: context.Ctx, action: actions.Action) -> None:
    """wound: the wounds a judge records (from a strike, a shot, an ability) go through the
    replacement effects, protections and the death check (534, A2)."""
    card = guards.creature(ctx, action, "{card} не существо: раны получают существа")
    if card is None:
        return
    source = action.get("source")
    if source is not None and ctx.get(source) is None:
        ctx.forbid("", f"источника {source} нет в раскладе")
        return
    s534_replacement.execute_wound(ctx, _event(action, "wound", card, str(action.get("kind", "strike"))))


def _event(action: actions.Action, kind: str, card: state.CardState, dmg: str) -> Event:
    return Event(
        kind=kind, target=card.id, amount=int(action.get("amount")), source=action.get("source"), dmg=dmg
    )


@action(
    "heal",
    "Вылечить",
    arg("card", "card", "кого", required=True, pool="in_play"),
    arg("amount", "int", "на сколько", required=True),
    arg("source", "card", "источник"),
    choice=("card",),
)
def do_heal(ctx: context.Ctx, action: actions.Action) -> None:
    """heal: the healing goes through the replacement effects (Вожак сатиров, 534.7)."""
    card = guards.creature(ctx, action, "{card} не существо")
    if card is None:
        return
    s534_replacement.execute_heal(ctx, _event(action, "heal", card, "influence"))


@action(
    "destroy",
    "Уничтожить",
    arg("card", "card", "карта", required=True, pool="in_play"),
    arg("by", "card", "кто уничтожает"),
    choice=("card",),
)
def do_destroy(ctx: context.Ctx, action: actions.Action) -> None:
    card = guards.target(ctx, action)
    if card is None:
        return
    by = action.get("by")
    if by is not None and ctx.get(by) is None:
        ctx.forbid("", f"карты {by} нет в раскладе")
        return
    zones.die(ctx, card.id, by, "уничтожение" + (f" картой {ctx.c(by).label}" if by else ""))


@action(
    "exile",
    "Изгнать",
    arg("card", "card", "карта", required=True, pool="not_exile_or_deck"),
    arg("by", "card", "кто изгоняет"),
    choice=("card",),
)
def do_exile(ctx: context.Ctx, action: actions.Action) -> None:
    card = guards.card_arg(ctx, action)
    if card is None:
        return
    if card.zone == "exile":
        ctx.forbid("", f"{card.label} уже изгнан")
        return
    by = action.get("by")
    if by is not None and ctx.get(by) is None:
        ctx.forbid("", f"карты {by} нет в раскладе")
        return
    # a card that exiles itself is not «exiled by» anyone whose abilities it could lend (Многоликий)
    zones.send(ctx, card.id, "exile", exiled_by=None if by == card.id else by)


@action(
    "return_to_deck",
    "Вернуть в колоду",
    arg("card", "card", "карта", required=True, pool="not_exile_or_deck"),
    arg("position", "position", "top или bottom", default="top", choices=lexicon.DECK_POSITIONS),
    choice=("card",),
)
def do_return_to_deck(ctx: context.Ctx, action: actions.Action) -> None:
    card = guards.card_arg(ctx, action)
    if card is None:
        return
    if card.zone == "deck":
        ctx.forbid("", f"{card.label} уже в колоде")
        return
    zones.send(ctx, card.id, "deck", position=str(action.get("position", "top")))


@action(
    "change_type",
    "Сменить тип или подтип",
    arg("card", "card", "карта", required=True, pool="in_play"),
    arg("type", "type", "новый тип", choices=library.CARD_TYPES),
    arg("subtype", "subtype", "новый подтип", choices=library.SUBTYPES),
    choice=("card",),
)
@rule("211.4", "211.7", "A5")
def do_change_type(ctx: context.Ctx, action: actions.Action) -> None:
    """change_type: 211.4 kills the symbiote of a host that stops being a ground creature."""
    card = guards.target(ctx, action)
    if card is None:
        return
    new_type = action.get("type") or card.type
    new_sub = action.get("subtype")
    if new_type != "creature":
        new_sub = None
    elif new_sub is None:
        new_sub = card.subtype if card.type == "creature" else "ground"
    if new_type == card.type and new_sub == card.subtype:
        ctx.forbid("", f"{card.label} уже: {lexicon.kind_of_card(new_type, new_sub)}")
        return
    if card.is_symbiote:
        ctx.undet(
            "211.4",
            f"211.4 говорит только о хозяине, сменившем тип; что происходит, когда сам симбиот {card.label} "
            "меняет тип или подтип, в нашем тексте не сказано",
        )
        ctx.keep_state = True
        return
    to_aux = new_type == "creature" and new_sub == "flyer"
    if card.zone == "aux" and not to_aux:
        ctx.undet(
            "A5",
            f"{card.label} во вспомогательной зоне перестаёт быть летающим: на какую клетку он встаёт, "
            "в нашем тексте нет",
        )
        ctx.keep_state = True
        return
    ctx.update(card.id, type=new_type, subtype=new_sub)
    what = lexicon.kind_of_card(new_type, new_sub)
    ctx.step("", "effect", f"{card.label} становится: {what}", f"{card.label}: {what}")
    if to_aux and card.zone == "battle":
        ctx.update(card.id, zone="aux", cell=None)
        ctx.assume("A5", f"{card.label} стал летающим и переходит во вспомогательную зону")
    s211_hosts.check_hosts(ctx)
    if new_sub in library.SYMBIOTE_SUBTYPES:
        ctx.undet(
            "211.7",
            f"{card.label} сам стал симбиотом без хозяина посреди боя: 211.7 говорит о симбиоте без хозяина "
            "только по окончании подфазы Вскрытия, что с ним происходит в бою, в нашем тексте не сказано",
        )


@action(
    "set_incorporeal",
    "Сделать (не)бестелесным",
    arg("card", "card", "существо", required=True, pool="in_play"),
    arg("value", "bool", "бестелесное", default=True),
    choice=("card",),
)
@rule("211.5")
def do_set_incorporeal(ctx: context.Ctx, action: actions.Action) -> None:
    """set_incorporeal: 211.5 (its known part); the cut-off tail is undetermined."""
    card = guards.target(ctx, action)
    if card is None:
        return
    value = bool(action.get("value", True))
    if card.incorporeal == value:
        ctx.forbid("", f"{card.label} уже {'бестелесный' if value else 'небестелесный'}")
        return
    s = ctx.symbiote_of(card.id)
    if (card.is_symbiote and card.host is not None) or (s is not None and s.incorporeal):
        who = card if card.is_symbiote else s
        ctx.undet(
            "211.5",
            f"затронут бестелесный симбиот или симбиот меняет бестелесность ({who.label if who else ''}); "
            + s211_hosts.CUT_211_5,
        )
        ctx.keep_state = True
        return
    ctx.update(card.id, incorporeal=value)
    ctx.step(
        "",
        "effect",
        f"{card.label} {'становится бестелесным' if value else 'перестаёт быть бестелесным'}",
        f"{card.label}: {'бестелесный' if value else 'небестелесный'}",
    )
    if value:
        s211_hosts.became_incorporeal(ctx, card.id)

"""Game procedure around our clauses: turns, movement, attacks, wounds, healing, removal, type
changes. Our rules text does not hold these procedures; where they matter they cite assumptions
(A1, A3, A5, A7, A12) and hand over to the clause modules (211, 534, 535).
"""

from __future__ import annotations

from engine import actions, board, context, library, state
from engine.rules import general, replacement, squad, symbiotes


def _card(ctx: context.Ctx, action: actions.Action, arg: str = "card") -> state.CardState | None:
    card = ctx.get(action.get(arg))
    if card is None:
        ctx.forbid("", f"карты {action.get(arg)} нет в раскладе (аргумент {arg})")
    return card


def _in_play(ctx: context.Ctx, card: state.CardState) -> bool:
    if not card.in_play:
        ctx.forbid("", f"{card.label} не в зоне битвы ({state.ZONE_RU[card.zone]})")
        return False
    return True


def _battle(ctx: context.Ctx) -> bool:
    if ctx.phase != "battle":
        ctx.forbid("", f"это действие — в бою, а сейчас {state.PHASE_RU[ctx.phase]}")
        return False
    return True


PHASE_ORDER = ("recruit", "placement", "reveal")


def do_next_phase(ctx: context.Ctx, action: actions.Action) -> None:
    """next_phase: подфаза Набора → Шаг рассадки → его подфаза Вскрытия (the order of 211.2, 535.3)."""
    if ctx.phase not in ("recruit", "placement"):
        hint = "закончите Вскрытие действием end_reveal" if ctx.phase == "reveal" else "бой уже идёт"
        ctx.forbid("", f"сейчас {state.PHASE_RU[ctx.phase]}: {hint}")
        return
    old = ctx.phase
    ctx.phase = PHASE_ORDER[PHASE_ORDER.index(old) + 1]
    ctx.step("", "effect", f"{state.PHASE_ENDED_RU[old]}: начинается {state.PHASE_RU[ctx.phase]}")


def do_start_turn(ctx: context.Ctx, action: actions.Action) -> None:
    """start_turn: incarnation tokens (535.7.1) and Многоликий's choice happen at turn start."""
    if not _battle(ctx):
        return
    player = action.get("player") or ctx.active
    if player != ctx.active:
        ctx.forbid(
            "",
            f"сейчас очередь {board.player(ctx.active, 'gen')}; "
            f"ход {board.player(player, 'gen')} начнётся после end_turn",
        )
        return
    if ctx.started:
        ctx.forbid("", f"ход {ctx.turn} ({board.player(player, 'gen')}) уже начат")
        return
    ctx.started = True
    ctx.step("", "effect", f"начинается ход {ctx.turn} {board.player(player, 'gen')}")
    squad.incarnation_tokens(ctx, player)
    for card in sorted(ctx.cards.values(), key=lambda c: c.id):
        if (
            not card.in_play
            or card.controller == player
            or ctx.ability(card, "take_exiled_abilities") is None
        ):
            continue
        exiled = [
            c for c in ctx.cards.values() if c.zone == "exile" and c.exiled_by == card.id and c.is_creature
        ]
        if not exiled:
            continue
        if len(exiled) == 1:
            key = exiled[0].id
        else:
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
            f"{ctx.c(key).label} до конца хода {board.player(card.controller, 'gen')}",
            f"{card.label}: взяты особенности {ctx.c(key).label}",
        )


def do_end_turn(ctx: context.Ctx, action: actions.Action) -> None:
    if not _battle(ctx):
        return
    player = ctx.active
    for card in list(ctx.cards.values()):
        if card.borrowed and card.controller == player:
            ctx.update(card.id, borrowed=None)
            ctx.step(
                "A8",
                "effect",
                f"конец хода {board.player(player, 'gen')}: {card.label} теряет взятые особенности",
            )
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
        "",
        "effect",
        f"ход {board.player(player, 'gen')} окончен; следующий ход ({ctx.turn}) — "
        f"{board.player(ctx.active, 'gen')}",
    )


def _may_act(ctx: context.Ctx, card: state.CardState, what: str) -> bool:
    if card.controller != ctx.active:
        ctx.forbid(
            "A7",
            f"{what} заявляет активный игрок своими существами; {card.label} под контролем "
            f"{board.player(card.controller, 'gen')}, а ход {board.player(ctx.active, 'gen')}",
        )
        return False
    if not card.is_creature:
        ctx.forbid("A7", f"{card.label} — {library.TYPE_RU[card.type]}, а {what} заявляют существа")
        return False
    if card.closed:
        ctx.forbid("A3", f"{card.label} закрыт: закрытое существо не заявляет {what}")
        return False
    return True


def _cannot_stand_on(ctx: context.Ctx, card: state.CardState, to: str, free_cell: str) -> bool:
    """Checks shared by movement and relocation: a free cell (`free_cell` cites A7 for movement, A4
    otherwise), the card's own text, and its symbiote's restrictions (211.11). True when forbidden."""
    occ = ctx.occupant(to)
    if occ is not None:
        ctx.forbid(free_cell, f"клетка {to} занята картой {occ.label}: на клетке стоит не больше одной карты")
        return True
    if symbiotes.cannot_enter(ctx, card, to):
        ctx.forbid("A8", f"{card.label} не может перемещаться на {to} (текст карты)")
        return True
    return card.host is None and symbiotes.symbiote_restricts_host(ctx, card, to)


def do_move(ctx: context.Ctx, action: actions.Action) -> None:
    """move: a creature's declared movement (211.10, 211.11; distance and free cell: A7)."""
    card = _card(ctx, action)
    if card is None or not _battle(ctx) or not _in_play(ctx, card):
        return
    to = str(action.get("to"))
    if symbiotes.movement_declared(ctx, card):
        return
    if not _may_act(ctx, card, "движение"):
        return
    if symbiotes.host_lock(ctx, card, f"движение на {to}", None):
        return
    if ctx.ability(card, "cannot_move") is not None:
        ctx.forbid("A8", f"{card.label} не может двигаться (текст карты)")
        return
    if card.zone == "aux" or card.cell is None:
        ctx.undet(
            "A7", f"{card.label} во вспомогательной зоне (A5): правил движения летающих в нашем тексте нет"
        )
        ctx.keep_state = True
        return
    if _cannot_stand_on(ctx, card, to, "A7"):
        return
    dist = board.distance(card.cell, to)
    if dist > card.card.move:
        ctx.forbid(
            "A7",
            f"{to} в {board.plural(dist, 'шаге', 'шагах', 'шагах')} от {card.cell}, "
            f"а запас движения {card.label} — {card.card.move}",
        )
        return
    ctx.assume(
        "A1", f"от {card.cell} до {to} {board.plural(dist, 'шаг', 'шага', 'шагов')}: шаг по диагонали — один"
    )
    ctx.assume(
        "A7",
        f"движение {card.label} с {card.cell} на свободную клетку {to} "
        f"({board.plural(dist, 'шаг', 'шага', 'шагов')}, запас {card.card.move})",
    )
    old = card.cell
    ctx.update(card.id, cell=to)
    ctx.step("", "effect", f"{card.label} двигается {old} → {to}", f"{card.label}: клетка {old} → {to}")
    symbiotes.carry_symbiote(ctx, card, to)


def do_relocate(ctx: context.Ctx, action: actions.Action) -> None:
    """relocate: moved by an ability (211.11)."""
    card = _card(ctx, action)
    if card is None or not _in_play(ctx, card):
        return
    to = str(action.get("to"))
    if symbiotes.relocate_symbiote(ctx, card, bool(action.get("symbiote_alone", False))):
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
    if _cannot_stand_on(ctx, card, to, "A4"):
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
    symbiotes.carry_symbiote(ctx, card, to)


def do_attack(ctx: context.Ctx, action: actions.Action) -> None:
    """attack: is the declaration legal? (211.3.1 via the host lock, 211.9; otherwise A7)."""
    attacker = _card(ctx, action, "attacker")
    target = _card(ctx, action, "target") if attacker else None
    if attacker is None or target is None or not _battle(ctx):
        return
    if not _in_play(ctx, attacker) or not _in_play(ctx, target):
        return
    if attacker.id == target.id:
        ctx.forbid("", f"{attacker.label} не может нападать на себя")
        return
    if not _may_act(ctx, attacker, "нападение"):
        return
    if symbiotes.host_lock(ctx, attacker, f"нападение на {target.label}", target.id):
        return
    own = ctx.symbiote_of(attacker.id)
    if own is not None and ctx.ability(own, "host_lock") is not None:
        ctx.allow("A8", f"нападение на своего симбиота {target.label} текст карты разрешает")
    if symbiotes.attack_with_host(ctx, attacker, target):
        ctx.last_attack = (attacker.id, target.id)
        return
    if attacker.cell is None or target.cell is None or attacker.zone == "aux" or target.zone == "aux":
        ctx.undet(
            "A7",
            f"{attacker.label if attacker.zone == 'aux' else target.label} во вспомогательной зоне (A5): "
            "правил нападения летающих в нашем тексте нет",
        )
        return
    if not board.adjacent(attacker.cell, target.cell):
        ctx.forbid(
            "A7",
            f"{target.label} ({target.cell}) не стоит рядом с {attacker.label} ({attacker.cell}): "
            "нападение ближнего боя — на соседнюю клетку (A1)",
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


def do_wound(ctx: context.Ctx, action: actions.Action) -> None:
    card = _card(ctx, action)
    if card is None or not _in_play(ctx, card):
        return
    if not card.is_creature:
        ctx.forbid("", f"{card.label} не существо: раны получают существа")
        return
    source = action.get("source")
    if source is not None and ctx.get(source) is None:
        ctx.forbid("", f"источника {source} нет в раскладе")
        return
    ev = replacement.Event(
        kind="wound",
        target=card.id,
        amount=int(action.get("amount")),
        source=source,
        dmg=str(action.get("kind", "strike")),
    )
    replacement.execute_wound(ctx, ev)


def do_heal(ctx: context.Ctx, action: actions.Action) -> None:
    card = _card(ctx, action)
    if card is None or not _in_play(ctx, card):
        return
    if not card.is_creature:
        ctx.forbid("", f"{card.label} не существо")
        return
    ev = replacement.Event(
        kind="heal",
        target=card.id,
        amount=int(action.get("amount")),
        source=action.get("source"),
        dmg="influence",
    )
    replacement.execute_heal(ctx, ev)


def do_destroy(ctx: context.Ctx, action: actions.Action) -> None:
    card = _card(ctx, action)
    if card is None or not _in_play(ctx, card):
        return
    by = action.get("by")
    if by is not None and ctx.get(by) is None:
        ctx.forbid("", f"карты {by} нет в раскладе")
        return
    general.die(ctx, card.id, by, "уничтожение" + (f" картой {ctx.c(by).label}" if by else ""))


def do_exile(ctx: context.Ctx, action: actions.Action) -> None:
    card = _card(ctx, action)
    if card is None:
        return
    if card.zone == "exile":
        ctx.forbid("", f"{card.label} уже изгнан")
        return
    general.send(ctx, card.id, "exile", exiled_by=action.get("by"))


def do_return_to_deck(ctx: context.Ctx, action: actions.Action) -> None:
    card = _card(ctx, action)
    if card is None:
        return
    if card.zone == "deck":
        ctx.forbid("", f"{card.label} уже в колоде")
        return
    general.send(ctx, card.id, "deck", position=str(action.get("position", "top")))


def do_change_type(ctx: context.Ctx, action: actions.Action) -> None:
    """change_type: 211.4 kills the symbiote of a host that stops being a ground creature."""
    card = _card(ctx, action)
    if card is None or not _in_play(ctx, card):
        return
    new_type = action.get("type") or card.type
    new_sub = action.get("subtype")
    if new_type != "creature":
        new_sub = None
    elif new_sub is None:
        new_sub = card.subtype if card.type == "creature" else "ground"
    if new_type == card.type and new_sub == card.subtype:
        ctx.forbid("", f"{card.label} уже: {_type_ru(new_type, new_sub)}")
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
            "в нашем тексте нет (A5)",
        )
        ctx.keep_state = True
        return
    ctx.update(card.id, type=new_type, subtype=new_sub)
    what = _type_ru(new_type, new_sub)
    ctx.step("", "effect", f"{card.label} становится: {what}", f"{card.label}: {what}")
    if to_aux and card.zone == "battle":
        ctx.update(card.id, zone="aux", cell=None)
        ctx.assume("A5", f"{card.label} стал летающим и переходит во вспомогательную зону")
    symbiotes.check_hosts(ctx)
    if new_sub in library.SYMBIOTE_SUBTYPES:
        ctx.undet(
            "211.7",
            f"{card.label} сам стал симбиотом без хозяина посреди боя: 211.7 говорит о симбиоте без хозяина "
            "только по окончании подфазы Вскрытия, что с ним происходит в бою, в нашем тексте не сказано",
        )


def _type_ru(card_type: str, subtype: str | None) -> str:
    """«существо (наземное)», «артефакт»."""
    return library.TYPE_RU[card_type] + (f" ({library.SUBTYPE_RU[subtype]})" if subtype else "")


def do_set_incorporeal(ctx: context.Ctx, action: actions.Action) -> None:
    """set_incorporeal: 211.5 (its known part); the cut-off tail is undetermined."""
    card = _card(ctx, action)
    if card is None or not _in_play(ctx, card):
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
            + symbiotes.CUT_211_5,
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
        symbiotes.became_incorporeal(ctx, card.id)


def do_mark_cells(ctx: context.Ctx, action: actions.Action) -> None:
    """mark_cells: Бул'Багур's «свет фонаря» — up to N cells in a straight line from the card."""
    card = _card(ctx, action)
    if card is None or not _battle(ctx) or not _in_play(ctx, card):
        return
    ab = ctx.ability(card, "lantern")
    if ab is None:
        ctx.forbid("A8", f"у {card.label} нет особенности, отмечающей клетки")
        return
    cells = tuple(action.get("cells"))
    limit = int(ab.get("cells", 3))
    if ctx.active == card.controller:
        ctx.forbid(
            "A8",
            f"«{ab.get('name', '')}» выбирается в начале хода противника, а сейчас ход "
            f"{board.player(ctx.active, 'gen')}",
        )
        return
    if card.cell is None:
        ctx.forbid("A8", f"{card.label} не стоит на клетке поля: клеток «на прямой от него» нет")
        return
    if len(cells) > limit or not board.straight_line(card.cell, cells):
        ctx.forbid(
            "A8",
            f"нужно до {board.plural(limit, 'клетки', 'клеток', 'клеток')} подряд на одной прямой от "
            f"{card.label} ({card.cell}), "
            f"а указано: {', '.join(cells)}",
        )
        return
    ctx.marks = [m for m in ctx.marks if m.card != card.id]
    ctx.marks.append(
        state.Mark(card=card.id, name=str(ab.get("name", "")), cells=cells, until_turn=ctx.turn + 1)
    )
    ctx.step(
        "A8",
        "effect",
        f"«{ab.get('name', '')}» {card.label}: отмечены клетки {', '.join(cells)} до конца "
        f"следующего хода {board.player(card.controller, 'gen')}",
        f"отмечены: {', '.join(cells)}",
    )

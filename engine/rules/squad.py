"""Section 535 «Взятие карт в отряд»: owner and controller, recruit, summon, resurrect,
incarnation, control.

Clauses: 535.1, 535.1.1, 535.2, 535.3, 535.4, 535.5, 535.5.1, 535.5.1.1, 535.5.1.2, 535.5.1.3,
535.5.2, 535.6, 535.7, 535.7.1, 535.7.2, 535.7.3, 535.7.4, 535.8, 535.8.1, 535.9.
"""

from __future__ import annotations

from engine import actions, board, context, library, state
from engine.rules import general, replacement, symbiotes
from engine.rules.registry import rule

# How A13 reads 535.9's «в его отряде присутствует [текст]».
SQUAD_MEANS = "отряд игрока — карты под его контролем в зоне битвы; [текст] 535.9 сравнивается по названиям"


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
                f"{c.label}: маркер контроля {what} (владелец — {board.player(c.owner)}, контролирует — "
                f"{board.player(c.controller)}); "
                "это эффект правил игры, стек не используется",
                f"{c.label}: маркер контроля {what}",
            )
            changed = True
    return changed


@rule("535.9")
def join_problem(ctx: context.Ctx, card: state.CardState, player: str) -> str | None:
    """Why `player` may not summon, resurrect, incarnate or take `card` (535.9), or None."""
    for ab in ctx.abilities(card):
        if ab.kind != "cannot_join_with":
            continue
        names = {library.fold(str(n)) for n in ab.get("cards") or ()}
        present = [c for c in ctx.squad(player) if c.id != card.id and library.fold(c.name) in names]
        if present:
            return (
                f"{card.label} «не может быть взята в отряд с» {', '.join(ab.get('cards'))}, а в отряде "
                f"{board.player(player, 'gen')} есть {', '.join(c.label for c in present)}"
            )
    return None


@rule("535.9")
def forbid_join(ctx: context.Ctx, player: str, what: str, why: str) -> None:
    """Refuse a summon, resurrection or taking of control by 535.9's second bullet, naming A13
    (what «в его отряде присутствует» means here)."""
    ctx.assume("A13", SQUAD_MEANS)
    ctx.forbid("535.9", f"{board.player(player)} не может {what}: {why}")


@rule("535.9")
def squad_conflicts(cards: list[state.CardState]) -> str | None:
    """In the recruit subphase a squad is illegal with a card «не может быть взята в отряд с [X]»
    and X in it (535.9, first bullet)."""
    for c in cards:
        for ab in c.card.abilities:
            if ab.kind != "cannot_join_with":
                continue
            names = {library.fold(str(n)) for n in ab.get("cards") or ()}
            bad = [o for o in cards if o.id != c.id and library.fold(o.name) in names]
            if bad:
                others = ", ".join(o.label for o in bad)
                return f"в отряде {c.label} («не может быть взята в отряд с» …) и {others}"
    return None


@rule("535.7.1")
def lose_tokens(ctx: context.Ctx, card: state.CardState) -> None:
    ctx.update(card.id, tokens=0)
    ctx.step(
        "535.7.1",
        "effect",
        f"{card.label} покидает кладбище и теряет все жетоны инкарнации ({card.tokens}); "
        "стек не используется",
        f"{card.label}: жетонов {card.tokens} → 0",
    )


@rule("535.2", "535.3", "535.9")
def do_recruit(ctx: context.Ctx, action: actions.Action) -> None:
    """recruit: a card joins the squad in the recruit subphase (535.2, 535.3; 403.2 is missing)."""
    card = ctx.get(action.get("card"))
    if card is None:
        ctx.forbid("", f"карты {action.get('card')} нет в раскладе")
        return
    by = action.get("by") or card.owner
    if ctx.phase != "recruit":
        ctx.forbid("535.2", f"набор карты в отряд — в подфазу Набора, а сейчас {state.PHASE_RU[ctx.phase]}")
        return
    if card.in_play:
        ctx.forbid("535.3", f"{card.label} уже в отряде {board.player(card.controller, 'gen')}")
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
    bad = squad_conflicts(squad)
    if bad:
        ctx.forbid("535.9", f"отряд {board.player(by, 'gen')} нелегален: {bad}")
        return
    ctx.allow("535.2", f"набор {card.label} в отряд в подфазу Набора — это взятие карты в отряд")
    general.place_in_play(ctx, card.id, cell=at, host=None, controller=by, closed=False, hidden=True)
    ctx.step("535.3", "effect", f"{board.player(by, cap=True)} взял {card.label} в отряд и контролирует её")
    ctx.undet(
        "535.3",
        "набор карт в отряд осуществляется по п. 403.2, которого нет в нашем тексте: "
        "стоимость, размер отряда и прочие ограничения набора не проверены",
    )


@rule("535.8", "535.2", "535.9", "535.1", "211.3.1")
def do_take_control(ctx: context.Ctx, action: actions.Action) -> None:
    """take_control: a player becomes the controller of a card (535.8)."""
    card = ctx.get(action.get("card"))
    by = str(action.get("by"))
    if card is None:
        ctx.forbid("", f"карты {action.get('card')} нет в раскладе")
        return
    if not card.in_play:
        ctx.forbid(
            "535.8", f"{card.label} не в зоне битвы ({state.ZONE_RU[card.zone]}): брать под контроль нечего"
        )
        return
    if card.controller == by:
        ctx.forbid("535.8", f"{board.player(by, cap=True)} уже контролирует {card.label}")
        return
    bad = join_problem(ctx, card, by)
    if bad:
        forbid_join(ctx, by, "взять под контроль", bad)
        return
    old = card.controller
    ctx.allow("535.2", "взятие карты противника под свой контроль — это взятие карты в отряд")
    ctx.update(card.id, controller=by)
    ctx.step(
        "535.8",
        "effect",
        f"{board.player(by, cap=True)} становится игроком, контролирующим {card.label}; "
        f"{board.player(old)} перестаёт её контролировать",
        f"{card.label}: контролирует {board.player(by)}",
    )
    ctx.step(
        "535.1",
        "state_check",
        f"владелец {card.label} остаётся прежним — {board.player(card.owner)}: "
        "никакие эффекты не меняют владельца",
    )
    sync_markers(ctx)
    s = ctx.symbiote_of(card.id)
    if s is not None:
        ctx.step(
            "211.3.1",
            "effect",
            f"у хозяина {card.label} сменился контролирующий игрок: подтип симбиота {s.label} не меняется "
            f"(остаётся: {library.SUBTYPE_RU.get(s.subtype or '', '')}), его особенности не деактивируются и "
            "продолжают влиять на хозяина",
        )


@rule("535.8", "535.8.1", "535.1")
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
    if bad:
        ctx.step(
            "535.8.1",
            "effect",
            f"{board.player(p, cap=True)} потерял контроль над {card.label}, но карта не может быть "
            f"взята в отряд {board.player(o, 'gen')} ({bad}): {board.player(p)} продолжает её контролировать",
        )
        ctx.step(
            "535.8.1",
            "conflict",
            "535.8.1 говорит «пока какой-либо другой эффект не предпишет этой карте сменить владельца», но "
            "по 535.1 никакие эффекты не могут изменить владельца. Движок держится 535.1: владелец "
            f"{card.label} — {board.player(card.owner)} и не меняется",
        )
        ctx.step("535.1", "state_check", f"владелец {card.label} — {board.player(card.owner)}")
        return
    ctx.update(card.id, controller=o)
    ctx.step(
        "535.8",
        "effect",
        f"{board.player(p, cap=True)} потерял контроль над {card.label}: противник, {board.player(o)}, "
        "автоматически становится контролирующим игроком",
        f"{card.label}: контролирует {board.player(o)}",
    )
    ctx.step("535.1", "state_check", f"владелец {card.label} остаётся прежним — {board.player(card.owner)}")
    sync_markers(ctx)


def place_problems(
    ctx: context.Ctx, cell: str, by: state.CardState | None, where: str, player: str, clause: str
) -> list[tuple[str, str]]:
    """Why `cell` breaks the place rule of a summon (resurrection): the default «рядом с картой,
    использующей вызов» (cited by `clause`, 535.5 or 535.6) or the ability's own condition (535.4).
    The free-cell rule is separate (cell_taken); `by` must stand on a cell for «рядом»."""
    if where == "adjacent":
        if by is not None and by.cell is not None and not board.adjacent(by.cell, cell):
            return [
                (
                    clause,
                    f"клетка {cell} не рядом с {by.label} ({by.cell}); рядом — соседние клетки с "
                    "диагоналями (A1)",
                )
            ]
    elif where == "own_half" and board.half_of(cell) != player:
        return [("535.4", f"клетка {cell} не на половине {board.player(player, 'gen')}")]
    elif where == "own_first_row" and board.row_rank(player, cell) != 1:
        return [("535.4", f"клетка {cell} не в первом ряду {board.player(player, 'gen')} (A4)")]
    elif where == "own_third_row" and board.row_rank(player, cell) != 3:
        return [("535.4", f"клетка {cell} не в третьем ряду {board.player(player, 'gen')} (A4)")]
    return []


def cell_taken(ctx: context.Ctx, cell: str, clause: str) -> list[tuple[str, str]]:
    """«На свободную клетку» of the summon and resurrection defaults (535.5, 535.6)."""
    occ = ctx.occupant(cell)
    if occ is None:
        return []
    return [(clause, f"клетка {cell} занята картой {occ.label}: нужна свободная клетка")]


def _place(
    ctx: context.Ctx,
    card: state.CardState,
    by: state.CardState | None,
    ab: library.Ability | None,
    action: actions.Action | None,
    *,
    verb: str,
    clause: str,
    closed: bool,
    player: str,
) -> str:
    """Put a summoned or resurrected card in play (defaults of `clause`, 535.5 or 535.6, with the
    ability's conditions of 535.4). Returns ok, illegal, undetermined or failed (nowhere to go)."""
    bad = join_problem(ctx, card, player)
    if bad:
        forbid_join(ctx, player, f"{verb} карту", bad)
        return "illegal"
    if card.is_symbiote:
        return _place_symbiote(ctx, card, ab, action, verb=verb, closed=closed, player=player)
    explicit = ab is not None and ab.get("where") is not None
    where = str(ab.get("where")) if ab is not None and explicit else "adjacent"
    want_cell = action.get("cell") if action else None
    flyer = ctx.is_flyer_like(card)
    place_clause = "535.4" if explicit else clause  # the ability's own condition on the place
    if where == "adjacent" and (explicit or not flyer) and (by is None or by.cell is None):
        where_by = state.ZONE_RU.get(by.zone, by.zone) if by is not None else "нет карты"
        ctx.undet(
            place_clause,
            f"вызывающая карта не стоит на клетке ({where_by}): какие клетки «рядом» с ней, в нашем "
            "тексте не сказано (A5)",
        )
        ctx.keep_state = True
        return "undetermined"
    if flyer:
        return _place_in_aux(ctx, card, by, want_cell, where, explicit, closed=closed, player=player)
    if want_cell is None:
        legal = [
            c
            for c in board.CELLS
            if not cell_taken(ctx, c, clause) and not place_problems(ctx, c, by, where, player, place_clause)
        ]
        if not legal:
            ctx.step(clause, "not_applied", f"нет клетки, куда можно {verb} {card.label}")
            return "failed"
        want_cell = ctx.ask(player, "535.4", f"На какую клетку {verb} {card.label}?", [(c, c) for c in legal])
    cell = str(want_cell)
    problems = cell_taken(ctx, cell, clause) + place_problems(ctx, cell, by, where, player, place_clause)
    for cl, reason in problems:
        ctx.forbid(cl, reason)
    if problems:
        return "illegal"
    ctx.allow("535.4", f"указана клетка {cell}")
    if where == "adjacent" and by is not None:
        ctx.assume("A1", f"{cell} рядом с {by.label} ({by.cell}): соседние клетки считаются с диагоналями")
    ctx.allow(clause, f"{cell} — свободная клетка, условия места соблюдены")
    general.place_in_play(ctx, card.id, cell=cell, host=None, controller=player, closed=closed, hidden=False)
    return "ok"


def _place_symbiote(
    ctx: context.Ctx,
    card: state.CardState,
    ab: library.Ability | None,
    action: actions.Action | None,
    *,
    verb: str,
    closed: bool,
    player: str,
) -> str:
    """A summoned or resurrected symbiote goes onto the card its ability names (211.8)."""
    places_on = ab.get("places_on") if ab else None
    for cl, _kind, reason in symbiotes.summon_target_problems(ctx, card, places_on, verb):
        ctx.forbid(cl, reason)
    if ctx.illegal:
        return "illegal"
    host_id = action.get("host") if action else None
    if host_id is None:
        hosts = symbiotes.possible_hosts(ctx, card, str(places_on), player)
        if not hosts:
            ctx.step("211.8", "not_applied", f"нет карты, на которую можно поместить {card.label}")
            return "failed"
        host_id = ctx.ask(
            player,
            "211.8",
            f"На какую карту поместить {card.label}?",
            [(h.id, f"{h.label} на {h.cell}") for h in hosts],
        )
    h = ctx.get(host_id)
    if h is None:
        ctx.forbid("", f"карты {host_id} нет в раскладе")
        return "illegal"
    probs = symbiotes.summon_host_problems(ctx, card, h, str(places_on), player)
    if not symbiotes.record(ctx, probs, card, h):
        return "illegal" if ctx.illegal else "undetermined"
    general.place_in_play(ctx, card.id, cell=None, host=h.id, controller=player, closed=closed, hidden=False)
    ctx.step(
        "211.8",
        "effect",
        f"текст особенности помещает {card.label} на карту: {h.label} становится его хозяином",
    )
    return "ok"


def _place_in_aux(
    ctx: context.Ctx,
    card: state.CardState,
    by: state.CardState | None,
    want_cell: object,
    where: str,
    explicit: bool,
    *,
    closed: bool,
    player: str,
) -> str:
    """A flyer or an «располагается во вспомогательной зоне» card goes straight to the auxiliary
    zone; a cell is named only when the ability sets conditions on the place, and they must hold
    (535.4). The free-cell default does not apply: the card never stands on that cell."""
    ctx.assume("A5", f"{card.label} — летающее или «располагается во вспомогательной зоне»")
    if not explicit:
        if want_cell is not None:
            ctx.forbid(
                "535.4", f"{card.label} помещается сразу во вспомогательную зону: клетка не указывается"
            )
            return "illegal"
        ctx.step("535.4", "effect", f"клетка не указывается: {card.label} сразу во вспомогательную зону")
    else:
        if want_cell is None:
            ctx.forbid("535.4", "у особенности есть условия места: укажите клетку, удовлетворяющую им")
            return "illegal"
        for cl, reason in place_problems(ctx, str(want_cell), by, where, player, "535.4"):
            ctx.forbid(cl, reason)
        if ctx.illegal:
            return "illegal"
        ctx.step(
            "535.4",
            "effect",
            f"условия места соблюдены ({want_cell}); {card.label} всё равно помещается "
            "во вспомогательную зону",
        )
    general.place_in_play(ctx, card.id, cell=None, host=None, controller=player, closed=closed, hidden=False)
    return "ok"


def _source(
    ctx: context.Ctx, action: actions.Action, kind: str, clause: str
) -> tuple[state.CardState, library.Ability] | None:
    by = ctx.get(action.get("by"))
    if by is None:
        ctx.forbid("", f"карты {action.get('by')} нет в раскладе")
        return None
    if ctx.phase != "battle":
        ctx.forbid("", f"особенности применяются в бою, а сейчас {state.PHASE_RU[ctx.phase]}")
        return None
    ab = ctx.ability(by, kind)
    if ab is None:
        verb = "вызова" if kind == "summon" else "возрождения"
        ctx.forbid(clause, f"у {by.label} нет особенности {verb}")
        return None
    if not by.in_play:
        ctx.forbid(clause, f"{by.label} не в зоне битвы и не может использовать особенность")
        return None
    if ab.get("once_per_battle") and kind in by.used:
        ctx.forbid("A8", f"{by.label} уже использовал эту особенность в этом бою")
        return None
    # A host under a lock like Карлик Унд's declares nothing but an attack on its symbiote.
    if symbiotes.host_lock(ctx, by, "вызов" if kind == "summon" else "возрождение", None):
        return None
    return by, ab


def _pay(ctx: context.Ctx, by: state.CardState, kind: str) -> None:
    ab = ctx.ability(by, kind)
    if ab is not None and ab.get("once_per_battle"):
        ctx.update(by.id, used=ctx.c(by.id).used | {kind})


@rule("535.2", "535.4", "535.5", "535.5.1", "535.5.1.1", "535.5.1.2", "535.5.1.3", "535.5.2", "211.8")
def do_summon(ctx: context.Ctx, action: actions.Action) -> None:
    """summon: take a card from one's deck into the battle zone (535.5 and its defaults).

    Order of 535.5.1: the summoning card is declared, a triggered summon of a named card may be
    skipped (535.5.2), the card is found (by looking through the deck for its name, 535.5.1, or by
    the ability's own search, 535.5.1.1), shown and put into the hand (535.5.1.2), then placed or
    returned to the deck, and the deck is shuffled (535.5.1.3).
    """
    src = _source(ctx, action, "summon", "535.5.1")
    if src is None:
        return
    by, ab = src
    p = by.controller
    ctx.allow("535.5.1", f"вызов осуществляет {by.label} ({board.player(p)})")
    if _trigger_skipped(ctx, by, ab, p):
        return
    name = ab.get("card")
    found = _find_named(ctx, action, by, str(name), p) if name else _find_by_search(ctx, action, by, ab, p)
    if found is None:
        return
    card = ctx.c(found)
    ctx.decks[p].remove(card.id)
    ctx.update(card.id, zone="hand")
    ctx.step(
        "535.5.1.2",
        "effect",
        f"{card.label} показан и перенесён из колоды в руку",
        f"{card.label}: колода → рука",
    )
    unsummonable = [] if name else _blind_problems(ctx, card, ab, p)
    for clause, reason in unsummonable:
        ctx.step(clause, "not_applied", reason)
    if unsummonable:
        result = "failed"
    else:
        result = _place(ctx, card, by, ab, action, verb="вызвать", clause="535.5", closed=False, player=p)
    if result in ("illegal", "undetermined"):
        return
    _pay(ctx, by, "summon")
    if result == "failed":
        ctx.update(card.id, zone="deck")
        ctx.decks[p].insert(0, card.id)
        ctx.step("535.5.1.2", "effect", f"вызов не удался: {card.label} возвращается в колоду")
    else:
        ctx.step(
            "535.5", "effect", f"{card.label} вызван: открыт, вскрыт, под контролем {board.player(p, 'gen')}"
        )
    ctx.shuffle(p)
    ctx.step(
        "535.5.1.3",
        "effect",
        f"колода {board.player(p, 'gen')} перемешана",
        f"колода {board.player(p, 'gen')}: перемешана (зерно случайности расклада {ctx.base.seed})",
    )


@rule("535.5.2")
def _trigger_skipped(ctx: context.Ctx, by: state.CardState, ab: library.Ability, p: str) -> bool:
    """A triggered ability that summons a named card may be skipped as if the card were not in
    the deck (535.5.2): the player is asked. True when skipped."""
    name = ab.get("card")
    if not (ab.get("trigger") and name):
        return False
    ans = ctx.ask(
        p,
        "535.5.2",
        f"Срабатывающая особенность {by.label} требует вызвать «{name}». Вызвать?",
        [("summon", "вызвать"), ("skip", "пропустить, как будто карты нет в колоде")],
    )
    if ans != "skip":
        return False
    ctx.step(
        "535.5.2",
        "effect",
        "срабатывающая особенность пропущена: вызов не считается использованным, "
        "не оплачивается и может быть заявлен позднее",
    )
    return True


@rule("535.5", "535.5.1")
def _find_named(
    ctx: context.Ctx, action: actions.Action, by: state.CardState, name: str, p: str
) -> str | None:
    """The player looks through their deck for a card named `name` and names it, or finds none
    and the summon is paid for (535.5.1). The id, or None when nothing is summoned."""
    deck = ctx.decks[p]
    ctx.step("535.5.1", "effect", f"{board.player(p, cap=True)} просматривает свою колоду в поисках «{name}»")
    chosen = action.get("card")
    if chosen is not None:
        c = ctx.get(chosen)
        if c is None or chosen not in deck:
            ctx.forbid(
                "535.5",
                f"{chosen} нет в колоде {board.player(p, 'gen')}: по умолчанию вызывают из своей колоды",
            )
            return None
        if library.fold(c.name) != library.fold(name):
            ctx.forbid("535.5.1", f"особенность {by.label} вызывает «{name}», а {c.label} — другая карта")
            return None
        return str(chosen)
    found = [cid for cid in deck if library.fold(ctx.c(cid).name) == library.fold(name)]
    chosen = ctx.ask(
        p,
        "535.5.1",
        f"Какую карту «{name}» вызвать из колоды {board.player(p, 'gen')}?",
        [(cid, ctx.c(cid).label) for cid in found] + [("none", "не нашёл (не захотел найти)")],
    )
    if chosen == "none":
        _pay(ctx, by, "summon")
        ctx.step("535.5.1", "effect", "игрок не нашёл (не захотел найти) карту: заявка вызова оплачивается")
        return None
    return str(chosen)


@rule("535.5.1.1")
def _find_by_search(
    ctx: context.Ctx, action: actions.Action, by: state.CardState, ab: library.Ability, p: str
) -> str | None:
    """No card name in the text: the deck is not looked through; the ability's own search finds
    the card (the top card, the top creature) (535.5.1.1)."""
    deck = ctx.decks[p]
    search = ab.get("search", "top_card")
    what = "верхнее существо колоды" if search == "top_creature" else "верхняя карта колоды"
    ctx.step(
        "535.5.1.1",
        "effect",
        f"в тексте {by.label} нет названия карты: колода не просматривается, ищется {what}",
    )
    if search == "top_creature":
        found = next((cid for cid in deck if ctx.c(cid).is_creature), None)
    else:
        found = deck[0] if deck else None
    chosen = action.get("card")
    if chosen is not None and chosen != found:
        ctx.forbid("535.5.1.1", f"{what} — {found or 'нет такой'}, а не {chosen}: выбирать карту нельзя")
        return None
    if found is None:
        _pay(ctx, by, "summon")
        ctx.step(
            "535.5.1.1",
            "not_applied",
            f"в колоде {board.player(p, 'gen')} нет подходящей карты: вызов не состоялся",
        )
        return None
    return found


@rule("211.8", "535.9", "535.5.1.2")
def _blind_problems(
    ctx: context.Ctx, card: state.CardState, ab: library.Ability, p: str
) -> list[tuple[str, str]]:
    """Why a card found by the ability's own search (535.5.1.1) cannot be summoned by it. The
    player did not pick it, so the declaration stays legal and the summon fails (535.5.1.2)."""
    out: list[tuple[str, str]] = []
    bad = join_problem(ctx, card, p)
    if bad:
        ctx.assume("A13", SQUAD_MEANS)
        out.append(("535.9", f"{board.player(p)} не может вызвать карту: {bad}"))
    if card.is_symbiote:
        out.extend(
            (cl, r)
            for cl, _k, r in symbiotes.summon_target_problems(ctx, card, ab.get("places_on"), "вызвать")
        )
    return out


@rule("535.2", "535.6", "535.4", "211.8", "535.9")
def do_resurrect(ctx: context.Ctx, action: actions.Action) -> None:
    """resurrect: take a card from one's graveyard into the battle zone (535.6 and its defaults)."""
    src = _source(ctx, action, "resurrect", "535.6")
    if src is None:
        return
    by, ab = src
    p = by.controller
    card = ctx.get(action.get("card"))
    if card is None:
        ctx.forbid("", f"карты {action.get('card')} нет в раскладе")
        return
    if card.zone != "graveyard" or card.owner != p:
        ctx.forbid(
            "535.6",
            f"возрождают со своего кладбища ({board.player(p, 'gen')}), а {card.label} — "
            + (
                f"на кладбище {board.player(card.owner, 'gen')}"
                if card.zone == "graveyard"
                else f"не на кладбище ({state.ZONE_RU[card.zone]})"
            ),
        )
        return
    name = ab.get("card")
    if name and library.fold(str(name)) != library.fold(card.name):
        ctx.forbid("535.6", f"особенность {by.label} возрождает «{name}», а не {card.label}")
        return
    ctx.allow("535.6", f"{card.label} на кладбище {board.player(p, 'gen')}; возрождает {by.label}")
    result = _place(
        ctx,
        card,
        by,
        ab,
        action,
        verb="возродить",
        clause="535.6",
        closed=False,
        player=p,
    )
    if result in ("illegal", "undetermined"):
        return
    _pay(ctx, by, "resurrect")
    if result == "ok":
        ctx.step(
            "535.6",
            "effect",
            f"{card.label} возрождён: открыт, вскрыт, под контролем {board.player(p, 'gen')}",
        )


def incarnation_x(card: state.CardState) -> tuple[int, int, library.Ability] | None:
    abs_ = [a for a in card.card.abilities if a.kind == "incarnation"]
    if not abs_:
        return None
    best = max(abs_, key=lambda a: int(a.get("x", 0)))
    return int(best.get("x", 0)), len(abs_), best


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
            f"в начале хода {board.player(player, 'gen')} {card.label} на кладбище получает жетон инкарнации "
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
    bad = join_problem(ctx, card, p)
    if bad:
        probs.append(("535.9", bad))
    info = incarnation_x(card)
    places_on = info[2].get("places_on") if info else None
    if card.is_symbiote:
        for cl, _k, reason in symbiotes.summon_target_problems(ctx, card, places_on, "инкарнировать"):
            probs.append((cl, reason))
        if probs:
            return probs, [], []
        hosts = symbiotes.possible_hosts(ctx, card, str(places_on), p)
        if not hosts:
            probs.append(("211.8", f"нет карты, на которую можно поместить {card.label}"))
        return probs, hosts, []
    if ctx.is_flyer_like(card):
        return probs, [], []
    free = [c for c in board.row_cells(p, 3) if ctx.occupant(c) is None]
    if not free:
        probs.append(("535.7", f"в третьем ряду {board.player(p, 'gen')} нет свободной клетки"))
    return probs, [], free


@rule("535.7", "535.7.1", "535.7.2", "535.4", "211.8")
def try_incarnate(ctx: context.Ctx, cid: str, retry: bool) -> bool:
    """Incarnate a card whose tokens reached X: third row, closed, revealed, free cell, own
    control (535.7). If that breaks a rule it waits in the graveyard (535.7.2)."""
    card = ctx.c(cid)
    p = card.owner
    probs, hosts, free = _incarnation_problems(ctx, card)
    if probs:
        if not retry:
            if any(cl == "535.9" for cl, _r in probs):
                ctx.assume("A13", SQUAD_MEANS)
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
            hid = ctx.ask(
                p,
                "211.8",
                f"На какую карту инкарнирует {card.label}?",
                [(h.id, f"{h.label} на {h.cell}") for h in hosts],
            )
            general.place_in_play(ctx, cid, cell=None, host=hid, controller=p, closed=True, hidden=False)
            ctx.step("211.8", "effect", f"{ctx.c(hid).label} становится хозяином {card.label}")
        elif ctx.is_flyer_like(card):
            ctx.step("535.4", "effect", f"{card.label} инкарнирует сразу во вспомогательную зону")
            general.place_in_play(ctx, cid, cell=None, host=None, controller=p, closed=True, hidden=False)
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
            ctx.assume("A4", f"третий ряд {board.player(p, 'gen')} — ряд {board.row_number(p, 3)}")
            ctx.step("535.7", "allowed", f"{cell} — свободная клетка в третьем ряду {board.player(p, 'gen')}")
            general.place_in_play(ctx, cid, cell=cell, host=None, controller=p, closed=True, hidden=False)
        ctx.update(cid, incarnated=True)
        ctx.step(
            "535.7",
            "effect",
            f"{card.label} в зоне битвы: закрыт, вскрыт, под контролем {board.player(p, 'gen')}",
        )
    return True


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


@rule("535.7.3")
def on_death_triggers(ctx: context.Ctx, cid: str) -> None:
    """«При гибели» abilities fire (before an incarnated card is exiled, 535.7.3)."""
    card = ctx.c(cid)
    for ab in ctx.abilities(card):
        if ab.kind != "on_death":
            continue
        amount = int(ab.get("amount", 0))
        wounds = board.plural(amount, "рану", "раны", "ран")
        with ctx.group(
            "A8", "effect", f"срабатывает «при гибели» {card.label}: {wounds} стоящим рядом врагам"
        ):
            if card.incarnated:
                ctx.step(
                    "535.7.3",
                    "state_check",
                    "особенности «при гибели» срабатывают до изгнания инкарнировавшей карты",
                )
            if card.cell is None:
                continue
            victims = [
                other
                for other in ctx.cards.values()
                if other.in_play
                and other.is_creature
                and other.controller != card.controller
                and symbiotes.cards_adjacent(other, card)
            ]
            symbiotes.explain_adjacent(ctx, card, victims)
            for victim in victims:
                if not ctx.c(victim.id).in_play:
                    continue
                replacement.execute_wound(
                    ctx,
                    replacement.Event(
                        kind="wound", target=victim.id, amount=amount, source=cid, dmg="influence"
                    ),
                )


@rule("535.7.3")
def incarnated_dies(ctx: context.Ctx, cid: str) -> None:
    card = ctx.c(cid)
    ctx.step(
        "535.7.3", "effect", f"{card.label} уже инкарнировал и погибает: изгоняется (после «при гибели»)"
    )
    general.send(ctx, cid, "exile")

"""Section 535.4–535.6: summoning a card from one's deck and resurrecting one from one's
graveyard, where it may go (a free cell next to the card that uses the ability, the ability's own
conditions, the auxiliary zone, a host for a symbiote) and how the deck is looked through.

Clauses: 535.2, 535.4, 535.5, 535.5.1, 535.5.1.1, 535.5.1.2, 535.5.1.3, 535.5.2, 535.6.
"""

from __future__ import annotations

import types

import lexicon
from engine import context
from engine.model import actions, board, state
from engine.model.abilities import Ability
from engine.rules import s211_bond, s211_hosts, s535_squad, zones
from engine.rules.registry import action, arg, rule

Problem = context.Problem


# How the ability's own condition on the place reads (535.4), for the trace.
WHERE_WORDS = types.MappingProxyType(
    {
        "own_half": "на свою половину поля",
        "own_first_row": "в свой первый ряд",
        "own_third_row": "в свой третий ряд",
        "any": "на любую свободную клетку",
    }
)


@rule("535.4", "A1", "A4")
def place_problems(
    ctx: context.Ctx, cell: str, by: state.CardState | None, where: str, player: str, clause: str
) -> list[Problem]:
    """Why `cell` breaks the place rule of a summon (resurrection): the default «рядом с картой,
    использующей вызов» (cited by `clause`, 535.5 or 535.6; «рядом» is A1) or the ability's own
    condition (535.4; rows are A4). The free-cell rule is separate (cell_taken); `by` must stand
    on a cell for «рядом»."""
    out: list[Problem] = []
    if where == "adjacent":
        if by is not None and by.cell is not None and not board.adjacent(by.cell, cell):
            out.append(
                Problem(
                    clause, "forbidden", f"клетка {cell} не рядом с {by.label} ({by.cell})", rests_on=("A1",)
                )
            )
    elif where == "own_half" and board.half_of(cell) != player:
        out.append(
            Problem("535.4", "forbidden", f"клетка {cell} не на половине {lexicon.player(player, 'gen')}")
        )
    elif where == "own_first_row" and board.row_rank(player, cell) != 1:
        out.append(
            Problem(
                "535.4",
                "forbidden",
                f"клетка {cell} не в первом ряду {lexicon.player(player, 'gen')}",
                rests_on=("A4",),
            )
        )
    elif where == "own_third_row" and board.row_rank(player, cell) != 3:
        out.append(
            Problem(
                "535.4",
                "forbidden",
                f"клетка {cell} не в третьем ряду {lexicon.player(player, 'gen')}",
                rests_on=("A4",),
            )
        )
    return ctx.found(out)


def cell_taken(ctx: context.Ctx, cell: str, clause: str) -> list[Problem]:
    """«На свободную клетку» of the summon and resurrection defaults (535.5, 535.6)."""
    occ = ctx.occupant(cell)
    if occ is None:
        return []
    return ctx.found(
        [Problem(clause, "forbidden", f"клетка {cell} занята картой {occ.label}: нужна свободная клетка")]
    )


@rule("535.4", "A1", "A5")
def _place(
    ctx: context.Ctx,
    card: state.CardState,
    by: state.CardState | None,
    ab: Ability | None,
    action: actions.Action | None,
    *,
    verb: str,
    clause: str,
    closed: bool,
    player: str,
) -> str:
    """Put a summoned or resurrected card in play (defaults of `clause`, 535.5 or 535.6, with the
    ability's conditions of 535.4). Returns ok, illegal, undetermined or failed (nowhere to go).
    The trace says which default holds and which does not apply: «рядом» gives way to the
    ability's own place (535.4); a flyer takes no cell at all."""
    bad = s535_squad.join_problem(ctx, card, player)
    if bad is not None:
        s535_squad.forbid_join(ctx, player, f"{verb} карту", bad)
        return "illegal"
    if card.is_symbiote:
        return _place_symbiote(ctx, card, ab, action, verb=verb, closed=closed, player=player)
    explicit = ab is not None and ab.get("where") is not None
    where = str(ab.get("where")) if ab is not None and explicit else "adjacent"
    want_cell = action.get("cell") if action else None
    flyer = ctx.is_flyer_like(card)
    place_clause = "535.4" if explicit else clause  # the ability's own condition on the place
    if where == "adjacent" and (explicit or not flyer) and (by is None or by.cell is None):
        where_by = lexicon.zone(by.zone) if by is not None else "нет карты"
        ctx.assume("A5", f"{by.label if by is not None else 'вызывающая карта'} не на клетке поля")
        ctx.undet(
            place_clause,
            f"вызывающая карта не стоит на клетке ({where_by}): какие клетки «рядом» с ней, в нашем "
            "тексте не сказано",
        )
        ctx.keep_state = True
        return "undetermined"
    if flyer:
        return _place_in_aux(ctx, card, by, want_cell, where, explicit, closed=closed, player=player)
    if want_cell is None:
        legal = _free_places(ctx, card, by, where, player, clause, place_clause, verb)
        if not legal:
            ctx.step(clause, "not_applied", f"нет клетки, куда можно {verb} {card.label}")
            return "failed"
        want_cell = ctx.ask(player, "535.4", f"На какую клетку {verb} {card.label}?", [(c, c) for c in legal])
    cell = str(want_cell)
    problems = cell_taken(ctx, cell, clause) + place_problems(ctx, cell, by, where, player, place_clause)
    for pr in problems:
        ctx.cite(pr)
    if problems:
        return "illegal"
    ctx.allow("535.4", f"указана клетка {cell}")
    if where == "adjacent" and by is not None:
        ctx.assume("A1", f"{cell} рядом с {by.label} ({by.cell}): соседние клетки считаются с диагоналями")
        ctx.allow(
            clause, f"по умолчанию — рядом с картой, использующей особенность: {cell} рядом с {by.label}"
        )
    else:
        ctx.allow(
            "535.4",
            f"у особенности своё условие места («{WHERE_WORDS.get(where, where)}»), и {cell} ему отвечает: "
            f"правило «рядом с картой, использующей особенность» ({clause}) вместо него не применяется",
        )
    ctx.allow(clause, f"{cell} — свободная клетка (по умолчанию — на свободную клетку)")
    zones.place_in_play(ctx, card.id, cell=cell, host=None, controller=player, closed=closed, hidden=False)
    return "ok"


def _free_places(
    ctx: context.Ctx,
    card: state.CardState,
    by: state.CardState | None,
    where: str,
    player: str,
    clause: str,
    place_clause: str,
    verb: str,
) -> list[str]:
    """The cells `card` may go to; the others are said, one line per rule that rules them out."""
    legal: list[str] = []
    taken: list[str] = []
    placed: dict[str, tuple[Problem, list[str]]] = {}
    for c in board.CELLS:
        if cell_taken(ctx, c, clause):
            taken.append(c)
            continue
        problems = place_problems(ctx, c, by, where, player, place_clause)
        if not problems:
            legal.append(c)
        for pr in problems[:1]:
            placed.setdefault(pr.clause, (pr, []))[1].append(c)
    if taken or placed:
        with ctx.group("", "state_check", f"куда нельзя {verb} {card.label}"):
            if taken:
                ctx.note(Problem(clause, "forbidden", f"заняты (нужна свободная клетка): {', '.join(taken)}"))
            for pr, cells in placed.values():
                what = pr.reason.split(" ", 2)[2]  # «клетка c1 не рядом с …» → «не рядом с …»
                ctx.note(Problem(pr.clause, pr.kind, f"{', '.join(cells)}: {what}", pr.rests_on))
    return legal


@rule("211.8")
def _place_symbiote(
    ctx: context.Ctx,
    card: state.CardState,
    ab: Ability | None,
    action: actions.Action | None,
    *,
    verb: str,
    closed: bool,
    player: str,
) -> str:
    """A summoned or resurrected symbiote goes onto the card its ability names (211.8)."""
    places_on = ab.get("places_on") if ab else None
    for pr in s211_hosts.summon_target_problems(ctx, card, places_on, verb):
        ctx.cite(pr)
    if ctx.illegal:
        return "illegal"
    host_id = action.get("host") if action else None
    if host_id is None:
        hosts = s211_hosts.possible_hosts(ctx, card, str(places_on), player)
        s211_hosts.note_ruled_out(ctx, hosts)
        if not hosts.fit and hosts.unsure:
            for _h, pr in hosts.unsure:
                ctx.cite(pr)
            return "undetermined"
        if not hosts.fit:
            ctx.step("211.8", "not_applied", f"нет карты, на которую можно поместить {card.label}")
            return "failed"
        host_id = ctx.ask_card(player, "211.8", f"На какую карту поместить {card.label}?", list(hosts.fit))
    h = ctx.get(host_id)
    if h is None:
        ctx.forbid("", f"карты {host_id} нет в раскладе")
        return "illegal"
    probs = s211_hosts.summon_host_problems(ctx, card, h, str(places_on), player)
    if not s211_hosts.record(ctx, probs, card, h):
        return "illegal" if ctx.illegal else "undetermined"
    zones.place_in_play(ctx, card.id, cell=None, host=h.id, controller=player, closed=closed, hidden=False)
    ctx.step(
        "211.8",
        "effect",
        f"текст особенности помещает {card.label} на карту: {h.label} становится его хозяином",
    )
    return "ok"


@rule("535.4", "A5")
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
        ctx.step(
            "535.4",
            "effect",
            f"клетка не указывается: {card.label} сразу во вспомогательную зону; правила «рядом» и «на "
            "свободную клетку» о клетке, а клетки у него нет",
        )
    else:
        if want_cell is None:
            ctx.forbid("535.4", "у особенности есть условия места: укажите клетку, удовлетворяющую им")
            return "illegal"
        for pr in place_problems(ctx, str(want_cell), by, where, player, "535.4"):
            ctx.cite(pr)
        if ctx.illegal:
            return "illegal"
        ctx.step(
            "535.4",
            "effect",
            f"условия места соблюдены ({want_cell}); {card.label} всё равно помещается "
            "во вспомогательную зону",
        )
    zones.place_in_play(ctx, card.id, cell=None, host=None, controller=player, closed=closed, hidden=False)
    return "ok"


@rule("A8")
def _source(
    ctx: context.Ctx, action: actions.Action, kind: str, clause: str
) -> tuple[state.CardState, Ability] | None:
    by = ctx.get(action.get("by"))
    if by is None:
        ctx.forbid("", f"карты {action.get('by')} нет в раскладе")
        return None
    if ctx.phase != "battle":
        ctx.forbid("", f"особенности применяются в бою, а сейчас {lexicon.phase(ctx.phase)}")
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
    if s211_bond.host_lock(ctx, by, "вызов" if kind == "summon" else "возрождение", None):
        return None
    return by, ab


def _opened(closed: bool) -> str:
    """How the card comes: the default «в открытом виде», or closed where the ability says so."""
    return "закрыт (так говорит особенность; по умолчанию — открытым)" if closed else "открыт"


def _pay(ctx: context.Ctx, by: state.CardState, kind: str) -> None:
    ab = ctx.ability(by, kind)
    if ab is not None and ab.get("once_per_battle"):
        ctx.update(by.id, used=ctx.c(by.id).used | {kind})


@action(
    "summon",
    "Вызов",
    arg("by", "card", "вызывающая карта", required=True),
    arg("card", "card", "вызываемая карта (id в колоде)"),
    arg("cell", "cell", "клетка", pool="cell_for_card"),
    arg("host", "card", "на какую карту (для симбиота)", pool="host_for_card"),
    choice=("cell", "host"),
)
@rule("535.5", "535.5.1", "535.5.1.2", "535.5.1.3")
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
    ctx.allow("535.5.1", f"вызов осуществляет {by.label} ({lexicon.player(p)})")
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
    for pr in unsummonable:
        ctx.note(pr, "not_applied")
    if unsummonable:
        result = "failed"
    else:
        closed = bool(ab.get("closed"))
        result = _place(ctx, card, by, ab, action, verb="вызвать", clause="535.5", closed=closed, player=p)
    if result in ("illegal", "undetermined"):
        return
    _pay(ctx, by, "summon")
    if result == "failed":
        ctx.update(card.id, zone="deck")
        ctx.decks[p].insert(0, card.id)
        ctx.step("535.5.1.2", "effect", f"вызов не удался: {card.label} возвращается в колоду")
    else:
        ctx.step(
            "535.5",
            "effect",
            f"{card.label} вызван: {_opened(closed)}, вскрыт, под контролем {lexicon.player(p, 'gen')}",
        )
    ctx.shuffle(p)
    ctx.step(
        "535.5.1.3",
        "effect",
        f"колода {lexicon.player(p, 'gen')} перемешана",
        f"колода {lexicon.player(p, 'gen')}: перемешана (зерно случайности расклада {ctx.base.seed})",
    )


@rule("535.5.2")
def _trigger_skipped(ctx: context.Ctx, by: state.CardState, ab: Ability, p: str) -> bool:
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
    ctx.step(
        "535.5.1", "effect", f"{lexicon.player(p, cap=True)} просматривает свою колоду в поисках «{name}»"
    )
    chosen = action.get("card")
    if chosen is not None:
        c = ctx.get(chosen)
        if c is None or chosen not in deck:
            ctx.forbid(
                "535.5",
                f"{chosen} нет в колоде {lexicon.player(p, 'gen')}: по умолчанию вызывают из своей колоды",
            )
            return None
        if lexicon.fold(c.name) != lexicon.fold(name):
            ctx.forbid("535.5.1", f"особенность {by.label} вызывает «{name}», а {c.label} — другая карта")
            return None
        return str(chosen)
    found = [cid for cid in deck if lexicon.fold(ctx.c(cid).name) == lexicon.fold(name)]
    chosen = ctx.ask(
        p,
        "535.5.1",
        f"Какую карту «{name}» вызвать из колоды {lexicon.player(p, 'gen')}?",
        [(cid, ctx.c(cid).label) for cid in found] + [("none", "не нашёл (не захотел найти)")],
    )
    if chosen == "none":
        _pay(ctx, by, "summon")
        ctx.step("535.5.1", "effect", "игрок не нашёл (не захотел найти) карту: заявка вызова оплачивается")
        return None
    return str(chosen)


@rule("535.5.1.1")
def _find_by_search(
    ctx: context.Ctx, action: actions.Action, by: state.CardState, ab: Ability, p: str
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
            f"в колоде {lexicon.player(p, 'gen')} нет подходящей карты: вызов не состоялся",
        )
        return None
    return found


@rule("535.9", "A13")
def _blind_problems(ctx: context.Ctx, card: state.CardState, ab: Ability, p: str) -> list[Problem]:
    """Why a card found by the ability's own search (535.5.1.1) cannot be summoned by it. The
    player did not pick it, so the declaration stays legal and the summon fails (535.5.1.2)."""
    out: list[Problem] = []
    bad = s535_squad.join_problem(ctx, card, p)
    if bad is not None:
        ctx.assume("A13", s535_squad.SQUAD_MEANS)
        out.append(Problem("535.9", "forbidden", f"{lexicon.player(p)} не может вызвать карту: {bad.reason}"))
    if card.is_symbiote:
        out.extend(s211_hosts.summon_target_problems(ctx, card, ab.get("places_on"), "вызвать"))
    return out


@action(
    "resurrect",
    "Возрождение",
    arg("by", "card", "возрождающая карта", required=True),
    arg("card", "card", "возрождаемая карта (id на кладбище)", required=True, pool="graveyard"),
    arg("cell", "cell", "клетка", pool="cell_for_card"),
    arg("host", "card", "на какую карту (для симбиота)", pool="host_for_card"),
    choice=("card", "cell", "host"),
)
@rule("535.6")
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
            f"возрождают со своего кладбища ({lexicon.player(p, 'gen')}), а {card.label} — "
            + (
                f"на кладбище {lexicon.player(card.owner, 'gen')}"
                if card.zone == "graveyard"
                else f"не на кладбище ({lexicon.zone(card.zone)})"
            ),
        )
        return
    name = ab.get("card")
    if name and lexicon.fold(str(name)) != lexicon.fold(card.name):
        ctx.forbid("535.6", f"особенность {by.label} возрождает «{name}», а не {card.label}")
        return
    ctx.allow("535.6", f"{card.label} на кладбище {lexicon.player(p, 'gen')}; возрождает {by.label}")
    result = _place(
        ctx,
        card,
        by,
        ab,
        action,
        verb="возродить",
        clause="535.6",
        closed=bool(ab.get("closed")),
        player=p,
    )
    if result in ("illegal", "undetermined"):
        return
    _pay(ctx, by, "resurrect")
    if result == "ok":
        ctx.step(
            "535.6",
            "effect",
            f"{card.label} возрождён: {_opened(bool(ab.get('closed')))}, вскрыт, "
            f"под контролем {lexicon.player(p, 'gen')}",
        )

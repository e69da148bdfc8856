"""Section 211, who may be a symbiote's host: the checks of 211.1, 211.2, 211.4–211.6 and 211.8,
becoming a host (211.3, 211.3.1), and a symbiote's death when its host leaves play, stops being a
ground creature or becomes incorporeal (211.4, 211.5).

The other parts of 211 build on these checks: s211_reveal (placing symbiotes in the reveal
subphase, 211.2, 211.7), s211_attach (a card put on a card by its ability, 211.8.1), s211_bond
(the host and its symbiote: 211.3.1, 211.9) and s211_movement (211.10, 211.11). A summon,
resurrection or incarnation of a symbiote (211.8) asks `possible_hosts` and `summon_host_problems`.

Clauses: 211.1, 211.2, 211.3, 211.3.1, 211.4, 211.5 (its known part), 211.6, 211.8.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import lexicon
from engine import context
from engine.model import board, state
from engine.model import cards as library
from engine.rules import zones
from engine.rules.registry import hook, rule

Problem = context.Problem

CUT_211_5 = (
    "текст 211.5 обрывается на словах «Если бестелесный симбиот»: что правила говорят о "
    "бестелесном симбиоте, в нашем тексте нет"
)


def kind_words(card: state.CardState) -> str:
    """The card's subtype in words, or its type when it is not a creature."""
    if card.type != "creature":
        return lexicon.card_type(card.type)
    return lexicon.subtype(card.subtype or "")


@rule("211.4", "211.5", "211.6", "211.9")
def host_problems(ctx: context.Ctx, s: state.CardState, h: state.CardState) -> list[Problem]:
    """Why `h` cannot be the host of symbiote `s` (empty when it can): 211.4, 211.5, 211.6, and
    where our text does not say (a ground creature without a cell, 211.9; an incorporeal
    symbiote, 211.5's cut-off tail)."""
    if h.id == s.id:
        return ctx.found([Problem("211.4", "forbidden", f"{s.label} нельзя поместить на самого себя")])
    out: list[Problem] = []
    if h.type != "creature":
        out.append(
            Problem(
                "211.4",
                "forbidden",
                f"{h.label} — {lexicon.card_type(h.type)}, а симбиота нельзя помещать на карты, "
                "не являющиеся существами",
            )
        )
    elif h.subtype == "flyer":
        out.append(
            Problem("211.4", "forbidden", f"{h.label} — летающее существо: симбиота на него помещать нельзя")
        )
    elif h.subtype in library.SYMBIOTE_SUBTYPES:
        out.append(
            Problem(
                "211.4",
                "forbidden",
                f"{h.label} — симбиот ({kind_words(h)}): на другого симбиота помещать нельзя",
            )
        )
    elif h.zone == "aux":
        # A ground creature that «располагается во вспомогательной зоне» is in the battle zone, so
        # 211.4 does not forbid it; but a symbiote takes its host's cell (211.9) and it has none.
        return ctx.found(
            [
                Problem(
                    "211.9",
                    "undetermined",
                    f"{h.label} — наземное существо во вспомогательной зоне, без клетки, а симбиот занимает "
                    "клетку своего хозяина: можно ли поместить симбиота на такое существо, в нашем тексте "
                    "не сказано",
                )
            ]
        )
    elif h.zone != "battle" or h.host is not None or h.cell is None:
        out.append(
            Problem(
                "211.4",
                "forbidden",
                f"{h.label} не стоит на поле боя ({lexicon.zone(h.zone)}): симбиота помещают "
                "только на наземное существо в зоне битвы",
            )
        )
    if out:
        return ctx.found(out)
    if not s.incorporeal and h.incorporeal:
        out.append(
            Problem(
                "211.5",
                "forbidden",
                f"{s.label} небестелесный, а {h.label} бестелесное: такого симбиота на него поместить нельзя",
            )
        )
    other = ctx.symbiote_of(h.id)
    if other is not None and other.id != s.id:
        out.append(
            Problem(
                "211.6",
                "forbidden",
                f"на {h.label} уже помещён симбиот {other.label}: только один симбиот на существо",
            )
        )
    if not out and s.incorporeal:
        out.append(Problem("211.5", "undetermined", f"{s.label} бестелесный; {CUT_211_5}"))
    return ctx.found(out)


@rule("211.4", "211.6")
def record(ctx: context.Ctx, problems: list[Problem], s: state.CardState, h: state.CardState) -> bool:
    """Cite the host problems of `s` on `h`; True when the symbiote may go on. A forbidding one
    refuses the action; one where our text stops leaves the position as it was (the verdict says
    undetermined): the engine does only what the text decides."""
    for p in problems:
        ctx.cite(p)
    if problems:
        return False
    ctx.allow("211.4", f"{h.label} — наземное существо на клетке {h.cell}: может быть хозяином {s.label}")
    if not ctx.symbiote_of(h.id) or ctx.symbiote_of(h.id) is s:
        ctx.allow("211.6", f"на {h.label} нет другого симбиота")
    return True


@rule("211.1", "211.2", "A4")
def reveal_problems(ctx: context.Ctx, s: state.CardState, h: state.CardState) -> list[Problem]:
    """Host rules of the reveal subphase: companions on own creatures, parasites on enemy ones in
    the first row of the enemy half or on the parasite controller's half (211.1, 211.2; which row
    is first is the board of A4)."""
    out: list[Problem] = []
    if s.subtype == "companion":
        if h.controller != s.controller:
            out.append(
                Problem(
                    "211.1",
                    "forbidden",
                    f"{s.label} — компаньон: на Шаге рассадки помещается только на существ своего отряда, "
                    f"а {h.label} под контролем {lexicon.player(h.controller, 'gen')}",
                )
            )
    elif s.subtype == "parasite":
        if h.controller == s.controller:
            out.append(
                Problem(
                    "211.1",
                    "forbidden",
                    f"{s.label} — паразит: помещается только на существ противника, а {h.label} из "
                    "своего отряда",
                )
            )
        elif h.cell is not None:
            rank = board.row_rank(h.controller, h.cell)
            own_half = board.half_of(h.cell) == s.controller
            if rank != 1 and not own_half:
                out.append(
                    Problem(
                        "211.2",
                        "forbidden",
                        f"{h.label} стоит на {h.cell} — не в первом ряду половины "
                        f"{lexicon.player(h.controller, 'gen')} "
                        f"и не на половине {lexicon.player(s.controller, 'gen')}",
                        rests_on=("A4",),
                    )
                )
    return ctx.found(out)


@dataclasses.dataclass(frozen=True)
class Hosts:
    """Who may become the host of one symbiote: the cards nothing forbids (`fit`), those only our
    text's silence stands in the way of (`unsure`, with where it stops), and the others with the
    clause that rules each out (`ruled_out`)."""

    symbiote: state.CardState
    fit: tuple[state.CardState, ...]
    unsure: tuple[tuple[state.CardState, Problem], ...]
    ruled_out: tuple[tuple[state.CardState, tuple[Problem, ...]], ...]


def host_options(
    ctx: context.Ctx, s: state.CardState, check: Callable[[state.CardState], list[Problem]]
) -> Hosts:
    """Every card in play but `s` judged as a host of `s` by `check` (its problems)."""
    fit: list[state.CardState] = []
    unsure: list[tuple[state.CardState, Problem]] = []
    ruled_out: list[tuple[state.CardState, tuple[Problem, ...]]] = []
    for h in sorted(ctx.cards.values(), key=lambda c: c.id):
        if not h.in_play or h.id == s.id:
            continue
        problems = check(h)
        forbidding = [p for p in problems if p.forbids]
        if forbidding:
            ruled_out.append((h, tuple(forbidding)))
        elif problems:
            unsure.append((h, problems[0]))
        else:
            fit.append(h)
    return Hosts(s, tuple(fit), tuple(unsure), tuple(ruled_out))


def note_ruled_out(ctx: context.Ctx, hosts: Hosts) -> None:
    """Say why each card that is not offered as a host of the symbiote cannot be one."""
    if not hosts.ruled_out:
        return
    with ctx.group("", "state_check", f"не могут быть хозяином {hosts.symbiote.label}"):
        for _h, problems in hosts.ruled_out:
            for problem in problems:
                ctx.note(problem)


@rule("211.3", "211.3.1")
def set_host(ctx: context.Ctx, sid: str, hid: str) -> None:
    """`hid` becomes the host of `sid` (211.3); a previous host stops being one and the symbiote
    has changed its host; its subtype and abilities stay (211.3.1)."""
    s, h = ctx.c(sid), ctx.c(hid)
    old = ctx.get(s.host)
    ctx.update(sid, host=hid, cell=h.cell, zone="battle", hidden=False)
    ctx.step(
        "211.3",
        "effect",
        f"{h.label} становится хозяином симбиота {s.label}",
        f"{s.label}: хозяин {h.label}, клетка {h.cell}",
    )
    if old is not None and old.id != hid:
        ctx.update(sid, host_changed=True)
        ctx.step("211.3", "effect", f"{old.label} перестаёт быть хозяином {s.label}; симбиот сменил хозяина")
        ctx.step(
            "211.3.1",
            "effect",
            f"смена хозяина не меняет подтип {s.label} (остаётся: {kind_words(s)}); "
            "его особенности действуют",
        )


@hook("left_play")
@rule("211.4")
def host_left(ctx: context.Ctx, hid: str) -> None:
    """A host left the battle zone: its symbiote dies (211.4)."""
    s = ctx.symbiote_of(hid)
    if s is None:
        return
    h = ctx.c(hid)
    with ctx.group(
        "211.4",
        "effect",
        f"хозяин {h.label} покинул зону битвы ({lexicon.zone(h.zone)}): его симбиот {s.label} погибает",
    ):
        ctx.update(s.id, host=None, cell=None)
        zones.die(ctx, s.id, None, "хозяин покинул зону битвы", "211.4")


@hook("state_check")
@rule("211.4")
def check_hosts(ctx: context.Ctx) -> bool:
    """Symbiotes whose host stopped being a ground creature die (211.4)."""
    changed = False
    for s in list(ctx.cards.values()):
        if s.host is None or not s.in_play:
            continue
        h = ctx.cards.get(s.host)
        if h is None:
            continue
        if not h.is_ground or not h.in_play:
            what = kind_words(h)
            with ctx.group(
                "211.4",
                "effect",
                f"{h.label} больше не наземное существо ({what}): его симбиот {s.label} погибает",
            ):
                ctx.update(s.id, host=None, cell=None)
                zones.die(ctx, s.id, None, f"хозяин больше не наземное существо ({what})", "211.4")
            changed = True
    return changed


@rule("211.5")
def became_incorporeal(ctx: context.Ctx, hid: str) -> None:
    """A creature became incorporeal: its non-incorporeal symbiote dies (211.5)."""
    s = ctx.symbiote_of(hid)
    if s is None or s.incorporeal:
        return
    h = ctx.c(hid)
    with ctx.group(
        "211.5", "effect", f"{h.label} стал бестелесным: его небестелесный симбиот {s.label} погибает"
    ):
        ctx.update(s.id, host=None, cell=None)
        zones.die(ctx, s.id, None, "хозяин стал бестелесным", "211.5")


@rule("211.8")
def summon_target_problems(
    ctx: context.Ctx, card: state.CardState, places_on: str | None, verb: str
) -> list[Problem]:
    """A summoned (resurrected, incarnating) symbiote needs an ability that puts it on a card (211.8)."""
    if not card.is_symbiote or places_on:
        return []
    return ctx.found(
        [
            Problem(
                "211.8",
                "forbidden",
                f"{card.label} — симбиот, а текст особенности не говорит, что он помещается на карту: "
                f"{verb} симбиота этой особенностью нельзя",
            )
        ]
    )


@rule("211.8")
def summon_host_problems(
    ctx: context.Ctx, card: state.CardState, h: state.CardState, places_on: str, player: str
) -> list[Problem]:
    """Why `h` cannot take a symbiote the ability puts on a card: the card the text names (its
    own or the opponent's, 211.8) and the host rules (host_problems)."""
    extra: list[Problem] = []
    if places_on == "own_creature" and h.controller != player:
        extra.append(
            Problem(
                "211.8",
                "forbidden",
                f"особенность помещает на существо своего отряда, а {h.label} — противника",
            )
        )
    if places_on == "enemy_creature" and h.controller == player:
        extra.append(
            Problem("211.8", "forbidden", f"особенность помещает на существо противника, а {h.label} — своё")
        )
    return host_problems(ctx, card, h) + ctx.found(extra)


def possible_hosts(ctx: context.Ctx, card: state.CardState, places_on: str, player: str) -> Hosts:
    """Who may take a summoned, resurrected or incarnating symbiote (211.8 with 211.4–211.6)."""
    return host_options(ctx, card, lambda h: summon_host_problems(ctx, card, h, places_on, player))

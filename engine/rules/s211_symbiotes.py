"""Section 211 «Симбиоты»: hosts, placement, what follows a host's change, movement.

Clauses: 211.1, 211.2, 211.3, 211.3.1, 211.4, 211.5 (its known part), 211.6, 211.7, 211.8,
211.8.1, 211.9, 211.10, 211.11.
"""

from __future__ import annotations

import lexicon
from engine import context
from engine.model import actions, board, state
from engine.model import cards as library
from engine.model.abilities import Ability
from engine.rules import zones
from engine.rules.events import Event
from engine.rules.registry import action, arg, hook, rule

Problem = tuple[str, str, str]  # (clause, kind, reason)

CUT_211_5 = (
    "текст 211.5 обрывается на словах «Если бестелесный симбиот»: что правила говорят о "
    "бестелесном симбиоте, в нашем тексте нет"
)


def _sub(card: state.CardState) -> str:
    """The card's subtype in words, or its type when it is not a creature."""
    if card.type != "creature":
        return lexicon.card_type(card.type)
    return lexicon.subtype(card.subtype or "")


@rule("211.4", "211.5", "211.6")
def host_problems(ctx: context.Ctx, s: state.CardState, h: state.CardState) -> list[Problem]:
    """Why `h` cannot be the host of symbiote `s` (empty when it can): 211.4, 211.5, 211.6."""
    out: list[Problem] = []
    if h.id == s.id:
        return [("211.4", "forbidden", f"{s.label} нельзя поместить на самого себя")]
    if h.type != "creature":
        out.append(
            (
                "211.4",
                "forbidden",
                f"{h.label} — {lexicon.card_type(h.type)}, а симбиота нельзя помещать на карты, "
                "не являющиеся существами",
            )
        )
    elif h.subtype == "flyer":
        out.append(("211.4", "forbidden", f"{h.label} — летающее существо: симбиота на него помещать нельзя"))
    elif h.subtype in library.SYMBIOTE_SUBTYPES:
        out.append(
            ("211.4", "forbidden", f"{h.label} — симбиот ({_sub(h)}): на другого симбиота помещать нельзя")
        )
    elif h.zone == "aux":
        # A ground creature that «располагается во вспомогательной зоне» is in the battle zone, so
        # 211.4 does not forbid it; but a symbiote takes its host's cell (211.9) and it has none.
        return [
            (
                "211.9",
                "unknown",
                f"{h.label} — наземное существо во вспомогательной зоне, без клетки, а симбиот занимает "
                "клетку своего хозяина (211.9): можно ли поместить симбиота на такое существо, в нашем "
                "тексте не сказано",
            )
        ]
    elif h.zone != "battle" or h.host is not None or h.cell is None:
        out.append(
            (
                "211.4",
                "forbidden",
                f"{h.label} не стоит на поле боя ({lexicon.zone(h.zone)}): симбиота помещают "
                "только на наземное существо в зоне битвы",
            )
        )
    if out:
        return out
    if not s.incorporeal and h.incorporeal:
        out.append(
            (
                "211.5",
                "forbidden",
                f"{s.label} небестелесный, а {h.label} бестелесное: такого симбиота на него поместить нельзя",
            )
        )
    other = ctx.symbiote_of(h.id)
    if other is not None and other.id != s.id:
        out.append(
            (
                "211.6",
                "forbidden",
                f"на {h.label} уже помещён симбиот {other.label}: только один симбиот на существо",
            )
        )
    if not out and s.incorporeal:
        out.append(("211.5", "undetermined", f"{s.label} бестелесный; {CUT_211_5}"))
    return out


@rule("211.4", "211.6")
def record(ctx: context.Ctx, problems: list[Problem], s: state.CardState, h: state.CardState) -> bool:
    """Write host problems into the trace; True when the symbiote may go on. Kinds: forbidden;
    undetermined (it goes on, the verdict says our text may say otherwise); unknown (our text does
    not say whether it can: the position stays as it was and the verdict is undetermined)."""
    ok = True
    for clause, kind, reason in problems:
        if kind == "forbidden":
            ctx.forbid(clause, reason)
            ok = False
        elif kind == "undetermined":
            ctx.undet(clause, reason)
        elif kind == "unknown":
            ctx.undet(clause, reason)
            ctx.keep_state = True
            ok = False
    if ok:
        ctx.allow("211.4", f"{h.label} — наземное существо на клетке {h.cell}: может быть хозяином {s.label}")
        if not ctx.symbiote_of(h.id) or ctx.symbiote_of(h.id) is s:
            ctx.allow("211.6", f"на {h.label} нет другого симбиота")
    return ok


@rule("211.1", "211.2")
def reveal_problems(ctx: context.Ctx, s: state.CardState, h: state.CardState) -> list[Problem]:
    """Host rules of the reveal subphase: companions on own creatures, parasites on enemy ones in
    the first row of the enemy half or on the parasite controller's half (211.1, 211.2)."""
    out: list[Problem] = []
    if s.subtype == "companion":
        if h.controller != s.controller:
            out.append(
                (
                    "211.1",
                    "forbidden",
                    f"{s.label} — компаньон: на Шаге рассадки помещается только на существ своего отряда, "
                    f"а {h.label} под контролем {lexicon.player(h.controller, 'gen')}",
                )
            )
    elif s.subtype == "parasite":
        if h.controller == s.controller:
            out.append(
                (
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
                    (
                        "211.2",
                        "forbidden",
                        f"{h.label} стоит на {h.cell} — не в первом ряду половины "
                        f"{lexicon.player(h.controller, 'gen')} "
                        f"и не на половине {lexicon.player(s.controller, 'gen')} (A4)",
                    )
                )
    return out


def candidate_hosts(ctx: context.Ctx, s: state.CardState, reveal: bool) -> list[state.CardState]:
    """Cards that may legally become the host of `s` (no forbidding problem)."""
    out = []
    for h in ctx.cards.values():
        if h.zone != "battle" or h.host is not None or h.id == s.id:
            continue
        probs = host_problems(ctx, s, h) + (reveal_problems(ctx, s, h) if reveal else [])
        if not any(k == "forbidden" for _, k, _r in probs):
            out.append(h)
    return out


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
            f"смена хозяина не меняет подтип {s.label} (остаётся: {_sub(s)}); его особенности действуют",
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
            what = _sub(h)
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


@action(
    "place_symbiote",
    "Поместить симбиота на хозяина (подфаза Вскрытия)",
    arg("card", "card", "симбиот", required=True, pool="unhosted_symbiote"),
    arg("host", "card", "хозяин", required=True, pool="other_in_play"),
    choice=("card", "host"),
)
@rule("211.1", "211.2", "211.4", "211.5", "211.6", "211.8.1", "A4")
def do_place_symbiote(ctx: context.Ctx, action: actions.Action) -> None:
    """place_symbiote: put a symbiote onto its host in the reveal subphase (211.2)."""
    s, h = ctx.get(action.get("card")), ctx.get(action.get("host"))
    if s is None or h is None:
        ctx.forbid("", f"карты {action.get('card') if s is None else action.get('host')} нет в раскладе")
        return
    if ctx.phase != "reveal":
        ctx.forbid(
            "211.2",
            "симбиота помещают на хозяина в подфазу Вскрытия Шага рассадки, а сейчас "
            f"{lexicon.phase(ctx.phase)}",
        )
        return
    if not s.is_symbiote:
        ctx.forbid(
            "211.8.1", f"{s.label} — не симбиот ({_sub(s)}): на карту могут быть помещены только симбиоты"
        )
        return
    if s.host is not None or s.zone != "battle":
        where = f"уже на хозяине {s.host}" if s.host else lexicon.zone(s.zone)
        ctx.forbid("211.2", f"{s.label} не стоит на отдельной клетке поля ({where})")
        return
    ctx.allow("211.2", f"{s.label} до вскрытия стоит на отдельной клетке {s.cell}")
    reveal = reveal_problems(ctx, s, h)
    hostp = host_problems(ctx, s, h)
    for clause, kind, reason in reveal:
        if kind == "forbidden":
            ctx.forbid(clause, reason)
    if not reveal:
        side = "своего отряда" if s.subtype == "companion" else "противника"
        ctx.allow("211.1", f"{s.label} ({_sub(s)}) помещается на существо {side}: {h.label}")
        if s.subtype == "parasite" and h.cell is not None:
            where = (
                f"на половине {lexicon.player(s.controller, 'gen')}, контролирующего паразита"
                if board.half_of(h.cell) == s.controller
                else f"в первом ряду {lexicon.player(h.controller, 'gen')}"
            )
            ctx.assume("A4", f"клетка {h.cell} — {where}")
            ctx.allow("211.2", f"{h.label} стоит на {h.cell}: {where}")
    if not record(ctx, hostp, s, h) or ctx.illegal:
        return
    ctx.change(f"{s.label} вскрыт")
    set_host(ctx, s.id, h.id)


@action("end_reveal", "Закончить подфазу Вскрытия")
@rule("211.7", "A11")
def do_end_reveal(ctx: context.Ctx, action: actions.Action) -> None:
    """end_reveal: each player must give a host to each hostless symbiote if possible; the rest
    die; all hidden symbiotes are revealed (211.7)."""
    if ctx.phase != "reveal":
        ctx.forbid("211.7", f"подфаза Вскрытия не идёт (сейчас {lexicon.phase(ctx.phase)})")
        return
    for player in (ctx.active, board.other(ctx.active)):
        hostless = sorted(
            (
                c
                for c in ctx.cards.values()
                if c.is_symbiote and c.zone == "battle" and c.host is None and c.controller == player
            ),
            key=lambda c: c.id,
        )
        for s in hostless:
            s = ctx.c(s.id)
            hosts = candidate_hosts(ctx, s, reveal=True)
            if not hosts:
                continue
            ctx.step(
                "211.7",
                "state_check",
                f"{s.label} без хозяина, а возможные хозяева есть: {lexicon.player(player)} обязан выбрать",
            )
            key = ctx.ask_card(player, "211.7", f"Выберите хозяина для {s.label}", hosts)
            h = ctx.c(key)
            for clause, kind, reason in host_problems(ctx, s, h):
                if kind == "undetermined":
                    ctx.undet(clause, reason)
            set_host(ctx, s.id, h.id)
    for s in list(ctx.cards.values()):
        if s.is_symbiote and s.zone == "battle" and s.host is None:
            with ctx.group(
                "211.7", "effect", f"{s.label} после окончания подфазы Вскрытия не имеет хозяина и погибает"
            ):
                zones.die(ctx, s.id, None, "нет хозяина после Вскрытия", "211.7")
    revealed = [c for c in ctx.cards.values() if c.in_play and c.hidden]
    for c in revealed:
        ctx.update(c.id, hidden=False)
    syms = [c.label for c in revealed if c.is_symbiote]
    if syms:
        ctx.step("211.7", "effect", "скрытые симбиоты вскрыты по окончании Шага рассадки: " + ", ".join(syms))
    others = [c.label for c in revealed if not c.is_symbiote]
    if others:
        ctx.assume("A11", "вскрыты остальные скрытые карты: " + ", ".join(others))
    ctx.phase = "battle"
    ctx.started = False
    ctx.assume("A11", f"подфаза Вскрытия окончена, начинается бой; первым ходит {lexicon.player(ctx.active)}")


@action(
    "attach",
    "Поместить карту на карту особенностью",
    arg("card", "card", "помещаемая карта", required=True, pool="in_play"),
    arg("host", "card", "на какую карту", required=True, pool="other_in_play"),
    arg("by", "card", "карта, чья особенность (по умолчанию сама помещаемая)"),
    choice=("card", "host"),
)
@rule("211.3", "211.8.1", "211.11", "A8")
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


@rule("211.3", "211.8.1", "A8")
def _become_parasite(ctx: context.Ctx, card: state.CardState, h: state.CardState, ab: Ability) -> None:
    """Выкормыш слуа: becomes a parasite of its attacker; the text changes the subtype explicitly,
    so 211.8.1 lets it go onto a card."""
    if ab.get("once_per_battle") and "become_parasite" in card.used:
        ctx.forbid("A8", f"{card.label} уже использовал эту особенность в этом бою (1 раз за бой)")
        return
    if ctx.last_attack != (h.id, card.id):
        ctx.forbid("A8", f"{h.label} сейчас не атакует {card.label}: стать паразитом атакующего нельзя")
        return
    ctx.allow(
        "211.8.1", f"особенность {card.label} явно меняет его подтип на паразита: помещение на карту возможно"
    )
    s_view = ctx.update(card.id, subtype="parasite")
    if not record(ctx, host_problems(ctx, s_view, h), s_view, h):
        return
    ctx.update(card.id, used=card.used | {"become_parasite"})
    ctx.step(
        "211.8.1",
        "effect",
        f"{card.label} становится паразитом",
        f"{card.label}: подтип {_sub(card)} → паразит",
    )
    if card.host is None and card.cell is not None:
        ctx.change(f"{card.label} покидает клетку {card.cell}")
    set_host(ctx, card.id, h.id)  # a symbiote of its own dies in the state check (211.4)


@rule("211.3", "211.8.1", "211.11", "A1", "A8", "A12")
def _place_on_own_creature(ctx: context.Ctx, card: state.CardState, h: state.CardState, ab: Ability) -> None:
    """Сугед: placed on another creature of its squad within range. The text does not change the
    subtype, so only a symbiote may use it (211.8.1); the rule is checked before the timing of the
    card text (A12), since it forbids in any turn."""
    if not card.is_symbiote:
        ctx.forbid(
            "211.8.1",
            f"{card.label} — {_sub(card)}, не симбиот, а особенность не говорит о смене подтипа "
            "на компаньона или паразита: поместить его на карту нельзя",
        )
        return
    ctx.allow("211.8.1", f"{card.label} — симбиот ({_sub(card)}): может быть помещён на карту")
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
    if not record(ctx, host_problems(ctx, card, h), card, h):
        return
    ctx.allow("211.11", f"перемещение {card.label} отдельно от хозяина явно указано в тексте особенности")
    set_host(ctx, card.id, h.id)


@rule("211.8")
def summon_target_problems(
    ctx: context.Ctx, card: state.CardState, places_on: str | None, verb: str
) -> list[Problem]:
    """A summoned (resurrected, incarnating) symbiote needs an ability that puts it on a card (211.8)."""
    if not card.is_symbiote:
        return []
    if not places_on:
        return [
            (
                "211.8",
                "forbidden",
                f"{card.label} — симбиот, а текст особенности не говорит, что он помещается на карту: "
                f"{verb} симбиота этой особенностью нельзя",
            )
        ]
    return []


@rule("211.8", "211.1")
def summon_host_problems(
    ctx: context.Ctx, card: state.CardState, h: state.CardState, places_on: str, player: str
) -> list[Problem]:
    out = host_problems(ctx, card, h)
    if places_on == "own_creature" and h.controller != player:
        out.append(
            (
                "211.8",
                "forbidden",
                f"особенность помещает на существо своего отряда, а {h.label} — противника",
            )
        )
    if places_on == "enemy_creature" and h.controller == player:
        out.append(("211.8", "forbidden", f"особенность помещает на существо противника, а {h.label} — своё"))
    return out


def possible_hosts(
    ctx: context.Ctx, card: state.CardState, places_on: str, player: str
) -> list[state.CardState]:
    """The cards a summoned, resurrected or incarnating symbiote may be put on (211.8 with 211.4–211.6)."""
    return [
        h
        for h in ctx.cards.values()
        if h.zone == "battle"
        and h.host is None
        and not any(k == "forbidden" for _, k, _r in summon_host_problems(ctx, card, h, places_on, player))
    ]


def _changed_relation(ctx: context.Ctx, s: state.CardState, h: state.CardState) -> bool:
    """Has the symbiote changed host or has the host changed controller (so 211.3.1 is the rule
    that keeps its abilities working)?"""
    return s.host_changed or h.controller != h.owner


@rule("211.3.1", "A8")
def host_lock(ctx: context.Ctx, actor: state.CardState, what: str, target: str | None) -> bool:
    """A symbiote's «host may declare nothing but an attack on it» (Карлик Унд). Returns True when
    it forbids; cites 211.3.1 when a change of host or controller did not switch it off."""
    s = ctx.symbiote_of(actor.id)
    if s is None or ctx.ability(s, "host_lock") is None:
        return False
    if target == s.id:
        return False
    reason = (
        f"{actor.label} — хозяин {s.label}: может заявлять только нападение на {s.label}, а заявлено: {what}"
    )
    if _changed_relation(ctx, s, actor):
        ctx.forbid(
            "211.3.1",
            reason + f"; смена хозяина или контроля не отключает особенности симбиота "
            f"(паразит {s.label} под контролем {lexicon.player(s.controller, 'gen')}, хозяин — "
            f"под контролем {lexicon.player(actor.controller, 'gen')})",
        )
    else:
        ctx.forbid("A8", reason + " (текст карты)")
    return True


@hook("wound_guard", ability="wounds_only_from_host")
@rule("211.3.1", "A8")
def wounds_only_from_host(ctx: context.Ctx, target: state.CardState, ab: Ability, ev: Event) -> bool:
    """«Получает раны только от своего хозяина» (Карлик Унд). True when the wound is prevented."""
    source = ev.source
    if target.host is None:
        return False
    if source == target.host:
        ctx.allow("A8", f"{target.label} получает раны от своего хозяина {ctx.c(target.host).label}")
        return False
    h = ctx.c(target.host)
    src = ctx.get(source)
    who = src.label if src else "источника без карты"
    reason = f"{target.label} получает раны только от хозяина {h.label}, а не от {who}: раны не наносятся"
    if _changed_relation(ctx, target, h):
        ctx.step("211.3.1", "effect", reason + "; особенность не отключилась от смены хозяина или контроля")
    else:
        ctx.step("A8", "effect", reason)
    return True


@rule("211.9")
def attack_with_host(ctx: context.Ctx, attacker: state.CardState, target: state.CardState) -> bool:
    """Host and symbiote attacking each other: adjacent (211.9), legal «по общим правилам», which
    our text lacks. True when this clause decides the attack."""
    if attacker.host == target.id or target.host == attacker.id:
        cell = attacker.cell
        ctx.allow(
            "211.9", f"{attacker.label} и {target.label} — хозяин и симбиот: одна клетка {cell}, стоят рядом"
        )
        ctx.undet(
            "211.9",
            "нападение хозяина на симбиота и симбиота на хозяина идёт «по общим правилам», "
            "а общих правил нападения в нашем тексте нет",
        )
        return True
    return False


@rule("211.9")
def cards_adjacent(a: state.CardState, b: state.CardState) -> bool:
    """Cards standing next to each other: neighbouring cells (A1), or a symbiote and its host,
    which occupy one cell and count as adjacent (211.9)."""
    if a.id == b.id or a.zone != "battle" or b.zone != "battle" or a.cell is None or b.cell is None:
        return False
    return a.host == b.id or b.host == a.id or board.adjacent(a.cell, b.cell)


@rule("211.9", "A1")
def explain_adjacent(ctx: context.Ctx, card: state.CardState, near: list[state.CardState]) -> None:
    """Say why each of `near` stands next to `card`: its host or symbiote by 211.9, a card on a
    neighbouring cell by assumption A1."""
    bound = [c for c in near if c.id in (card.host, getattr(ctx.symbiote_of(card.id), "id", None))]
    for c in bound:
        role = "хозяин" if c.id == card.host else "симбиот"
        ctx.allow(
            "211.9", f"{c.label} — {role} {card.label}: симбиот и хозяин считаются стоящими рядом картами"
        )
    if any(c not in bound for c in near) and card.cell:
        cells = ", ".join(sorted({c.cell or "" for c in near if c not in bound}))
        ctx.assume("A1", f"рядом с {card.label} ({card.cell}) — соседние клетки, включая диагонали: {cells}")


@rule("211.10")
def movement_declared(ctx: context.Ctx, card: state.CardState) -> bool:
    """A symbiote's movement cannot be declared (211.10). True when forbidden."""
    if card.is_symbiote:
        ctx.forbid("211.10", f"{card.label} — симбиот: нельзя объявить его движение")
        return True
    return False


@rule("211.11")
def symbiote_restricts_host(ctx: context.Ctx, host: state.CardState, cell: str) -> bool:
    """Restrictions on the symbiote's cells also restrict its host (211.11). True when forbidden."""
    s = ctx.symbiote_of(host.id)
    if s is None:
        return False
    if cannot_enter(ctx, s, cell):
        ctx.forbid(
            "211.11",
            f"симбиоту {s.label} запрещено перемещаться на {cell}: это ограничивает и "
            f"перемещение его хозяина {host.label}",
        )
        return True
    return False


def cannot_enter(ctx: context.Ctx, card: state.CardState, cell: str) -> bool:
    for ab in ctx.abilities(card):
        if ab.kind == "cannot_enter":
            if cell in (ab.get("cells") or ()):
                return True
            if ab.get("half") == "enemy" and board.half_of(cell) != card.controller:
                return True
    return False


@rule("211.11")
def relocate_symbiote(ctx: context.Ctx, card: state.CardState, alone: bool) -> bool:
    """A symbiote does not move apart from its host unless the ability says so (211.11).
    True when forbidden."""
    if card.host is None:
        return False
    if not alone:
        ctx.forbid(
            "211.11",
            f"{card.label} — симбиот на {ctx.c(card.host).label}: отдельно от хозяина не "
            "перемещается, если особенность этого явно не разрешает",
        )
        return True
    ctx.allow("211.11", f"особенность явно разрешает переместить симбиота {card.label} отдельно от хозяина")
    return False


@rule("211.11")
def carry_symbiote(ctx: context.Ctx, host: state.CardState, cell: str) -> None:
    """The host moves: its symbiote moves with it to the same cell at the same time (211.11)."""
    s = ctx.symbiote_of(host.id)
    if s is None:
        return
    ctx.update(s.id, cell=cell)
    ctx.step(
        "211.11",
        "effect",
        f"симбиот {s.label} перемещается вместе с хозяином {host.label} на {cell}: считается перемещение "
        "двух существ (особенности перемещения, но не передвижения, применимы к симбиоту)",
        f"{s.label}: клетка {cell}",
    )

"""Section 211 in the reveal subphase: a symbiote put onto its host (211.1, 211.2) and the end of
the subphase, where each player must give every symbiote of theirs a host if possible and the
hostless ones die (211.7).

Clauses: 211.1, 211.2, 211.7.
"""

from __future__ import annotations

import lexicon
from engine import context
from engine.model import actions, board
from engine.rules import s211_hosts as hosts
from engine.rules import zones
from engine.rules.registry import action, arg, rule


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
            "211.8.1",
            f"{s.label} — не симбиот ({hosts.kind_words(s)}): на карту могут быть помещены только симбиоты",
        )
        return
    if s.host is not None or s.zone != "battle":
        where = f"уже на хозяине {s.host}" if s.host else lexicon.zone(s.zone)
        ctx.forbid("211.2", f"{s.label} не стоит на отдельной клетке поля ({where})")
        return
    ctx.allow("211.2", f"{s.label} до вскрытия стоит на отдельной клетке {s.cell}")
    reveal = hosts.reveal_problems(ctx, s, h)
    hostp = hosts.host_problems(ctx, s, h)
    for clause, kind, reason in reveal:
        if kind == "forbidden":
            ctx.forbid(clause, reason)
    if not reveal:
        side = "своего отряда" if s.subtype == "companion" else "противника"
        ctx.allow("211.1", f"{s.label} ({hosts.kind_words(s)}) помещается на существо {side}: {h.label}")
        if s.subtype == "parasite" and h.cell is not None:
            where = (
                f"на половине {lexicon.player(s.controller, 'gen')}, контролирующего паразита"
                if board.half_of(h.cell) == s.controller
                else f"в первом ряду {lexicon.player(h.controller, 'gen')}"
            )
            ctx.assume("A4", f"клетка {h.cell} — {where}")
            ctx.allow("211.2", f"{h.label} стоит на {h.cell}: {where}")
    if not hosts.record(ctx, hostp, s, h) or ctx.illegal:
        return
    ctx.change(f"{s.label} вскрыт")
    hosts.set_host(ctx, s.id, h.id)


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
            found = hosts.candidate_hosts(ctx, s, reveal=True)
            if not found:
                continue
            ctx.step(
                "211.7",
                "state_check",
                f"{s.label} без хозяина, а возможные хозяева есть: {lexicon.player(player)} обязан выбрать",
            )
            key = ctx.ask_card(player, "211.7", f"Выберите хозяина для {s.label}", found)
            h = ctx.c(key)
            for clause, kind, reason in hosts.host_problems(ctx, s, h):
                if kind == "undetermined":
                    ctx.undet(clause, reason)
            hosts.set_host(ctx, s.id, h.id)
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

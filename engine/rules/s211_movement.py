"""Section 211, a symbiote and movement: its movement cannot be declared (211.10); it moves only
with its host, unless an ability says it may move alone, and what forbids it a cell restricts its
host too (211.11).

Clauses: 211.10, 211.11.
"""

from __future__ import annotations

from engine import context
from engine.model import board, state
from engine.rules.registry import rule


@rule("211.10")
def movement_declared(ctx: context.Ctx, card: state.CardState) -> bool:
    """A symbiote's movement cannot be declared (211.10). True when forbidden."""
    if card.is_symbiote:
        ctx.forbid("211.10", f"{card.label} — симбиот: нельзя объявить его движение")
        return True
    return False


@rule("211.11", "A8")
def symbiote_restricts_host(ctx: context.Ctx, host: state.CardState, cell: str, *, by_ability: bool) -> bool:
    """What forbids the symbiote a cell restricts its host's movement and relocation too (211.11),
    whatever card moves the host. A ban on being moved by abilities at all covers every cell: it
    forbids the host's relocation by any ability; the host's own movement is not an ability, so
    that ban (read as the card text says, A8) does not touch it. True when forbidden."""
    s = ctx.symbiote_of(host.id)
    if s is None:
        return False
    moved = "перемещение" if by_ability else "движение"
    if cannot_enter(ctx, s, cell):
        ctx.forbid(
            "211.11",
            f"симбиоту {s.label} запрещено перемещаться на {cell}: это ограничивает и "
            f"{moved} его хозяина {host.label}",
        )
        return True
    if ctx.ability(s, "cannot_be_relocated") is not None:
        if by_ability:
            ctx.forbid(
                "211.11",
                f"симбиоту {s.label} запрещено перемещаться особенностями — на любую клетку: это "
                f"ограничивает и перемещение его хозяина {host.label}, какая бы карта его ни перемещала",
            )
            return True
        ctx.step(
            "A8",
            "not_applied",
            f"«{s.label} не может быть перемещён особенностями»: {host.label} двигается сам, а не "
            "особенностью, — этот запрет его движения не касается",
        )
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

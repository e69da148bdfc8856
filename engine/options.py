"""legal_options: «what can be done now?» for one action kind, each option with its verdict.

Each candidate is checked by running engine.apply on it, so an option's verdict is exactly what
applying it gives: «можно» (legal), «нельзя» with the clause that forbids it, or «не определено»
with the clause (or assumption) where our text stops. The candidates of each board argument come
from the pool its declaration names (engine/model/actions.POOLS), so a new action kind needs no
code here.
"""

from __future__ import annotations

import dataclasses
import itertools
import types
from collections.abc import Callable, Mapping

import lexicon
from engine import core, errors, trace
from engine.model import actions, board, state
from rules_index import ids

Pool = Callable[[state.GameState, Mapping[str, object]], list[object]]


@dataclasses.dataclass(frozen=True)
class OptionVerdict:
    """One option: its arguments, the verdict applying it gives, the clause (or assumption) that
    decides it, and why. `clause` is None when nothing of the rules decides (a malformed option,
    or a legal one whose trace allows nothing explicitly)."""

    args: dict[str, object]
    verdict: str
    clause: str | None
    reason: str
    needs_choice: bool = False
    # What the text allows but leaves to rules our text lacks: (clause, reason) of each
    # «не проверено» step (211.9: the attack goes «по общим правилам»).
    unchecked: tuple[tuple[str, str], ...] = ()

    @property
    def legal(self) -> bool:
        return self.verdict == "legal"

    @property
    def mark(self) -> str:
        """«можно», «нельзя» or «не определено»."""
        return lexicon.option_mark(self.verdict)

    @property
    def citation(self) -> str:
        """The deciding clause as it reads: «п. 211.6», «допущение A7», or ""."""
        return lexicon.cite(self.clause) if self.clause else ""


def _in_play(gs: state.GameState) -> list[state.CardState]:
    return [c for c in gs.cards.values() if c.in_play]


def _line_from_card(gs: state.GameState, fixed: Mapping[str, object]) -> list[object]:
    """Runs of 1–3 cells on each straight line (diagonals too) from the card's cell."""
    origin = gs.cards.get(str(fixed.get("card", "")))
    if origin is None or origin.cell is None:
        return []
    out: list[object] = []
    oc, orow = board.coords(origin.cell)
    for dc, dr in itertools.product((-1, 0, 1), repeat=2):
        if dc == dr == 0:
            continue
        line: list[str] = []
        for i in range(1, 4):
            cell = board.cell_at(oc + dc * i, orow + dr * i)
            if cell is None:
                break
            line.append(cell)
            out.append(list(line))
    return out


def _symbiote_named(gs: state.GameState, fixed: Mapping[str, object]) -> bool:
    target = gs.cards.get(str(fixed.get("card", "")))
    return target is not None and target.is_symbiote


def _hosts(gs: state.GameState, fixed: Mapping[str, object]) -> list[object]:
    if not _symbiote_named(gs, fixed):
        return []
    return [c.id for c in _in_play(gs) if c.zone == "battle" and c.host is None]


def _cells_for_card(gs: state.GameState, fixed: Mapping[str, object]) -> list[object]:
    # A symbiote is put on a host, not on a cell: its summon varies the host instead.
    return [] if _symbiote_named(gs, fixed) else list(board.CELLS)


POOLS: Mapping[str, Pool] = types.MappingProxyType(
    {
        "in_play": lambda gs, fixed: [c.id for c in _in_play(gs)],
        "other_in_play": lambda gs, fixed: [
            c.id for c in _in_play(gs) if c.id not in (fixed.get("card"), fixed.get("attacker"))
        ],
        "not_in_play": lambda gs, fixed: [c.id for c in gs.cards.values() if not c.in_play],
        "not_exile_or_deck": lambda gs, fixed: [
            c.id for c in gs.cards.values() if c.zone not in ("exile", "deck")
        ],
        "graveyard": lambda gs, fixed: [c.id for c in gs.cards.values() if c.zone == "graveyard"],
        "unhosted_symbiote": lambda gs, fixed: [
            c.id for c in _in_play(gs) if c.is_symbiote and c.host is None
        ],
        "active_creature": lambda gs, fixed: [
            c.id for c in _in_play(gs) if c.controller == gs.active and c.is_creature
        ],
        "cell": lambda gs, fixed: list(board.CELLS),
        "cell_for_card": _cells_for_card,
        "place": lambda gs, fixed: [*board.CELLS, "aux"],
        "player": lambda gs, fixed: list(board.PLAYERS),
        "host_for_card": _hosts,
        "line_from_card": _line_from_card,
        "option": lambda gs, fixed: [o.key for o in gs.pending.options] if gs.pending else [],
    }
)


def _verdict(args: dict[str, object], outcome: trace.Outcome) -> OptionVerdict:
    """The option's verdict from its outcome: the first step that decides it names the clause."""
    if outcome.verdict == "legal":
        allowed = [s for s in outcome.steps() if s.kind == "allowed" and s.clause]
        # a clause of the rules decides before our assumptions do (211.9 before the card text, A8)
        allowed.sort(key=lambda s: ids.is_assumption_id(s.clause))
        unchecked = tuple((s.clause, s.reason) for s in outcome.unchecked)
        reason = "можно" + (" (потребуется выбор)" if outcome.pending else "")
        if unchecked:
            reason += "; не проверено: " + "; ".join(r for _c, r in unchecked)
        return OptionVerdict(
            args,
            "legal",
            allowed[0].clause if allowed else None,
            reason,
            needs_choice=outcome.pending is not None,
            unchecked=unchecked,
        )
    kind = "forbidden" if outcome.verdict == "illegal" else "undetermined"
    step = next((s for s in outcome.steps() if s.kind == kind), None)
    return OptionVerdict(
        args,
        outcome.verdict,
        (step.clause or None) if step else None,
        step.reason if step else "",
        needs_choice=outcome.pending is not None,
    )


def legal_options(gs: state.GameState, kind: str, /, **fixed: object) -> list[OptionVerdict]:
    """Every choice for the unfixed board arguments of `kind`, each with its verdict.

    An optional board argument whose pool is empty here (a summon's cell for a symbiote, its host
    for any other card) is left out. An option that raises a further choice keeps the verdict it
    has so far. Raises ActionError for an unknown kind or a missing required argument that is not
    a board choice.
    """
    spec = core.ACTION_SPECS.get(kind)
    if spec is None:
        raise errors.ActionError(f"Неизвестное действие «{kind}»")
    vary: list[str] = []
    pools: list[list[object]] = []
    for name in spec.choice:
        arg = spec.arg(name)
        if name in fixed or arg is None:
            continue
        candidates = POOLS[arg.pool](gs, fixed)
        if not candidates and not arg.required:
            continue
        vary.append(name)
        pools.append(candidates)
    for a in spec.args:
        if a.required and a.name not in fixed and a.name not in vary:
            raise errors.ActionError(f"legal_options({kind}): укажите аргумент «{a.name}» ({a.label})")
    out: list[OptionVerdict] = []
    for combo in itertools.product(*pools):
        args = dict(fixed)
        args.update(zip(vary, combo, strict=True))
        out.append(option_for(gs, kind, args))
    return out


def option_for(gs: state.GameState, kind: str, args: Mapping[str, object]) -> OptionVerdict:
    """The verdict of one fully given action, as legal_options gives it for each of its options."""
    try:
        action = core.parse_action(kind, args)
    except errors.ActionError as exc:
        return OptionVerdict(dict(args), "illegal", None, str(exc))
    return _verdict(dict(args), core.apply(gs, action))


def check_pools() -> None:
    """Every pool an action declares is implemented here (the catalogue cannot import this module)."""
    for spec in core.ACTION_SPECS.values():
        for name in spec.choice:
            arg = spec.arg(name)
            if arg is None or arg.pool not in POOLS:
                raise ValueError(
                    f"действие {spec.kind}, аргумент {name}: нет источника вариантов «{arg and arg.pool}»"
                )
    missing = set(actions.POOLS) - set(POOLS)
    if missing:
        raise ValueError(f"источники вариантов без реализации: {', '.join(sorted(missing))}")


check_pools()

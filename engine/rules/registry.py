"""How rule modules declare what they implement, and the catalogue built from those declarations.

Three decorators mark a function; none of them keeps a registry in a module global (the marks
live on the functions, and `collect` reads them from the modules it is given):

- `@rule("211.4", "A2")`: the clauses (or assumptions) a function implements. The clause page
  lists a function under each clause id it declares.
- `@action("move", "Заявить движение", arg(...), …, choice=("card", "to"))`: the function handles
  that action kind; its arguments, label and board choices are declared here and nowhere else.
- `@hook("left_play")` or `@hook("replacement", ability="wound_modifier")`: the function is called
  at that point of the engine. Shared code (engine/rules/zones.py, procedure.py) dispatches hooks
  through the catalogue carried by the working context, so it never imports a section. A hook
  bound to an ability kind is called for each card that has it, as (ctx, card, ability, *args);
  an unbound hook as (ctx, *args).

`collect` checks the declarations once, at import: an unknown hook point or ability kind, an
ability whose declared hooks have no implementation, a duplicate action kind, or a board choice
without a candidate pool fails with a message naming the function.
"""

from __future__ import annotations

import dataclasses
import types
from collections.abc import Callable, Iterable, Mapping
from typing import Any, TypeVar

from engine.model import abilities, actions
from rules_index import ids

F = TypeVar("F", bound=Callable[..., Any])

# The points where the engine calls hooks: the arguments each receives and what it returns.
HOOK_POINTS: Mapping[str, str] = types.MappingProxyType(
    {
        "leaving_zone": "(ctx, card): карта вот-вот покинет свою зону",
        "left_play": "(ctx, card_id): карта покинула зону битвы",
        "zones_changed": "(ctx) -> bool: карта сменила зону или контролирующего игрока",
        "state_check": "(ctx) -> bool: проверка состояния после каждого действия, пока что-то меняется",
        "destroy_replacement": "(ctx, card_id, source) -> зона | None: эффекты замещения уничтожения",
        "dying": "(ctx, card, ability): карта погибает («при гибели»), до ухода из зоны битвы",
        "death_zone": "(ctx, card_id) -> зона | None: куда уходит погибшая карта вместо кладбища",
        "turn_start": "(ctx, player) или (ctx, card, ability, player): начало хода",
        "turn_end": "(ctx, player) или (ctx, card, ability, player): конец хода",
        "replacement": "(ctx, card, ability, event, target) -> Offer | None: эффект замещения игродействия",
        "wound_guard": "(ctx, target, ability, event) -> bool: раны не наносятся этой карте",
        "strike": "(ctx, source, ability, event): значение удара, который наносит карта",
    }
)


def _mark(fn: Callable[..., Any], attr: str, value: object) -> None:
    setattr(fn, attr, (*getattr(fn, attr, ()), value))


def rule(*citations: str) -> Callable[[F], F]:
    """Declare the clause (or assumption) ids a function implements. Bad ids fail at import."""

    def mark(fn: F) -> F:
        for cid in citations:
            if not ids.is_citation_id(cid):
                raise ValueError(
                    f"{fn.__module__}.{fn.__name__}: «{cid}» — не номер пункта правил и не допущение"
                )
        fn.__clauses__ = tuple(citations)  # type: ignore[attr-defined]
        return fn

    return mark


def arg(
    name: str,
    type_: str,
    label: str,
    *,
    required: bool = False,
    default: Any = None,
    choices: tuple[str, ...] = (),
    pool: str = "",
) -> actions.ArgSpec:
    """One argument of an action kind (see model.actions.ARG_TYPES and POOLS)."""
    return actions.ArgSpec(name, type_, required, label, default, choices, pool)


def action(kind: str, label: str, *args: actions.ArgSpec, choice: tuple[str, ...] = ()) -> Callable[[F], F]:
    """Declare the action kind a function handles: (ctx, action) -> None."""
    spec = actions.ActionSpec(kind, label, tuple(args), choice)

    def mark(fn: F) -> F:
        for a in spec.args:
            if a.type not in actions.ARG_TYPES:
                raise ValueError(f"{fn.__name__}: у аргумента {kind}.{a.name} неизвестный тип «{a.type}»")
        for name in choice:
            chosen = spec.arg(name)
            if chosen is None or chosen.pool not in actions.POOLS:
                raise ValueError(
                    f"{fn.__name__}: выбор {kind}.{name} без аргумента или без источника вариантов"
                )
        fn.__action__ = spec  # type: ignore[attr-defined]
        return fn

    return mark


def hook(point: str, *, ability: str | None = None) -> Callable[[F], F]:
    """Declare that a function is called at `point` (bound to an ability kind, if given)."""

    def mark(fn: F) -> F:
        where = f"{fn.__module__}.{fn.__name__}"
        if point not in HOOK_POINTS:
            raise ValueError(f"{where}: неизвестная точка «{point}» (известны: {', '.join(HOOK_POINTS)})")
        if ability is not None:
            kind = abilities.KINDS.get(ability)
            if kind is None:
                raise ValueError(f"{where}: особенность «{ability}» не объявлена в engine/model/abilities.py")
            if point not in kind.hooks:
                raise ValueError(f"{where}: у особенности {ability} не объявлена точка «{point}»")
        _mark(fn, "__hooks__", (point, ability))
        return fn

    return mark


Handler = Callable[..., None]


@dataclasses.dataclass(frozen=True)
class Catalogue:
    """Everything the rule modules declare, read-only: action kinds and their handlers, hooks by
    point (unbound, and bound to an ability kind), and the functions behind each citation."""

    actions: Mapping[str, actions.ActionSpec]
    handlers: Mapping[str, Handler]
    hooks: Mapping[str, tuple[Callable[..., Any], ...]]
    ability_hooks: Mapping[tuple[str, str], tuple[Callable[..., Any], ...]]
    citations: Mapping[str, tuple[str, ...]]

    def at(self, point: str) -> tuple[Callable[..., Any], ...]:
        """The unbound hooks of a point, in declaration order."""
        return self.hooks.get(point, ())

    def of_ability(self, point: str, kind: str) -> tuple[Callable[..., Any], ...]:
        return self.ability_hooks.get((point, kind), ())


def _functions(module: types.ModuleType) -> Iterable[tuple[str, Callable[..., Any]]]:
    """The functions a module defines, in definition order."""
    for name, value in vars(module).items():
        if isinstance(value, types.FunctionType) and value.__module__ == module.__name__:
            yield name, value


def collect(modules: Iterable[types.ModuleType]) -> Catalogue:
    """Read the declarations of `modules` (in order) into a Catalogue. Raises ValueError."""
    specs: dict[str, actions.ActionSpec] = {}
    handlers: dict[str, Handler] = {}
    hooks: dict[str, list[Callable[..., Any]]] = {}
    bound: dict[tuple[str, str], list[Callable[..., Any]]] = {}
    cites: dict[str, list[str]] = {}
    for module in modules:
        short = module.__name__.rsplit(".", 1)[-1]
        for name, fn in _functions(module):
            spec = getattr(fn, "__action__", None)
            if isinstance(spec, actions.ActionSpec):
                if spec.kind in specs:
                    raise ValueError(f"{short}.{name}: действие {spec.kind} уже объявлено")
                specs[spec.kind] = spec
                handlers[spec.kind] = fn
            for point, ability in getattr(fn, "__hooks__", ()):
                if ability is None:
                    hooks.setdefault(point, []).append(fn)
                else:
                    bound.setdefault((point, ability), []).append(fn)
            for cid in getattr(fn, "__clauses__", ()):
                cites.setdefault(cid, []).append(f"{short}.{name}")
    for kind in abilities.KINDS.values():
        for point in kind.hooks:
            if (point, kind.name) not in bound:
                raise ValueError(f"особенность {kind.name}: точка «{point}» объявлена, но не реализована")
    return Catalogue(
        actions=types.MappingProxyType(specs),
        handlers=types.MappingProxyType(handlers),
        hooks=types.MappingProxyType({k: tuple(v) for k, v in hooks.items()}),
        ability_hooks=types.MappingProxyType({k: tuple(v) for k, v in bound.items()}),
        citations=types.MappingProxyType({k: tuple(v) for k, v in cites.items()}),
    )


def clauses_of(fn: object) -> tuple[str, ...]:
    value = getattr(fn, "__clauses__", ())
    return tuple(value) if isinstance(value, tuple) else ()

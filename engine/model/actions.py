"""Actions: small immutable values whose repr reads like the YAML line a judge writes.

An action kind is declared once, beside its handler in engine/rules (`@registry.action`), as an
ActionSpec: its label, its arguments and which of them a judge picks from the board. This module
holds the value types and `check_args`, which validates arguments against a spec and raises
ActionError naming the argument. Whether an action is legal in a position is engine.apply's
question, not this module's.
"""

from __future__ import annotations

import dataclasses
import types
from collections.abc import Mapping
from typing import Any

from engine import errors
from engine.model import board

# Argument types. The enumerated ones (kind, type, subtype, position) list their values in
# ArgSpec.choices.
ARG_TYPES = (
    "card",
    "cell",
    "place",
    "player",
    "int",
    "bool",
    "str",
    "cells",
    "kind",
    "type",
    "subtype",
    "position",
)
ENUM_TYPES = ("kind", "type", "subtype", "position")

# Where the desk and legal_options find the candidates of an argument a judge picks from the
# board (engine/options.py implements each pool):
POOLS: Mapping[str, str] = types.MappingProxyType(
    {
        "in_play": "карты в зоне битвы",
        "other_in_play": "другие карты в зоне битвы (не сама карта и не атакующий)",
        "not_in_play": "карты вне зоны битвы",
        "not_exile_or_deck": "карты не в изгнании и не в колоде",
        "graveyard": "карты на кладбищах",
        "unhosted_symbiote": "симбиоты в зоне битвы без хозяина",
        "active_creature": "существа активного игрока в зоне битвы",
        "cell": "клетки поля",
        "cell_for_card": "клетки поля, если card не симбиот (симбиота помещают на хозяина)",
        "place": "клетки поля и вспомогательная зона",
        "player": "игроки A и B",
        "host_for_card": "карты на клетках, на которые можно поместить симбиота card",
        "line_from_card": "клетки подряд на прямой от карты card",
        "option": "варианты ожидающего выбора",
    }
)


@dataclasses.dataclass(frozen=True, slots=True)
class ArgSpec:
    """One argument of an action kind: name, type, whether required, Russian label; its default,
    its allowed values (enumerated types) and, for an argument picked on the board, its pool."""

    name: str
    type: str
    required: bool
    label: str
    default: Any = None
    choices: tuple[str, ...] = ()
    pool: str = ""


@dataclasses.dataclass(frozen=True, slots=True)
class ActionSpec:
    """One action kind: its label and arguments. `choice` names the arguments a judge picks from
    the board (each has a pool), in the order they are varied."""

    kind: str
    label: str
    args: tuple[ArgSpec, ...]
    choice: tuple[str, ...] = ()

    def arg(self, name: str) -> ArgSpec | None:
        return next((a for a in self.args if a.name == name), None)


def _fmt(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple | list):
        return "[" + ", ".join(_fmt(v) for v in value) + "]"
    return str(value)


@dataclasses.dataclass(frozen=True, slots=True)
class Action:
    """One action: its kind and validated arguments (in the spec's order)."""

    kind: str
    args: tuple[tuple[str, object], ...] = ()

    def get(self, name: str, default: Any = None) -> Any:
        for k, v in self.args:
            if k == name:
                return v
        return default

    def to_dict(self) -> dict[str, dict[str, object]]:
        return {self.kind: {k: list(v) if isinstance(v, tuple) else v for k, v in self.args}}

    def __repr__(self) -> str:
        inner = ", ".join(f"{k}: {_fmt(v)}" for k, v in self.args)
        return f"{self.kind}: {{{inner}}}"


# How an unknown value of an enumerated argument is refused, per type.
_ENUM_REFUSAL: Mapping[str, str] = types.MappingProxyType(
    {
        "kind": "вид «{text}» неизвестен (допустимы: {choices})",
        "type": "тип «{text}» неизвестен (допустимы: {choices})",
        "subtype": "подтип «{text}» неизвестен (допустимы: {choices})",
        "position": "позиция — {choices_or}, а не «{text}»",
    }
)


def _check(kind: str, arg: ArgSpec, value: object) -> object:
    where = f"действие {kind}, аргумент «{arg.name}» ({arg.label})"
    t = arg.type
    if t == "int":
        if isinstance(value, bool) or not isinstance(value, int):
            raise errors.ActionError(f"{where}: нужно целое число, а не «{value}»")
        if value < 0:
            raise errors.ActionError(f"{where}: число не может быть отрицательным")
        return value
    if t == "bool":
        if not isinstance(value, bool):
            raise errors.ActionError(f"{where}: нужно true или false, а не «{value}»")
        return value
    if t == "cells":
        if not isinstance(value, list | tuple) or not value:
            raise errors.ActionError(f"{where}: нужен непустой список клеток, например [c4, c5]")
        cells = tuple(str(v).strip().lower() for v in value)
        for c in cells:
            if not board.is_cell(c):
                raise errors.ActionError(f"{where}: «{c}» — не клетка (a1–e6)")
        return cells
    if not isinstance(value, str | int) or isinstance(value, bool) or not str(value).strip():
        raise errors.ActionError(f"{where}: нужна строка, а не «{value}»")
    text = str(value).strip()
    if t == "cell":
        text = text.lower()
        if not board.is_cell(text):
            raise errors.ActionError(f"{where}: «{text}» — не клетка поля (a1–e6)")
    elif t == "place":
        text = text.lower()
        if text != "aux" and not board.is_cell(text):
            raise errors.ActionError(f"{where}: «{text}» — не клетка (a1–e6) и не aux")
    elif t == "player":
        text = text.upper()
        if text not in board.PLAYERS:
            raise errors.ActionError(f"{where}: игрок обозначается A или B, а не «{value}»")
    elif t in ENUM_TYPES and text not in arg.choices:
        refusal = _ENUM_REFUSAL[t].format(
            text=text, choices=", ".join(arg.choices), choices_or=" или ".join(arg.choices)
        )
        raise errors.ActionError(f"{where}: {refusal}")
    return text


def check_args(spec: ActionSpec, args: Mapping[str, object] | None) -> Action:
    """Validate `args` against `spec` and build the action. Raises ActionError (Russian, naming
    the argument)."""
    name = spec.kind
    args = args or {}
    if not isinstance(args, Mapping):
        raise errors.ActionError(f"действие {name}: аргументы пишутся словарём, например {{card: und}}")
    for key in args:
        if spec.arg(str(key)) is None:
            known = ", ".join(a.name for a in spec.args) or "без аргументов"
            raise errors.ActionError(f"действие {name}: неизвестный аргумент «{key}» (допустимы: {known})")
    out: list[tuple[str, object]] = []
    for arg in spec.args:
        if arg.name in args and args[arg.name] is not None:
            out.append((arg.name, _check(name, arg, args[arg.name])))
        elif arg.required:
            raise errors.ActionError(f"действие {name}: не указан аргумент «{arg.name}» ({arg.label})")
    return Action(kind=name, args=tuple(out))

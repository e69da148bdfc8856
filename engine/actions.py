"""Actions: small immutable values whose repr reads like the YAML line a judge writes.

`parse_action(name, args)` validates the kind and the arguments against ACTION_SPECS (names,
types, required) and raises ActionError naming the argument. Whether an action is legal in a
position is decided by engine.apply, not here.
"""

from __future__ import annotations

import dataclasses
import types
from collections.abc import Mapping
from typing import Any

from engine import board, errors, library


@dataclasses.dataclass(frozen=True, slots=True)
class ArgSpec:
    """One argument of an action kind: name, type, whether required, Russian label."""

    name: str
    type: str  # card | cell | place | player | int | bool | str | kind | cells | type | subtype | position
    required: bool
    label: str
    default: Any = None
    choices: tuple[str, ...] = ()


@dataclasses.dataclass(frozen=True, slots=True)
class ActionSpec:
    kind: str
    label: str
    args: tuple[ArgSpec, ...]

    def arg(self, name: str) -> ArgSpec | None:
        return next((a for a in self.args if a.name == name), None)


def _spec(kind: str, label: str, *args: ArgSpec) -> tuple[str, ActionSpec]:
    return kind, ActionSpec(kind, label, args)


_A = ArgSpec
ACTION_SPECS: Mapping[str, ActionSpec] = types.MappingProxyType(
    dict(
        [
            _spec(
                "recruit",
                "Взять карту в отряд в подфазу Набора",
                _A("card", "card", True, "карта"),
                _A("by", "player", False, "игрок (по умолчанию владелец)"),
                _A("at", "place", False, "клетка или aux"),
            ),
            _spec(
                "place_symbiote",
                "Поместить симбиота на хозяина (подфаза Вскрытия)",
                _A("card", "card", True, "симбиот"),
                _A("host", "card", True, "хозяин"),
            ),
            _spec("next_phase", "Перейти к следующей части подготовки (Набор → рассадка → Вскрытие)"),
            _spec("end_reveal", "Закончить подфазу Вскрытия"),
            _spec("start_turn", "Начать ход", _A("player", "player", False, "игрок (по умолчанию активный)")),
            _spec("end_turn", "Закончить ход"),
            _spec(
                "move",
                "Заявить движение",
                _A("card", "card", True, "существо"),
                _A("to", "cell", True, "клетка"),
            ),
            _spec(
                "relocate",
                "Переместить особенностью",
                _A("card", "card", True, "карта"),
                _A("to", "cell", True, "клетка"),
                _A("by", "card", False, "карта, чья особенность перемещает"),
                _A(
                    "symbiote_alone",
                    "bool",
                    False,
                    "особенность явно разрешает перемещать симбиота отдельно",
                    False,
                ),
            ),
            _spec(
                "attach",
                "Поместить карту на карту особенностью",
                _A("card", "card", True, "помещаемая карта"),
                _A("host", "card", True, "на какую карту"),
                _A("by", "card", False, "карта, чья особенность (по умолчанию сама помещаемая)"),
            ),
            _spec(
                "change_type",
                "Сменить тип или подтип",
                _A("card", "card", True, "карта"),
                _A("type", "type", False, "новый тип", None, library.CARD_TYPES),
                _A("subtype", "subtype", False, "новый подтип", None, library.SUBTYPES),
            ),
            _spec(
                "set_incorporeal",
                "Сделать (не)бестелесным",
                _A("card", "card", True, "существо"),
                _A("value", "bool", False, "бестелесное", True),
            ),
            _spec(
                "destroy",
                "Уничтожить",
                _A("card", "card", True, "карта"),
                _A("by", "card", False, "кто уничтожает"),
            ),
            _spec(
                "exile", "Изгнать", _A("card", "card", True, "карта"), _A("by", "card", False, "кто изгоняет")
            ),
            _spec(
                "return_to_deck",
                "Вернуть в колоду",
                _A("card", "card", True, "карта"),
                _A("position", "position", False, "top или bottom", "top", ("top", "bottom")),
            ),
            _spec(
                "take_control",
                "Взять под контроль",
                _A("card", "card", True, "карта"),
                _A("by", "player", True, "игрок"),
            ),
            _spec("lose_control", "Потерять контроль", _A("card", "card", True, "карта")),
            _spec(
                "summon",
                "Вызов",
                _A("by", "card", True, "вызывающая карта"),
                _A("card", "card", False, "вызываемая карта (id в колоде)"),
                _A("cell", "cell", False, "клетка"),
                _A("host", "card", False, "на какую карту (для симбиота)"),
            ),
            _spec(
                "resurrect",
                "Возрождение",
                _A("by", "card", True, "возрождающая карта"),
                _A("card", "card", True, "возрождаемая карта (id на кладбище)"),
                _A("cell", "cell", False, "клетка"),
                _A("host", "card", False, "на какую карту (для симбиота)"),
            ),
            _spec(
                "attack",
                "Объявить нападение",
                _A("attacker", "card", True, "атакующий"),
                _A("target", "card", True, "цель"),
            ),
            _spec(
                "wound",
                "Нанести раны",
                _A("card", "card", True, "кому"),
                _A("amount", "int", True, "сколько"),
                _A("source", "card", False, "источник"),
                _A("kind", "kind", False, "вид", "strike", library.DAMAGE_KINDS),
            ),
            _spec(
                "heal",
                "Вылечить",
                _A("card", "card", True, "кого"),
                _A("amount", "int", True, "на сколько"),
                _A("source", "card", False, "источник"),
            ),
            _spec(
                "mark_cells",
                "Отметить клетки особенностью («свет фонаря»)",
                _A("card", "card", True, "чья особенность"),
                _A("cells", "cells", True, "клетки"),
            ),
            _spec("choose", "Ответить на выбор", _A("option", "str", True, "вариант")),
        ]
    )
)


def _fmt(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple | list):
        return "[" + ", ".join(_fmt(v) for v in value) + "]"
    return str(value)


@dataclasses.dataclass(frozen=True, slots=True)
class Action:
    """One action: its kind and validated arguments (in ACTION_SPECS order)."""

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
    elif t == "kind" and text not in library.DAMAGE_KINDS:
        raise errors.ActionError(
            f"{where}: вид «{text}» неизвестен (допустимы: {', '.join(library.DAMAGE_KINDS)})"
        )
    elif t == "type" and text not in library.CARD_TYPES:
        raise errors.ActionError(
            f"{where}: тип «{text}» неизвестен (допустимы: {', '.join(library.CARD_TYPES)})"
        )
    elif t == "subtype" and text not in library.SUBTYPES:
        raise errors.ActionError(
            f"{where}: подтип «{text}» неизвестен (допустимы: {', '.join(library.SUBTYPES)})"
        )
    elif t == "position" and text not in ("top", "bottom"):
        raise errors.ActionError(f"{where}: позиция — top или bottom, а не «{text}»")
    return text


def parse_action(name: str, args: Mapping[str, object] | None = None) -> Action:
    """Validate and build an action. Raises ActionError (Russian, naming the argument)."""
    spec = ACTION_SPECS.get(name)
    if spec is None:
        raise errors.ActionError(f"Неизвестное действие «{name}» (известны: {', '.join(ACTION_SPECS)})")
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

"""The ability vocabulary: every kind of ability a card may have, each declared once.

A declaration gives the kind's name, a Russian line that says what it does, its parameters (type,
default, whether required, allowed values) and how the rules meet it: the hook points whose
implementations carry its behaviour (engine/rules registers them with `@registry.hook(point,
ability=…)`; the catalogue checks at import that every declared hook is implemented and no
implementation names an undeclared kind), or the rule that consults it. The card library reads
cards against these declarations, and `python -m engine abilities` writes docs/abilities.md from
them; nothing else describes the vocabulary.

A new ability kind is: a declaration here, its hook implementation in a rule module (usually
engine/rules/card_text.py), and the cards in engine/data/cards.yaml that have it.
"""

from __future__ import annotations

import dataclasses
import types
from collections.abc import Mapping
from typing import Any

import lexicon
from engine import errors

SUMMON_WHERE = ("adjacent", "own_half", "own_first_row", "own_third_row", "any")
PLACES_ON = ("own_creature", "enemy_creature", "any_creature")
SEARCH = ("top_card", "top_creature")
# A protection is from a kind of damage (lexicon.DAMAGE_KINDS, the one list of them), from flyers
# or from spells.
PROTECTIONS = (*lexicon.DAMAGE_KINDS, "flyers", "spells")

_MISSING: Any = object()


@dataclasses.dataclass(frozen=True, slots=True)
class Param:
    """One parameter of an ability kind. `kind` is int, bool, str or list (a list of strings);
    `choices` limits a str, or each item of a list."""

    name: str
    kind: type
    doc: str
    required: bool = False
    default: Any = None
    choices: tuple[str, ...] = ()

    def check(self, value: object) -> str | None:
        """Why `value` does not fit this parameter (Russian), or None."""
        if self.kind is int and (isinstance(value, bool) or not isinstance(value, int)):
            return "нужно целое число"
        if self.kind is bool and not isinstance(value, bool):
            return "нужно true или false"
        if self.kind is str and not isinstance(value, str):
            return "нужна строка"
        if self.kind is list:
            if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
                return "нужен список строк"
            items: tuple[object, ...] = tuple(value)
        else:
            items = (value,)
        if self.choices:
            wrong = [str(v) for v in items if v not in self.choices]
            if wrong:
                return f"«{', '.join(wrong)}» — допустимы: {', '.join(self.choices)}"
        return None


@dataclasses.dataclass(frozen=True, slots=True)
class AbilityKind:
    """One kind of ability: what it does, its parameters, and how the rules meet it.

    `hooks`: the hook points (engine/rules/registry.HOOK_POINTS) whose implementations carry its
    behaviour. `consulted_by`: for a kind without hooks, the rule that reads it («211.3.1»).
    `cites`: the clauses or assumptions its behaviour rests on (A8: the card's own text).
    """

    name: str
    summary: str
    params: tuple[Param, ...] = ()
    hooks: tuple[str, ...] = ()
    consulted_by: str = ""
    cites: tuple[str, ...] = ()

    def param(self, name: str) -> Param | None:
        return next((p for p in self.params if p.name == name), None)


def _kinds(*kinds: AbilityKind) -> Mapping[str, AbilityKind]:
    return types.MappingProxyType({k.name: k for k in kinds})


P = Param
KINDS: Mapping[str, AbilityKind] = _kinds(
    AbilityKind(
        "host_lock",
        "хозяин не может заявлять никаких действий, кроме нападения на этого симбиота",
        consulted_by="211.3.1: проверка заявленного действия хозяина (движение, нападение, вызов)",
        cites=("211.3.1", "A8"),
    ),
    AbilityKind(
        "host_cannot_move",
        "хозяин этого симбиота не может двигаться (перемещение особенностями это не запрещает)",
        consulted_by="211.3.1: проверка движения хозяина (A8 — текст карты)",
        cites=("211.3.1", "A8"),
    ),
    AbilityKind(
        "wounds_only_from_host",
        "получает раны только от своего хозяина",
        hooks=("wound_guard",),
        cites=("211.3.1", "A8"),
    ),
    AbilityKind(
        "place_on_own_creature",
        "в конце хода контролирующего игрока может быть помещён на другое его существо на расстоянии "
        "до range (текст не меняет подтип, поэтому действует только у симбиота: 211.8.1)",
        (P("range", int, "на каком расстоянии (в клетках, A1)", required=True),),
        consulted_by="211.8.1: действие attach",
        cites=("211.8.1", "211.11", "A12"),
    ),
    AbilityKind(
        "become_parasite",
        "может стать паразитом существа, атакующего его в ближнем бою (подтип меняется явно: 211.8.1)",
        (P("once_per_battle", bool, "1 раз за бой", default=False),),
        consulted_by="211.8.1: действие attach",
        cites=("211.8.1", "211.3"),
    ),
    AbilityKind(
        "incarnation",
        "инкарнация X: на кладбище копит жетоны в начале хода владельца и при X жетонах инкарнирует",
        (
            P("x", int, "сколько жетонов нужно", required=True),
            P("places_on", str, "для симбиота: на чью карту помещается (211.8)", choices=PLACES_ON),
        ),
        consulted_by="535.7: жетоны в начале хода и инкарнация",
        cites=("535.7",),
    ),
    AbilityKind(
        "cannot_join_with",
        "«не может быть взята в отряд с [карты]»",
        (P("cards", list, "названия карт", required=True),),
        consulted_by="535.9: набор, вызов, возрождение, инкарнация, взятие под контроль",
        cites=("535.9",),
    ),
    AbilityKind(
        "cannot_join_with_element",
        "«не может быть взята в отряд с существами [стихии]» (или «с картами [стихии]»)",
        (
            P("elements", list, "стихии (как в базе карт: Тьма, Леса…)", required=True),
            P(
                "creatures_only",
                bool,
                "только существа этих стихий («с существами»); иначе любые карты",
                default=True,
            ),
        ),
        consulted_by="535.9: набор, вызов, возрождение, инкарнация, взятие под контроль",
        cites=("535.9",),
    ),
    AbilityKind(
        "aux_zone",
        "«располагается во вспомогательной зоне»",
        consulted_by="535.4: куда помещается карта (A5)",
        cites=("535.4", "A5"),
    ),
    AbilityKind(
        "summon",
        "вызов: берёт карту из колоды в зону битвы",
        (
            P("card", str, "название вызываемой карты (иначе её находит search, 535.5.1.1)"),
            P("search", str, "как ищется карта без названия", default="top_card", choices=SEARCH),
            P("where", str, "условие места (по умолчанию: рядом с вызывающей, 535.5)", choices=SUMMON_WHERE),
            P("places_on", str, "для симбиота: на чью карту помещается (211.8)", choices=PLACES_ON),
            P("trigger", bool, "срабатывающая особенность (535.5.2)", default=False),
            P("closed", bool, "в закрытом виде (по умолчанию — в открытом, 535.5)", default=False),
            P("once_per_battle", bool, "1 раз за бой", default=False),
        ),
        consulted_by="535.5: действие summon",
        cites=("535.5",),
    ),
    AbilityKind(
        "resurrect",
        "возрождение: берёт карту со своего кладбища в зону битвы",
        (
            P("card", str, "название возрождаемой карты (иначе любая)"),
            P(
                "where",
                str,
                "условие места (по умолчанию — рядом с возрождающей картой, 535.6)",
                choices=SUMMON_WHERE,
            ),
            P("places_on", str, "для симбиота: на чью карту помещается (211.8)", choices=PLACES_ON),
            P("closed", bool, "в закрытом виде (по умолчанию — в открытом, 535.6)", default=False),
            P("once_per_battle", bool, "1 раз за бой", default=False),
        ),
        consulted_by="535.6: действие resurrect",
        cites=("535.6",),
    ),
    AbilityKind(
        "take_control",
        "может взять под свой контроль существо противника (adjacent: только стоящее рядом)",
        (
            P("adjacent", bool, "только стоящее рядом (A1, 211.9)", default=False),
            P("once_per_battle", bool, "1 раз за бой", default=False),
        ),
        consulted_by="535.8: действие take_control с картой-источником (source)",
        cites=("535.8", "A8"),
    ),
    AbilityKind(
        "wound_modifier",
        "числовой эффект замещения ран (534.5): меняет число ран от игродействий указанных видов",
        (
            P("delta", int, "на сколько меняется число ран", required=True),
            P(
                "target",
                str,
                "чьи раны: self — свои, marked_cells — на отмеченных клетках",
                required=True,
                choices=("self", "marked_cells"),
            ),
            P("damage_kinds", list, "виды игродействий", required=True, choices=lexicon.DAMAGE_KINDS),
            P("own_strike", bool, "и удар самой карты", default=False),
            P("source_flying", bool, "только от летающих существ", default=False),
            P("name", str, "название особенности в тексте", default="изменение ран"),
        ),
        hooks=("replacement",),
        cites=("534.5", "A8"),
    ),
    AbilityKind(
        "lantern",
        "в начале хода противника отмечает до cells клеток подряд на прямой от себя (диагонали тоже) "
        "до конца следующего хода своего игрока",
        (
            P("cells", int, "сколько клеток", default=3),
            P("name", str, "название особенности в тексте", default=""),
        ),
        consulted_by="A8: действие mark_cells",
        cites=("A8",),
    ),
    AbilityKind(
        "replace_destroy_with_exile",
        "уничтожая существо противника, изгоняет его вместо этого (эффект замещения)",
        hooks=("replacement",),
        cites=("534.4", "A8"),
    ),
    AbilityKind(
        "take_exiled_abilities",
        "в начале хода противника берёт особенности изгнанного им существа до конца хода своего игрока",
        hooks=("turn_start", "turn_end"),
        cites=("A8",),
    ),
    AbilityKind(
        "replace_heal_with_wound",
        "замещающая особенность (534.7): пока без ран, вместо лечения себя на X может ранить на X "
        "стоящее рядом существо, не больше per_turn раз за ход",
        (
            P("per_turn", int, "сколько раз за ход", default=3),
            P(
                "damage_kind",
                str,
                "вид порождённого игродействия",
                default="influence",
                choices=lexicon.DAMAGE_KINDS,
            ),
            P("counts_as", str, "чем считается на шаге проверки защит (534.8)", default="influence"),
        ),
        hooks=("replacement",),
        cites=("534.7", "A8"),
    ),
    AbilityKind(
        "protection",
        "защита от видов игродействий, от летающих, от заклинаний",
        (P("from", list, "от чего", required=True, choices=PROTECTIONS),),
        consulted_by="534.8: шаг проверки защит при ранении",
        cites=("534.8", "A8"),
    ),
    AbilityKind(
        "cannot_enter",
        "не может перемещаться на указанные клетки (half: enemy — на половину противника)",
        (
            P("cells", list, "клетки"),
            P("half", str, "чья половина закрыта", choices=("enemy",)),
        ),
        consulted_by="211.11 и A8: движение и перемещение",
        cites=("211.11", "A8"),
    ),
    AbilityKind(
        "cannot_move",
        "не может двигаться",
        consulted_by="A8: действие move",
        cites=("A8",),
    ),
    AbilityKind(
        "cannot_be_relocated",
        "не может быть перемещён особенностями",
        consulted_by="A8: действие relocate; у симбиота — и перемещение его хозяина (211.11)",
        cites=("211.11", "A8"),
    ),
    AbilityKind(
        "on_death",
        "«при гибели»: ранит стоящих рядом врагов",
        (
            P("effect", str, "что делает", required=True, choices=("wound_adjacent_enemies",)),
            P("amount", int, "сколько ран", required=True),
        ),
        hooks=("dying",),
        cites=("535.7.3", "A8"),
    ),
    AbilityKind(
        "host_strike_bonus",
        "пока паразит: +amount к простому удару по своему хозяину",
        (P("amount", int, "прибавка к удару", default=1),),
        hooks=("strike",),
        cites=("A8",),
    ),
)


@dataclasses.dataclass(frozen=True, slots=True)
class Ability:
    """One ability of a card: its kind and the parameters written for it."""

    kind: str
    params: tuple[tuple[str, Any], ...] = ()

    def get(self, key: str, default: Any = _MISSING) -> Any:
        """The parameter's value; when not written, `default` if given, else the declared default."""
        for k, v in self.params:
            if k == key:
                return v
        if default is not _MISSING:
            return default
        declared = KINDS.get(self.kind)
        param = declared.param(key) if declared else None
        return param.default if param else None

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {"kind": self.kind}
        out.update({k: list(v) if isinstance(v, tuple) else v for k, v in self.params})
        return out


def parse_ability(raw: object, where: str) -> Ability:
    """One ability from YAML, checked against its declaration. Raises LibraryError naming `where`."""
    if not isinstance(raw, Mapping) or "kind" not in raw:
        raise errors.LibraryError(f"{where}: особенность должна быть словарём с ключом kind")
    name = raw["kind"]
    kind = KINDS.get(name) if isinstance(name, str) else None
    if kind is None:
        raise errors.LibraryError(
            f"{where}: неизвестный вид особенности «{name}» (известны: {', '.join(KINDS)})"
        )
    params: list[tuple[str, Any]] = []
    for key, value in raw.items():
        if key == "kind":
            continue
        param = kind.param(str(key))
        if param is None:
            known = ", ".join(p.name for p in kind.params) or "нет параметров"
            raise errors.LibraryError(f"{where}: у особенности {name} нет параметра «{key}» ({known})")
        problem = param.check(value)
        if problem:
            raise errors.LibraryError(f"{where}: параметр {name}.{key}: {problem}")
        params.append((str(key), tuple(value) if isinstance(value, list) else value))
    for param in kind.params:
        if param.required and param.name not in raw:
            raise errors.LibraryError(f"{where}: у особенности {name} не указан параметр «{param.name}»")
    return Ability(kind=name, params=tuple(params))


def describe_markdown() -> str:
    """The vocabulary as a Markdown reference (docs/abilities.md is this text)."""
    lines = [
        "# Особенности карт: словарь движка",
        "",
        "Этот файл создан командой `python -m engine abilities` из объявлений в",
        "`engine/model/abilities.py`; не правьте его вручную. Особенности пишутся в карте",
        "(`engine/data/cards.yaml` или прямо в сценарии) так: `- {kind: summon, card: Гоблин}`.",
        "",
    ]
    for kind in KINDS.values():
        lines.append(f"## `{kind.name}`")
        lines.append("")
        lines.append(kind.summary[0].upper() + kind.summary[1:] + ".")
        lines.append("")
        if kind.params:
            lines.append("| параметр | тип | обязателен | по умолчанию | значения | смысл |")
            lines.append("| --- | --- | --- | --- | --- | --- |")
            for p in kind.params:
                default = (
                    ""
                    if p.default is None
                    else f"`{str(p.default).lower() if p.kind is bool else p.default}`"
                )
                lines.append(
                    f"| `{p.name}` | {_TYPE_WORD[p.kind]} | {'да' if p.required else 'нет'} | {default} | "
                    f"{', '.join(f'`{c}`' for c in p.choices)} | {p.doc} |"
                )
            lines.append("")
        if kind.hooks:
            lines.append(f"Срабатывает в точках движка: {', '.join(f'`{h}`' for h in kind.hooks)}.")
        if kind.consulted_by:
            lines.append(f"Проверяется правилом: {kind.consulted_by}.")
        if kind.cites:
            lines.append(f"Опирается на: {', '.join(kind.cites)}.")
        lines.append("")
    return "\n".join(lines)


_TYPE_WORD: Mapping[type, str] = types.MappingProxyType(
    {int: "целое число", bool: "true/false", str: "строка", list: "список строк"}
)

"""Checking desk data that comes from outside (a link, a file, a form) before anything uses it.

A desk file and a desk link carry the same JSON (desk/share.py). Every key, type, length, range
and nesting depth is checked here against the schema below, so the engine and the pages only
ever see a well-formed desk; anything else is a DeskError whose Russian message names the key
at fault («cards[1].host: нужен id карты (строка)»). Whether the position is legal is the
engine's question (desk/model.replay).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import engine
import lexicon
from desk.model import (
    CARD_KEYS,
    FORMAT,
    FORMAT_VERSION,
    MAX_ACTIONS,
    MAX_CARDS,
    MAX_DESK_CHARS,
    MAX_TEXT,
    PHASES,
    PLAYERS,
    Desk,
    DeskError,
)

TOP_KEYS = (
    "format",
    "version",
    "title",
    "source",
    "phase",
    "active",
    "turn",
    "seed",
    "cards",
    "actions",
    "cursor",
    "scenario_name",
    "scenario_text",
)
CARD_ID_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_\-]{0,39}")
ADHOC_KEYS = ("name", "template", "type", "subtype", "life", "incorporeal", "move", "abilities")
PLACES = (*engine.CELLS, *lexicon.OFF_FIELD_ZONES)
MAX_NAME = 200
MAX_COUNT = 999
MAX_SEED = 2**31
MAX_TURN = 999
MAX_ABILITIES = 20
MAX_ARGS = 20
MAX_LIST = 30
MAX_DEPTH = 6
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


def _text(value: object, where: str, limit: int = MAX_TEXT) -> str:
    if not isinstance(value, str):
        raise DeskError(f"{where}: нужна строка")
    if len(value) > limit:
        raise DeskError(f"{where}: длиннее {limit} символов")
    if _CONTROL.search(value):
        raise DeskError(f"{where}: недопустимый управляющий символ")
    return value


def _int(value: object, where: str, low: int = 0, high: int = MAX_COUNT) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise DeskError(f"{where}: нужно целое число от {low} до {high}")
    return value


def _bool(value: object, where: str) -> bool:
    if not isinstance(value, bool):
        raise DeskError(f"{where}: нужно true или false")
    return value


def _choice(value: object, where: str, allowed: tuple[str, ...]) -> str:
    if not isinstance(value, str) or value not in allowed:
        shown = ", ".join(allowed) if len(allowed) <= 8 else f"{allowed[0]} … {allowed[-1]}"
        raise DeskError(f"{where}: допустимы {shown}")
    return value


def _card_id(value: object, where: str) -> str:
    if not isinstance(value, str) or not CARD_ID_RE.fullmatch(value):
        raise DeskError(
            f"{where}: нужен id карты (строка) — латинские буквы, цифры, «_» и «-», с буквы, до 40 знаков"
        )
    return value


def plain(value: object, where: str, depth: int = 0) -> Any:
    """JSON-like data only (str, int, bool, None, lists, string-keyed mappings), bounded in depth,
    length and size."""
    if depth > MAX_DEPTH:
        raise DeskError(f"{where}: слишком глубокая вложенность (больше {MAX_DEPTH} уровней)")
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, int):
        return _int(value, where, -MAX_SEED, MAX_SEED)
    if isinstance(value, str):
        return _text(value, where, MAX_NAME)
    if isinstance(value, list | tuple):
        if len(value) > MAX_LIST:
            raise DeskError(f"{where}: список длиннее {MAX_LIST}")
        return [plain(v, where, depth + 1) for v in value]
    if isinstance(value, Mapping):
        if len(value) > MAX_ARGS:
            raise DeskError(f"{where}: больше {MAX_ARGS} ключей")
        out = {}
        for k, v in value.items():
            if not isinstance(k, str) or len(k) > 40:
                raise DeskError(f"{where}: ключи — строки до 40 знаков")
            out[k] = plain(v, f"{where}.{k}", depth + 1)
        return out
    raise DeskError(f"{where}: недопустимое значение")


def _own_card(card: Mapping[str, Any], where: str) -> dict[str, Any]:
    bad = [k for k in card if k not in ADHOC_KEYS]
    if bad:
        raise DeskError(f"{where}: неизвестное свойство «{str(bad[0])[:40]}»")
    out: dict[str, Any] = {}
    for key, value in card.items():
        at = f"{where}.{key}"
        if key in ("name", "template"):
            out[key] = _text(value, at, MAX_NAME)
        elif key == "type":
            out[key] = _choice(value, at, lexicon.CARD_TYPES)
        elif key == "subtype":
            out[key] = _choice(value, at, lexicon.SUBTYPES)
        elif key in ("life", "move"):
            out[key] = _int(value, at)
        elif key == "incorporeal":
            out[key] = _bool(value, at)
        else:  # abilities: checked for their kind and parameters by the engine's card library
            if not isinstance(value, list) or len(value) > MAX_ABILITIES:
                raise DeskError(f"{at}: нужен список не длиннее {MAX_ABILITIES}")
            for i, ability in enumerate(value):
                if not isinstance(ability, Mapping):
                    raise DeskError(f"{at}[{i}]: особенность записывается словарём")
            out[key] = plain(value, at, 2)
    return out


def check_card(entry: object, where: str) -> dict[str, Any]:
    """A card entry: known keys, each of its type and range, a safe id, no reference to itself.
    Which cells are free and which hosts fit is the engine's question."""
    if not isinstance(entry, Mapping):
        raise DeskError(f"{where}: карта записывается словарём")
    unknown = [k for k in entry if k not in CARD_KEYS]
    if unknown:
        raise DeskError(f"{where}: неизвестный ключ «{str(unknown[0])[:40]}»")
    for key in ("id", "card", "owner"):
        if key not in entry:
            raise DeskError(f"{where}: нет ключа «{key}»")
    cid = _card_id(entry["id"], f"{where}.id")
    out: dict[str, Any] = {"id": cid}
    card = entry["card"]
    if isinstance(card, str):
        out["card"] = _text(card, f"{where}.card", MAX_NAME)
    elif isinstance(card, Mapping):
        out["card"] = _own_card(card, f"{where}.card")
    else:
        raise DeskError(f"{where}.card: нужно название карты или её свойства")
    for key in CARD_KEYS[2:]:
        if key not in entry or (entry[key] is None and key != "owner"):
            continue
        value, at = entry[key], f"{where}.{key}"
        if key in ("owner", "controller"):
            out[key] = _choice(value, at, PLAYERS)
        elif key == "at":
            out[key] = _choice(value, at, PLACES)
        elif key in ("host", "exiled_by", "borrowed"):
            out[key] = _card_id(value, at)
            if out[key] == cid:
                raise DeskError(f"{at}: карта не может ссылаться на саму себя")
        elif key in ("closed", "hidden", "incarnated", "incorporeal"):
            out[key] = _bool(value, at)
        else:  # wounds, tokens
            out[key] = _int(value, at)
    if "at" in out and "host" in out:
        raise DeskError(f"{where}: либо at (место), либо host (хозяин), но не оба")
    return out


def check_action(entry: object, where: str) -> dict[str, dict[str, Any]]:
    """An action entry {kind: {argument: value}}: a known kind, plain arguments the engine accepts."""
    if not isinstance(entry, Mapping) or len(entry) != 1:
        raise DeskError(f"{where}: действие записывается как {{вид: {{аргументы}}}}")
    ((kind, args),) = entry.items()
    if not isinstance(kind, str) or kind not in engine.ACTION_SPECS:
        raise DeskError(f"{where}: неизвестное действие «{str(kind)[:40]}»")
    if not isinstance(args, Mapping):
        raise DeskError(f"{where}: аргументы действия {kind} — словарь")
    checked = plain(dict(args), f"{where}.{kind}", MAX_DEPTH - 2)
    try:
        engine.parse_action(kind, checked)
    except engine.ActionError as exc:
        raise DeskError(f"{where}: {exc}") from None
    except Exception:  # the engine's own check met a value of a kind it does not expect
        raise DeskError(f"{where}: аргументы действия {kind} не подходят") from None
    return {kind: checked}


def from_dict(data: object) -> Desk:
    """A Desk from its JSON form (a desk file or a URL).

    Raises:
        DeskError: not a desk, or a value of the wrong kind (Russian, naming the key).
    """
    if not isinstance(data, Mapping) or data.get("format") != FORMAT:
        raise DeskError("это не файл стола судьи (нет отметки format: berserk-desk)")
    if data.get("version") != FORMAT_VERSION:
        shown = repr(data.get("version"))[:20]
        raise DeskError(f"версия файла стола {shown} не поддерживается (ожидается {FORMAT_VERSION})")
    unknown = [k for k in data if k not in TOP_KEYS]
    if unknown:
        raise DeskError(f"неизвестный ключ «{str(unknown[0])[:40]}»")
    cards = data.get("cards", [])
    actions = data.get("actions", [])
    if not isinstance(cards, list) or len(cards) > MAX_CARDS:
        raise DeskError(f"cards: нужен список не длиннее {MAX_CARDS}")
    if not isinstance(actions, list) or len(actions) > MAX_ACTIONS:
        raise DeskError(f"actions: нужен список не длиннее {MAX_ACTIONS}")
    checked_cards = tuple(check_card(c, f"cards[{i}]") for i, c in enumerate(cards))
    seen: set[str] = set()
    for i, c in enumerate(checked_cards):
        if c["id"] in seen:
            raise DeskError(f"cards[{i}].id: id «{c['id']}» уже есть у другой карты")
        seen.add(c["id"])
    checked_actions = tuple(check_action(a, f"actions[{i}]") for i, a in enumerate(actions))
    cursor = _int(data.get("cursor", 0), "cursor", 0, MAX_ACTIONS)
    if cursor > len(checked_actions):
        raise DeskError(f"cursor: {cursor} больше числа действий ({len(checked_actions)})")
    return Desk(
        title=_text(data.get("title", ""), "title"),
        source=_text(data.get("source", ""), "source"),
        phase=_choice(data.get("phase", "battle"), "phase", PHASES),
        active=_choice(data.get("active", "A"), "active", PLAYERS),
        turn=_int(data.get("turn", 1), "turn", 1, MAX_TURN),
        seed=_int(data.get("seed", 0), "seed", 0, MAX_SEED),
        cards=checked_cards,
        actions=checked_actions,
        cursor=cursor,
        scenario_name=_text(data.get("scenario_name", ""), "scenario_name", 300),
        scenario_text=_scenario_text(data.get("scenario_text", "")),
    )


def _scenario_text(value: object) -> str:
    """The loaded scenario file: any text (YAML may hold tabs and new lines), bounded."""
    if not isinstance(value, str) or len(value) > MAX_DESK_CHARS:
        raise DeskError(f"scenario_text: нужна строка не длиннее {MAX_DESK_CHARS} символов")
    if "\x00" in value:
        raise DeskError("scenario_text: недопустимый управляющий символ")
    return value

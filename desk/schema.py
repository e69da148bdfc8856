"""Checking desk data that comes from outside (a link, a file, a form) before anything uses it.

Every value is checked for its kind and size here, so the engine and the pages only ever see a
well-formed desk; anything else is a DeskError whose Russian message names the key at fault.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

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

CARD_ID_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_\-]{0,39}$")
ADHOC_KEYS = ("name", "template", "type", "subtype", "life", "incorporeal", "move", "abilities")
MAX_DEPTH = 6


def _text(value: object, where: str, limit: int = MAX_TEXT) -> str:
    if not isinstance(value, str):
        raise DeskError(f"{where}: нужна строка")
    if len(value) > limit:
        raise DeskError(f"{where}: длиннее {limit} символов")
    return value


def _int(value: object, where: str, low: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise DeskError(f"{where}: нужно целое число ≥ {low}")
    return value


def plain(value: object, where: str, depth: int = 0) -> Any:
    """JSON-like data only (str, int, bool, None, lists, string-keyed mappings), bounded depth."""
    if depth > MAX_DEPTH:
        raise DeskError(f"{where}: слишком глубокая вложенность")
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, list | tuple):
        return [plain(v, where, depth + 1) for v in value]
    if isinstance(value, Mapping):
        out = {}
        for k, v in value.items():
            if not isinstance(k, str):
                raise DeskError(f"{where}: ключи должны быть строками")
            out[k] = plain(v, f"{where}.{k}", depth + 1)
        return out
    raise DeskError(f"{where}: недопустимое значение {type(value).__name__}")


def check_card(entry: Mapping[str, Any], where: str) -> dict[str, Any]:
    """A card entry with known keys and a safe id; the engine checks the rest when it builds the state."""
    if not isinstance(entry, Mapping):
        raise DeskError(f"{where}: карта записывается словарём")
    unknown = [k for k in entry if k not in CARD_KEYS]
    if unknown:
        raise DeskError(f"{where}: неизвестный ключ «{unknown[0]}»")
    cid = entry.get("id")
    if not isinstance(cid, str) or not CARD_ID_RE.match(cid):
        raise DeskError(
            f"{where}: id «{cid}» — латинские буквы, цифры, «_» и «-», с буквы, до 40 знаков (например vail)"
        )
    card = entry.get("card")
    if isinstance(card, str):
        _text(card, f"{where}, card", 200)
    elif isinstance(card, Mapping):
        bad = [k for k in card if k not in ADHOC_KEYS]
        if bad:
            raise DeskError(f"{where}, card: неизвестное свойство «{bad[0]}»")
    else:
        raise DeskError(f"{where}, card: нужно название карты или её свойства")
    return dict(plain(dict(entry), where))


def from_dict(data: object) -> Desk:
    """A Desk from its JSON form (a desk file or a URL).

    Raises:
        DeskError: not a desk, or a value of the wrong kind (Russian, naming the key).
    """
    if not isinstance(data, Mapping) or data.get("format") != FORMAT:
        raise DeskError("это не файл стола судьи (нет отметки format: berserk-desk)")
    if data.get("version") != FORMAT_VERSION:
        raise DeskError(
            f"версия файла стола {data.get('version')!r} не поддерживается (ожидается {FORMAT_VERSION})"
        )
    cards = data.get("cards", [])
    actions = data.get("actions", [])
    if not isinstance(cards, list) or len(cards) > MAX_CARDS:
        raise DeskError(f"cards: нужен список не длиннее {MAX_CARDS}")
    if not isinstance(actions, list) or len(actions) > MAX_ACTIONS:
        raise DeskError(f"actions: нужен список не длиннее {MAX_ACTIONS}")
    checked_cards = tuple(check_card(c, f"cards[{i}]") for i, c in enumerate(cards))
    checked_actions = []
    for i, a in enumerate(actions):
        if not isinstance(a, Mapping) or len(a) != 1:
            raise DeskError(f"actions[{i}]: действие записывается как {{вид: {{аргументы}}}}")
        ((kind, args),) = a.items()
        if not isinstance(args, Mapping):
            raise DeskError(f"actions[{i}]: аргументы действия {kind} — словарь")
        checked_actions.append({str(kind): plain(dict(args), f"actions[{i}]")})
    phase = data.get("phase", "battle")
    active = data.get("active", "A")
    if phase not in PHASES:
        raise DeskError(f"phase: «{phase}» — допустимы {', '.join(PHASES)}")
    if active not in PLAYERS:
        raise DeskError("active: игрок A или B")
    cursor = _int(data.get("cursor", 0), "cursor")
    if cursor > len(checked_actions):
        raise DeskError(f"cursor: {cursor} больше числа действий ({len(checked_actions)})")
    return Desk(
        title=_text(data.get("title", ""), "title"),
        source=_text(data.get("source", ""), "source"),
        phase=str(phase),
        active=str(active),
        turn=_int(data.get("turn", 1), "turn", 1),
        seed=_int(data.get("seed", 0), "seed"),
        cards=checked_cards,
        actions=tuple(checked_actions),
        cursor=cursor,
        scenario_name=_text(data.get("scenario_name", ""), "scenario_name", 300),
        scenario_text=_text(data.get("scenario_text", ""), "scenario_text", MAX_DESK_CHARS),
    )

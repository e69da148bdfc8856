"""Edits of a desk: each returns a new Desk, or raises and leaves the old one as it was."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

import engine
from desk.model import MAX_ACTIONS, MAX_CARDS, Desk, DeskError, check_setup
from desk.schema import check_card

_STARTED = "расклад меняется только до первого действия: отмените действия или начните заново"


def with_action(desk: Desk, action: engine.Action) -> Desk:
    """The desk with `action` applied after the cursor; any undone actions beyond it are dropped."""
    if desk.cursor >= MAX_ACTIONS:
        raise DeskError(f"на столе уже {MAX_ACTIONS} действий — начните новый стол")
    kept = desk.actions[: desk.cursor]
    return dataclasses.replace(desk, actions=(*kept, action.to_dict()), cursor=desk.cursor + 1)


def undo(desk: Desk) -> Desk:
    return dataclasses.replace(desk, cursor=max(0, desk.cursor - 1))


def redo(desk: Desk) -> Desk:
    return dataclasses.replace(desk, cursor=min(len(desk.actions), desk.cursor + 1))


def restart(desk: Desk) -> Desk:
    """Back to the setup; the actions stay for redo until a new action replaces them."""
    return dataclasses.replace(desk, cursor=0)


def clear_actions(desk: Desk) -> Desk:
    """Forget the actions so the setup can be edited again."""
    return dataclasses.replace(desk, actions=(), cursor=0)


HEADER_FIELDS = ("phase", "active", "turn", "seed")


def set_header(desk: Desk, field: str, value: object) -> Desk:
    """The desk with one field of its position's header (phase, active player, turn, shuffle seed)
    changed, before the actions start; a value of the wrong kind leaves the desk as it was."""
    if desk.started or field not in HEADER_FIELDS:
        return desk
    if field in ("turn", "seed"):
        if isinstance(value, bool) or not isinstance(value, int | float):
            return desk
        return dataclasses.replace(desk, **{field: int(value)})  # type: ignore[arg-type]
    return dataclasses.replace(desk, **{field: str(value)})  # type: ignore[arg-type]


def put_card(desk: Desk, entry: Mapping[str, Any], library: engine.CardLibrary | None = None) -> Desk:
    """Add or replace (same id) a card before the actions start.

    Raises:
        DeskError: the actions have started, too many cards, or a malformed entry.
        engine.SetupError: the position would be illegal (occupied cell, second symbiote …).
    """
    if desk.started:
        raise DeskError(_STARTED)
    card = check_card(entry, f"карта {entry.get('id')}")
    others = [c for c in desk.cards if c.get("id") != card["id"]]
    if len(others) >= MAX_CARDS:
        raise DeskError(f"на столе уже {MAX_CARDS} карт")
    replaced = [card if c.get("id") == card["id"] else c for c in desk.cards]
    cards = tuple(replaced) if len(others) < len(desk.cards) else (*desk.cards, card)
    new = dataclasses.replace(desk, cards=cards)
    check_setup(new, library)
    return new


def remove_card(desk: Desk, cid: str, library: engine.CardLibrary | None = None) -> Desk:
    """Remove a card before the actions start.

    Raises:
        DeskError: the actions have started.
        engine.SetupError: another card still refers to it (its symbiote sits on it).
    """
    if desk.started:
        raise DeskError(_STARTED)
    new = dataclasses.replace(desk, cards=tuple(c for c in desk.cards if c.get("id") != cid))
    check_setup(new, library)
    return new

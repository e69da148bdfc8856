"""Card entries from what a judge filled in: a free Latin id, an own card by template, a new card,
an edited card. Each returns a plain scenario card entry (desk/model.py) or raises DeskError with
the Russian reason; whether the position is legal is the engine's question (desk/edits.put_card).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from casebook import notation
from desk.model import Desk, DeskError

FLAGS = ("closed", "hidden", "incarnated")
COUNTS = ("wounds", "tokens")


def latin_id(name: str) -> str:
    """A card name as Latin letters: «Карлик Унд» → «karlik_und» (the base of a new id; the same
    rule the position notation uses)."""
    return notation.latin_id(name)


def new_card_id(desk: Desk, base: str) -> str:
    """A free id from a Latin base («vail», «card»): base, base2, base3 …"""
    stem = re.sub(r"[^A-Za-z0-9_]", "", base)[:30] or "card"
    if not stem[0].isalpha():
        stem = "c" + stem
    return notation.free_id(stem, {str(c.get("id")) for c in desk.cards})


def adhoc_card(template: str, name: str, life: int, incorporeal: bool = False) -> dict[str, Any]:
    """An own card made from a template: «Орк» as «Наземное существо» with life 5."""
    if not name.strip():
        raise DeskError("Укажите название своей карты.")
    card: dict[str, Any] = {"template": template, "name": name.strip(), "life": int(life)}
    if incorporeal:
        card["incorporeal"] = True
    return card


def new_entry(
    desk: Desk,
    card: str | Mapping[str, Any],
    owner: str,
    *,
    at: str | None = None,
    host: str | None = None,
    controller: str | None = None,
    cid: str = "",
    flags: Mapping[str, bool] | None = None,
    counts: Mapping[str, int] | None = None,
) -> dict[str, Any]:
    """A new card entry: a library name or an own card, its owner, a place (`at`) or a host.

    The id is the one typed, or one made from the card's name. Raises DeskError when neither a
    place nor a host is given.
    """
    if not at and not host:
        raise DeskError("Выберите хозяина для симбиота." if at is None else "Укажите, где лежит карта.")
    if cid.strip():
        new_id = cid.strip()
    else:
        base = latin_id(card if isinstance(card, str) else str(card.get("name", "")))
        new_id = new_card_id(desk, base)
    entry: dict[str, Any] = {
        "id": new_id,
        "card": card if isinstance(card, str) else dict(card),
        "owner": owner,
    }
    if host:
        entry["host"] = host
    else:
        entry["at"] = at
    return _with_state(entry, controller, flags, counts)


def edited_entry(
    entry: Mapping[str, Any],
    *,
    at: str | None = None,
    host: str | None = None,
    owner: str | None = None,
    controller: str | None = None,
    flags: Mapping[str, bool] | None = None,
    counts: Mapping[str, int] | None = None,
    incorporeal: bool | str | None = "",
) -> dict[str, Any]:
    """`entry` with a new place or host, owner, controller, flags and counts, and (unless "") its
    incorporeality: True, False, or None for «as the card is». Other keys it had are kept."""
    edited = {k: v for k, v in entry.items() if k not in ("at", "host", "controller")}
    if incorporeal != "":
        edited.pop("incorporeal", None)
        if isinstance(incorporeal, bool):
            edited["incorporeal"] = incorporeal
    if owner:
        edited["owner"] = owner
    if host:
        edited["host"] = host
    else:
        edited["at"] = at or entry.get("at") or "a1"
    for key in flags or {}:
        edited.pop(key, None)
    for key in counts or {}:
        edited.pop(key, None)
    return _with_state(edited, controller, flags, counts)


def _with_state(
    entry: dict[str, Any],
    controller: str | None,
    flags: Mapping[str, bool] | None,
    counts: Mapping[str, int] | None,
) -> dict[str, Any]:
    if controller in ("A", "B") and controller != entry["owner"]:
        entry["controller"] = controller
    for key, value in (flags or {}).items():
        if value:
            entry[key] = True
    for key, num in (counts or {}).items():
        if num:
            entry[key] = int(num)
    return entry

"""Links between the card page and the desk: the query parameters both sides read.

The card page is `/cards?card=<record id>&base=<base id>`; «поставить на стол» opens
`/desk?put=<library name>&base=<base id>`. `base` is left out for the embedded library. The desk
reads a link with `desk_request(st.query_params.to_dict())`: the name is the card's name in the
engine library the same base gives (`cardbase.library_of`), so `library.get(name)` finds it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

from cardbase.model import BUILTIN, CardRecord

CARD_PARAM = "card"
BASE_PARAM = "base"
PUT_PARAM = "put"
MAX_NAME = 200


@dataclasses.dataclass(frozen=True, slots=True)
class DeskRequest:
    """What a «поставить на стол» link asks the desk: this card, from this base."""

    name: str
    base_id: str


def _with_base(params: dict[str, str], base_id: str) -> dict[str, str]:
    if base_id and base_id != BUILTIN:
        params[BASE_PARAM] = base_id
    return params


def search_params(base_id: str) -> dict[str, str]:
    """The card page's search, on this base."""
    return _with_base({}, base_id)


def card_params(base_id: str, card_id: str) -> dict[str, str]:
    """The card page's query parameters for one card."""
    return _with_base({CARD_PARAM: card_id}, base_id)


def desk_params(base_id: str, record: CardRecord) -> dict[str, str]:
    """The desk's query parameters that put this card on it."""
    return _with_base({PUT_PARAM: record.library_name or record.name}, base_id)


def desk_request(params: Mapping[str, str]) -> DeskRequest | None:
    """The card a desk link asks for, or None (no `put`, or an empty or absurd one)."""
    name = " ".join(str(params.get(PUT_PARAM, "")).split())
    if not name or len(name) > MAX_NAME:
        return None
    return DeskRequest(name=name, base_id=str(params.get(BASE_PARAM, "")).strip() or BUILTIN)

"""card_props: the documented properties of one card, as scenarios and the app read them."""

from __future__ import annotations

from engine import errors
from engine.model import state

PROP_KEYS = (
    "name",
    "zone",
    "cell",
    "host",
    "symbiote",
    "type",
    "subtype",
    "owner",
    "controller",
    "control_marker",
    "closed",
    "hidden",
    "incorporeal",
    "wounds",
    "life",
    "tokens",
    "alive",
    "incarnated",
)


def card_props(gs: state.GameState, card_id: str) -> dict[str, object]:
    """name, zone (battle | aux | deck | hand | graveyard | exile), cell, host, symbiote (the id of
    the symbiote on it), type, subtype, owner, controller, control_marker, closed, hidden,
    incorporeal, wounds, life, tokens, alive (in the battle zone), incarnated.

    Raises ActionError when there is no such card.
    """
    card = gs.cards.get(card_id)
    if card is None:
        raise errors.ActionError(f"карты {card_id} нет в раскладе (есть: {', '.join(gs.cards)})")
    symbiote = next((c.id for c in gs.cards.values() if c.host == card_id), None)
    return {
        "name": card.name,
        "zone": card.zone,
        "cell": card.cell,
        "host": card.host,
        "symbiote": symbiote,
        "type": card.type,
        "subtype": card.subtype,
        "owner": card.owner,
        "controller": card.controller,
        "control_marker": card.marker,
        "closed": card.closed,
        "hidden": card.hidden,
        "incorporeal": card.incorporeal,
        "wounds": card.wounds,
        "life": card.life,
        "tokens": card.tokens,
        "alive": card.in_play,
        "incarnated": card.incarnated,
    }

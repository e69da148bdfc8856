"""Error types, one per layer (all ValueError, messages in Russian).

- SetupError: a position (setup) that cannot be built: names the card id and the key.
- ActionError: an action that cannot be parsed: names the argument.
- LibraryError: a bad card library or assumptions file: names the file, card and key.
"""

from __future__ import annotations


class EngineError(ValueError):
    """Base of the engine's input errors."""


class SetupError(EngineError):
    """A setup that cannot be turned into a game state.

    `card` is the id of the card at fault (None for the setup's header), `key` the key of the setup
    or of that card's entry, `detail` the problem itself. A reader that knows where each card and
    key was written (the scenario loader, the desk) locates the error from these fields; `str()`
    gives the whole message: «карта und, ключ host: …» or «setup, ключ phase: …».
    """

    def __init__(self, detail: str, *, card: str | None = None, key: str | None = None) -> None:
        self.detail = detail
        self.card = card
        self.key = key
        if card is not None and key is not None:
            message = f"карта {card}, ключ {key}: {detail}"
        elif card is not None:
            message = f"карта {card}: {detail}"
        elif key is not None:
            message = f"setup, ключ {key}: {detail}"
        else:
            message = detail
        super().__init__(message)


class ActionError(EngineError):
    """An action whose kind or arguments are malformed."""


class LibraryError(EngineError):
    """A card library or assumptions file that cannot be loaded."""

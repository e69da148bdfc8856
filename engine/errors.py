"""Error types, one per layer (all ValueError, messages in Russian).

- SetupError: a position (setup) that cannot be built: names the card id and the key.
- ActionError: an action that cannot be parsed: names the argument.
- LibraryError: a bad card library or assumptions file: names the file, card and key.
"""

from __future__ import annotations


class EngineError(ValueError):
    """Base of the engine's input errors."""


class SetupError(EngineError):
    """A setup that cannot be turned into a game state."""


class ActionError(EngineError):
    """An action whose kind or arguments are malformed."""


class LibraryError(EngineError):
    """A card library or assumptions file that cannot be loaded."""

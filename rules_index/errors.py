"""Error types of the rules index; every message is Russian and names what is wrong and where."""

from __future__ import annotations


class CorpusError(ValueError):
    """A rules text that cannot be read: missing, empty, binary or undecodable (names the file)."""


class QueryError(ValueError):
    """A search query that cannot be run: empty, too long, or nothing searchable in it."""


class VersionError(ValueError):
    """A stored rules version that cannot be saved, found, read or changed (Russian message)."""

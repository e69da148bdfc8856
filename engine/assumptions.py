"""The assumptions file: facts beyond our rules text, with ids the trace cites."""

from __future__ import annotations

import functools
import pathlib
import types
from collections.abc import Mapping

from engine import errors
from rules_index import ids, yamlread

ASSUMPTIONS_FILE = pathlib.Path(__file__).parent / "data" / "assumptions.yaml"


def load_assumptions(path: str | pathlib.Path | None = None) -> dict[str, str]:
    """A1 -> wording. Raises LibraryError naming the file and the id."""
    file = pathlib.Path(path) if path else ASSUMPTIONS_FILE
    try:
        raw = yamlread.load_file(file)
    except yamlread.YamlError as exc:
        raise errors.LibraryError(f"{file.name}: не удалось прочитать допущения: {exc}") from exc
    if not isinstance(raw, dict):
        raise errors.LibraryError(f"{file.name}: ожидался словарь «A1: формулировка»")
    out: dict[str, str] = {}
    for key, text in raw.items():
        if not ids.is_assumption_id(key):
            raise errors.LibraryError(f"{file.name}: «{key}» — не номер допущения (A1, A2, …)")
        if not isinstance(text, str) or not text.strip():
            raise errors.LibraryError(f"{file.name}, {key}: нет формулировки")
        out[key] = " ".join(text.split())
    return dict(sorted(out.items(), key=lambda kv: int(kv[0][1:])))


@functools.cache
def wordings() -> Mapping[str, str]:
    """The embedded assumptions file, read once per process; read-only, so sharing it keeps no state."""
    return types.MappingProxyType(load_assumptions())

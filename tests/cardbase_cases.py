"""The made-up card bases of tests/data/cards/ (never a real card file: texts are the publisher's)."""

from __future__ import annotations

import functools
import json
from pathlib import Path

import cardbase

DATA = Path(__file__).resolve().parent / "data" / "cards"
BASE_JSON = DATA / "base.json"
CONST_JSON = DATA / "const.json"
BASE_CSV = DATA / "base.csv"
BASE_YAML = DATA / "base.yaml"


def files() -> list[tuple[str, bytes]]:
    return [(BASE_JSON.name, BASE_JSON.read_bytes()), (CONST_JSON.name, CONST_JSON.read_bytes())]


@functools.cache
def json_base() -> cardbase.CardBase:
    """The JSON base with its constants file (immutable: shared by the tests that read it)."""
    (name, data), consts = files()
    return cardbase.import_base(data, name, constants=consts)


@functools.cache
def loaded() -> cardbase.Loaded:
    return cardbase.Loaded.of(json_base())


def records() -> list[dict[str, object]]:
    """The JSON base's records, fresh (a test may change its copy)."""
    raw = json.loads(BASE_JSON.read_text(encoding="utf-8"))
    assert isinstance(raw, list)
    return raw


def dump(recs: list[dict[str, object]]) -> bytes:
    return json.dumps(recs, ensure_ascii=False).encode("utf-8")


def by_name(base: cardbase.CardBase, name: str) -> cardbase.CardRecord:
    found = [r for r in base.records if r.library_name == name]
    assert len(found) == 1, (name, [r.library_name for r in base.records])
    return found[0]

"""The notation's words and ids: its vocabulary (casebook/data/notation.yaml, latin.yaml), the ways
it names a zone, card ids made from names, and the error every part raises."""

from __future__ import annotations

import dataclasses
import functools
import pathlib
import re
import types
from collections.abc import Mapping, Sequence
from typing import Any

import engine
import lexicon
from rules_index import yamlread

DATA = pathlib.Path(__file__).resolve().parent.parent / "data"
MAX_CHARS = 20_000
MAX_NUMBER = 999
MAX_SEED = 2**31  # a shuffle seed, as the desk keeps it (desk.schema)
CARD_ID_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_\-]{0,39}")
SPECIAL = ';()«»",'


class NotationError(ValueError):
    """A position text that cannot be read; the message names the word and where it stands."""

    def __init__(self, detail: str, token: str = "", line: int = 1, column: int = 1, lines: int = 1) -> None:
        self.detail, self.token, self.line, self.column = detail, token, line, column
        where = (f"строка {line}, " if lines > 1 else "") + f"знак {column}"
        super().__init__(f"{where}" + (f", «{token}»" if token else "") + f": {detail}")


@dataclasses.dataclass(frozen=True)
class Position:
    """What a position text says: its cards, the header values it sets, and each card's line."""

    cards: tuple[engine.CardSpec, ...]
    header: Mapping[str, object]
    lines: Mapping[str, int]


@dataclasses.dataclass(frozen=True)
class _Word:
    key: str
    kind: str
    value: object = None


@dataclasses.dataclass(frozen=True)
class Vocabulary:
    properties: Mapping[str, _Word]
    card_values: Mapping[str, _Word]
    header: Mapping[str, str]
    phases: Mapping[str, str]
    host_word: str
    lookalikes: Mapping[int, str]
    latin: Mapping[int, str]
    writes: Mapping[tuple[str, object], str]  # (key, value or kind) -> the word the writer uses


def _words(entries: Sequence[Mapping[str, Any]]) -> dict[str, _Word]:
    out: dict[str, _Word] = {}
    for e in entries:
        for w in e["words"]:
            out[lexicon.fold(str(w))] = _Word(str(e["key"]), str(e["kind"]), e.get("value"))
    return out


@functools.cache
def vocabulary() -> Vocabulary:
    """The notation's words (casebook/data/notation.yaml, latin.yaml), read once, read-only."""
    raw = yamlread.load_file(DATA / "notation.yaml")
    latin = yamlread.load_file(DATA / "latin.yaml")
    phases = {lexicon.fold(c): c for c in lexicon.PHASES}
    phases.update({lexicon.fold(w): code for code, ws in raw["phases"].items() for w in ws})
    writes = {(str(e["key"]), e.get("value", e["kind"])): str(e["words"][0]) for e in raw["properties"]}
    writes.update(
        {("card." + str(e["key"]), e.get("value", e["kind"])): str(e["words"][0]) for e in raw["card_values"]}
    )
    return Vocabulary(
        properties=types.MappingProxyType(_words(raw["properties"])),
        card_values=types.MappingProxyType(_words(raw["card_values"])),
        header=types.MappingProxyType(
            {lexicon.fold(w): str(e["key"]) for e in raw["header"] for w in e["words"]}
        ),
        phases=types.MappingProxyType(phases),
        host_word=lexicon.fold(str(raw["host_word"])),
        lookalikes=types.MappingProxyType({ord(k): str(v) for k, v in raw["lookalikes"].items()}),
        latin=types.MappingProxyType({ord(str(k)): str(v) for k, v in latin.items()}),
        writes=types.MappingProxyType(writes),
    )


@functools.cache
def zone_phrases() -> tuple[tuple[tuple[str, ...], str], ...]:
    """Every way the notation names a zone («в руке», «рука», «руке», «hand»), longest first."""
    out: set[tuple[tuple[str, ...], str]] = set()
    for code in lexicon.OFF_FIELD_ZONES:
        where = lexicon.fold(lexicon.zone_where(code)).split()
        for phrase in (lexicon.fold(lexicon.zone(code)).split(), where, where[1:], [code]):
            if phrase:
                out.add((tuple(phrase), code))
    return tuple(sorted(out, key=lambda p: -len(p[0])))


def latin_id(name: str) -> str:
    """A card name as Latin letters for an id: «Карлик Унд» → «karlik_und», «Бул'Багур» → «bulbagur»."""
    text = lexicon.fold(name).translate(vocabulary().latin)
    stem = re.sub(r"[^A-Za-z0-9_]", "", text)[:30] or "card"
    return stem if stem[0].isalpha() else "c" + stem


def free_id(base: str, taken: set[str] | frozenset[str]) -> str:
    """base, base2, base3 … whichever is not taken."""
    if base not in taken:
        return base
    n = 2
    while f"{base}{n}" in taken:
        n += 1
    return f"{base}{n}"


def assign_ids(cards: Sequence[tuple[str, str | None]]) -> list[str]:
    """The ids of (name, written id) pairs: a written id stays; the others are made from the names
    in order, never one that is written elsewhere (so a text means the same whatever its order)."""
    taken = {cid for _, cid in cards if cid}
    out = []
    for name, cid in cards:
        if cid:
            out.append(cid)
            continue
        made = free_id(latin_id(name), taken)
        taken.add(made)
        out.append(made)
    return out

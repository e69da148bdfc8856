"""Word's numbering and paragraph styles (numbering.xml, styles.xml): what a list draws, and
what a style says (heading, table of contents, bold, list numbering).

Word keeps the numbers of automatic lists out of the text: each list level has a start, a
format (decimal, letters, Russian letters, Roman) and a text such as «%1.%2.» naming the levels
it shows. We count the list paragraphs as Word does (a level's counter goes up, the deeper ones
restart; lists of one definition continue each other unless one restarts its numbering) and
give the structure pass the levels the label shows (`blocks.Mark`s), so «%1.%2.» and a nested
list give the same ids.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

import lxml.etree

from rules_index import blocks
from rules_index.blocks import Mark

W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
_MARKER = re.compile(r"%([1-9])")
_HEADING_STYLES = ("heading", "заголовок", "title", "название")
# Word's table of contents: its lines would double every heading («211. Симбиоты 15»).
_CONTENTS_STYLES = ("toc", "оглавление", "contents")
_STYLE_DEPTH = 20  # how far a style's basedOn chain is followed
_FORMATS = {
    "decimal": blocks.DECIMAL,
    "decimalZero": blocks.DECIMAL,
    "lowerRoman": blocks.DECIMAL,
    "upperRoman": blocks.DECIMAL,
    "lowerLetter": blocks.LETTER,
    "upperLetter": blocks.LETTER,
    "russianLower": blocks.CYRILLIC,
    "russianUpper": blocks.CYRILLIC,
    "bullet": blocks.BULLET,
}


def safe_parser() -> lxml.etree.XMLParser:
    """An XML parser for untrusted parts: no DTDs, no entities, no network, no huge nodes."""
    return lxml.etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False)


def val(node: lxml.etree._Element | None, tag: str) -> str | None:
    """The w:val of a child element (`tag` like «numFmt»), or None."""
    if node is None:
        return None
    found = node.find(W + tag)
    return None if found is None else found.get(W + "val")


def to_int(text: str | None, default: int) -> int:
    try:
        return int(text) if text is not None and len(text) < 8 else default
    except ValueError:
        return default


def on(node: lxml.etree._Element | None, tag: str) -> bool:
    """Whether a toggle property (w:b, w:u …) is set on a run or style's rPr."""
    if node is None:
        return False
    found = node.find(W + tag)
    if found is None:
        return False
    value = (found.get(W + "val") or "true").casefold()
    return value not in ("0", "false", "off", "none")


@dataclass(frozen=True)
class Level:
    start: int
    fmt: str
    text: str
    legal: bool


@dataclass
class Numbering:
    """Numbering definitions and the running counters of each list.

    Paragraphs of one definition (abstractNum) count on together whichever numId they name, as
    Word and LibreOffice draw them; a numId with a start override (Word's «restart numbering»)
    sets its levels to their starts where it is first used, and the count goes on from there."""

    levels: Mapping[str, Mapping[int, Level]] = field(default_factory=dict)
    starts: Mapping[tuple[str, int], int] = field(default_factory=dict)
    keys: Mapping[str, str] = field(default_factory=dict)  # numId → its definition
    counters: dict[str, dict[int, int]] = field(default_factory=dict)
    ids: dict[str, int] = field(default_factory=dict)
    used: set[str] = field(default_factory=set)

    def list_id(self, num_id: str) -> int:
        """A number for the list a numId counts in (numIds of one definition share it)."""
        key = self.keys.get(num_id, num_id)
        return self.ids.setdefault(key, len(self.ids) + 1)

    def marks(self, num_id: str, ilvl: int) -> tuple[Mark, ...] | None:
        """The levels Word draws for the next paragraph of list num_id at level ilvl, outermost
        first (a bullet is one BULLET mark); None when the list or level is not defined."""
        levels = self.levels.get(num_id)
        if not levels or ilvl not in levels:
            return None
        counts = self.counters.setdefault(self.keys.get(num_id, num_id), {})
        if num_id not in self.used:
            self.used.add(num_id)
            for (nid, at), value in self.starts.items():
                if nid != num_id:
                    continue
                if at < ilvl:
                    counts[at] = value
                elif at == ilvl:
                    counts[at] = value - 1
                else:
                    counts.pop(at, None)
        start = self.starts.get((num_id, ilvl), levels[ilvl].start)
        counts[ilvl] = counts[ilvl] + 1 if ilvl in counts else start
        for deeper in [k for k in counts if k > ilvl]:
            del counts[deeper]
        level = levels[ilvl]
        if level.fmt == "bullet":
            # pandoc indents a list item's second paragraph with an invisible bullet (« »)
            return (Mark(0, blocks.BULLET),) if level.text.strip() else ()
        out: list[Mark] = []
        for found in _MARKER.finditer(level.text):
            k = int(found.group(1)) - 1
            above = levels.get(k)
            value = counts.get(k, self.starts.get((num_id, k), above.start if above else 1))
            fmt = "decimal" if level.legal and k != ilvl else (above.fmt if above else "decimal")
            if fmt == "none":
                continue
            out.append(Mark(value, _FORMATS.get(fmt, blocks.DECIMAL)))
        return tuple(out) if out else (Mark(0, blocks.BULLET),) if level.text.strip() else ()


def read_numbering(xml: bytes | None) -> Numbering:
    if not xml:
        return Numbering()
    root = lxml.etree.fromstring(xml, safe_parser())
    abstract: dict[str, dict[int, Level]] = {}
    for node in root.iterchildren(W + "abstractNum"):
        levels: dict[int, Level] = {}
        for lvl in node.iterchildren(W + "lvl"):
            levels[to_int(lvl.get(W + "ilvl"), 0)] = Level(
                start=to_int(val(lvl, "start"), 1),
                fmt=val(lvl, "numFmt") or "decimal",
                text=val(lvl, "lvlText") or "",
                legal=lvl.find(W + "isLgl") is not None,
            )
        abstract[node.get(W + "abstractNumId") or ""] = levels
    nums: dict[str, Mapping[int, Level]] = {}
    starts: dict[tuple[str, int], int] = {}
    keys: dict[str, str] = {}
    for num in root.iterchildren(W + "num"):
        num_id = num.get(W + "numId") or ""
        abstract_id = val(num, "abstractNumId") or ""
        nums[num_id] = abstract.get(abstract_id, {})
        keys[num_id] = "abstract:" + abstract_id
        for override in num.iterchildren(W + "lvlOverride"):
            start = val(override, "startOverride")
            if start is not None:
                starts[(num_id, to_int(override.get(W + "ilvl"), 0))] = to_int(start, 1)
    return Numbering(nums, starts, keys)


@dataclass(frozen=True)
class Style:
    """What a paragraph style says for us (its basedOn chain followed)."""

    heading: bool = False
    numbering: tuple[str, int] | None = None
    contents: bool = False
    emphasis: bool = False


def read_styles(xml: bytes | None) -> dict[str, Style]:
    """Paragraph styles by id; the default paragraph style is also under the key ""."""
    if not xml:
        return {}
    root = lxml.etree.fromstring(xml, safe_parser())
    raw: dict[str, lxml.etree._Element] = {}
    default = ""
    for style in root.iterchildren(W + "style"):
        if style.get(W + "type") not in (None, "paragraph"):
            continue
        sid = style.get(W + "styleId") or ""
        raw[sid] = style
        if style.get(W + "default") in ("1", "true"):
            default = sid
    out = {sid: _resolve(sid, raw) for sid in raw}
    if default in out:
        out.setdefault("", out[default])
    return out


def _resolve(sid: str, raw: Mapping[str, lxml.etree._Element]) -> Style:
    heading = contents = emphasis = False
    numbering: tuple[str, int] | None = None
    seen: set[str] = set()
    at: str | None = sid
    first = True
    while at is not None and at in raw and at not in seen and len(seen) < _STYLE_DEPTH:
        seen.add(at)
        style = raw[at]
        name = (val(style, "name") or "").casefold()
        if first:
            heading = name.startswith(_HEADING_STYLES)
            contents = name.startswith(_CONTENTS_STYLES)
            first = False
        ppr = style.find(W + "pPr")
        if ppr is not None and val(ppr, "outlineLvl") not in (None, "9"):
            heading = True
        num_pr = ppr.find(W + "numPr") if ppr is not None else None
        if numbering is None and num_pr is not None and (num_id := val(num_pr, "numId")):
            numbering = (num_id, to_int(val(num_pr, "ilvl"), 0))
        rpr = style.find(W + "rPr")
        emphasis = emphasis or on(rpr, "b") or on(rpr, "u")
        at = val(style, "basedOn")
    return Style(heading, numbering, contents, emphasis)


__all__ = [
    "Level",
    "Numbering",
    "Style",
    "W",
    "on",
    "read_numbering",
    "read_styles",
    "safe_parser",
    "to_int",
    "val",
]

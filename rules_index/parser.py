"""The rules text parser: numbered entries, examples, bullets, continuations, version stamp.

Input is one file's blocks (`rules_index.blocks`, from any importer); `structure.recover` finds
the logical lines and the entries they open, and this module builds the paragraphs: rule text,
«ПРИМЕР» blocks, bullets, continuation paragraphs, the version stamp, cut-off clauses. Output
is a `ParsedSource` with paragraphs in file order. The parser never raises on text: odd input
yields fewer paragraphs, not errors (a text over `limits` is refused).
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field

from rules_index import ids
from rules_index.blocks import Block
from rules_index.model import Paragraph
from rules_index.structure import Line, Recovery, recover, split_version

_EXAMPLE = re.compile(r"^\s*примеры?(?:\s*\d+)?\s*[:.]\s*(.*)$", re.IGNORECASE)
_BULLET = re.compile(r"^\s*[●•]\s*")
_BULLET_SPLIT = re.compile(r"\s*[●•]\s*")
# Two bullets glued on one line: «на свободную клетку;не более 1 карты на клетку».
_SEMICOLON_SPLIT = re.compile(r"(?<=;)\s*(?=\S)")
# What a complete sentence, clause or list item ends with.
_TERMINAL = re.compile(r"[.!?:;…)\]»\"”'’]\s*$")


@dataclass
class _Draft:
    """A paragraph under construction (mutable only inside one parse call)."""

    id: str
    line: int
    is_heading: bool
    page: int = 0
    text_lines: list[str] = field(default_factory=list)
    bullets: list[str] = field(default_factory=list)
    examples: list[list[str]] = field(default_factory=list)


@dataclass(frozen=True)
class ParsedSource:
    """One parsed file: its paragraphs, preamble, version stamp (if any) and problems found."""

    name: str
    paragraphs: tuple[Paragraph, ...]
    preamble: str
    version: str | None
    problems: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()  # what the importer did (headers dropped, numbering restored)
    recovery: Recovery = field(default_factory=Recovery)


def version_label(version: str | None) -> str | None:
    """«РП 4.1-2 от 09.11.2024» → «РП 4.1-2»."""
    if version is None:
        return None
    return version.split(" от ", 1)[0]


def split_bullets(line: str) -> list[str]:
    """Bullet items of one line; several may share a line (after «●» or after a «;»)."""
    items: list[str] = []
    for chunk in _BULLET_SPLIT.split(line):
        for item in _SEMICOLON_SPLIT.split(chunk.strip()):
            item = item.strip()
            if item:
                items.append(item)
    return items


def parse_blocks(name: str, stream: list[Block]) -> ParsedSource:
    """Parse one file's blocks into paragraphs; see the module docstring."""
    lines, recovery, problems = recover(name, stream)
    parsed = parse_lines(name, lines)
    return ParsedSource(
        name,
        parsed.paragraphs,
        parsed.preamble,
        parsed.version,
        tuple(problems),
        recovery.notes(),
        recovery,
    )


def parse_lines(name: str, lines: list[Line]) -> ParsedSource:
    """Paragraphs from the logical lines of one file (entries already decided)."""
    drafts: list[_Draft] = []
    preamble: list[str] = []
    version: str | None = None
    in_example = False
    for src in lines:
        line, stamp = split_version(src.text.replace("\t", " ").rstrip())
        if stamp is not None and version is None:
            version = stamp
        if src.entry is not None:
            cid = src.entry
            drafts.append(_Draft(cid, src.line, src.heading or "." not in cid, src.page))
            if line.strip():
                drafts[-1].text_lines.append(line.strip())
            in_example = False
            continue
        if not line.strip():
            continue
        if not drafts:
            preamble.append(line.strip())
            continue
        current = drafts[-1]
        if src.heading:
            # An unnumbered heading (a chapter title) ends the paragraph; it is not rule text.
            in_example = False
            continue
        example = _EXAMPLE.match(line)
        if example:
            current.examples.append([example.group(1).strip()] if example.group(1).strip() else [])
            in_example = True
            continue
        if src.bullet or _BULLET.match(line):
            items = split_bullets(line)
            if in_example:
                current.examples[-1].extend("● " + item for item in items)
            else:
                current.bullets.extend(items)
            continue
        # An unnumbered line continues whatever came last: the example, or the rule text.
        if in_example:
            current.examples[-1].append(line.strip())
        else:
            current.text_lines.append(line.strip())
    paragraphs = tuple(_finish(name, d) for d in drafts)
    return ParsedSource(name, paragraphs, "\n".join(preamble), version)


def _finish(name: str, draft: _Draft) -> Paragraph:
    text = "\n".join(draft.text_lines)
    examples = tuple("\n".join(e) for e in draft.examples if e)
    last = draft.bullets[-1] if draft.bullets else text
    # A heading needs no final period; any other entry must end its sentence.
    cut_off = not draft.is_heading and not _TERMINAL.search(last)
    return Paragraph(
        id=draft.id,
        parent=ids.parent(draft.id),
        level=ids.level(draft.id),
        text=text,
        examples=examples,
        bullets=tuple(draft.bullets),
        is_heading=draft.is_heading,
        source=name,
        line=draft.line,
        cut_off=cut_off,
        page=draft.page,
    )


# Citations -----------------------------------------------------------------------------------

_CITE = re.compile(
    r"(?<![\w.])(?P<lead>(?:см|смотри|пп|п)\.?\s*|пункт[а-яё]*\s+|раздел[а-яё]*\s+|(?:в|во)\s+)?"
    rf"(?P<id>[1-9]\d{{2,3}}(?:\.\d{{1,4}}[{ids.LETTER}]?){{0,{ids.MAX_DEPTH - 1}}})(?![\w]|\.\d)",
    re.IGNORECASE,
)
_STRONG_LEAD = re.compile(r"^(?:см|смотри|пп|п|пункт|раздел)", re.IGNORECASE)
_TITLE_AFTER = re.compile(r"\.\s+[А-ЯЁA-Z]")  # matched at the end of a number
_SENTENCE_END = re.compile(r"[.!?…]+[)\]»”\"]*\s+(?=[А-ЯЁA-Z«\"“(])|\n")
_ABBREVIATIONS = frozenset({"см", "п", "пп", "т", "д", "др", "стр", "ст", "гл", "рис", "ср", "и"})


def find_citations(text: str) -> list[tuple[str, str]]:
    """(target id, sentence) pairs for each clause reference in a text, in order, deduplicated.

    Forms: «см. 537.», «п. 534.4», «согласно п.403.2», «описанном в 536. Эффекты…», a bare
    multi-part number such as «535.5.1.2», and lettered ids «210.11а». Linear in the text: the
    sentence bounds are found once and each citation looks its sentence up by bisection.
    """
    found: list[tuple[str, str]] = []
    seen: set[str] = set()
    bounds: list[int] | None = None
    for m in _CITE.finditer(text):
        lead = (m.group("lead") or "").strip()
        cid = m.group("id")
        strong = bool(lead) and bool(_STRONG_LEAD.match(lead))
        if not strong and "." not in cid and not _TITLE_AFTER.match(text, m.end()):
            continue
        if cid in seen:
            continue
        seen.add(cid)
        if bounds is None:
            bounds = _sentence_bounds(text)
        found.append((cid, _sentence_in(text, bounds, m.start("id"), m.end("id"))))
    return found


# The word or number just before a period, matched on a short reversed window (never the whole
# prefix): «403.2» reads «2.304», still digits and dots.
_WORD_BEFORE_REVERSED = re.compile(r"\d+(?:\.\d+)+|\w+")
_WINDOW = 64


def _sentence_bounds(text: str) -> list[int]:
    """Offsets where a new sentence starts (after a period that is not an abbreviation or number)."""
    starts = [0]
    for m in _SENTENCE_END.finditer(text):
        if "\n" not in m.group():
            # «см. 537. История», «п. 3», «т. д. (» do not end a sentence.
            # A sentence may end after a clause number («согласно п.403.2. Игрок»), but
            # «537. История боя» is a section number followed by its title.
            before = _WORD_BEFORE_REVERSED.match(text[max(0, m.start() - _WINDOW) : m.start()][::-1])
            word = before.group(0)[::-1].lower() if before else ""
            if word.isdigit() or word in _ABBREVIATIONS:
                continue
        starts.append(m.end())
    return starts


def _sentence_in(text: str, bounds: list[int], start: int, end: int) -> str:
    begin = bounds[bisect.bisect_right(bounds, start) - 1]
    at = bisect.bisect_left(bounds, end)
    stop = bounds[at] if at < len(bounds) else len(text)
    return text[begin:stop].strip()


def sentence_at(text: str, start: int, end: int) -> str:
    """The sentence of `text` that contains the span [start, end)."""
    return _sentence_in(text, _sentence_bounds(text), start, end)

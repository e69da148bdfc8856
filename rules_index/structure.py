"""The one structure-recovery pass: from any importer's blocks to the logical lines of a rules text.

Every format arrives as the same stream of `blocks.Block`s; this pass decides, the same way for
all of them, what a reader of the document would:

- **Furniture is not text.** Blocks an importer marked as a table of contents, running header or
  footer or page number are dropped and counted; so are table-of-contents lines recognised here
  (dot leaders and a page number, or a run of «number title» lines that reappear later as the
  headings they list).
- **A printed line continues its paragraph** unless the layout breaks it (a gap, an indent, a
  short line before) after a finished sentence, or a clause number starts it. The lines are
  joined as a reader reads them («симби-/ота» → «симбиота»), in time linear in the text.
- **A clause starts wherever a number that fits the numbering so far begins a line**, whatever
  the spacing: the next number in sequence (`ids.successors`), or after a finished sentence a
  later one (211.11 → 534.4). A number that does not fit, or follows «см.», «п.», «в» at the end
  of the line before («описанном в / 536. Эффекты»), is the citation it is and stays text.
- **Implicit numbering is composed with the enclosing number**: an item of a list a browser or
  Word numbers (`Block.marks`) under section «100.» is 100.3, its lettered sub-item «в» is
  100.3в, and Word's «%1.%2.» labels give the same ids as nested lists do.
- **Headings** come from markup or typography (a bold or underlined «100. Название»).

The output feeds `parser.parse_lines`, which builds the entries (examples, bullets, cut-off
clauses) from it. Nothing here raises on text; a document over the limits (`limits`) is refused.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace

from rules_index import blocks, ids, limits
from rules_index.blocks import Block, Mark
from rules_index.importers.common import join_hyphenated, word_set

_NUMBER = re.compile(rf"^\s*({ids.CLAUSE_PATTERN})(\.?)(?=\s|$|[А-ЯЁA-Z«\"“(])\s*(.*)$", re.DOTALL)
_DEEP = re.compile(rf"^\s*{ids.DEEP_PATTERN}")
_BULLET = re.compile(r"^\s*[●•▪■◦‣∙·]\s*")
_EXAMPLE = re.compile(r"^\s*примеры?(?:\s*\d+)?\s*[:.]", re.IGNORECASE)
_TERMINAL = re.compile(r"[.!?:;…)\]»\"”'’]\s*$")
# A period after these does not end a sentence («см. / 537. История боя»).
_ABBREVIATION_END = re.compile(r"(?:^|[\s(])(?:см|п|пп|т|ст|стр|гл|рис|ср|напр)\.\s*$", re.IGNORECASE)
# Words a citation follows: a number right after one of them at a line end is that citation.
_CITATION_LEAD = re.compile(
    r"(?:^|[\s(«])(?:см|смотри|п|пп|пункт\w*|подпункт\w*|раздел\w*|согласно|в|во|и|или|с|со|по|из|до|"
    r"от|к|на|под|между)\.?\s*$",
    re.IGNORECASE,
)
# A version stamp at the end of a line («… РП 4.1-2 от 09.11.2024»).
_VERSION = re.compile(r"(?:^|\s)((РП)\s*(\d+(?:[.\-]\d+)*)\s+от\s+(\d{1,2}\.\d{1,2}\.\d{4}))\s*\.?\s*$")
# A table-of-contents line: a title, dot leaders, a page number («211. Симбиоты ........ 15»).
_LEADERS = re.compile(r"(?:[.…·•_]\s*){4,}\d{1,4}\s*$")
_CONTENTS_TITLE = re.compile(r"^\s*(?:содержание|оглавление|contents)\s*[.:]?\s*$", re.IGNORECASE)
_LISTED = re.compile(rf"\s*({ids.CLAUSE_PATTERN})\.?\s+(\S.*)")
_PAGE_AFTER = re.compile(r"\s+\d{1,4}\s*$")
_LISTED_MAX = 160  # a table-of-contents line is a title and a page number
_KEY_JUNK = re.compile(r"[\W_]+")
_COPYRIGHT = re.compile(r"^\s*(?:©|\(c\)\s|copyright\b)", re.IGNORECASE)
_LETTERED_CITE = re.compile(rf"\b[1-9]\d{{2,3}}(?:\.\d{{1,4}})+([{ids.LETTER}])(?![\w])")
_LATIN = "abcdefghijklmnopqrstuvwxyz"
_CYRILLIC = "абвгдежзиклмнопрстуфхцчшщэюя"  # the letters Russian lists are lettered with
_TAIL = 160  # how much of a paragraph's end the sentence checks look at
_MAX_PROBLEMS = 20
_SECTION = 100  # section numbers have three digits or more; a bare «3.» under one is a list item


@dataclass(frozen=True)
class Line:
    """One logical line: a paragraph, heading, list item or bullet, with the entry it opens.

    `entry` is the id when the line opens a numbered entry (`text` is then what follows the
    number, or the whole text when the number was `implied` by list numbering)."""

    text: str
    line: int
    page: int = 0
    heading: bool = False
    bullet: bool = False
    entry: str | None = None
    implied: bool = False


@dataclass(frozen=True)
class Recovery:
    """What the pass recovered and dropped in one file, for the integrity report."""

    implied: int = 0
    dropped: tuple[tuple[str, int], ...] = ()
    glossary: int = 0

    def dropped_count(self, *roles: str) -> int:
        return sum(n for role, n in self.dropped if role in roles)

    def notes(self) -> tuple[str, ...]:
        """Russian notes for the file list («убрано строк оглавления: 12»)."""
        out: list[str] = []
        running = self.dropped_count(blocks.HEADER, blocks.FOOTER, blocks.PAGE_NUMBER)
        if running:
            out.append(f"убрано колонтитулов и номеров страниц: {running}")
        contents = self.dropped_count(blocks.CONTENTS)
        if contents:
            out.append(f"убрано строк оглавления: {contents}")
        if self.implied:
            out.append(f"номеров восстановлено из нумерации списков: {self.implied}")
        if self.glossary:
            out.append(f"строк глоссария (термин — определение): {self.glossary}")
        return tuple(out)


@dataclass
class _State:
    """The numbering so far while one file is read (mutable inside one `recover` call only)."""

    last: str | None = None
    # The last entry opened outside any list: the enclosing number of a list that follows.
    outer: str | None = None
    # The id of the latest item at each list depth (None: an item without a number). Nested
    # lists may be lists of their own (pandoc gives each level its own Word list), so the
    # depths carry on across lists; an entry typed outside any list starts afresh.
    items: dict[int, str | None] = field(default_factory=dict)
    letters: str = _CYRILLIC
    entries: int = 0
    implied: int = 0
    problems: list[str] = field(default_factory=list)


def recover(name: str, stream: Sequence[Block]) -> tuple[list[Line], Recovery, list[str]]:
    """The logical lines of one file, what was recovered, and problems worth a warning."""
    dropped: Counter[str] = Counter()
    body: list[Block] = []
    for block in stream:
        if block.role == blocks.BODY and _COPYRIGHT.match(block.text):
            block = replace(block, role=blocks.FOOTER)  # a site's or publisher's footer line
        if block.role in blocks.DROPPED_ROLES:
            dropped[block.role] += 1
        else:
            body.append(block)
    body = _drop_contents(body, dropped)
    state = _State(letters=_alphabet(b.text for b in body))
    words = word_set(b.text for b in body if b.soft) if any(b.hyphen for b in body) else frozenset()
    out: list[Line] = []
    parts: list[str] = []
    head: Block | None = None
    opened: Line | None = None
    tail = ""
    prev: Block | None = None
    for block in body:
        if head is not None and block.soft and prev is not None and not _breaks(block, prev, tail, state):
            if prev.hyphen:
                parts[-1] = join_hyphenated(parts[-1], block.text, words)
            else:
                parts.append(" " + block.text)
            tail = (tail + " " + block.text)[-_TAIL:]
            prev = block
            continue
        if head is not None and opened is not None:
            out.append(_with_text(opened, "".join(parts)))
        opened = _open(name, block, state)
        head, prev = block, block
        parts = [opened.text]
        tail = block.text[-_TAIL:]
    if head is not None and opened is not None:
        out.append(_with_text(opened, "".join(parts)))
    glossary = sum(1 for b in body if b.role == blocks.GLOSSARY)
    recovery = Recovery(state.implied, tuple(sorted(dropped.items())), glossary)
    return out, recovery, state.problems[:_MAX_PROBLEMS]


def _with_text(line: Line, text: str) -> Line:
    if text == line.text:
        return line
    return Line(text, line.line, line.page, line.heading, line.bullet, line.entry, line.implied)


# Where a printed line starts a new paragraph ----------------------------------------------------


def split_version(line: str) -> tuple[str, str | None]:
    """Cut a version stamp («РП 4.1-2 от 09.11.2024») off the end of a line."""
    found = _VERSION.search(line)
    if found is None:
        return line, None
    return line[: found.start()].rstrip(), re.sub(r"\s+", " ", found.group(1))


def _ends_sentence(tail: str) -> bool:
    """Whether a paragraph ending in `tail` ends a sentence (a version stamp after it aside)."""
    before = split_version(tail)[0]
    return bool(_TERMINAL.search(before)) and not _ABBREVIATION_END.search(before)


def _breaks(block: Block, prev: Block, tail: str, state: _State) -> bool:
    """Whether a soft (printed) line opens a new paragraph instead of continuing `prev`."""
    text = block.text
    if _BULLET.match(text) or _EXAMPLE.match(text):
        return True
    if text[:1].islower() or prev.hyphen:
        return False
    ends = _ends_sentence(tail)
    number = _NUMBER.match(text)
    if number is not None:
        if _DEEP.match(text) or _CITATION_LEAD.search(tail):
            return False
        if prev.emphasis and not block.emphasis:
            return True  # the first clause under a heading set bold or large
        cid, dotted = number.group(1), bool(number.group(2))
        nxt = state.last is None or cid in ids.successors(state.last)
        if nxt and ("." in cid or ends or block.gap or block.emphasis or block.page_break):
            return True
        later = state.last is not None and dotted and ids.sort_key(cid) > ids.sort_key(state.last)
        return ends and (block.gap or block.page_break or block.emphasis or later)
    if block.emphasis and not prev.emphasis:
        return ends or block.gap
    return block.gap and ends


# What a line is: an entry (typed or implied number), a bullet, or text ----------------------------


def _open(name: str, block: Block, state: _State) -> Line:
    """The logical line a block opens, and the numbering it moves on."""
    text = block.text.strip()
    if _DEEP.match(text):
        state.problems.append(
            f"«{name}», {block.where}: номер пункта глубже {ids.MAX_DEPTH} уровней — "
            "строка не принята за пункт и прочитана как текст."
        )
    number = _NUMBER.match(text) if block.role != blocks.GLOSSARY else None
    if number is not None and _typed_entry(number.group(1), bool(number.group(2)), block, state):
        cid = number.group(1)
        heading = block.heading or (block.emphasis and "." not in cid)
        line = Line(number.group(3).strip(), block.line, block.page, heading, entry=cid)
        return _entered(name, line, block, state)
    if block.marks and block.marks[-1].style in blocks.NUMBER_STYLES:
        cid = _implied(block, state)
        if cid is not None:
            state.implied += 1
            line = Line(text, block.line, block.page, block.heading, entry=cid, implied=True)
            return _entered(name, line, block, state)
    if block.depth:
        state.items[block.depth] = None  # an item without a number: its sub-items have none
        for deeper in [d for d in state.items if d > block.depth]:
            del state.items[deeper]
    heading = block.heading or (block.emphasis and not block.soft and _title_like(text))
    bullet = block.bullet or block.role == blocks.GLOSSARY
    return Line(text, block.line, block.page, heading, bullet)


def _entered(name: str, line: Line, block: Block, state: _State) -> Line:
    cid = line.entry
    assert cid is not None
    state.last = cid
    if block.depth:
        state.items[block.depth] = cid
        for deeper in [d for d in state.items if d > block.depth]:
            del state.items[deeper]
    else:
        state.outer = cid
        if not block.list_id:
            # a typed entry outside the list: list items stay only where the entry lies inside
            # their parent («206.2.1» typed between items 206.2 and 206.3), not past it («207.»)
            for depth, item in list(state.items.items()):
                parent = ids.parent(item) if item is not None else None
                if parent is None or not (cid == parent or cid.startswith(parent + ".")):
                    del state.items[depth]
    state.entries += 1
    limits.check_entries(name, state.entries)
    return line


def _title_like(text: str) -> bool:
    """A short emphasised line without a sentence end reads as a title, not as rule text."""
    return len(text) <= 100 and not _TERMINAL.search(text)


def _typed_entry(cid: str, dotted: bool, block: Block, state: _State) -> bool:
    """Whether a block (its own paragraph) that starts with a typed number opens an entry.

    «211.3.1 Текст» and «211. Симбиоты.» do; so does a numbered heading. A small bare number
    inside a section of hundreds («1. первое» under 535.9) is a list item of the paragraph."""
    if block.heading:
        return True
    if "." in cid:
        return True
    if not dotted:
        return False
    if state.last is None or block.emphasis:
        return True
    return int(cid) >= _SECTION or int(ids.section(state.last)) < _SECTION


def _implied(block: Block, state: _State) -> str | None:
    """The id a list's drawn number stands for, composed with the enclosing number.

    A label that draws only its own level («в», «3.») belongs to the item it is nested in
    (100.3 → 100.3в), and an item of an item without a number has none. A top-level item, or a
    Word label that draws the levels above it too («%1.%2.»: «534.4.», or «1.2.» under a typed
    «100.»), is composed with the entry before the list or one of its ancestors, or stands alone:
    the reading that follows the numbering so far wins; failing that, a section-sized number
    stands alone and a small one joins the entry before the list."""
    marks = block.marks
    if len(marks) == 1 and block.depth > 1 and block.depth - 1 in state.items:
        parent = state.items[block.depth - 1]
        cid = _compose(parent, marks, state.letters) if parent is not None else None
        return cid if cid is not None and ids.is_clause_id(cid) else None
    sibling = state.items.get(block.depth) if len(marks) == 1 else None
    if sibling is not None:
        # the list goes on: the next item is a sibling of the last one at its depth
        cid = _compose(ids.parent(sibling), marks, state.letters)
        if cid is not None and ids.is_clause_id(cid):
            return cid
    chain: list[str] = []
    at = state.outer
    while at is not None:
        chain.append(at)
        at = ids.parent(at)
    composed = [_compose(base, marks, state.letters) for base in chain]
    relative = [c for c in composed if c is not None and ids.is_clause_id(c)]
    absolute = _compose(None, marks, state.letters)
    if absolute is not None and not ids.is_clause_id(absolute):
        absolute = None
    if state.last is not None:
        follows = ids.successors(state.last)
        for cid in [*relative, absolute]:
            if cid is not None and cid in follows:
                return cid
    if absolute is not None and marks[0].value >= _SECTION:
        return absolute
    return relative[0] if relative else None


def _compose(base: str | None, marks: Sequence[Mark], letters: str) -> str | None:
    cid = base
    for mark in marks:
        if mark.style == blocks.DECIMAL:
            if mark.value < 1:
                return None
            cid = str(mark.value) if cid is None else f"{cid}.{mark.value}"
            continue
        alphabet = _LATIN if mark.style == blocks.LATIN else _CYRILLIC
        if mark.style == blocks.LETTER:
            alphabet = letters
        if cid is None or ids.lettered(cid) or not 1 <= mark.value <= len(alphabet):
            return None
        cid += alphabet[mark.value - 1]
    return cid


def _alphabet(texts: Iterable[str]) -> str:
    """Latin letters for lettered list items when the document cites its lettered clauses only
    with Latin ones («100.1a»), else Cyrillic («210.11а»)."""
    cited = {m.group(1) for m in _LETTERED_CITE.finditer("\n".join(texts))}
    return _LATIN if cited and cited <= set(_LATIN) else _CYRILLIC


# Tables of contents ------------------------------------------------------------------------------


def _key(cid: str, title: str) -> tuple[str, str]:
    return cid, _KEY_JUNK.sub(" ", title.casefold()).strip()


def _drop_contents(body: list[Block], dropped: Counter[str]) -> list[Block]:
    """Table-of-contents lines out: dot-leader lines anywhere, and a run of two or more
    «number title» lines each of which reappears later in the document (the headings it lists),
    with a «Содержание» line just before the run."""
    keys: list[tuple[str, str] | None] = []
    for b in body:
        found = _LISTED.fullmatch(b.text.rstrip()) if len(b.text) <= _LISTED_MAX else None
        title = _PAGE_AFTER.sub("", _LEADERS.sub("", found.group(2))) if found else ""
        keys.append(_key(found.group(1), title) if found else None)
    last: dict[tuple[str, str], int] = {key: k for k, key in enumerate(keys) if key is not None}
    listed = [key is not None and last[key] > k for k, key in enumerate(keys)]
    contents = [bool(_LEADERS.search(b.text)) for b in body]
    i = 0
    while i < len(body):
        j = i
        while j < len(body) and listed[j]:
            j += 1
        if j - i >= 2:
            contents[i:j] = [True] * (j - i)
        i = max(j, i + 1)
    for k in range(len(body) - 1):
        if contents[k + 1] and _CONTENTS_TITLE.match(body[k].text):
            contents[k] = True  # the contents' own title
    kept = [b for b, drop in zip(body, contents, strict=True) if not drop]
    if len(kept) != len(body):
        dropped[blocks.CONTENTS] += len(body) - len(kept)
    return kept


__all__ = ["Line", "Recovery", "recover", "split_version"]

"""PDF: the text layer as the printed lines a reader sees, as blocks for the structure pass.

PDFium (pypdfium2) gives each page's text with its line breaks and every character's box. From
the boxes we know where each printed line starts and ends, so we can:
- read a two-column page column by column: the gutter is found from where the text runs lie
  (`_gutter`), lines a producer wrote across both columns are cut at it, and the left column is
  read top to bottom before the right one;
- mark running headers, footers and page numbers (a line at a page's top or bottom that repeats
  at the same height on other pages, or reads «стр. 3 из 9», «- 3 -» or a bare number), which
  the structure pass drops and counts;
- say, for each printed line, what the layout says about a paragraph break before it (a gap
  wider than the line spacing, a short line before, a first-line indent, a page or column
  break), whether it ends with a hyphen at the line end, and whether it is set bold or larger
  than the body (a heading).
Which lines open clauses and how lines join is decided by `rules_index.structure`, as for every
format. The work is linear in the text: one pass over each page, a few box look-ups per line.
"""

from __future__ import annotations

import ctypes
import itertools
import re
import statistics
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_raw

from rules_index import blocks, limits
from rules_index.blocks import Block
from rules_index.errors import CorpusError
from rules_index.importers.common import Imported
from rules_index.structure import split_version

# PDFium marks a hyphen at a line end, where it joins the two lines, with U+FFFE (or U+0002).
_PDFIUM_HYPHEN = "\ufffe\x02"
_LINE_END_HYPHEN = "-\u00ad\u2010"
# Share of a page's height at the top and at the bottom where headers and footers live.
_BAND = 0.12
# Where a gutter between two columns may be (share of the page width), and how much of the
# page's text must stand on each side of it.
_GUTTER_BAND = (0.3, 0.7)
_COLUMN_SHARE = 0.25
_GAP_SAMPLE = 32  # wide lines of a page looked at for a gutter inside lines
# Columns of a line: the full width, the left column, the right one.
_FULL, _LEFT, _RIGHT = 0, 1, 2
# The extra space between two lines from which a paragraph may start: the lines of one paragraph
# stand exactly one pitch apart, so even 1 pt of paragraph spacing shows (a share of the pitch,
# at least a few tenths of a point for the rounding of positions).
_GAP = 0.05
_GAP_MIN = 0.4
_BOLD = 600  # font weight from which a line reads as bold
_LARGER = 1.15  # font size over the body's from which a line reads as a heading

_PAGE_NUMBER = re.compile(
    r"^\s*(?:(?:стр(?:\.|аница)?|с\.|page)\s*)?[-–—]?\s*\d{1,4}\s*[-–—]?"
    r"(?:\s*(?:из|/|of)\s*\d{1,4})?\s*$",
    re.IGNORECASE,
)
_DIGITS = re.compile(r"\d+")
_BLANKS = re.compile(r"\s+")
_BOLD_NAME = re.compile(r"bold|black|heavy|semibold|demi", re.IGNORECASE)


@dataclass(slots=True)
class _Line:
    """One printed line: text, page (1-based), line number on the page, and its box (points).
    Made once per printed line and not changed after its page is read."""

    text: str
    page: int
    number: int
    x0: float
    x1: float
    base: float  # bottom of the line's first character (PDF y grows upwards)
    size: float  # font size of the line's first character
    tall: float = 1.0  # height of the first character's box
    weight: int = 0
    column: int = _FULL
    top_band: bool = False
    bottom_band: bool = False
    hyphen: bool = False  # the line ends with a hyphen PDFium took for a word break


def read_pdf(name: str, data: bytes) -> Imported:
    """The blocks of a PDF's text layer; raises CorpusError (Russian, naming the file)."""
    pages = _pages(name, data)
    lines = [line for page in pages for line in page]
    if not any(line.text.strip() for line in lines):
        raise CorpusError(
            f"Файл «{name}»: в PDF нет текстового слоя — похоже, это скан (картинки страниц). "
            "Распознайте текст (OCR) в программе для PDF или загрузите текстовую версию правил "
            "(PDF с текстом, .docx, .txt)."
        )
    roles = _running(pages)
    version = next(
        (v for line in lines if roles.get(id(line)) and (v := split_version(line.text)[1]) is not None),
        None,
    )
    body = [line for line in lines if id(line) not in roles]
    out = list(_blocks(lines, body, roles))
    return Imported(name, out, f"PDF, страниц: {len(pages)}", "pdf", (), version)


def _pages(name: str, data: bytes) -> list[list[_Line]]:
    try:
        doc = pdfium.PdfDocument(data)
    except pdfium.PdfiumError as err:
        if getattr(err, "err_code", None) == pdfium_raw.FPDF_ERR_PASSWORD:
            raise CorpusError(
                f"Файл «{name}»: PDF зашифрован паролем, текст не прочитать. Снимите защиту "
                "(сохраните копию без пароля) или загрузите незащищённый файл."
            ) from None
        raise CorpusError(
            f"Файл «{name}»: PDF повреждён или это не PDF (не удалось открыть). "
            "Сохраните файл заново или загрузите другой."
        ) from None
    try:
        count = len(doc)
        if count == 0:
            raise CorpusError(f"Файл «{name}»: в PDF нет ни одной страницы.")
        if count > limits.MAX_PAGES:
            raise CorpusError(
                f"Файл «{name}»: в PDF {count} страниц — больше {limits.MAX_PAGES}; это не похоже на "
                "правила. Загрузите сами правила."
            )
        pages: list[list[_Line]] = []
        chars = lines = 0
        for i in range(count):
            page = _page_lines(doc, i)
            chars += sum(len(line.text) for line in page)
            lines += len(page)
            limits.check_chars(name, chars)
            limits.check_blocks(name, lines)
            pages.append(page)
        return pages
    finally:
        doc.close()


class _Boxes:
    """Character boxes and fonts of one text page (left, bottom, right, top), in points."""

    def __init__(self, textpage: pdfium.PdfTextPage) -> None:
        self._page = textpage
        self._l, self._r = ctypes.c_double(), ctypes.c_double()
        self._b, self._t = ctypes.c_double(), ctypes.c_double()
        self._name = ctypes.create_string_buffer(96)
        self._flags = ctypes.c_int()

    def box(self, index: int) -> tuple[float, float, float, float]:
        pdfium_raw.FPDFText_GetCharBox(self._page, index, self._l, self._r, self._b, self._t)
        return self._l.value, self._b.value, self._r.value, self._t.value

    def origin(self, index: int) -> float:
        """The baseline of a character (its box's bottom drops below it for «р», «у», «д»)."""
        pdfium_raw.FPDFText_GetCharOrigin(self._page, index, self._l, self._b)
        return self._b.value

    def font(self, index: int) -> tuple[float, int]:
        """(font size, weight) of a character; a font named bold counts as weight 700 (PDFium's
        weight of an embedded subset is often a guess from its stems)."""
        size = float(pdfium_raw.FPDFText_GetFontSize(self._page, index))
        weight = int(pdfium_raw.FPDFText_GetFontWeight(self._page, index))
        pdfium_raw.FPDFText_GetFontInfo(self._page, index, self._name, len(self._name), self._flags)
        if _BOLD_NAME.search(self._name.value.decode("latin-1")):
            weight = max(weight, 700)
        return size, weight


@dataclass
class _Run:
    """Characters first..last of a page's text that PDFium put on one line, with their box."""

    first: int
    last: int
    hyphen: bool
    x0: float
    x1: float
    base: float
    tall: float


def _page_lines(doc: pdfium.PdfDocument, index: int) -> list[_Line]:
    page = doc[index]
    textpage = page.get_textpage()
    try:
        width = page.get_width() or 1.0
        height = page.get_height() or 1.0
        count = textpage.count_chars()
        text = textpage.get_text_range(0, count) if count else ""
        boxes = _Boxes(textpage)
        printed = _printed(text, boxes)
        gutter = _gutter([(r.x0, r.x1) for runs in printed for r in runs], width) if printed else None
        if gutter is None and printed:
            gutter = _gap_gutter(text, printed, boxes, width)
        lines: list[_Line] = []
        for runs in printed:
            for part in _split(text, runs, boxes, gutter):
                lines.append(_line_of(text, part, boxes, index, height, gutter))
        if gutter is not None:
            lines = _column_order(lines)
        for i, line in enumerate(lines):
            line.number = i + 1
        return lines
    finally:
        textpage.close()
        page.close()


def _printed(text: str, boxes: _Boxes) -> list[list[_Run]]:
    """The page's printed lines, each the runs PDFium gave for it: runs on one baseline that
    follow each other left to right are one line (PDFium sometimes breaks a line at every
    character of a word it cannot place)."""
    out: list[list[_Run]] = []
    for start, end, hyphen in _spans(text):
        piece = text[start:end]
        first = start + len(piece) - len(piece.lstrip())
        last = start + len(piece.rstrip()) - 1
        if last < first:
            continue
        x0, b0, _, t0 = boxes.box(first)
        _, _, x1, _ = boxes.box(last)
        run = _Run(first, last, hyphen, x0, x1, boxes.origin(first), max(t0 - b0, 1.0))
        if out:
            prev = out[-1][-1]
            if abs(run.base - prev.base) < 0.35 * prev.tall and run.x0 >= prev.x1 - 0.5 and not prev.hyphen:
                out[-1].append(run)
                continue
        out.append([run])
    return out


def _split(text: str, runs: list[_Run], boxes: _Boxes, gutter: float | None) -> list[list[_Run]]:
    """A printed line as it stands in each column: whole, or cut at the gutter when a producer
    wrote a line of each column as one."""
    if gutter is None or not (runs[0].x0 < gutter < runs[-1].x1):
        return [runs]
    left: list[_Run] = []
    right: list[_Run] = []
    for run in runs:
        if run.x1 <= gutter:
            left.append(run)
        elif run.x0 >= gutter:
            right.append(run)
        else:
            cut = _first_right_of(boxes, run.first, run.last, gutter)
            if cut is None:
                return [runs]  # a line across the page (a title): one line
            end = cut - 1
            while end > run.first and text[end].isspace():
                end -= 1
            begin = cut
            while begin < run.last and text[begin].isspace():
                begin += 1
            left.append(_Run(run.first, end, False, run.x0, boxes.box(end)[2], run.base, run.tall))
            right.append(_Run(begin, run.last, run.hyphen, boxes.box(begin)[0], run.x1, run.base, run.tall))
    return [part for part in (left, right) if part]


def _line_of(
    text: str, runs: list[_Run], boxes: _Boxes, index: int, height: float, gutter: float | None
) -> _Line:
    first, last = runs[0], runs[-1]
    size, weight = boxes.font(first.first)
    pieces: list[str] = []
    for i, run in enumerate(runs):
        # a space where the blank is a space's width (a word's letters may stand 1.5 pt apart)
        if i and run.x0 - runs[i - 1].x1 > 0.2 * max(size, run.tall):
            pieces.append(" ")
        pieces.append(text[run.first : run.last + 1].strip())
    clean = "".join(pieces)
    if weight >= _BOLD:  # bold only if it ends bold too (a bold word may open a plain line)
        weight = min(weight, boxes.font(last.last)[1])
    marked = last.hyphen and not clean.endswith(tuple(_LINE_END_HYPHEN))
    return _Line(
        text=clean + ("-" if marked else ""),
        page=index + 1,
        number=0,
        x0=first.x0,
        x1=last.x1,
        base=first.base,
        size=size,
        tall=first.tall,
        weight=weight,
        column=_column(first.x0, last.x1, gutter),
        top_band=first.base > height * (1 - _BAND),
        bottom_band=first.base < height * _BAND,
        hyphen=last.hyphen,
    )


def _gap_gutter(text: str, printed: list[list[_Run]], boxes: _Boxes, width: float) -> float | None:
    """The gutter of a page whose producer wrote the two columns' lines as one: a wide blank
    between two words, after which many lines of the page go on at the same x (where the
    right column starts). A sample of the page's wide lines is looked at, so a page of one
    column costs a few dozen box look-ups."""
    starts: list[float] = []
    lo, hi = _GUTTER_BAND[0] * width, _GUTTER_BAND[1] * width
    wide = [runs for runs in printed if runs[-1].x1 - runs[0].x0 >= 0.25 * width]
    sample = wide[:: max(1, len(wide) // _GAP_SAMPLE)]
    for runs in sample:
        if len(runs) > 1:
            starts.extend(
                b.x0 for a, b in itertools.pairwise(runs) if b.x0 - a.x1 > 2.5 * a.tall and lo < b.x0 < hi
            )
            continue
        run = runs[0]
        # the gutter lies in the middle of the page, so in the middle of such a line's characters
        span = run.last - run.first
        for blank in _BLANKS.finditer(text, run.first + span // 5, run.last - span // 5):
            left = boxes.box(blank.start() - 1)[2]
            right = boxes.box(blank.end())[0]
            if right - left > 2.5 * run.tall and lo < right < hi:
                starts.append(right)
                break
    if len(starts) < 5:
        return None
    column = statistics.median(starts)
    aligned = sum(1 for x in starts if abs(x - column) < 3)
    if aligned < max(5, 0.2 * len(sample)):
        return None
    return column - 1.0


_BREAK = re.compile("\r?\n|[" + _PDFIUM_HYPHEN + "]")


def _spans(text: str) -> Iterator[tuple[int, int, bool]]:
    """(start, end, ends with a hyphen) of each printed line: PDFium separates lines with CR LF
    and marks a hyphen it joined across lines with U+FFFE; both end a printed line here."""
    start = 0
    for m in _BREAK.finditer(text):
        yield start, m.start(), m.group() in _PDFIUM_HYPHEN
        start = m.end()
    if start < len(text):
        yield start, len(text), False


def _column(x0: float, x1: float, gutter: float | None) -> int:
    if gutter is None:
        return _FULL
    return _LEFT if x1 <= gutter else _RIGHT if x0 >= gutter else _FULL


def _first_right_of(boxes: _Boxes, first: int, last: int, gutter: float) -> int | None:
    """The first character of a line that starts right of the gutter, by bisection (characters
    of a line run left to right), or None when the line crosses the gutter (a full-width line)."""
    lo, hi = first, last
    while lo < hi:
        mid = (lo + hi) // 2
        if boxes.box(mid)[0] >= gutter:
            hi = mid
        else:
            lo = mid + 1
    if lo <= first:
        return None
    before = boxes.box(lo - 1)
    # a character before the cut that reaches into the gutter: one line across the page
    return lo if before[2] <= gutter else None


def _gutter(extents: Sequence[tuple[float, float]], width: float) -> float | None:
    """The x of the gutter of a two-column page, or None for one column.

    A gutter is a vertical strip in the middle of the page that (almost) no printed line
    crosses, with at least a quarter of the lines wholly on each side of it."""
    runs = [(left, right) for left, right in extents if right - left > 0.05 * width]
    if len(runs) < 8:
        return None
    bins = int(width) + 2
    cover = [0] * (bins + 1)
    for left, right in runs:
        cover[max(0, int(left))] += 1
        cover[min(bins, int(right) + 1)] -= 1
    running = list(itertools.accumulate(cover))
    lo, hi = int(_GUTTER_BAND[0] * width), int(_GUTTER_BAND[1] * width)
    allowed = max(1, len(runs) // 20)  # a title across the page, a footer
    best: tuple[int, int] | None = None
    at = lo
    while at < hi:
        if running[at] > allowed:
            at += 1
            continue
        stop = at
        while stop < hi and running[stop] <= allowed:
            stop += 1
        if best is None or stop - at > best[1] - best[0]:
            best = (at, stop)
        at = stop
    if best is None or best[1] - best[0] < 4:
        return None
    middle = (best[0] + best[1]) / 2
    left = sum(1 for _, right in runs if right <= middle)
    right = sum(1 for left_x, _ in runs if left_x >= middle)
    if min(left, right) < _COLUMN_SHARE * len(runs):
        return None
    return middle


def _column_order(lines: list[_Line]) -> list[_Line]:
    """A two-column page in reading order: full-width lines above the columns, the left column
    top to bottom, the right one, then full-width lines below (a footer)."""
    columns = [line for line in lines if line.column != _FULL]
    if not columns:
        return lines
    top = max(line.base for line in columns)
    bottom = min(line.base for line in columns)
    above = [line for line in lines if line.column == _FULL and line.base > top]
    below = [line for line in lines if line.column == _FULL and line.base < bottom]
    inside = [line for line in lines if line.column == _FULL and bottom <= line.base <= top]
    left = [line for line in lines if line.column == _LEFT] + [replace(line, column=_LEFT) for line in inside]
    right = [line for line in lines if line.column == _RIGHT]

    def down(group: list[_Line]) -> list[_Line]:
        return sorted(group, key=lambda ln: -ln.base)

    return [*down(above), *down(left), *down(right), *down(below)]


# Running headers and footers -------------------------------------------------------------------


def _running(pages: Sequence[list[_Line]]) -> dict[int, str]:
    """The role (header, footer, page number) of each running line, by the line's id().

    A header or footer sits in the top or bottom band of its page, above (below) a gap wider
    than the body's line spacing, and either reads as a page number or repeats at the same
    height on other pages (numbers aside, for a short line: «стр. 3» is «стр. 4»).
    """
    pitch = _layout([line for page in pages for line in page]).pitch
    candidates = [_margin_lines(page, pitch) for page in pages]
    seen: Counter[tuple[str, int]] = Counter()
    for page, marked in zip(pages, candidates, strict=True):
        seen.update({_running_key(page[i]) for i in marked})
    repeat = max(2, round(0.3 * len(pages))) if len(pages) >= 3 else 2
    roles: dict[int, str] = {}
    for page, marked in zip(pages, candidates, strict=True):
        for i in marked:
            line = page[i]
            if _PAGE_NUMBER.match(line.text):
                roles[id(line)] = blocks.PAGE_NUMBER
            elif seen[_running_key(line)] >= repeat:
                roles[id(line)] = blocks.HEADER if line.top_band else blocks.FOOTER
    return roles


def _margin_lines(page: Sequence[_Line], pitch: float, reach: int = 3) -> set[int]:
    """Positions (in `page`) of the lines in the page's top and bottom margins: in the band, and
    cut off from the body by a gap wider than the line spacing."""
    order = sorted(range(len(page)), key=lambda i: -page[i].base)
    marked: set[int] = set()
    wide = 1.5 * pitch
    for k in range(min(reach, len(order) - 1)):
        if page[order[k]].base - page[order[k + 1]].base > wide:
            marked.update(i for i in order[: k + 1] if page[i].top_band)
            break
    for k in range(min(reach, len(order) - 1)):
        lower, upper = order[-1 - k], order[-2 - k]
        if page[upper].base - page[lower].base > wide:
            marked.update(i for i in order[len(order) - 1 - k :] if page[i].bottom_band)
            break
    # the very first or last line of a page that reads «стр. 3 из 9» is its number, gap or not
    for i in (order[0], order[-1]) if order else ():
        if (page[i].top_band or page[i].bottom_band) and _PAGE_NUMBER.match(page[i].text):
            marked.add(i)
    return marked


def _running_key(line: _Line) -> tuple[str, int]:
    """A header's identity: its text (numbers blanked in a short line), and its height."""
    text = " ".join(line.text.split()).casefold()
    if len(text) <= 80:
        text = _DIGITS.sub("#", text)
    return text, round(line.base / 4)


# What the layout says about each line ------------------------------------------------------------


@dataclass(frozen=True)
class _Layout:
    """The body's measures: line pitch, the right edge of each column, a typical character
    width, the body's font size."""

    pitch: float
    right: dict[int, float]
    char: float
    size: float


def _layout(lines: Sequence[_Line]) -> _Layout:
    deltas = [
        a.base - b.base
        for a, b in itertools.pairwise(lines)
        if a.page == b.page and a.column == b.column and 0 < a.base - b.base < 3 * max(a.tall, b.tall)
    ]
    pitch = statistics.median(deltas) if deltas else 12.0
    right: dict[int, float] = {}
    for column in (_FULL, _LEFT, _RIGHT):
        ends = sorted(line.x1 for line in lines if line.column == column)
        if ends:
            right[column] = ends[int(0.9 * (len(ends) - 1))]
    widths = [(line.x1 - line.x0) / len(line.text) for line in lines if len(line.text) >= 20]
    char = statistics.median(widths) if widths else 5.0
    sizes = [line.size for line in lines if line.size > 0]
    size = statistics.median(sizes) if sizes else 0.0
    return _Layout(pitch, right, char, size)


def _blocks(lines: Sequence[_Line], body: Sequence[_Line], roles: dict[int, str]) -> Iterator[Block]:
    """Every printed line as a soft block (running lines with their role), with the layout's
    evidence of a paragraph break before it."""
    layout = _layout(body)
    prev: _Line | None = None
    for line in lines:
        role = roles.get(id(line))
        if role is not None:
            yield Block(line.text, line.number, line.page, role=role, soft=True)
            continue
        gap = prev is None or _geometric_break(prev, line, layout)
        moved = prev is not None and (line.page != prev.page or line.column != prev.column)
        yield Block(
            line.text,
            line.number,
            line.page,
            emphasis=_emphasis(line, layout),
            soft=True,
            gap=gap,
            page_break=moved,
            hyphen=line.hyphen or _hyphen_end(line.text),
        )
        prev = line


def _emphasis(line: _Line, layout: _Layout) -> bool:
    return line.weight >= _BOLD or (layout.size > 0 and line.size >= _LARGER * layout.size)


def _hyphen_end(text: str) -> bool:
    return len(text) >= 2 and text[-1] in _LINE_END_HYPHEN and text[-2].isalpha()


def _geometric_break(prev: _Line, line: _Line, layout: _Layout) -> bool:
    """A gap above the line, a short line before it, or a first-line indent."""
    right = layout.right.get(prev.column, 0.0)
    short = prev.x1 < right - max(3 * layout.char, 0.04 * right)
    if line.page != prev.page or line.column != prev.column:
        return short
    gap = prev.base - line.base > layout.pitch + max(_GAP_MIN, _GAP * layout.pitch)
    indent = line.x0 > prev.x0 + 1.5 * layout.char
    return gap or short or indent


__all__ = ["read_pdf"]

"""PDF: the text layer rebuilt as a reader sees it, as lines for the rules parser.

PDFium (pypdfium2) gives each page's text with its line breaks and every character's box. From
the boxes we know where each printed line starts and ends, so we can:
- drop running headers, footers and page numbers (a line at a page's top or bottom that repeats
  at the same height on other pages, or reads «стр. 3 из 9», «- 3 -» or a bare number), and the
  lines of a table of contents («211. Симбиоты ........ 15»), which would double every heading;
- join the lines of one paragraph, across page breaks too, and a word hyphenated at a line end
  («симби-/ота» → «симбиота») while keeping real hyphens («по-/прежнему» → «по-прежнему»);
- start an entry at a clause number only where a reader would see one: a number that a wrap put
  at a line start («…описанном в / 536. Эффекты…») stays the citation it is. The signals are the
  page geometry (a gap, a short line before, an indent), whether the line before ends a sentence,
  and whether the number follows the one before in sequence (`ids.successors`).
"""

from __future__ import annotations

import ctypes
import itertools
import re
import statistics
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_raw

from rules_index import ids
from rules_index.errors import CorpusError
from rules_index.importers.common import Imported, join_hyphenated, word_set
from rules_index.parser import split_version
from rules_index.sources import SourceLine

# A rules PDF of a few MB has a few hundred pages; a bigger one is not a rules document.
MAX_PAGES = 3000
# PDFium marks a hyphen at a line end, where it joins the two lines, with U+FFFE (or U+0002).
_PDFIUM_HYPHEN = "\ufffe\x02"
_LINE_END_HYPHEN = "-\u00ad\u2010"
# Share of a page's height at the top and at the bottom where headers and footers live.
_BAND = 0.12

_PAGE_NUMBER = re.compile(
    r"^\s*(?:(?:стр(?:\.|аница)?|с\.|page)\s*)?[-–—]?\s*\d{1,4}\s*[-–—]?"
    r"(?:\s*(?:из|/|of)\s*\d{1,4})?\s*$",
    re.IGNORECASE,
)
_DIGITS = re.compile(r"\d+")
# A table-of-contents line: a title, dot leaders, a page number («211. Симбиоты ........ 15»).
_CONTENTS = re.compile(r"(?:[.…·•_]\s*){4,}\d{1,4}\s*$")
_ENTRY = re.compile(rf"^\s*({ids.CLAUSE_PATTERN})\.?(?=\s|$|[А-ЯЁA-Z«\"“(])")
_BULLET = re.compile(r"^\s*[●•▪■◦‣∙·]\s*")
_EXAMPLE = re.compile(r"^\s*примеры?(?:\s*\d+)?\s*[:.]", re.IGNORECASE)
_TERMINAL = re.compile(r"[.!?:;…)\]»\"”'’]\s*$")
# A period after these does not end a sentence («см. / 537. История боя»).
_ABBREVIATION_END = re.compile(r"(?:^|[\s(])(?:см|п|пп|т|ст|стр|гл|рис|ср|напр)\.\s*$", re.IGNORECASE)


@dataclass(frozen=True)
class _Line:
    """One printed line: text, page (1-based), line number on the page, and its box (points)."""

    text: str
    page: int
    number: int
    x0: float
    x1: float
    base: float  # bottom of the line's first character (PDF y grows upwards)
    size: float  # character height, a stand-in for the font size
    top_band: bool = False
    bottom_band: bool = False
    hyphen: bool = False  # the line ends with a hyphen PDFium took for a word break


def read_pdf(name: str, data: bytes) -> Imported:
    """Rules lines of a PDF's text layer; raises CorpusError (Russian, naming the file)."""
    pages = _pages(name, data)
    lines = [line for page in pages for line in page]
    if not any(line.text.strip() for line in lines):
        raise CorpusError(
            f"Файл «{name}»: в PDF нет текстового слоя — похоже, это скан (картинки страниц). "
            "Распознайте текст (OCR) в программе для PDF или загрузите текстовую версию правил "
            "(PDF с текстом, .docx, .txt)."
        )
    body, dropped = _drop_running(pages)
    version = next((v for text in dropped if (v := split_version(text)[1]) is not None), None)
    contents = [line for line in body if _CONTENTS.search(line.text)]
    if contents:
        body = [line for line in body if not _CONTENTS.search(line.text)]
    words = word_set(line.text for line in body)
    out = list(_paragraphs(body, words))
    notes: list[str] = []
    if dropped:
        notes.append(f"убрано колонтитулов и номеров страниц: {len(dropped)}")
    if contents:
        notes.append(f"убрано строк оглавления: {len(contents)}")
    return Imported(name, out, f"PDF, страниц: {len(pages)}", "pdf", tuple(notes), version)


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
        if count > MAX_PAGES:
            raise CorpusError(
                f"Файл «{name}»: в PDF {count} страниц — больше {MAX_PAGES}; это не похоже на "
                "правила. Загрузите сами правила."
            )
        return [_page_lines(doc, i) for i in range(count)]
    finally:
        doc.close()


def _page_lines(doc: pdfium.PdfDocument, index: int) -> list[_Line]:
    page = doc[index]
    textpage = page.get_textpage()
    try:
        height = page.get_height() or 1.0
        count = textpage.count_chars()
        text = textpage.get_text_range(0, count) if count else ""
        boxes = _Boxes(textpage)
        lines: list[_Line] = []
        for start, end, hyphen in _spans(text):
            piece = text[start:end]
            first = start + len(piece) - len(piece.lstrip())
            last = start + len(piece.rstrip()) - 1
            if last < first:
                continue
            x0, b0, _, t0 = boxes.box(first)
            _, _, x1, _ = boxes.box(last)
            clean = piece.strip()
            lines.append(
                _Line(
                    text=clean + ("-" if hyphen and not clean.endswith(tuple(_LINE_END_HYPHEN)) else ""),
                    page=index + 1,
                    number=len(lines) + 1,
                    x0=x0,
                    x1=x1,
                    base=b0,
                    size=max(t0 - b0, 1.0),
                    top_band=b0 > height * (1 - _BAND),
                    bottom_band=b0 < height * _BAND,
                    hyphen=hyphen,
                )
            )
        return lines
    finally:
        textpage.close()
        page.close()


class _Boxes:
    """Character boxes of one text page (left, bottom, right, top), in points."""

    def __init__(self, textpage: pdfium.PdfTextPage) -> None:
        self._page = textpage
        self._l, self._r = ctypes.c_double(), ctypes.c_double()
        self._b, self._t = ctypes.c_double(), ctypes.c_double()

    def box(self, index: int) -> tuple[float, float, float, float]:
        pdfium_raw.FPDFText_GetCharBox(self._page, index, self._l, self._r, self._b, self._t)
        return self._l.value, self._b.value, self._r.value, self._t.value


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


# Running headers and footers -------------------------------------------------------------------


def _drop_running(pages: Sequence[list[_Line]]) -> tuple[list[_Line], list[str]]:
    """Body lines in reading order, and the header/footer texts dropped.

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
    body: list[_Line] = []
    dropped: list[str] = []
    for page, marked in zip(pages, candidates, strict=True):
        for i, line in enumerate(page):
            if i in marked and (_PAGE_NUMBER.match(line.text) or seen[_running_key(line)] >= repeat):
                dropped.append(line.text)
            else:
                body.append(line)
    return body, dropped


def _margin_lines(page: Sequence[_Line], pitch: float, reach: int = 3) -> set[int]:
    """Positions (in `page`) of the lines in the page's top and bottom margins: in the band, and
    cut off from the body by a gap wider than the line spacing."""
    order = sorted(range(len(page)), key=lambda i: -page[i].base)
    marked: set[int] = set()
    wide = 1.8 * pitch
    for k in range(min(reach, len(order) - 1)):
        if page[order[k]].base - page[order[k + 1]].base > wide:
            marked.update(i for i in order[: k + 1] if page[i].top_band)
            break
    for k in range(min(reach, len(order) - 1)):
        lower, upper = order[-1 - k], order[-2 - k]
        if page[upper].base - page[lower].base > wide:
            marked.update(i for i in order[len(order) - 1 - k :] if page[i].bottom_band)
            break
    return marked


def _running_key(line: _Line) -> tuple[str, int]:
    """A header's identity: its text (numbers blanked in a short line), and its height."""
    text = " ".join(line.text.split()).casefold()
    if len(text) <= 80:
        text = _DIGITS.sub("#", text)
    return text, round(line.base / 4)


# Paragraphs -----------------------------------------------------------------------------------


@dataclass
class _Layout:
    """The body's measures: line pitch, left and right edges, a typical character width."""

    pitch: float
    right: float
    char: float


def _layout(lines: Sequence[_Line]) -> _Layout:
    deltas = [
        a.base - b.base
        for a, b in itertools.pairwise(lines)
        if a.page == b.page and 0 < a.base - b.base < 3 * max(a.size, b.size)
    ]
    pitch = statistics.median(deltas) if deltas else 12.0
    ends = sorted(line.x1 for line in lines)
    right = ends[int(0.9 * (len(ends) - 1))] if ends else 0.0
    widths = [(line.x1 - line.x0) / len(line.text) for line in lines if len(line.text) >= 20]
    char = statistics.median(widths) if widths else 5.0
    return _Layout(pitch, right, char)


def _paragraphs(lines: Sequence[_Line], words: frozenset[str]) -> Iterator[SourceLine]:
    """Logical lines: the printed lines of one paragraph joined, each a SourceLine."""
    if not lines:
        return
    layout = _layout(lines)
    current: str | None = None
    head = lines[0]
    text = head.text
    entry = _ENTRY.match(text)
    if entry:
        current = entry.group(1)
    prev = head
    for line in lines[1:]:
        if _starts_paragraph(prev, text, line, current, layout):
            yield SourceLine(head.number, text, page=head.page)
            head, text = line, line.text
            entry = _ENTRY.match(text)
            if entry:
                current = entry.group(1)
        else:
            text = (
                join_hyphenated(text, line.text, words)
                if prev.hyphen or _hyphen_end(text)
                else (text + " " + line.text)
            )
        prev = line
    yield SourceLine(head.number, text, page=head.page)


def _hyphen_end(text: str) -> bool:
    return len(text) >= 2 and text[-1] in _LINE_END_HYPHEN and text[-2].isalpha()


def _starts_paragraph(prev: _Line, so_far: str, line: _Line, current: str | None, layout: _Layout) -> bool:
    """Whether `line` opens a new paragraph rather than continuing `prev`, the last printed line
    of the paragraph `so_far` (see the module doc)."""
    text = line.text
    if _BULLET.match(text) or _EXAMPLE.match(text):
        return True
    first = text[:1]
    if first.islower() or prev.hyphen or _hyphen_end(prev.text):
        return False
    before = split_version(so_far)[0]
    ends = bool(_TERMINAL.search(before)) and not _ABBREVIATION_END.search(before)
    geometric = _geometric_break(prev, line, layout)
    entry = _ENTRY.match(text)
    if entry:
        in_sequence = current is None or entry.group(1) in ids.successors(current)
        # A page break hides the geometry: after a finished sentence, a number opens an entry.
        new_page = line.page != prev.page
        return (ends and (geometric or in_sequence or new_page)) or (geometric and in_sequence)
    return geometric and ends


def _geometric_break(prev: _Line, line: _Line, layout: _Layout) -> bool:
    """A gap above the line, a short line before it, or a first-line indent."""
    short = prev.x1 < layout.right - max(3 * layout.char, 0.04 * layout.right)
    if line.page != prev.page:
        return short
    gap = prev.base - line.base > 1.35 * layout.pitch
    indent = line.x0 > prev.x0 + 1.5 * layout.char
    return gap or short or indent


__all__ = ["read_pdf"]

"""Word (.docx): paragraphs and tables in document order as blocks, read as a stream.

A .docx is a zip of XML parts. The archive is checked before anything is unpacked (sizes and
ratios within `limits`), the small definition parts (numbering, styles) are read whole, and the
document text is parsed incrementally (`lxml.etree.iterparse`): each paragraph is turned into a
block and freed, so memory stays that of one paragraph or table however long the document, and
the text is refused as soon as it passes the character limit. No DTDs, entities or network.

A head judge's notes number clauses either by typing («211.3. Текст») or with Word's automatic
numbering, where the number is not in the text at all (`docx_numbering`): each numbered
paragraph's block carries the levels Word draws for it, and the structure pass composes them
with the typed section number above the list. A table of contents (its styles, its field, its
content control, or paragraphs that are wholly links to places in the document) is marked as
such; a two-column table is a glossary.
"""

from __future__ import annotations

import io
import posixpath
import re
import zipfile
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import IO

import lxml.etree

from rules_index import blocks, limits
from rules_index.blocks import Block
from rules_index.errors import CorpusError
from rules_index.importers.common import Imported
from rules_index.importers.docx_numbering import (
    Numbering,
    Style,
    W,
    on,
    read_numbering,
    read_styles,
    safe_parser,
    to_int,
    val,
)

_MAIN = "word/document.xml"
_LETTER = re.compile(r"[^\W_]")
_REL = "{http://schemas.openxmlformats.org/package/2006/relationships}"
_OFFICE_DOCUMENT = "/officeDocument"
_BROKEN = "Откройте документ в Word и сохраните заново как .docx."
_STREAM_ERRORS = (
    lxml.etree.XMLSyntaxError,
    zipfile.BadZipFile,
    zlib.error,
    EOFError,
    OSError,
    ValueError,
    KeyError,
)


def read_docx(name: str, data: bytes) -> Imported:
    """The blocks of a Word document; raises CorpusError (Russian, naming the file)."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, EOFError, ValueError, OSError):
        raise CorpusError(f"Файл «{name}»: архив .docx повреждён (не распаковывается). {_BROKEN}") from None
    with archive:
        main, styles_part, numbering_part = _parts(name, archive)
        try:
            numbering = read_numbering(_small(archive, numbering_part))
            styles = read_styles(_small(archive, styles_part))
        except _STREAM_ERRORS:
            raise CorpusError(
                f"Файл «{name}»: документ Word повреждён (не читаются определения стилей или нумерации). "
                f"{_BROKEN}"
            ) from None
        reader = _Reader(name, numbering, styles)
        try:
            with archive.open(main) as stream:
                reader.read(stream)
        except CorpusError:
            raise
        except lxml.etree.XMLSyntaxError as err:
            line = getattr(err, "lineno", 0) or 0
            where = f", строка {line} его XML" if line else ""
            raise CorpusError(
                f"Файл «{name}»: документ Word повреждён — текст документа ({main}{where}) не читается. "
                f"{_BROKEN}"
            ) from None
        except _STREAM_ERRORS:
            raise CorpusError(
                f"Файл «{name}»: документ Word повреждён — текст документа ({main}) не распаковывается. "
                f"{_BROKEN}"
            ) from None
    return Imported(name, reader.out, "Word (.docx)", "docx", ())


def _parts(name: str, archive: zipfile.ZipFile) -> tuple[str, str | None, str | None]:
    """The document part and its styles and numbering parts, after the archive's size checks."""
    names = {i.filename for i in archive.infolist()}
    main = _main_part(archive, names)
    if main is None:
        raise CorpusError(
            f"Файл «{name}»: это zip-архив, но не документ Word (.docx). Загрузите сами правила."
        )
    unpacked = archive.getinfo(main).file_size
    if unpacked > limits.MAX_DOCUMENT_XML:
        raise CorpusError(
            f"Файл «{name}»: текст документа распаковывается в {unpacked // (1024 * 1024)} МБ — больше "
            f"предела {limits.MAX_DOCUMENT_XML // (1024 * 1024)} МБ (в полных правилах — несколько МБ; "
            "возможно, это «zip-бомба»). Загрузите сами правила."
        )
    targets = _relations(
        archive, posixpath.join(posixpath.dirname(main), "_rels", posixpath.basename(main) + ".rels")
    )
    folder = posixpath.dirname(main)

    def part(kind: str, default: str) -> str | None:
        target = targets.get(kind)
        path = posixpath.normpath(posixpath.join(folder, target)) if target else default
        return path if path in names else None

    return main, part("/styles", "word/styles.xml"), part("/numbering", "word/numbering.xml")


def _main_part(archive: zipfile.ZipFile, names: set[str]) -> str | None:
    if "_rels/.rels" in names:
        target = _relations(archive, "_rels/.rels").get(_OFFICE_DOCUMENT)
        if target and target.lstrip("/") in names:
            return target.lstrip("/")
    return _MAIN if _MAIN in names else None


def _relations(archive: zipfile.ZipFile, path: str) -> dict[str, str]:
    """Relationship type suffix («/styles») → target, of one .rels part (empty if absent)."""
    try:
        xml = _small(archive, path)
        if xml is None:
            return {}
        root = lxml.etree.fromstring(xml, safe_parser())
    except _STREAM_ERRORS:
        return {}
    out: dict[str, str] = {}
    for rel in root.iter(_REL + "Relationship"):
        kind = (rel.get("Type") or "").rsplit("/", 1)[-1]
        target = rel.get("Target")
        if kind and target and rel.get("TargetMode") != "External":
            out.setdefault("/" + kind, target)
    return out


def _small(archive: zipfile.ZipFile, path: str | None) -> bytes | None:
    """A definition part read whole, refused past its limit."""
    if path is None:
        return None
    try:
        info = archive.getinfo(path)
    except KeyError:
        return None
    if info.file_size > limits.MAX_DEFINITIONS:
        raise ValueError(path)
    return archive.read(info)


@dataclass
class _Reader:
    """The document part read element by element into blocks (one call of `read`)."""

    name: str
    numbering: Numbering
    styles: dict[str, Style]
    out: list[Block] = field(default_factory=list)
    chars: int = 0
    fields: list[bool] = field(default_factory=list)  # open fields: is each a table of contents

    def read(self, stream: IO[bytes]) -> None:
        """Every paragraph and table of the body in order; each is freed once read, with what
        came before it, so memory holds one paragraph or table at a time."""
        events = lxml.etree.iterparse(
            stream,
            events=("end",),
            tag=(W + "p", W + "tbl"),
            resolve_entities=False,
            no_network=True,
            load_dtd=False,
            huge_tree=False,
        )
        for _, el in events:
            in_table, in_contents = _placed(el)
            if in_table:
                continue  # read with its table
            if el.tag == W + "p":
                self._paragraph(el, in_contents)
            else:
                self._table(el)
            el.clear()
            parent = el.getparent()
            while parent is not None and el.getprevious() is not None:
                del parent[0]

    def _add(self, text: str, **facts: object) -> None:
        self.chars += len(text)
        limits.check_chars(self.name, self.chars)
        limits.check_blocks(self.name, len(self.out) + 1)
        self.out.append(Block(text, len(self.out) + 1, **facts))  # type: ignore[arg-type]

    def _paragraph(self, p: lxml.etree._Element, in_contents: bool) -> None:
        ppr = p.find(W + "pPr")
        style = self.styles.get(val(ppr, "pStyle") or "") or self.styles.get("") or Style()
        pieces, emphasis, linked, toc = self._runs(p, style)
        text = pieces[0].strip()
        facts: dict[str, object] = {"heading": style.heading or val(ppr, "outlineLvl") not in (None, "9")}
        if style.contents or in_contents or toc or (linked and any(pieces)):
            facts["role"] = blocks.CONTENTS
        marks = self._marks(ppr, style, text)
        if marks is not None:
            drawn, list_id, depth = marks
            if drawn and drawn[-1].style == blocks.BULLET:
                facts.update(bullet=True, list_id=list_id, depth=depth)
                text = "● " + text if text else text
            elif drawn:
                facts.update(marks=drawn, list_id=list_id, depth=depth)
        if not text and not facts.get("marks") and len(pieces) == 1:
            return
        self._add(text, emphasis=emphasis and bool(text), **facts)
        for piece in pieces[1:]:
            if piece.strip():
                self._add(piece.strip(), emphasis=emphasis, soft=True)

    def _marks(
        self, ppr: lxml.etree._Element | None, style: Style, text: str
    ) -> tuple[tuple[blocks.Mark, ...], int, int] | None:
        """(drawn levels, list, depth) of a numbered paragraph, or None. A number typed in the
        text wins over the list's (the counter still moves)."""
        num_pr = ppr.find(W + "numPr") if ppr is not None else None
        link: tuple[str, int] | None = None
        if num_pr is not None:
            num_id = val(num_pr, "numId")
            ilvl = to_int(val(num_pr, "ilvl"), style.numbering[1] if style.numbering else 0)
            if num_id and num_id != "0":
                link = (num_id, ilvl)
        else:
            link = style.numbering
        if link is None or not text:
            return None
        drawn = self.numbering.marks(*link)
        if drawn is None:
            return None
        if text[:1].isdigit() and drawn and drawn[-1].style != blocks.BULLET:
            return None  # the number is typed in the text already
        return drawn, self.numbering.list_id(link[0]), link[1] + 1

    def _runs(self, p: lxml.etree._Element, style: Style) -> tuple[list[str], bool, bool, bool]:
        """The paragraph's shown text split at line breaks, whether all of it is bold or
        underlined, whether all of it is a link to a place in the document, and whether it lies
        in a table-of-contents field."""
        pieces = [""]
        plain = unlinked = False  # letters outside bold/underline, outside links
        toc = any(self.fields)
        for run, anchored in _runs_of(p):
            rpr = run.find(W + "rPr")
            bold = style.emphasis or on(rpr, "b") or on(rpr, "u")
            for node in run:
                tag = node.tag
                if tag == W + "t":
                    piece = node.text or ""
                    pieces[-1] += piece
                    if (not bold or not anchored) and _LETTER.search(piece):
                        plain = plain or not bold
                        unlinked = unlinked or not anchored
                elif tag == W + "tab":
                    pieces[-1] += " "
                elif tag in (W + "br", W + "cr"):
                    if node.get(W + "type") in (None, "textWrapping"):
                        pieces.append("")
                elif tag == W + "noBreakHyphen":
                    pieces[-1] += "-"
                elif tag == W + "fldChar":
                    kind = node.get(W + "fldCharType")
                    if kind == "begin":
                        self.fields.append(False)
                    elif kind == "end" and self.fields:
                        self.fields.pop()
                elif (
                    tag == W + "instrText"
                    and self.fields
                    and (node.text or "").strip().upper().startswith("TOC")
                ):
                    self.fields[-1] = True
                    toc = True
            toc = toc or any(self.fields)
        letters_seen = any(_LETTER.search(piece) for piece in pieces)
        return pieces, bool(letters_seen) and not plain, bool(letters_seen) and not unlinked, toc

    def _table(self, tbl: lxml.etree._Element) -> None:
        """A two-column table is a glossary (term — definition); a table whose cells hold several
        paragraphs is layout, read paragraph by paragraph; other tables row by row."""
        rows: list[list[list[lxml.etree._Element]]] = []
        for tr in tbl.iterchildren(W + "tr"):
            rows.append([list(tc.iter(W + "p")) for tc in tr.iterchildren(W + "tc")])
        if any(len(cell) > 1 for cells in rows for cell in cells):
            for cells in rows:
                for cell in cells:
                    for p in cell:
                        self._paragraph(p, False)
            return
        texts = [r for r in ([_text(cell[0]) if cell else "" for cell in cells] for cells in rows) if any(r)]
        if texts and {c.casefold() for c in texts[0]} & {"термин", "понятие", "определение", "значение"}:
            texts = texts[1:]
        for row in texts:
            if len(row) == 2:
                self._add(f"{row[0]} — {row[1]}", bullet=True, role=blocks.GLOSSARY)
            else:
                self._add(" | ".join(c for c in row if c))


def _placed(el: lxml.etree._Element) -> tuple[bool, bool]:
    """Whether an element lies inside a table, and inside a table-of-contents content control."""
    in_table = in_contents = False
    at = el.getparent()
    while at is not None and at.tag != W + "body":
        if at.tag == W + "tbl":
            in_table = True
        elif at.tag == W + "sdt":
            gallery = at.find(f"{W}sdtPr/{W}docPartObj/{W}docPartGallery")
            if gallery is not None and "contents" in (gallery.get(W + "val") or "").casefold():
                in_contents = True
        at = at.getparent()
    return in_table, in_contents


def _runs_of(p: lxml.etree._Element) -> Iterator[tuple[lxml.etree._Element, bool]]:
    """The runs of a paragraph in order (inside hyperlinks, smart tags, inserted text too), and
    whether each is in a link to a bookmark of the document (a table of contents' entry)."""
    for child in p:
        tag = child.tag
        if tag == W + "r":
            yield child, False
        elif tag == W + "hyperlink":
            anchored = child.get(W + "anchor") is not None
            for run in child.iter(W + "r"):
                yield run, anchored
        elif tag in (W + "ins", W + "smartTag", W + "sdt", W + "fldSimple", W + "customXml"):
            for run in child.iter(W + "r"):
                yield run, False


def _text(p: lxml.etree._Element) -> str:
    return "".join(t.text or "" for t in p.iter(W + "t")).strip()


__all__ = ["read_docx"]

"""Rules documents in the shapes judges get them: text (.txt/.md/.rst), PDF, web pages, Word.

`import_file(name, data)` turns one file into the block stream (`Imported`), choosing the
importer by the file's content where it is unmistakable (a PDF or a .docx renamed .txt is still
read as one) and by its name otherwise. Every refusal is a CorpusError naming the file.
"""

from __future__ import annotations

from pathlib import PurePath

from rules_index import limits
from rules_index.errors import CorpusError
from rules_index.importers.common import Imported
from rules_index.sources import decode, to_source_lines

TEXT_SUFFIXES = (".txt", ".md", ".rst")
PDF_SUFFIXES = (".pdf",)
HTML_SUFFIXES = (".html", ".htm", ".xhtml")
DOCX_SUFFIXES = (".docx",)
SUFFIXES = TEXT_SUFFIXES + PDF_SUFFIXES + HTML_SUFFIXES + DOCX_SUFFIXES
# Word processors' other formats: the judge can save them as .docx.
_RESAVE = (".doc", ".odt", ".rtf", ".pages", ".wps")
# What the upload box and the messages name.
KINDS_TEXT = ".txt, .md, .rst, .pdf, .html, .docx"


def kind_of(name: str, data: bytes) -> str:
    """«pdf», «docx», «html», «text», or «other» (a format we ask to save as .docx): by content
    first, then by the file name."""
    head = data[:1024].lstrip()
    if head.startswith(b"%PDF-"):
        return "pdf"
    if data.startswith(b"PK\x03\x04"):
        return "docx"
    suffix = PurePath(name).suffix.lower()
    if suffix in _RESAVE:
        return "other"
    if suffix in PDF_SUFFIXES:
        return "pdf"
    if suffix in DOCX_SUFFIXES:
        return "docx"
    if suffix in HTML_SUFFIXES:
        return "html"
    if suffix in TEXT_SUFFIXES:
        return "text"
    lowered = head[:200].lower()
    if lowered.startswith((b"<!doctype html", b"<html")) or b"<html" in lowered:
        return "html"
    return "text"


def import_file(name: str, data: bytes) -> Imported:
    """One rules file as blocks; raises CorpusError with a Russian message. A pure function of
    its arguments (no state, picklable result), so a bounded worker process can run it."""
    suffix = PurePath(name).suffix.lower()
    if suffix in _RESAVE:
        raise CorpusError(
            f"Файл «{name}»: формат {suffix} не читается. Сохраните документ как .docx или .pdf "
            "(«Файл → Сохранить как») и загрузите снова."
        )
    if suffix and suffix not in SUFFIXES and not data.lstrip()[:5] == b"%PDF-":
        raise CorpusError(f"Файл «{name}»: такой формат не поддерживается. Поддерживаются {KINDS_TEXT}.")
    if not data.strip():
        raise CorpusError(f"Файл «{name}» пуст: в нём нет текста правил.")
    kind = kind_of(name, data)
    if kind == "pdf":
        from rules_index.importers.pdf import read_pdf

        return read_pdf(name, data)
    if kind == "docx":
        from rules_index.importers.docx import read_docx

        return read_docx(name, data)
    if kind == "html":
        from rules_index.importers.html import read_html

        return read_html(name, data)
    text, encoding = decode(name, data)
    limits.check_chars(name, len(text))
    limits.check_blocks(name, max(text.count("\n"), text.count("\r")))
    return Imported(name, to_source_lines(name, text), encoding, "text")


__all__ = ["KINDS_TEXT", "SUFFIXES", "Imported", "import_file", "kind_of"]

"""How big a rules document may be, stated once: every importer and the parser check these.

A full rules text has some 3,000 numbered entries and half a million characters. The limits
leave twenty times that, and stop a file built to cost the server time or memory (700,000
one-line clauses, a Word file that unpacks to gigabytes, a PDF of thousands of pages) before
the index is built from it. Each refusal is a CorpusError with a Russian message naming the
file and the limit.
"""

from __future__ import annotations

from rules_index.errors import CorpusError

# Numbered entries (sections and clauses) in one upload or corpus.
MAX_ENTRIES = 60_000
# Lines, paragraphs or printed lines of one file (a full rules text has some 20,000): checked
# before the text is split into blocks where the count is cheap (a text file's lines).
MAX_BLOCKS = 200_000
# Characters of text after import (markup, layout and compression removed), all files together.
MAX_CHARS = 8_000_000
# Pages of one PDF: a rules book has a few hundred.
MAX_PAGES = 1000
# A .docx is a zip; only the parts read are unpacked, and each is bounded by its size (the zip's
# declared size bounds what is unpacked, whatever the ratio): the document text of a full rules
# book is a few MB of XML, its numbering and style definitions a few hundred KB.
MAX_DOCUMENT_XML = 32 * 1024 * 1024
MAX_DEFINITIONS = 8 * 1024 * 1024


def check_chars(name: str, count: int) -> None:
    """Refuse a file whose text (so far) is over MAX_CHARS characters."""
    if count > MAX_CHARS:
        raise CorpusError(
            f"Файл «{name}»: в нём больше {MAX_CHARS:,} знаков текста".replace(",", " ")
            + " — это больше, чем в правилах, во много раз. Загрузите сами правила."
        )


def check_blocks(name: str, count: int) -> None:
    """Refuse a file of more than MAX_BLOCKS lines or paragraphs."""
    if count > MAX_BLOCKS:
        raise CorpusError(
            f"Файл «{name}»: в нём больше {MAX_BLOCKS:,} строк или абзацев".replace(",", " ")
            + " — в полных правилах их около 20 000. Загрузите сами правила."
        )


def check_entries(name: str, count: int) -> None:
    """Refuse a text with more than MAX_ENTRIES numbered entries."""
    if count > MAX_ENTRIES:
        raise CorpusError(
            f"Файл «{name}»: в нём больше {MAX_ENTRIES:,} пронумерованных пунктов".replace(",", " ")
            + " — в полных правилах их около 3 000. Загрузите сами правила."
        )


__all__ = [
    "MAX_BLOCKS",
    "MAX_CHARS",
    "MAX_DEFINITIONS",
    "MAX_DOCUMENT_XML",
    "MAX_ENTRIES",
    "MAX_PAGES",
    "check_blocks",
    "check_chars",
    "check_entries",
]

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
# Characters of text after import (markup, layout and compression removed), all files together.
MAX_CHARS = 8_000_000
# Pages of one PDF: a rules book has a few hundred.
MAX_PAGES = 1000
# A .docx is a zip: what its parts may unpack to, all together and for the document text.
MAX_UNPACKED = 100 * 1024 * 1024
MAX_RATIO = 200
# Word's numbering and style definitions are read whole: they stay small in real documents.
MAX_DEFINITIONS = 8 * 1024 * 1024


def check_chars(name: str, count: int) -> None:
    """Refuse a file whose text (so far) is over MAX_CHARS characters."""
    if count > MAX_CHARS:
        raise CorpusError(
            f"Файл «{name}»: в нём больше {MAX_CHARS:,} знаков текста".replace(",", " ")
            + " — это больше, чем в правилах, во много раз. Загрузите сами правила."
        )


def check_entries(name: str, count: int) -> None:
    """Refuse a text with more than MAX_ENTRIES numbered entries."""
    if count > MAX_ENTRIES:
        raise CorpusError(
            f"Файл «{name}»: в нём больше {MAX_ENTRIES:,} пронумерованных пунктов".replace(",", " ")
            + " — в полных правилах их около 3 000. Загрузите сами правила."
        )


__all__ = [
    "MAX_CHARS",
    "MAX_DEFINITIONS",
    "MAX_ENTRIES",
    "MAX_PAGES",
    "MAX_RATIO",
    "MAX_UNPACKED",
    "check_chars",
    "check_entries",
]

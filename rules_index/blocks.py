"""The one stream every importer produces: blocks of text with where they stand and how they look.

A text file gives one block per line, a web page one per paragraph, heading, list item or table
row, a Word file one per paragraph, a PDF one per printed line. Whatever the format, a block says
what a reader would see around its text: is it a heading (markup or typography), a bullet, an
item of a numbered list (at which depth, with which drawn number), a table-of-contents line, a
running header or footer, a glossary row; and, for a printed line, whether the layout breaks the
paragraph before it. `rules_index.structure` reads the stream and finds the clauses, the same way
for every format, so no importer decides on its own what a clause number is.
"""

from __future__ import annotations

from dataclasses import dataclass

# What a block is, when it is not rules text: importers mark the furniture they recognise, and
# the structure pass drops it and counts it (the integrity report says how much went).
BODY = ""
CONTENTS = "contents"  # a table-of-contents line
HEADER = "header"  # a running header
FOOTER = "footer"  # a running footer
PAGE_NUMBER = "page_number"
GLOSSARY = "glossary"  # a row of a term-definition table: kept as a bullet, never a clause
DROPPED_ROLES = frozenset({CONTENTS, HEADER, FOOTER, PAGE_NUMBER})

# How a list draws an item's number: decimal, letters (the document's alphabet, as Word's
# lowerLetter or HTML's type="a" draw Latin ones), Cyrillic letters named so, or a bullet.
DECIMAL = "decimal"
LETTER = "letter"
CYRILLIC = "cyrillic"
LATIN = "latin"
BULLET = "bullet"
NUMBER_STYLES = frozenset({DECIMAL, LETTER, CYRILLIC, LATIN})


@dataclass(frozen=True)
class Mark:
    """One level of a number a list draws: its counter value and style («3», decimal)."""

    value: int
    style: str = DECIMAL


@dataclass(frozen=True)
class Block:
    """One unit of a document's text as a reader sees it.

    `line` and `page` say where it is (a text file's line, a page's block number, a PDF page).
    `depth` is the list nesting (1 for an item of a top-level list, 0 outside lists) and `marks`
    the number the list draws for it, outermost level first: an HTML `<li>` draws its own level
    only (one mark), a Word label «%1.%2.» draws two. `list_id` tells one list from the next (a
    new list restarts the levels). `emphasis` is typography: the whole text bold, underlined or
    larger than the body. `soft` marks a printed line (PDF) that may continue the block before
    it; `gap` then says the layout breaks the paragraph there (a wider gap, an indent, a short
    line before), `page_break` that a page ends before it, and `hyphen` that it ends with a
    hyphen at the line end.
    """

    text: str
    line: int
    page: int = 0
    heading: bool = False
    bullet: bool = False
    depth: int = 0
    marks: tuple[Mark, ...] = ()
    list_id: int = 0
    emphasis: bool = False
    role: str = BODY
    soft: bool = False
    gap: bool = False
    page_break: bool = False
    hyphen: bool = False

    @property
    def where(self) -> str:
        """«страница 3, строка 12» for a paged document, «строка 12» for a text file."""
        return f"страница {self.page}, строка {self.line}" if self.page else f"строка {self.line}"


__all__ = [
    "BODY",
    "BULLET",
    "CONTENTS",
    "CYRILLIC",
    "DECIMAL",
    "DROPPED_ROLES",
    "FOOTER",
    "GLOSSARY",
    "HEADER",
    "LATIN",
    "LETTER",
    "NUMBER_STYLES",
    "PAGE_NUMBER",
    "Block",
    "Mark",
]

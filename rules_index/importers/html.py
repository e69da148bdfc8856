"""Web pages: a saved HTML page of rules as blocks for the structure pass (lxml's HTML parser).

What a reader of the page sees as rules text is kept, each piece once: headings, paragraphs,
list items and table rows; navigation, menus, scripts, styles, forms and footers are skipped;
entities are decoded by the parser. Nested inline markup (`<p><u><a name>100. Название</a></u></p>`)
is one block, read once, and its typography (bold, underlined) is the block's emphasis.

Community pages often leave clause numbers implicit; the page says how a browser draws them and
the structure pass composes them with the enclosing number:
- `<ol>` items carry their list depth and drawn number: the count (moved by `<ol start>` and
  `<li value>`) and the style (`type="a"`, `type="а"`, a `list-style-type` inline or in the
  page's `<style>`: letters, Cyrillic letters, decimal);
- a `<br>` inside a paragraph is a printed line break: the line after it may continue the
  paragraph or, when a clause number starts it, open a clause;
- a paragraph or list item wholly a link to a place on the same page is a table of contents;
- a two-column table (term | definition) is a glossary: each row a bullet «термин —
  определение» of the entry it stands in, never a clause. A table whose cells hold paragraphs
  or lists is page layout, read as the blocks it holds.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

import lxml.etree
import lxml.html

from rules_index import blocks, limits
from rules_index.blocks import Block, Mark
from rules_index.errors import CorpusError
from rules_index.importers.common import Imported
from rules_index.sources import decode

_SKIP_TAGS = frozenset(
    {
        "script",
        "style",
        "noscript",
        "template",
        "nav",
        "footer",
        "form",
        "aside",
        "menu",
        "button",
        "select",
        "input",
        "textarea",
        "iframe",
        "svg",
        "canvas",
        "head",
        "object",
        "embed",
        "dialog",
    }
)
# Containers a site uses for its navigation and furniture, by class, id or role.
_SKIP_MARK = re.compile(
    r"(?:^|[\s_-])(?:nav|navbar|navigation|menu|sidebar|breadcrumbs?|footer|header-menu|toc-nav|"
    r"cookie|banner|share|social|comments?|advert|ads)(?:$|[\s_-])",
    re.IGNORECASE,
)
_SKIP_ROLES = frozenset({"navigation", "banner", "contentinfo", "search", "menu", "menubar", "complementary"})
_HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
_BLOCKS = frozenset(
    {
        "p",
        "div",
        "section",
        "article",
        "main",
        "blockquote",
        "dl",
        "dt",
        "dd",
        "pre",
        "figure",
        "figcaption",
        "center",
        "body",
        "html",
        "header",
        "address",
        "details",
        "summary",
        "li",
        "table",
        "ol",
        "ul",
        "hr",
        *_HEADINGS,
    }
)
_LISTS = frozenset({"ol", "ul"})
_EMPHASIS_TAGS = frozenset({"b", "strong", "u", "ins"})
_BOLD_STYLE = re.compile(r"font-weight\s*:\s*(?:bold|[6-9]00)|text-decoration[^;]*underline", re.IGNORECASE)
_META_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?\s*([A-Za-z0-9_.:-]+)""", re.IGNORECASE)
_LIST_STYLE = re.compile(r"list-style(?:-type)?\s*:\s*([^;}]*)", re.IGNORECASE)
_CSS_RULE = re.compile(r"([^{}]+)\{([^{}]*)\}")
_SPACE = re.compile(r"\s+")
MAX_DEPTH = 200


def _style_of(value: str) -> str | None:
    """The mark style a `list-style-type` value (or an `<ol type>`) draws, or None for none."""
    value = value.strip().casefold()
    if not value:
        return None
    if value in ("a",) or any(w in value for w in ("alpha", "latin")):
        return blocks.LETTER
    if value in ("а",) or any(w in value for w in ("cyrillic", "russian")):
        return blocks.CYRILLIC
    if "none" in value.split():
        return blocks.BULLET  # drawn without a number
    return blocks.DECIMAL


@dataclass(frozen=True)
class _Rule:
    """A `<style>` rule that sets a list style: `ol ol { list-style-type: lower-alpha }`."""

    lists: int  # how many «ol» compounds the selector names (its nesting)
    cls: str  # a class the list must have, or ""
    style: str


@dataclass
class _Walk:
    """State of one page walk: the blocks so far, list numbering, what was skipped."""

    out: list[Block] = field(default_factory=list)
    rules: tuple[_Rule, ...] = ()
    lists: int = 0
    skipped: int = 0
    chars: int = 0
    name: str = ""

    def add(self, text: str, **facts: object) -> None:
        text = _SPACE.sub(" ", text).strip()
        if text or facts.get("marks"):
            self.chars += len(text)
            limits.check_chars(self.name, self.chars)
            limits.check_blocks(self.name, len(self.out) + 1)
            self.out.append(Block(text, len(self.out) + 1, **facts))  # type: ignore[arg-type]


def read_html(name: str, data: bytes) -> Imported:
    """The blocks of a saved web page; raises CorpusError (Russian, naming the file)."""
    text, encoding = _decode(name, data)
    limits.check_chars(name, len(text))
    try:
        root = lxml.html.document_fromstring(text)
    except (lxml.etree.ParserError, ValueError) as err:
        raise CorpusError(f"Файл «{name}»: страница не читается как HTML ({err}).") from None
    walk = _Walk(rules=_style_rules(root), name=name)
    body = root.find("body")
    _block(body if body is not None else root, walk, 0, (0, 0))
    notes = (f"пропущено блоков навигации, меню и служебных: {walk.skipped}",) if walk.skipped else ()
    return Imported(name, walk.out, f"HTML ({encoding})", "html", notes)


def _decode(name: str, data: bytes) -> tuple[str, str]:
    """The page's text: its declared charset when it has one, else what the text files use."""
    declared = _META_CHARSET.search(data[:4096])
    if declared and not data.startswith((b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff")):
        codec = declared.group(1).decode("ascii", "replace").lower()
        try:
            return data.decode(codec), codec
        except (LookupError, UnicodeDecodeError):
            pass
    return decode(name, data)


def _style_rules(root: lxml.html.HtmlElement) -> tuple[_Rule, ...]:
    """The page's `<style>` rules that set a list style, for selectors of lists and classes."""
    out: list[_Rule] = []
    for style in root.iter("style"):
        for selectors, body in _CSS_RULE.findall(style.text or ""):
            found = _LIST_STYLE.search(body)
            kind = _style_of(found.group(1)) if found else None
            if kind is None:
                continue
            for selector in selectors.split(","):
                parts = selector.split()
                if not parts:
                    continue
                last = parts[-1].casefold()
                tag, _, cls = last.partition(".")
                if tag not in ("ol", "") or (not tag and not cls):
                    continue
                lists = sum(1 for p in parts if p.casefold().partition(".")[0] == "ol")
                out.append(_Rule(max(lists, 1) if tag == "ol" else 0, cls, kind))
    return tuple(out)


def _skipped(el: lxml.html.HtmlElement) -> bool:
    tag = el.tag if isinstance(el.tag, str) else ""
    if tag.lower() in _SKIP_TAGS:
        return True
    if (el.get("role") or "").lower() in _SKIP_ROLES or el.get("hidden") is not None:
        return True
    if "display:none" in (el.get("style") or "").replace(" ", "").lower():
        return True
    marks = f"{el.get('class') or ''} {el.get('id') or ''}"
    return bool(_SKIP_MARK.search(marks)) and tag.lower() not in ("p", "li", "body", "main", "article")


def _tag(el: object) -> str:
    tag = getattr(el, "tag", None)
    return tag.lower() if isinstance(tag, str) else ""


@dataclass
class _Inline:
    """An element's inline text, split at `<br>`, and how much of it is emphasised or linked."""

    lines: list[str] = field(default_factory=lambda: [""])
    plain: int = 0  # letters outside bold/underline
    unlinked: int = 0  # letters outside links to the same page
    letters: int = 0

    def put(self, text: str, emphasised: bool, linked: bool) -> None:
        if not text:
            return
        self.lines[-1] += text
        count = sum(1 for ch in text if ch.isalnum())
        self.letters += count
        if not emphasised:
            self.plain += count
        if not linked:
            self.unlinked += count


def _inline(el: lxml.html.HtmlElement) -> _Inline:
    """The text of an element without its nested blocks (read separately), with `<br>` breaks."""
    found = _Inline()
    _collect(el, found, _emphasised(el), False, 0)
    return found


def _emphasised(el: lxml.html.HtmlElement) -> bool:
    return _tag(el) in _EMPHASIS_TAGS or bool(_BOLD_STYLE.search(el.get("style") or ""))


def _collect(el: lxml.html.HtmlElement, found: _Inline, emphasised: bool, linked: bool, depth: int) -> None:
    found.put(el.text or "", emphasised, linked)
    for child in el:
        tag = _tag(child)
        if tag and not _skipped(child) and depth < MAX_DEPTH:
            if tag == "br":
                found.lines.append("")
            elif tag not in _BLOCKS:
                href = (child.get("href") or "").strip() if tag == "a" else ""
                inner = emphasised or _emphasised(child)
                _collect(child, found, inner, linked or href.startswith("#"), depth + 1)
        found.put(child.tail or "", emphasised, linked)


def _add_inline(walk: _Walk, found: _Inline, **facts: object) -> None:
    """An element's own text as blocks: its first line with the element's facts, each line
    after a `<br>` a soft block (a printed line break)."""
    if not found.letters:
        return
    if not found.unlinked:
        facts = {**facts, "role": blocks.CONTENTS}
    emphasis = found.plain == 0
    first, *rest = found.lines
    walk.add(first, emphasis=emphasis, **facts)
    for line in rest:
        walk.add(line, emphasis=emphasis, soft=True, list_id=facts.get("list_id", 0))


def _block(el: lxml.html.HtmlElement, walk: _Walk, depth: int, where: tuple[int, int]) -> None:
    """Walk a block: its own text is one block, then each child block in order. `where` is the
    (list id, depth) of the list item the block stands in, (0, 0) outside lists."""
    if depth > MAX_DEPTH:
        return
    _add_inline(walk, _inline(el), list_id=where[0])
    _children(el, walk, depth, where)


def _children(el: lxml.html.HtmlElement, walk: _Walk, depth: int, where: tuple[int, int]) -> None:
    _each(list(el), walk, depth, where)


def _each(kids: list[lxml.html.HtmlElement], walk: _Walk, depth: int, where: tuple[int, int]) -> None:
    for child in kids:
        tag = _tag(child)
        if not tag:
            continue
        if _skipped(child):
            walk.skipped += 1
            continue
        if tag in _HEADINGS:
            _add_inline(walk, _inline(child), heading=True, list_id=where[0])
        elif tag in _LISTS:
            _list(child, walk, depth + 1, where)
        elif tag == "table":
            _table(child, walk, depth + 1, where)
        elif tag == "li":
            _item(child, walk, depth + 1, where, None)
        elif tag in _BLOCKS:
            _block(child, walk, depth + 1, where)
        elif depth < MAX_DEPTH:
            _children(child, walk, depth + 1, where)  # blocks nested in inline markup


def _list(ul: lxml.html.HtmlElement, walk: _Walk, depth: int, where: tuple[int, int]) -> None:
    """A list: every item a block at the next list depth with the number the list draws."""
    if depth > MAX_DEPTH:
        return
    list_id, level = where
    if not list_id:
        walk.lists += 1
        list_id = walk.lists
    nesting = level + 1
    style = _style(ul, nesting, walk)
    try:
        count = int(ul.get("start") or "1") - 1
    except ValueError:
        count = 0
    for li in ul:
        if _tag(li) != "li" or _skipped(li):
            if _tag(li) in _LISTS:
                _list(li, walk, depth + 1, (list_id, level))  # a list straight inside a list
            continue
        value = li.get("value")
        count = int(value) if value and value.isdigit() and len(value) < 6 else count + 1
        mark = None if style == blocks.BULLET else Mark(count, style)
        _item(li, walk, depth, (list_id, nesting), mark, bullet=_tag(ul) == "ul")


def _style(ul: lxml.html.HtmlElement, nesting: int, walk: _Walk) -> str:
    if _tag(ul) == "ul":
        return blocks.BULLET
    inline = _LIST_STYLE.search(ul.get("style") or "")
    if inline and (style := _style_of(inline.group(1))):
        return style
    kind = (ul.get("type") or "").strip()
    if kind:
        if kind in ("а", "А"):
            return blocks.CYRILLIC
        return blocks.LETTER if kind in ("a", "A") else blocks.DECIMAL
    classes = set((ul.get("class") or "").split())
    chosen = blocks.DECIMAL
    for rule in walk.rules:
        # «ol ol» is the second level exactly; «ol.sub» and «.sub» any list of that class
        nested = rule.lists <= nesting and (rule.cls or rule.lists == nesting)
        if (not rule.cls or rule.cls in classes) and nested:
            chosen = rule.style
    return chosen


def _item(
    li: lxml.html.HtmlElement,
    walk: _Walk,
    depth: int,
    where: tuple[int, int],
    mark: Mark | None,
    bullet: bool = False,
) -> None:
    """One list item: its text as a block at its list depth (the item's first paragraph when its
    text is wrapped in one), then its nested blocks and lists."""
    list_id, level = where
    facts: dict[str, object] = {"depth": level, "list_id": list_id, "bullet": bullet}
    if mark is not None:
        facts["marks"] = (mark,)
    found = _inline(li)
    rest = list(li)
    if not found.letters:
        first = next((c for c in rest if _tag(c) in ("p", "div") and not _skipped(c)), None)
        if first is not None and _inline(first).letters:
            found = _inline(first)
            _add_inline(walk, found, **facts)
            _children(first, walk, depth + 1, where)
            rest = [c for c in rest if c is not first]
            facts = {}
        elif mark is not None:
            walk.add("", **facts)  # an item without text still counts its number
            facts = {}
    if facts:
        _add_inline(walk, found, **facts)
    _each(rest, walk, depth + 1, where)


def _cells(row: lxml.html.HtmlElement) -> list[lxml.html.HtmlElement]:
    return [cell for cell in row if _tag(cell) in ("td", "th")]


def _table(table: lxml.html.HtmlElement, walk: _Walk, depth: int, where: tuple[int, int]) -> None:
    """A two-column table is a glossary (term — definition); a table whose cells hold blocks is
    page layout (read as those blocks); any other table is read row by row."""
    rows = [_cells(row) for row in table.iter("tr")]
    if any(_has_blocks(cell) for cells in rows for cell in cells):
        for cells in rows:
            for cell in cells:
                _block(cell, walk, depth + 1, where)
        return
    texts = [[_SPACE.sub(" ", c.text_content()).strip() for c in cells] for cells in rows]
    texts = [r for r in texts if any(r)]
    if not texts:
        return
    header = {c.casefold() for c in texts[0]}
    if header & {"термин", "понятие", "term"} or header & {"определение", "значение", "definition"}:
        texts = texts[1:]
    if all(len(r) == 2 for r in texts):
        for term, definition in texts:
            walk.add(f"{term} — {definition}", bullet=True, role=blocks.GLOSSARY, list_id=where[0])
        return
    for r in texts:
        walk.add(" | ".join(c for c in r if c), list_id=where[0])


def _has_blocks(cell: lxml.html.HtmlElement) -> bool:
    return any(_tag(d) in ("p", "div", "ol", "ul", "li", *_HEADINGS) for d in _descendants(cell))


def _descendants(el: lxml.html.HtmlElement) -> Iterator[lxml.html.HtmlElement]:
    return (d for d in el.iterdescendants() if isinstance(d.tag, str))


__all__ = ["read_html"]

"""Web pages: a saved HTML page of rules as lines for the rules parser (lxml's HTML parser).

What a reader of the page sees as rules text is kept: headings, paragraphs, list items and
table rows; navigation, menus, scripts, styles, forms and footers are skipped; entities are
decoded by the parser. Community pages often leave clause numbers implicit:

- a heading «210. Симбиоты и Паразиты.» followed by `<ol><li>…</li></ol>` numbers the items
  210.1, 210.2 … (an `<ol start>` or `<li value>` moves the count);
- an `<ol>` nested in item 210.11 numbers 210.11.1 …, or, lettered (`type="a"`, or a CSS
  `list-style-type` of letters), 210.11а, 210.11б … — Cyrillic letters unless the page cites
  its lettered clauses with Latin ones («100.1a»);
- an item or paragraph that already starts with its number keeps it.

«Пример:» paragraphs are examples (the parser knows them); a two-column table (term |
definition) is a glossary: each row becomes a bullet «термин — определение» of the entry it
stands in, so search finds it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import lxml.etree
import lxml.html

from rules_index import ids
from rules_index.errors import CorpusError
from rules_index.importers.common import Imported
from rules_index.sources import SourceLine, decode

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
    }
)
_LISTS = frozenset({"ol", "ul"})
_META_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?\s*([A-Za-z0-9_.:-]+)""", re.IGNORECASE)
_NUMBER_AT_START = re.compile(rf"^\s*({ids.CLAUSE_PATTERN})\.?(?=\s|$)")
_LETTERED_CITE = re.compile(rf"\b[1-9]\d{{2,3}}(?:\.\d{{1,4}})+([{ids.LETTER}])(?![\w])")
_LATIN = "abcdefghijklmnopqrstuvwxyz"
_CYRILLIC = "абвгдежзиклмнопрстуфхцчшщэюя"  # the letters Russian lists are lettered with
_LETTER_STYLES = re.compile(r"list-style(?:-type)?\s*:\s*[^;]*(alpha|latin|cyrillic|russian)", re.IGNORECASE)
_SPACE = re.compile(r"\s+")
MAX_DEPTH = 200


@dataclass
class _Walk:
    """State of one page walk: the lines so far and the number of the last numbered heading."""

    lines: list[SourceLine] = field(default_factory=list)
    section: str | None = None
    letters: str = _CYRILLIC
    skipped: int = 0

    def add(self, text: str, *, heading: bool = False, bullet: bool = False) -> None:
        text = _SPACE.sub(" ", text).strip()
        if text:
            self.lines.append(SourceLine(len(self.lines) + 1, text, heading=heading, bullet=bullet))


def read_html(name: str, data: bytes) -> Imported:
    """Rules lines of a saved web page; raises CorpusError (Russian, naming the file)."""
    text, encoding = _decode(name, data)
    try:
        root = lxml.html.document_fromstring(text)
    except (lxml.etree.ParserError, ValueError) as err:
        raise CorpusError(f"Файл «{name}»: страница не читается как HTML ({err}).") from None
    walk = _Walk()
    cited = {m.group(1) for m in _LETTERED_CITE.finditer(root.text_content() or "")}
    if cited and cited <= set(_LATIN):
        walk.letters = _LATIN
    body = root.find("body")
    _block(body if body is not None else root, walk, 0)
    notes = (f"пропущено блоков навигации, меню и служебных: {walk.skipped}",) if walk.skipped else ()
    return Imported(name, walk.lines, f"HTML ({encoding})", "html", notes)


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


def _inline_text(el: lxml.html.HtmlElement) -> str:
    """Text of an element without its nested lists, tables and block children (read separately)."""
    parts: list[str] = [el.text or ""]
    for child in el:
        tag = child.tag.lower() if isinstance(child.tag, str) else ""
        if not tag or _skipped(child):
            parts.append(child.tail or "")
            continue
        if tag == "br":
            parts.append(" ")
        elif tag not in _LISTS and tag not in _BLOCKS and tag != "table" and tag not in _HEADINGS:
            parts.append(_inline_text(child))
        parts.append(child.tail or "")
    return "".join(parts)


def _block(el: lxml.html.HtmlElement, walk: _Walk, depth: int) -> None:
    """Walk a block: its own text is one line, then each child block in order."""
    if depth > MAX_DEPTH:
        return
    own = _inline_text(el)
    if own.strip():
        walk.add(own)
    for child in el:
        tag = child.tag.lower() if isinstance(child.tag, str) else ""
        if not tag:
            continue
        if _skipped(child):
            walk.skipped += 1
            continue
        if tag in _HEADINGS:
            text = _SPACE.sub(" ", child.text_content()).strip()
            number = _NUMBER_AT_START.match(text)
            if number:
                walk.section = number.group(1)
            walk.add(text, heading=True)
        elif tag in _LISTS:
            _list(child, walk, walk.section if tag == "ol" else None, depth + 1)
        elif tag == "table":
            _table(child, walk)
        elif tag == "li":
            _item(child, walk, None, depth + 1)
        elif tag in _BLOCKS or len(child):
            _block(child, walk, depth + 1)
        else:
            walk.add(_inline_text(child))
        if child.tail and child.tail.strip():
            walk.add(child.tail)


def _lettered(ol: lxml.html.HtmlElement) -> bool:
    kind = (ol.get("type") or "").strip()
    return kind in ("a", "A", "а") or bool(_LETTER_STYLES.search(ol.get("style") or ""))


def _list(ul: lxml.html.HtmlElement, walk: _Walk, base: str | None, depth: int) -> None:
    """A list: an `<ol>` under a numbered heading or item numbers its items; otherwise bullets."""
    if depth > MAX_DEPTH:
        return
    numbered = ul.tag.lower() == "ol" and base is not None
    lettered = numbered and _lettered(ul)
    try:
        count = int(ul.get("start") or "1") - 1
    except ValueError:
        count = 0
    for li in ul:
        if not isinstance(li.tag, str) or li.tag.lower() != "li" or _skipped(li):
            continue
        value = li.get("value")
        count = int(value) if value and value.isdigit() else count + 1
        cid: str | None = None
        if numbered and base is not None:
            if lettered:
                if 1 <= count <= len(walk.letters):
                    cid = base + walk.letters[count - 1]
            else:
                cid = f"{base}.{count}"
        if cid is not None and not ids.is_clause_id(cid):
            cid = None
        _item(li, walk, cid if numbered else None, depth, bullet=not numbered)


def _item(li: lxml.html.HtmlElement, walk: _Walk, cid: str | None, depth: int, bullet: bool = False) -> None:
    """One list item: its text as an entry (numbered) or a bullet, then nested blocks and lists."""
    own = _SPACE.sub(" ", _inline_text(li)).strip()
    explicit = _NUMBER_AT_START.match(own)
    number = explicit.group(1) if explicit else cid
    if own:
        if explicit or cid is None:
            walk.add("● " + own if bullet and not explicit else own, bullet=bullet and not explicit)
        else:
            walk.add(f"{cid}. {own}")
    for child in li:
        tag = child.tag.lower() if isinstance(child.tag, str) else ""
        if not tag or _skipped(child):
            continue
        if tag in _LISTS:
            _list(child, walk, number if tag == "ol" else None, depth + 1)
        elif tag == "table":
            _table(child, walk)
        elif tag in _BLOCKS or tag in _HEADINGS:
            _block(child, walk, depth + 1)


def _cells(row: lxml.html.HtmlElement) -> list[str]:
    return [
        _SPACE.sub(" ", cell.text_content()).strip()
        for cell in row
        if isinstance(cell.tag, str) and cell.tag.lower() in ("td", "th")
    ]


def _table(table: lxml.html.HtmlElement, walk: _Walk) -> None:
    """A two-column table is a glossary (term — definition); any other table is read row by row."""
    rows = [cells for row in table.iter("tr") if any(cells := _cells(row))]
    if not rows:
        return
    header = {c.casefold() for c in rows[0]}
    if header & {"термин", "понятие", "term"} or header & {"определение", "значение", "definition"}:
        rows = rows[1:]
    if all(len(r) == 2 for r in rows):
        for term, definition in rows:
            walk.add(f"● {term} — {definition}", bullet=True)
        return
    for r in rows:
        walk.add(" | ".join(c for c in r if c))

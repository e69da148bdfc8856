"""A list of linked entries drawn as ONE element of the page: the search's hits and ready answers,
a clause's related clauses and scenarios, the cards found and a card's scenarios and rulings.

Why (issue 24): a phone's browser spends most of a search's time building Streamlit elements
(React, one styled tree per element), not laying out the page. Ten hits drawn as a page link and a
Markdown block each were twenty elements and half the browser's work per search; as one element of
a custom component (st.components.v2, drawn in the page itself, no frame) the same list costs a
fraction of it.

What a reader gets is what the page links gave: each link is a real `<a href>` to the page's
address (copy it, open it in a new tab, share it); a plain tap opens the page inside the app, as a
page link does, through the trigger `go` and `follow`, which goes to the page only if it is one of
the app's (registry.PAGES) and its parameters are strings. Text is shown as text (the script sets
it with textContent): nothing from a rules file or a judge is parsed as HTML or Markdown.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import streamlit as st

from app_pages import registry
from app_pages.shared import components

Span = tuple[str, bool]  # a piece of text and whether it is bold (a matched word, a title)

_HERE = Path(__file__).resolve().parent  # linklist.js and linklist.css beside this file
NAME = "berserk_linklist"
_COMPONENT = st.components.v2.component(
    NAME,
    js=components.script(_HERE / "linklist.js"),
    css=components.asset(_HERE / "linklist.css"),
    # In the page, not in a shadow root: the page's text is one document for a reader's tools (find
    # in page, a screen reader, the words check of tests/test_browser_words.py); the style sheet's
    # rules are all under .linklist.
    isolate_styles=False,
)
# Bounds on what a tap may send back (the browser is not trusted): parameters of an app link are
# a few short strings.
_MAX_PARAMS = 8
_MAX_PARAM_LEN = 600


@dataclasses.dataclass(frozen=True)
class Link:
    """A link to a page of the app with these query parameters."""

    page: registry.Page
    params: Mapping[str, str]
    label: tuple[Span, ...]
    icon: str = ""  # a Material Symbols name («description»), or none


@dataclasses.dataclass(frozen=True)
class Para:
    """A paragraph: normal text, or a small grey note (muted); line breaks are kept."""

    spans: tuple[Span, ...]
    muted: bool = False
    icon: str = ""


@dataclasses.dataclass(frozen=True)
class Entry:
    """One entry: its link (the title line), its paragraphs, then a row of further links."""

    head: Link | None = None
    paras: tuple[Para, ...] = ()
    links: tuple[Link, ...] = ()


def icon_name(icon: str | None) -> str:
    """«:material/description:» (Streamlit's way of naming an icon) → «description»."""
    if icon and icon.startswith(":material/") and icon.endswith(":"):
        return icon[len(":material/") : -1]
    return ""


def _link(link: Link) -> dict[str, Any]:
    return {
        "href": registry.href(link.page, link.params),
        "go": {"page": link.page.key, "params": dict(link.params)},
        "label": [list(s) for s in link.label],
        "icon": link.icon,
    }


def payload(entries: Sequence[Entry], compact: bool = False) -> dict[str, Any]:
    """What the browser gets (JSON): the entries as the script draws them."""
    return {
        "compact": compact,
        "entries": [
            {
                "head": _link(e.head) if e.head is not None else None,
                "paras": [
                    {"spans": [list(s) for s in p.spans], "muted": p.muted, "icon": p.icon} for p in e.paras
                ],
                "links": [_link(x) for x in e.links],
            }
            for e in entries
        ],
    }


def target(value: object) -> tuple[registry.Page, dict[str, str]] | None:
    """The page and parameters a tap asks for, if they are an app page's; None for anything else
    (a value the script would not send)."""
    if not isinstance(value, Mapping):
        return None
    page = registry.by_key(value.get("page"))
    params = value.get("params", {})
    if page is None or not isinstance(params, Mapping) or len(params) > _MAX_PARAMS:
        return None
    if not all(isinstance(k, str) and isinstance(v, str) for k, v in params.items()):
        return None
    if any(len(k) + len(v) > _MAX_PARAM_LEN for k, v in params.items()):
        return None
    return page, dict(params)


Leaving = Callable[[registry.Page, dict[str, str]], None]


def follow(value: object, leaving: Leaving | None = None) -> None:
    """Open the page a tap asked for (a callback: Streamlit then runs that page); `leaving` is told
    first where the reader goes, while the page they leave is still the current one."""
    found = target(value)
    if found is not None:
        if leaving is not None:
            leaving(*found)
        registry.switch(*found)


def _tapped(key: str, leaving: Leaving | None) -> None:
    follow(components.sent(key, "go"), leaving)


def draw(
    key: str, entries: Sequence[Entry], leaving: Leaving | None = None, *, compact: bool = False
) -> None:
    """The entries as one element (its `st-key-<key>` class names it on the page); `leaving`, if
    given, is called with the page and parameters a tap on one of its links opens. A compact list
    (links one under another, as a menu) has no rule between its entries."""
    data = components.data(payload(entries, compact))  # bytes: no pandas (components says why)
    _COMPONENT(key=key, data=data, on_go_change=lambda: _tapped(key, leaving))

"""Driving the app under AppTest, shared by the page tests: open a page, read a link, undo the
Markdown escaping, and the desk's card form (no test here; tests import it, never each other)."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

from streamlit.testing.v1 import AppTest
from streamlit.testing.v1.element_tree import ButtonGroup

import engine
from app_pages import registry
from app_pages.shared.linklist import NAME as LINKLIST
from desk import board
from tests import helpers

ROOT = Path(__file__).resolve().parent.parent
APP = str(ROOT / "app.py")
ROOT_PAGE = registry.ROOT.script


def plain(markdown: str) -> str:
    """What Markdown shows for text escaped with common.escape_md."""
    return re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", markdown)


def open_page(page: str, **params: str) -> AppTest:
    """The app run once, then `page` opened with these query parameters."""
    at = AppTest.from_file(APP, default_timeout=30).run()
    at.query_params.clear()
    at.query_params.update(params)
    return at.switch_page(page).run()


def link_params(link: object) -> dict[str, str]:
    """The query parameters of a page link."""
    query = parse_qs(link.proto.query_string)  # type: ignore[attr-defined]
    return {k: v[0] for k, v in query.items()}


def paragraphs(block: object) -> list[str]:
    """The paragraphs of a block's Markdown elements, unescaped, in order."""
    values = [m.value for m in block.markdown]  # type: ignore[attr-defined]
    return [part.replace("\\", "") for v in values for part in v.split("\n\n")]


# Lists drawn as one element (app_pages/shared/linklist): the search's hits and ready answers.


@dataclass(frozen=True)
class Shown:
    """A paragraph of a list entry as the browser draws it."""

    text: str
    bold: bool  # all of it bold (a ready answer's question)
    muted: bool  # small and grey (a hit's «Как нашлось» note)
    icon: str  # the Material Symbols name before it, or ""


@dataclass(frozen=True)
class ShownLink:
    """A link as a reader meets it: a page link, or a link of a list drawn as one element."""

    page: str  # the page's address as a page link names it: "" for the root, "desk", …
    params: dict[str, str]
    label: str


def entries(element: object) -> list[dict[str, Any]]:
    """The entries a linklist element draws: the JSON the browser gets (as bytes)."""
    return list(json.loads(element.proto.bytes)["entries"])  # type: ignore[attr-defined]


def shown(element: object) -> list[Shown]:
    """Every paragraph of a linklist element's entries, in order."""
    out = []
    for entry in entries(element):
        for para in entry["paras"]:
            text = "".join(t for t, _ in para["spans"])
            bold = bool(para["spans"]) and all(b for _, b in para["spans"])
            out.append(Shown(text, bold, para["muted"], para["icon"]))
    return out


def _from_list(link: dict[str, Any]) -> ShownLink:
    page = next(p for p in registry.PAGES if p.key == link["go"]["page"])
    label = "".join(t for t, _ in link["label"])
    return ShownLink("" if page.default else page.url_path, dict(link["go"]["params"]), label)


def list_links(element: object) -> list[ShownLink]:
    """The links of a linklist element: each entry's own, then the row under it."""
    out = []
    for entry in entries(element):
        heads = [entry["head"]] if entry["head"] else []
        out += [_from_list(x) for x in [*heads, *entry["links"]]]
    return out


def shown_links(at: object) -> list[ShownLink]:
    """Every link the page (or a block of it) shows, in page order: page links and the links of
    lists drawn as one element."""
    out: list[ShownLink] = []
    for node in at:  # type: ignore[attr-defined]
        if getattr(node, "type", "") == "page_link":
            out.append(ShownLink(node.proto.page, link_params(node), node.proto.label))
        elif getattr(node, "type", "") == "bidi_component" and node.proto.component_name == LINKLIST:
            out += list_links(node)
    return out


def clause_links(at: AppTest) -> list[str]:
    """The clause ids the page links, in page order."""
    return [link.params.get("p", "") for link in shown_links(at)]


def hit_links(at: AppTest) -> list[str]:
    """The clause search hits, in rank order (other blocks of the page may link clauses too)."""
    out: list[str] = []
    for key in ("search_hits", "search_hits_more"):  # the best hits, then (after ready answers) the rest
        try:
            found = at.get_by_key(key)
        except KeyError:  # no other hits
            continue
        out += [link.params.get("p", "") for link in list_links(found)]
    return out


# The desk ---------------------------------------------------------------------------------------


def open_desk(**params: str) -> AppTest:
    """The desk page, opened with these query parameters (without an exception), every folded
    part open, as a judge who tapped them all."""
    at = AppTest.from_file(APP, default_timeout=60)
    for k, v in params.items():
        at.query_params[k] = v
    at.run()
    helpers.unfold(at).switch_page(registry.DESK.script).run()
    assert not at.exception, at.exception
    return at


def form_key(at: AppTest, prefix: str) -> str:
    """The key stem of the open card form (its keys are fresh for every form)."""
    keys = [w.key for w in at.text_input if w.key and w.key.startswith(prefix) and w.key.endswith("_name")]
    assert len(keys) == 1, keys
    return keys[0].removesuffix("_name")


def _half(at: AppTest, cell: str) -> tuple[ButtonGroup[str], int]:
    """The pills of the half of the field that holds `cell`, and the cell's place among its tiles."""
    player = engine.half_of(cell)
    return at.button_group(key=f"desk_half_{player}"), board.half_cells(player).index(cell)


def tap(at: AppTest, cell: str) -> AppTest:
    """A tap on the field's tile of `cell` (an option of its half's pills)."""
    group, _ = _half(at, cell)
    return group.set_value(cell).run()


def tile_label(at: AppTest, cell: str) -> str:
    """The Markdown the tile of `cell` shows."""
    group, n = _half(at, cell)
    return group.options[n]


def half_help(at: AppTest, cell: str) -> str:
    """The tooltip of the half of the field that holds `cell` (each tile's story)."""
    group, _ = _half(at, cell)
    return group.help or ""


def targets(at: AppTest, kind: str) -> dict[str, str]:
    """The selected card's targets for an action (the options of its pills, as shown) → why each is
    marked so (its paragraph of the pills' tooltip)."""
    group: ButtonGroup[int] = at.button_group(key=f"desk_q_{kind}")
    why = plain(group.help or "").split("\n\n")
    return dict(zip([plain(o) for o in group.options], why, strict=True))


def pick(at: AppTest, kind: str, label: str) -> AppTest:
    """A tap on the target of this action whose label starts with `label`."""
    group: ButtonGroup[int] = at.button_group(key=f"desk_q_{kind}")
    labels = [plain(o) for o in group.options]
    return group.set_value(next(i for i, shown in enumerate(labels) if shown.startswith(label))).run()


def place(at: AppTest, cell: str, name: str, owner: str = "", cid: str = "", own: bool = False) -> AppTest:
    """A click on the empty cell, the card's name (and owner, id), «Положить» (or «… своей картой»)."""
    at = tap(at, cell)
    key = form_key(at, "desk_new_")
    at.text_input(key=f"{key}_name").input(name)
    if owner:
        at.radio(key=f"{key}_owner").set_value(owner)
    if cid:
        at.text_input(key=f"{key}_id").input(cid)
    at = at.button(key=f"{key}_put").click().run()
    if own:  # an unknown name is never placed as an own card unasked: the own-card button says so
        assert any(e.value.startswith("Такой карты в библиотеке нет") for e in at.error)
        at = at.button(key=f"{key}_put_own").click().run()
    assert not at.exception, at.exception
    return at


# The rules page's uploads ----------------------------------------------------------------------

GOOD_RULES = (
    "900. Пробный раздел.\n\n"
    "900.1. Первый пункт пробных правил, ссылается на 900.2.\n\n"
    "900.2. Второй пункт. [ссылка](http://evil.example/) ![x](http://evil.example/x.png) "
    "<b>жирный</b> :red[красный] www.evil.example $x^2$\n\n"
    "РП 9.9 от 01.01.2030"
)


def loaded_version(at: AppTest) -> str:
    """The «Версия …» line of the rules page: which rules the window reads."""
    return next(m.value for m in at.markdown if "Версия" in m.value).replace("\\", "")


def stored_versions(root: Path) -> list[str]:
    """The rules versions saved in the rules store at `root`."""
    return sorted(p.name for p in root.iterdir() if p.is_dir()) if root.exists() else []

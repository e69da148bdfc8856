"""Driving the app under AppTest, shared by the page tests: open a page, read a link, undo the
Markdown escaping, and the desk's card form (no test here; tests import it, never each other)."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import parse_qs

from streamlit.testing.v1 import AppTest
from streamlit.testing.v1.element_tree import ButtonGroup

import engine
from app_pages import registry
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
    """The paragraphs of a block's Markdown elements, unescaped, in order: a search hit's snippet
    and its «Как нашлось» note, a ready answer's title, answer and verdict, are one element each."""
    values = [m.value for m in block.markdown]  # type: ignore[attr-defined]
    return [part.replace("\\", "") for v in values for part in v.split("\n\n")]


def clause_links(at: AppTest) -> list[str]:
    """The clause ids the page links, in page order."""
    return [link_params(link).get("p", "") for link in at.page_link]


def hit_links(at: AppTest) -> list[str]:
    """The clause search hits, in rank order (other blocks of the page may link clauses too)."""
    out: list[str] = []
    for key in ("search_hits", "search_hits_more"):  # the best hits, then (after ready answers) the rest
        try:
            found = at.get_by_key(key)
        except KeyError:  # no other hits
            continue
        out += [link_params(link).get("p", "") for link in found.page_link]
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

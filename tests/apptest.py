"""Driving the app under AppTest, shared by the page tests: open a page, read a link, undo the
Markdown escaping, and the desk's card form (no test here; tests import it, never each other)."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

from streamlit.components.v2.bidi_component.main import _make_trigger_id
from streamlit.testing.v1 import AppTest
from streamlit.testing.v1.element_tree import UnknownElement

from app_pages import registry
from app_pages.desk import board as desk_board
from app_pages.shared.linklist import NAME as LINKLIST
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
    page = registry.by_key(link["go"]["page"])
    assert page is not None, link
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


def _components(at: AppTest) -> list[UnknownElement]:
    """The page's elements drawn by components of our own (the desk's field and rows of buttons)."""
    return [e for e in at.get("bidi_component") if isinstance(e, UnknownElement)]


def _data(element: UnknownElement) -> dict[str, Any]:
    """What a component was given to show (UTF-8 JSON bytes)."""
    data: dict[str, Any] = json.loads(element.proto.bytes.decode("utf-8"))
    return data


def _trigger(at: AppTest, element: UnknownElement, value: object) -> AppTest:
    """What a press in the browser sends: the component's "tap" trigger with `value`, beside the
    page's widgets as they are. AppTest has no way to press inside a component, so this adds the
    trigger's widget state to the next run the way the browser does (Streamlit's own trigger id and
    payload), and the run takes the same path: the component's callback, then the script."""
    states = at._tree.get_widget_states()
    trigger = states.widgets.add()
    trigger.id = _make_trigger_id(element.proto.id, "events")
    trigger.json_trigger_value = json.dumps([{"event": desk_board.TAP, "value": value}])
    return at._run(states)


def _field_element(at: AppTest) -> UnknownElement:
    """The desk's field: the one element of its component (app_pages/desk/board.py)."""
    found = [e for e in _components(at) if e.key == desk_board.KEY]
    assert len(found) == 1, found
    return found[0]


def field(at: AppTest) -> dict[str, Any]:
    """What the field shows: the data its component was given (halves, tiles, cards outside)."""
    return _data(_field_element(at))


def _tile(at: AppTest, cell: str) -> dict[str, Any]:
    return next(t for half in field(at)["halves"] for t in half["tiles"] if t["cell"] == cell)


def tile_lines(at: AppTest, cell: str) -> list[str]:
    """The lines the tile of `cell` shows, top down (empty lines are not drawn): the cell with what
    a tap gives, the card's name (in bold), its state, the symbiote on it."""
    tile = _tile(at, cell)
    return [tile[part] for part in ("head", "name", "facts", "sym") if tile.get(part)]


def tile_tip(at: AppTest, cell: str) -> str:
    """The tooltip of the tile of `cell` (its whole story)."""
    return desk_board.tip_of(field(at), _tile(at, cell))


def tap(at: AppTest, cell: str) -> AppTest:
    """A tap on the field's tile of `cell`."""
    return _trigger(at, _field_element(at), {"cell": cell})


def tap_card(at: AppTest, cid: str) -> AppTest:
    """A tap on a card outside the field (its button under its zone)."""
    return _trigger(at, _field_element(at), {"card": cid})


def _walk(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Rows of buttons, and those in the folded parts among them that are open."""
    return [r for row in rows for r in ([row, *_walk(row["rows"])] if "fold" in row else [row])]


def rows(at: AppTest) -> dict[str, dict[str, Any]]:
    """The panel's rows of buttons (app_pages/desk/taps.py), by id, in the order drawn (a folded
    part is a row too, with the rows it shows while open after it)."""
    found = [e for e in _components(at) if (e.key or "").startswith("desk_taps")]
    return {row["id"]: row for e in found for row in _walk(_data(e)["rows"])}


def buttons(at: AppTest) -> dict[str, dict[str, Any]]:
    """The buttons of the panel's rows, by id (the keys the buttons had as widgets: desk_undo …)."""
    return {item["id"]: item for row in rows(at).values() for item in row.get("items", [])}


def press(at: AppTest, button: str) -> AppTest:
    """A press of the button of the panel's rows with this id (it must be there and enabled)."""
    for element in _components(at):
        if (element.key or "").startswith("desk_taps"):
            items = {i["id"]: i for row in _walk(_data(element)["rows"]) for i in row.get("items", [])}
            if button in items:
                assert not items[button].get("disabled"), f"{button} is disabled"
                return _trigger(at, element, button)
    raise AssertionError(f"no button {button} on the panel: {sorted(buttons(at))}")


def send(at: AppTest, key: str, value: object) -> AppTest:
    """Whatever a browser might send as the "tap" trigger of the component drawn with `key` (the
    field's, desk_board, or a row of buttons', desk_taps_0 …)."""
    (element,) = [e for e in _components(at) if e.key == key]
    return _trigger(at, element, value)


# Our elements that draw folded parts: the panel's rows of buttons, and the summaries of the closed
# parts under the field (app_pages.desk.session.Folds).
_FOLDING = ("desk_taps", "desk_folds")


def folded(at: AppTest) -> dict[str, str]:
    """The closed parts under the field, drawn as summaries (session.Folds): their keys and labels."""
    found = [e for e in _components(at) if (e.key or "").startswith("desk_folds")]
    return {row["id"]: row["fold"] for e in found for row in _data(e)["rows"]}


def open_fold(at: AppTest, fold: str, open_: bool = True) -> AppTest:
    """A tap on the summary of the folded part `fold`: the panel's (desk_more, desk_closed), or a
    closed part under the field (desk_text, desk_save …)."""
    for element in _components(at):
        if (element.key or "").startswith(_FOLDING) and fold in [
            r["id"] for r in _walk(_data(element)["rows"])
        ]:
            return _trigger(at, element, {"fold": fold, "open": open_})
    raise AssertionError(f"no folded part {fold}: {sorted(rows(at))}, {sorted(folded(at))}")


def targets(at: AppTest, kind: str) -> dict[str, str]:
    """The selected card's targets for an action (its row's buttons, as shown) → why each is marked
    so (its line under «почему»)."""
    row = rows(at)[f"desk_q_{kind}"]
    return dict(zip([i["text"] for i in row["items"]], row["why"], strict=True))


def pick(at: AppTest, kind: str, label: str) -> AppTest:
    """A tap on the target of this action whose label starts with `label`."""
    row = rows(at)[f"desk_q_{kind}"]
    return press(at, next(i["id"] for i in row["items"] if i["text"].startswith(label)))


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

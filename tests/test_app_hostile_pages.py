"""Every page with a hostile card base, hostile rules and a hostile `?desk=` link (issue 26): no
traceback, and no text a page renders as Markdown holds a payload verbatim (an image, a link, raw
HTML, a bare address GitHub-flavoured Markdown would turn into a link). Before, the desk's choice
pills and buttons and the card page's heading showed card names as Markdown: a base could make
the browser fetch an image from any address. tests/test_browser_hostile.py checks what chromium
draws and fetches; this walk covers every page and state quickly.

What is checked: the Markdown of every element that renders it (markdown, captions, alerts,
headings, buttons, page links, pills, radio options, checkboxes, expanders, tabs, dialogs, help
tooltips). Plain-text elements (st.text, code, tables, select boxes, text boxes) show a payload
as the characters it is, which is right.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import pytest
from google.protobuf.message import Message
from hypothesis import given, settings
from streamlit.testing.v1 import AppTest
from streamlit.testing.v1 import element_tree as et

import engine
from app_pages import registry
from app_pages.shared import common
from tests import hostile_data, hostile_text
from tests.apptest import APP, list_links, tap

# Element kinds whose strings are rendered as Markdown by Streamlit's frontend.
MARKDOWN_KINDS = (
    et.Markdown,
    et.AlertBase,
    et.HeadingBase,
    et.Button,
    et.DownloadButton,
    et.PageLink,
    et.ButtonGroup,
    et.Radio,
    et.Checkbox,
    et.Toggle,
    et.Toast,
    et.Metric,
    et.Expander,
    et.Tab,
)
PLAIN_FIELDS = {"key", "id", "form_id", "page", "page_script_hash", "query_string", "icon", "url"}


def _strings(message: Message) -> Iterator[str]:
    for field, value in message.ListFields():
        if field.name in PLAIN_FIELDS:
            continue
        values = value if isinstance(value, Sequence) and not isinstance(value, str) else [value]
        for v in values:
            if isinstance(v, str):
                yield v
            elif isinstance(v, Message):
                yield from _strings(v)


def _nodes(node: Any) -> Iterator[Any]:
    yield node
    for child in getattr(node, "children", {}).values():
        yield from _nodes(child)


def rendered_markdown(at: AppTest) -> list[str]:
    out: list[str] = []
    for node in _nodes(at._tree):
        if isinstance(node, MARKDOWN_KINDS) or type(node).__name__ == "Dialog":
            proto = getattr(node, "proto", None)
            if isinstance(proto, Message):
                out.extend(_strings(proto))
    return out


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str, str]]:
    """The hostile rules and base as the defaults of fresh stores; (rules id, base id, desk token)."""
    with hostile_data.installed(tmp_path_factory.mktemp("hostile")) as (rules_id, base_id):
        yield rules_id, base_id, hostile_data.desk_token(engine.load_library())


def _open(page: str, **params: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60).run()
    at.query_params.clear()
    at.query_params.update(params)
    at.switch_page(page).run()
    return at


def _check(at: AppTest, where: str) -> None:
    assert not at.exception, (where, [e.message for e in at.exception])
    leaks = [
        (s, bad.pattern) for s in rendered_markdown(at) for bad in hostile_data.UNESCAPED if bad.search(s)
    ]
    assert not leaks, (where, leaks[:5])


def _first_card(base_id: str) -> str:
    from cardbase import store as card_store

    loaded = card_store.default_store().load(base_id)
    return loaded.records[0].id


PAGES = [
    ("search", registry.ROOT.script, {}),
    ("search for a card", registry.ROOT.script, {"q": "Степной дозорный"}),
    ("search for a clause", registry.ROOT.script, {"q": "первый пункт сюда"}),
    ("a clause", registry.ROOT.script, {"p": "900.1"}),
    ("the clause page", registry.CLAUSE.script, {"p": "900.2"}),
    ("the section", registry.CLAUSE.script, {"p": "900"}),
    ("the graph", registry.GRAPH.script, {"s": "900"}),
    ("the rules", registry.RULES_PAGE.script, {}),
    ("the changes", registry.CHANGES.script, {}),
    ("the cards", registry.CARDS.script, {}),
    ("the journal", registry.JOURNAL.script, {}),
    ("a hostile ruling", registry.JOURNAL.script, {"r": "1"}),
]


@pytest.mark.parametrize(("where", "page", "params"), PAGES, ids=[p[0] for p in PAGES])
def test_no_page_renders_a_payload_as_markup(
    hostile: tuple[str, str, str], where: str, page: str, params: dict[str, str]
) -> None:
    _check(_open(page, **params), where)


def test_the_card_list_and_a_card_page_escape_every_name(hostile: tuple[str, str, str]) -> None:
    from cardbase import store as card_store

    _, base_id, _ = hostile
    at = _open(registry.CARDS.script)
    at.text_input(key="cards_query").input("а").run()
    _check(at, "the card list")
    # the hostile names are listed, each as the text it is (the list sets it as text, never
    # parsed: test_browser_hostile shows it in a browser)
    names = {r.name for r in card_store.default_store().load(base_id).records}
    listed = [link.label for link in list_links(at.get_by_key("cards_hits"))]
    assert len(listed) > 3 and set(listed) <= names, listed
    _check(_open(registry.CARDS.script, card=_first_card(base_id), base=base_id), "a card page")


def test_the_desk_from_a_hostile_link_escapes_names_in_pills_and_buttons(
    hostile: tuple[str, str, str],
) -> None:
    token = hostile[2]
    at = _open(registry.DESK.script, desk=token)
    _check(at, "the desk from a link")
    tap(at, "c2")  # select the hostile own card: its actions show
    _check(at, "the desk with a card selected")
    assert at.get("button_group") or at.button, "the selected card's actions are on the page"
    tap(at, "a1")  # an empty cell: the card form with the base's names
    _check(at, "the desk's card form")


@settings(max_examples=300, deadline=None)
@given(hostile_text.markup())
def test_escaped_text_never_holds_a_payload_unescaped(raw: str) -> None:
    shown = common.escape_md(raw)
    assert not [bad.pattern for bad in hostile_data.UNESCAPED if bad.search(shown)], shown

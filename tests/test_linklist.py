"""The list drawn as one element (app_pages/shared/linklist): what it sends the browser, and what a
tap may ask of the server (the browser is not trusted: only an app page, with string parameters)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from app_pages import registry
from app_pages.shared import linklist
from tests.apptest import APP


def test_a_link_is_the_pages_relative_address_and_what_the_tap_sends() -> None:
    root = linklist.Link(
        registry.ROOT, {"p": "211.4", "v": "РП 4.1-2"}, (("211.4", True), (" · Симбиоты", False))
    )
    desk = linklist.Link(
        registry.DESK, {"scn": "scenarios/official/211.3.1_karlik_und.yaml"}, (("Стол", False),)
    )
    sent = linklist.payload([linklist.Entry(head=root, links=(desk,))])["entries"][0]
    assert sent["head"]["href"] == "./?p=211.4&v=%D0%A0%D0%9F%204.1-2"  # the root, under any base path
    assert sent["head"]["go"] == {"page": "root", "params": {"p": "211.4", "v": "РП 4.1-2"}}
    assert sent["links"][0]["href"] == "./desk?scn=scenarios/official/211.3.1_karlik_und.yaml"
    assert linklist.target(sent["links"][0]["go"]) == (registry.DESK, {"scn": desk.params["scn"]})


def test_text_goes_as_it_is_with_its_bold_pieces() -> None:
    para = linklist.Para((("<b>x</b> **y** ", False), ("хозяин", True)), muted=True)
    sent = linklist.payload([linklist.Entry(paras=(para,))])["entries"][0]
    assert sent == {
        "head": None,
        "paras": [{"spans": [["<b>x</b> **y** ", False], ["хозяин", True]], "muted": True, "icon": ""}],
        "links": [],
    }


@pytest.mark.parametrize(
    "value",
    [
        None,
        "./?p=211.4",
        {"page": "nowhere", "params": {}},
        {"page": "root", "params": {"p": 211}},
        {"page": "root", "params": ["p", "211.4"]},
        {"page": "root", "params": {f"k{i}": "v" for i in range(20)}},
        {"page": "root", "params": {"p": "1" * 10_000}},
    ],
)
def test_a_tap_asking_for_anything_else_goes_nowhere(value: object) -> None:
    assert linklist.target(value) is None


def test_icon_names() -> None:
    assert linklist.icon_name(":material/description:") == "description"
    assert linklist.icon_name("📘") == "" and linklist.icon_name(None) == ""


def test_a_search_does_not_import_pandas() -> None:
    # A dict given to a component is searched for data frames, which imports pandas: 0.4 s and tens
    # of MB on a server's first search. The list goes as the bytes of its JSON instead.
    script = (
        "import sys\n"
        "from streamlit.testing.v1 import AppTest\n"
        f"at = AppTest.from_file({str(APP)!r}, default_timeout=60)\n"
        "at.query_params['q'] = 'хост умер'\n"
        "at.run()\n"
        "assert not at.exception, at.exception\n"
        "print(len(at.get('bidi_component')), 'pandas' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=300, check=True
    )
    assert done.stdout.split()[-2:] == ["3", "False"], done.stdout + done.stderr

"""The pages are declared once (app_pages/registry.py): the menu, every link and every test open them
from that declaration, no page's file path is written anywhere else, and a wrong declaration fails
at import, naming the page."""

from __future__ import annotations

import ast
import pathlib
import re

import pytest

from app_pages import registry

ROOT = pathlib.Path(__file__).resolve().parent.parent
REGISTRY = ROOT / "app_pages" / "registry.py"
PAGE_FILE = re.compile(r"app_pages/[\w/]+\.py")
NOWHERE = registry.GRAPH.script.replace("graph", "nowhere")  # a page file that does not exist


def _python_files() -> list[pathlib.Path]:
    out = [ROOT / "app.py"]
    for folder in sorted(p for p in ROOT.iterdir() if p.is_dir() and not p.name.startswith(".")):
        out.extend(sorted(folder.rglob("*.py")))
    return [p for p in out if p != REGISTRY and ".venv" not in p.parts]


def _strings(path: pathlib.Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
    ]


def test_the_walk_sees_the_pages_and_the_tests() -> None:
    names = {str(p.relative_to(ROOT)) for p in _python_files()}
    assert {"app.py", registry.DESK.script, "tests/test_app_desk.py", "casebook/answers.py"} <= names
    assert "app_pages/registry.py" not in names


def test_no_page_file_is_named_outside_the_registry() -> None:
    """Neither a page's file nor a file that is gone (a page's old path) is written anywhere else."""
    scripts = {p.script for p in registry.PAGES}
    found = [
        f"{path.relative_to(ROOT)}:{line}: {m.group()}"
        for path in _python_files()
        for line, text in _strings(path)
        for m in PAGE_FILE.finditer(text)
        if m.group() in scripts or not (ROOT / m.group()).is_file()
    ]
    assert found == []


def test_no_page_address_is_built_outside_the_registry() -> None:
    """The app's code links by declaration; only tests type an address, as a judge would."""
    address = re.compile(r"^/(?:{})(?:\?|$)".format("|".join(p.url_path for p in registry.PAGES)))
    found = [
        f"{path.relative_to(ROOT)}:{line}: {text}"
        for path in _python_files()
        if "tests" not in path.relative_to(ROOT).parts
        for line, text in _strings(path)
        if address.match(text)
    ]
    assert found == []


def test_every_page_script_is_declared_and_every_declaration_is_a_page() -> None:
    """A page is a file that runs itself as Streamlit runs it (`if __name__ == "__main__"`)."""
    scripts = {
        str(p.relative_to(ROOT))
        for p in (ROOT / "app_pages").rglob("*.py")
        if '__name__ == "__main__"' in p.read_text(encoding="utf-8")
    }
    assert scripts == {p.script for p in registry.PAGES}


def test_the_menu_holds_every_page_once_and_the_root_is_the_only_default() -> None:
    assert [p.key for p in registry.PAGES if p.default] == ["root"]
    assert len({p.url_path for p in registry.PAGES}) == len(registry.PAGES)
    assert {p.section for p in registry.PAGES} == set(registry.SECTIONS)
    assert all(registry.may_open(p, judge_signed_in=False) for p in registry.PAGES)  # players read everything


def test_an_address_is_the_page_and_its_query() -> None:
    assert registry.address(registry.DESK, {"scn": "scenarios/a b.yaml"}) == "/desk?scn=scenarios/a%20b.yaml"
    assert registry.address(registry.JOURNAL, (("r", "3"),)) == "/journal?r=3"
    assert registry.address(registry.CARDS) == "/cards"
    # a link drawn in a page: relative to the app's address, the root served at it
    assert registry.href(registry.ROOT, {"p": "211.4"}) == "./?p=211.4"
    assert registry.href(registry.DESK, {"scn": "scenarios/a b.yaml"}) == "./desk?scn=scenarios/a%20b.yaml"
    assert registry.by_key("desk") is registry.DESK and registry.by_key("nowhere") is None


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"script": NOWHERE}, f"файла {NOWHERE} нет"),
        ({"url_path": "desk"}, "desk уже объявлен у страницы «desk»"),
        ({"section": "Прочее"}, "раздела меню «Прочее» нет"),
        ({"opens": "head"}, "кто открывает"),
        ({"url_path": "a/b"}, "одно слово без «/»"),
        ({"default": True}, "страница по умолчанию должна быть одна"),
    ],
)
def test_a_wrong_declaration_fails_naming_the_page(change: dict[str, object], message: str) -> None:
    import dataclasses

    extra = dataclasses.replace(dataclasses.replace(registry.GRAPH, key="extra", url_path="extra"), **change)
    pages = [p for p in registry.PAGES if p.key != "graph"]
    with pytest.raises(ValueError, match=re.escape(message)):
        registry.declare(*pages, extra)

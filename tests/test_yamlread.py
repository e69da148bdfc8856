"""One way to read YAML (rules_index/yamlread.py): the safe loader, problems in Russian with the
place, and no other module loading YAML on its own."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from rules_index import yamlread

ROOT = Path(__file__).resolve().parent.parent
# Building values from YAML text anywhere else would bring back a second loader and a second set
# of messages; casebook/nodes.py composes located nodes instead (its docstring says why).
LOADING = re.compile(r"\byaml\.(?:safe_load|load|load_all|full_load|unsafe_load|compose|parse)\(|CSafeLoader")
ALLOWED = {"rules_index/yamlread.py", "casebook/nodes.py"}


def test_only_the_helper_and_the_scenario_reader_load_yaml() -> None:
    sources = [
        p
        for p in sorted(ROOT.rglob("*.py"))
        if not any(part == "tests" or part.startswith(".") for part in p.relative_to(ROOT).parts)
    ]
    found = {str(p.relative_to(ROOT)) for p in sources if LOADING.search(p.read_text(encoding="utf-8"))}
    assert found == ALLOWED, sorted(found - ALLOWED)


@pytest.mark.parametrize("loader", [yaml.SafeLoader, yamlread.LOADER], ids=["python", "default"])
@pytest.mark.parametrize(
    ("text", "reason", "line"),
    [
        ("a: [1\n", "в списке […] пропущена запятая или «]»", 2),
        ("a: {b: 1\n", "в словаре {…} пропущена запятая или «}»", 2),
        ("a: b: c\n", "двоеточие там, где его не ждали", 1),
        ('a: "b\n', "файл оборвался: не закрыта кавычка или скобка", 2),
        ("a: 1\n---\nb: 2\n", "в файле больше одного документа (---)", 2),
        ("a: *x\n", "ссылка *… на якорь &…, которого нет", 1),
        ("a: !x 1\n", "неизвестный тег «!…»", 1),
        ("# a\n  b: 1\nc: 2\n", "лишний отступ у строки верхнего уровня", 3),
    ],
)
def test_problems_are_said_in_russian_with_the_place(
    loader: type[yaml.SafeLoader], text: str, reason: str, line: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(yamlread, "LOADER", loader)
    with pytest.raises(yamlread.YamlError) as caught:
        yamlread.load_text(text)
    exc = caught.value
    assert exc.reason.startswith(reason) and exc.line == line, (exc.reason, exc.line)
    assert str(exc).startswith(f"строка {line}, позиция {exc.column}: ошибка YAML ({reason}")
    assert exc.where == f", строка {line}, позиция {exc.column}"


def test_a_tab_is_named_where_the_parser_names_it() -> None:
    # The pure-Python parser (the scenario reader's) names the character; libyaml does not.
    with pytest.raises(yaml.YAMLError) as caught:
        yaml.load("a:\n\t- 1\n", Loader=yaml.SafeLoader)
    assert yamlread.explain(caught.value) == "табуляция: для отступов используйте пробелы"


def test_files_that_cannot_be_read(tmp_path: Path) -> None:
    with pytest.raises(yamlread.YamlError, match=r"^файл не читается: "):
        yamlread.load_file(tmp_path / "нет.yaml")
    latin1 = tmp_path / "latin1.yaml"
    latin1.write_bytes("a: é\n".encode("latin-1"))
    with pytest.raises(yamlread.YamlError, match=r"не в кодировке UTF-8 \(байт 4\)") as caught:
        yamlread.load_file(latin1)
    assert caught.value.where == ""
    good = tmp_path / "good.yaml"
    good.write_text("clause: '211.10'\nlist: [1, 2]\n", encoding="utf-8")
    assert yamlread.load_file(good) == {"clause": "211.10", "list": [1, 2]}

"""Safe YAML reading for scenario files, keeping the line of every value.

The text is composed to nodes with PyYAML's safe loader (never constructed as a whole), so
every value keeps the line it came from and every error can name the file, the line and the
key. Only plain YAML is accepted: no Python or custom tags, no anchors and aliases (they make
a small file expand without bound), no duplicate keys.
"""

from __future__ import annotations

import dataclasses

import yaml
import yaml.constructor
import yaml.nodes

# The largest scenario file we read. Real scenarios are a few kilobytes; the limit keeps an
# upload from tying up a shared server.
MAX_BYTES = 256 * 1024

_STANDARD_TAGS = frozenset(
    {
        "tag:yaml.org,2002:str",
        "tag:yaml.org,2002:int",
        "tag:yaml.org,2002:float",
        "tag:yaml.org,2002:bool",
        "tag:yaml.org,2002:null",
        "tag:yaml.org,2002:map",
        "tag:yaml.org,2002:seq",
    }
)
INT_TAG = "tag:yaml.org,2002:int"
FLOAT_TAG = "tag:yaml.org,2002:float"


@dataclasses.dataclass(frozen=True)
class Problem:
    """One thing wrong in a scenario file, located."""

    file: str
    line: int | None
    key: str | None
    message: str

    def __str__(self) -> str:
        where = self.file
        if self.line is not None:
            where += f", строка {self.line}"
        if self.key:
            where += f", ключ «{self.key}»"
        return f"{where}: {self.message}"


class ScenarioError(ValueError):
    """A scenario file that cannot be used; the message names file, line and key in Russian."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = list(problems)
        super().__init__("\n".join(str(p) for p in self.problems))

    @property
    def file(self) -> str:
        return self.problems[0].file if self.problems else ""

    @property
    def line(self) -> int | None:
        return self.problems[0].line if self.problems else None

    @property
    def key(self) -> str | None:
        return self.problems[0].key if self.problems else None


@dataclasses.dataclass(frozen=True)
class YScalar:
    """A scalar with its resolved tag, its source text and style (quoted or plain)."""

    value: object
    tag: str
    text: str
    plain: bool
    line: int


@dataclasses.dataclass(frozen=True)
class YSeq:
    items: tuple[YNode, ...]
    line: int


@dataclasses.dataclass(frozen=True)
class YMap:
    """A mapping: string keys in file order, each with its line."""

    items: tuple[tuple[str, int, YNode], ...]
    line: int

    def keys(self) -> list[str]:
        return [k for k, _, _ in self.items]

    def get(self, key: str) -> YNode | None:
        for k, _, v in self.items:
            if k == key:
                return v
        return None

    def key_line(self, key: str) -> int:
        for k, line, _ in self.items:
            if k == key:
                return line
        return self.line


YNode = YScalar | YSeq | YMap


def too_large(size: int) -> str:
    return f"файл слишком большой: {size} байт, допускается не больше {MAX_BYTES}"


def _error(file: str, line: int | None, key: str | None, message: str) -> ScenarioError:
    return ScenarioError([Problem(file, line, key, message)])


def _line(node: yaml.nodes.Node) -> int:
    return int(node.start_mark.line) + 1


def read_yaml(text: str, file: str) -> YNode | None:
    """Parse one YAML document into located nodes.

    Raises:
        ScenarioError: the text is too large, not YAML, or uses tags, anchors or duplicate keys.
    """
    size = len(text.encode("utf-8"))
    if size > MAX_BYTES:
        raise _error(file, None, None, too_large(size))
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = int(mark.line) + 1 if mark is not None else None
        what = exc.problem or exc.context or "ошибка разметки"
        hint = "проверьте отступы, кавычки и двоеточия"
        raise _error(file, line, None, f"это не корректный YAML ({what}); {hint}") from None
    except yaml.YAMLError as exc:
        raise ScenarioError([Problem(file, None, None, f"это не корректный YAML ({exc})")]) from None
    if node is None:
        return None
    return _convert(node, file, set())


def _convert(node: yaml.nodes.Node, file: str, seen: set[int]) -> YNode:
    line = _line(node)
    if node.tag not in _STANDARD_TAGS:
        raise ScenarioError(
            [
                Problem(
                    file,
                    line,
                    None,
                    f"недопустимый тег YAML «{node.tag}»: сценарий содержит только обычные значения"
                    " (строки, числа, да/нет, списки, словари)",
                )
            ]
        )
    if id(node) in seen:
        raise ScenarioError(
            [Problem(file, line, None, "ссылки YAML (&якорь и *ссылка) в сценариях не поддерживаются")]
        )
    seen.add(id(node))
    if isinstance(node, yaml.nodes.ScalarNode):
        constructor = yaml.constructor.SafeConstructor()
        try:
            value = constructor.construct_object(node, deep=True)
        except yaml.constructor.ConstructorError as exc:
            raise ScenarioError([Problem(file, line, None, f"непонятное значение: {exc.problem}")]) from None
        plain = node.style is None
        return YScalar(value=value, tag=str(node.tag), text=str(node.value), plain=plain, line=line)
    if isinstance(node, yaml.nodes.SequenceNode):
        return YSeq(items=tuple(_convert(child, file, seen) for child in node.value), line=line)
    assert isinstance(node, yaml.nodes.MappingNode)
    items: list[tuple[str, int, YNode]] = []
    names: set[str] = set()
    for key_node, value_node in node.value:
        key_line = _line(key_node)
        if key_node.tag == "tag:yaml.org,2002:merge":
            raise _error(file, key_line, "<<", "слияние словарей (<<) в сценариях не поддерживается")
        if not isinstance(key_node, yaml.nodes.ScalarNode):
            raise ScenarioError([Problem(file, key_line, None, "ключ словаря должен быть простым словом")])
        key = str(key_node.value)
        if key in names:
            raise ScenarioError([Problem(file, key_line, key, "ключ повторяется в одном словаре")])
        names.add(key)
        items.append((key, key_line, _convert(value_node, file, seen)))
    return YMap(items=tuple(items), line=line)

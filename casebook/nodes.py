"""Safe YAML reading for scenario files: located nodes, limits, and a reader that collects problems.

The text is composed to nodes with PyYAML's safe loader (never constructed as a whole), so
every value keeps the line it came from and every error can name the file, the line and the
key. Only plain YAML is accepted: no Python or custom tags, no anchors and aliases (they make
a small file expand without bound), no duplicate keys.

This is the one reader that does not go through `rules_index.yamlread.load_text`: that builds
values, and a scenario's messages need each value's line. It composes with PyYAML's pure-Python
safe loader on purpose: that parser names the character it stopped at (a tab becomes «табуляция»
in the message, where libyaml says only «found character»), and a scenario is at most 256 KB, so
the C loader's speed buys nothing. PyYAML's problems are explained by `yamlread.explain`, the
same words every YAML reader of the project uses.

`NodeReader` reads those nodes as typed values (a mapping, a list, a string, a number, a yes/no)
and collects every problem it meets, so one pass over a file reports all its mistakes.
"""

from __future__ import annotations

import dataclasses
import difflib
import re
import types
from collections.abc import Mapping, Sequence
from pathlib import Path

import yaml
import yaml.constructor
import yaml.nodes
import yaml.reader

from rules_index import yamlread
from storage import clean

# The largest scenario file we read. Real scenarios are a few kilobytes; the limit keeps an
# upload from tying up a shared server.
MAX_BYTES = 256 * 1024
# The deepest nesting of lists and mappings (a real scenario nests 5–6 levels): deeper text is
# refused before it is composed, so a file nested thousands deep cannot exhaust the stack.
MAX_DEPTH = 32
# The most digits of an integer (a seed, wounds, a count): more is no number a scenario needs,
# and Python refuses to read integers of more than 4,300 digits anyway.
MAX_INT_DIGITS = 18

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

    def __reduce__(self) -> tuple[type[ScenarioError], tuple[list[Problem]]]:
        # Rebuilt from its problems (not its message) when it comes back from the bounded worker.
        return (type(self), (self.problems,))

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
        node = _compose(text, file)
    except yaml.reader.ReaderError as exc:
        # A raw control character (or a byte that is not text): PyYAML names only its offset.
        at = text[: max(int(exc.position), 0)].count("\n") + 1
        code = f"U+{exc.character:04X}" if isinstance(exc.character, int) else repr(exc.character)
        message = f"недопустимый управляющий символ {code} в тексте: удалите его или замените пробелом"
        raise _error(file, at, _key_on_line(text, at), message) from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = int(mark.line) + 1 if mark is not None else None
        start = int(exc.context_mark.line) + 1 if exc.context_mark is not None else None
        what = yamlread.explain(exc)
        if start is not None and line is not None and start != line:
            # The problem shows where the parser gave up; the construct began earlier.
            if line > len(text.splitlines()):
                line = start
            else:
                what += f" (начало — строка {start})"
        key = _key_on_line(text, line) or _key_on_line(text, start)
        # Only our Russian explanation: PyYAML's own words are English, and the line and key say where.
        raise _error(file, line, key, f"это не корректный YAML: {what}") from None
    except yaml.YAMLError as exc:
        raise _error(file, None, None, "это не корректный YAML: " + yamlread.explain(exc)) from None
    if node is None:
        return None
    return _convert(node, file, set(), None)


def _compose(text: str, file: str) -> yaml.nodes.Node | None:
    """The document's nodes, read by PyYAML's C parser (libyaml) when PyYAML has it: the library's
    113 scenarios in 0.07 s instead of 1.1 s (a server's first search runs them all), the same nodes
    (tests/test_casebook_loader.py compares them on the whole library). Every character is first
    checked by the pure-Python reader, so the C parser is given only what that one accepts; a text
    the C parser refuses is read again by the pure-Python one, whose problems are the ones
    `yamlread.explain` says in Russian, so a broken file is explained as before."""
    yaml.reader.Reader(text)  # raises ReaderError for a character YAML does not allow
    if yamlread.LOADER is not yaml.SafeLoader:
        try:
            _check_depth(text, file, yamlread.LOADER)
            return yaml.compose(text, Loader=yamlread.LOADER)
        except yaml.YAMLError:
            pass  # said below, as the pure-Python parser says it
    _check_depth(text, file, yaml.SafeLoader)
    return yaml.compose(text, Loader=yaml.SafeLoader)


def _check_depth(text: str, file: str, loader: type[yaml.SafeLoader]) -> None:
    """Refuse nesting deeper than MAX_DEPTH, from the parser's events (the parser is not recursive;
    the composer that builds nodes is, so this runs first)."""
    depth = 0
    for event in yaml.parse(text, Loader=loader):
        if isinstance(event, yaml.CollectionStartEvent):
            depth += 1
            if depth > MAX_DEPTH:
                line = int(event.start_mark.line) + 1 if event.start_mark is not None else 1
                message = f"вложенность списков и словарей глубже {MAX_DEPTH} уровней: так сценарии не пишут"
                raise _error(file, line, _key_on_line(text, line), message)
        elif isinstance(event, yaml.CollectionEndEvent):
            depth -= 1


def _key_on_line(text: str, line: int | None) -> str | None:
    """The key written on a line, if any (a broken line still usually starts with its key)."""
    if line is None:
        return None
    lines = text.splitlines()
    if not 1 <= line <= len(lines):
        return None
    found = re.match(r"^\s*(?:-\s+)?([A-Za-z_][\w-]*)\s*:", lines[line - 1])
    return found.group(1) if found else None


def _convert(node: yaml.nodes.Node, file: str, seen: set[int], key: str | None) -> YNode:
    """Located values from a node; `key` is the mapping key the node sits under (for errors)."""
    line = _line(node)
    if node.tag not in _STANDARD_TAGS:
        what = "сценарий содержит только обычные значения (строки, числа, да/нет, списки, словари)"
        raise _error(file, line, key, f"недопустимый тег YAML «{node.tag}»: {what}")
    if id(node) in seen:
        raise _error(file, line, key, "ссылки YAML (&якорь и *ссылка) в сценариях не поддерживаются")
    seen.add(id(node))
    if isinstance(node, yaml.nodes.ScalarNode):
        raw = str(node.value)
        if node.tag == INT_TAG and len(raw.lstrip("+-").replace("_", "")) > MAX_INT_DIGITS:
            digits = len(raw.lstrip("+-").replace("_", ""))
            message = f"слишком длинное число ({digits} цифр): допускается не больше {MAX_INT_DIGITS} цифр"
            raise _error(file, line, key, message)
        # Control characters and lone surrogates, even escaped inside quotes («\\ud800»): a page
        # that showed one would fail (storage.clean says which; tab and newline are text).
        bad = clean.first_flaw(raw)
        if bad is not None:
            message = f"{bad.what} в значении (в кавычках или как \\-код): удалите его"
            raise _error(file, line, key, message)
        constructor = yaml.constructor.SafeConstructor()
        try:
            value = constructor.construct_object(node, deep=True)
        except yaml.constructor.ConstructorError as exc:
            raise _error(file, line, key, f"непонятное значение: {exc.problem}") from None
        except (ValueError, OverflowError):
            raise _error(file, line, key, f"непонятное значение «{raw[:40]}»") from None
        if isinstance(value, str):
            value = clean.normal(value)  # one form for «й» however it was typed
        plain = not node.style  # a plain scalar: None from the pure-Python composer, "" from libyaml
        return YScalar(value=value, tag=str(node.tag), text=str(node.value), plain=plain, line=line)
    if isinstance(node, yaml.nodes.SequenceNode):
        return YSeq(items=tuple(_convert(child, file, seen, key) for child in node.value), line=line)
    assert isinstance(node, yaml.nodes.MappingNode)
    items: list[tuple[str, int, YNode]] = []
    names: set[str] = set()
    for key_node, value_node in node.value:
        key_line = _line(key_node)
        if key_node.tag == "tag:yaml.org,2002:merge":
            raise _error(file, key_line, "<<", "слияние словарей (<<) в сценариях не поддерживается")
        if not isinstance(key_node, yaml.nodes.ScalarNode):
            raise _error(file, key_line, key, "ключ словаря должен быть простым словом")
        name = str(key_node.value)
        bad = clean.first_flaw(name)
        if bad is not None:
            raise _error(file, key_line, key, f"{bad.what} в имени ключа: удалите его")
        if name in names:
            raise _error(file, key_line, name, "ключ повторяется в одном словаре")
        names.add(name)
        items.append((name, key_line, _convert(value_node, file, seen, name)))
    return YMap(items=tuple(items), line=line)


def read_file(path: str | Path) -> str:
    """The text of a scenario file, checked for size and encoding before it is parsed.

    Raises:
        ScenarioError: the file is missing, a folder, unreadable, too large or not UTF-8.
    """
    name = str(path)
    p = Path(path)
    try:
        size = p.stat().st_size
        if size > MAX_BYTES:
            raise _error(name, None, None, too_large(size))
        raw = p.read_bytes()
    except FileNotFoundError:
        raise _error(name, None, None, "файл не найден") from None
    except IsADirectoryError:
        raise _error(name, None, None, "это папка, а не файл сценария") from None
    except OSError as exc:
        raise _error(name, None, None, f"файл не читается: {exc.strerror}") from None
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise _error(name, line, None, "файл не в кодировке UTF-8") from None


# -- reading nodes as typed values --------------------------------------------------------------

_TYPE_RU: Mapping[type, str] = types.MappingProxyType(
    {str: "строка", int: "целое число", bool: "да/нет (true/false)"}
)


def plain(node: YNode) -> object:
    """A located node back to plain Python values (for the engine's own validation)."""
    if isinstance(node, YScalar):
        return node.value
    if isinstance(node, YSeq):
        return [plain(i) for i in node.items]
    return {k: plain(v) for k, _, v in node.items}


def suggest(word: str, options: Sequence[str]) -> str:
    """« (может быть, fired?)» for a near miss among `options`, or nothing."""
    near = difflib.get_close_matches(word, list(options), n=3, cutoff=0.5)
    return f" (может быть, {', '.join(near)}?)" if near else ""


class NodeReader:
    """Reads located nodes of one file as typed values, collecting every problem it finds.

    Each reader method takes the node (None when the key is absent), the key it sits under and
    the line to blame when there is no node; it records a problem and returns None when the value
    is not of the wanted kind.
    """

    def __init__(self, file: str) -> None:
        self.file = file
        self.problems: list[Problem] = []

    def fail(self, line: int | None, key: str | None, message: str) -> None:
        self.problems.append(Problem(self.file, line, key, message))

    def raise_if_failed(self) -> None:
        if self.problems:
            raise ScenarioError(self.problems)

    def check_keys(self, node: YMap, allowed: Sequence[str], where: str) -> None:
        for key, line, _ in node.items:
            if key not in allowed:
                hint = suggest(key, allowed)
                self.fail(line, key, f"неизвестный ключ в {where}{hint}; допустимы: {', '.join(allowed)}")

    def as_map(self, node: YNode | None, key: str, line: int) -> YMap | None:
        if isinstance(node, YMap):
            return node
        self.fail(node.line if node is not None else line, key, "ожидается словарь (ключ: значение)")
        return None

    def as_seq(self, node: YNode | None, key: str, line: int) -> YSeq | None:
        if isinstance(node, YSeq):
            return node
        self.fail(node.line if node is not None else line, key, "ожидается список (строки с «- »)")
        return None

    def bounded_seq(self, node: YNode | None, key: str, line: int, most: int, what: str) -> tuple[YNode, ...]:
        """The items of a list of at most `most` `what` («карт», «шагов»); none when it is not one."""
        seq = self.as_seq(node, key, line)
        if seq is None:
            return ()
        if len(seq.items) > most:
            self.fail(seq.line, key, f"слишком много {what}: {len(seq.items)}, допускается не больше {most}")
            return ()
        return seq.items

    def scalar(self, node: YNode | None, key: str, line: int, kind: type) -> object | None:
        if not isinstance(node, YScalar) or node.value is None:
            self.fail(node.line if node is not None else line, key, f"ожидается значение: {_TYPE_RU[kind]}")
            return None
        value = node.value
        if kind is str and isinstance(value, (int, float)) and not isinstance(value, bool):
            # A plain `7` where a name is wanted: keep the text as written.
            return node.text
        if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
            self.fail(node.line, key, f"ожидается целое число, а не «{node.text}»")
            return None
        if kind is bool and not isinstance(value, bool):
            self.fail(node.line, key, f"ожидается true или false, а не «{node.text}»")
            return None
        if kind is str and not isinstance(value, str):
            self.fail(node.line, key, f"ожидается строка, а не «{node.text}»")
            return None
        return value

    def text(self, node: YNode | None, key: str, line: int) -> str | None:
        value = self.scalar(node, key, line, str)
        return value if isinstance(value, str) else None

    def choice(self, node: YNode | None, key: str, line: int, allowed: Sequence[str]) -> str | None:
        value = self.text(node, key, line)
        if value is None:
            return None
        if value not in allowed:
            where = node.line if node is not None else line
            self.fail(
                where,
                key,
                f"«{value}» не подходит{suggest(value, allowed)}; допустимы: {', '.join(allowed)}",
            )
            return None
        return value

    def optional(self, node: YMap, key: str, kind: type) -> object | None:
        """The value under `key` of a mapping, read as `kind`; None when the key is absent."""
        if node.get(key) is None:
            return None
        return self.scalar(node.get(key), key, node.key_line(key), kind)

    def optional_text(self, node: YMap, key: str) -> str | None:
        value = self.optional(node, key, str)
        return value if isinstance(value, str) else None

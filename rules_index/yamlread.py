"""Reading YAML, one way for the whole project: PyYAML's safe loader, its C build when PyYAML has
one (several times faster, the same safe semantics), and PyYAML's problems said in Russian with
the line and column.

Our data files (lexicon/words.yaml, the engine's cards and assumptions, the search tables, the
card base's phrasings and codes…) and uploaded YAML (a card base) are read with `load_file` or
`load_text`; each caller still names the file and raises its own layer's error. The scenario
loader (casebook/nodes.py) is the one reader that composes nodes itself — it keeps every value's
line and refuses tags, anchors and duplicate keys — and it explains PyYAML's problems with the
same `explain`. It lives in `rules_index`, the lowest layer that reads YAML; it imports nothing
of ours.
"""

from __future__ import annotations

import pathlib
from typing import Any

import yaml

LOADER: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

# PyYAML's problems (the pure-Python parser's and libyaml's wordings), in Russian with what to
# check; the problem is matched first, then its context, first match wins.
_PROBLEMS = (
    ("another document", "в файле больше одного документа (---)"),
    ("document start", "лишний отступ у строки верхнего уровня (или текст после конца документа)"),
    ("mapping values are not allowed", "двоеточие там, где его не ждали: возьмите текст в кавычки"),
    ("could not find expected ':'", "после ключа нет двоеточия: проверьте отступ и кавычки"),
    ("expected ',' or ']'", "в списке […] пропущена запятая или «]»"),
    ("expected ',' or '}'", "в словаре {…} пропущена запятая или «}»"),
    ("'\\t'", "табуляция: для отступов используйте пробелы"),
    (
        "cannot start any token",
        "символ, с которого не может начинаться значение (отступы — только пробелами)",
    ),
    ("unexpected end of stream", "файл оборвался: не закрыта кавычка или скобка"),
    ("expected <block end>", "отступ не совпадает с предыдущими строками того же уровня"),
    ("expected key", "ожидался ключ (проверьте отступы)"),
    ("expected '-' indicator", "ожидался элемент списка «- …» (проверьте отступы)"),
    ("node content", "на месте значения пусто: лишняя запятая или незакрытая скобка"),
    ("found unexpected ':'", "лишнее двоеточие"),
    ("undefined alias", "ссылка *… на якорь &…, которого нет"),
    ("unknown escape character", "неизвестная последовательность с «\\» в строке в кавычках"),
    ("could not determine a constructor for the tag", "неизвестный тег «!…»"),
    ("duplicate anchor", "якорь &… повторяется"),
    ("quoted scalar", "строка в кавычках не закрыта"),
)
_UNKNOWN = "проверьте отступы, кавычки, скобки и двоеточия"


def explain(exc: yaml.YAMLError) -> str:
    """What a PyYAML error means, in Russian (without the place: see `YamlError.where`)."""
    for said in (getattr(exc, "problem", None), getattr(exc, "context", None)):
        for needle, russian in _PROBLEMS:
            if said and needle in str(said):
                return russian
    return _UNKNOWN


class YamlError(ValueError):
    """A YAML text that cannot be read: `reason` in Russian, with the line and column when known.

    str() reads «строка 3, позиция 5: ошибка YAML (…)» or «файл не читается: …»; callers put the
    file's name in front.
    """

    def __init__(self, message: str, reason: str, line: int | None = None, column: int | None = None) -> None:
        super().__init__(message)
        self.reason = reason
        self.line = line
        self.column = column

    @property
    def where(self) -> str:
        """«, строка 3, позиция 5» (empty when unknown), to follow a file's name."""
        if self.line is None:
            return ""
        return f", строка {self.line}" + (f", позиция {self.column}" if self.column is not None else "")


def _syntax(exc: yaml.YAMLError) -> YamlError:
    reason = explain(exc)
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    if mark is None:
        return YamlError(f"ошибка YAML ({reason})", reason)
    line, column = int(mark.line) + 1, int(mark.column) + 1
    return YamlError(f"строка {line}, позиция {column}: ошибка YAML ({reason})", reason, line, column)


def load_text(text: str) -> Any:
    """The value of one YAML document. Raises YamlError (Russian, located)."""
    try:
        return yaml.load(text, Loader=LOADER)
    except yaml.YAMLError as exc:
        raise _syntax(exc) from None


def load_file(path: str | pathlib.Path) -> Any:
    """The value of a UTF-8 YAML file. Raises YamlError: unreadable, not UTF-8, or not YAML."""
    try:
        text = pathlib.Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        reason = f"текст не в кодировке UTF-8 (байт {exc.start + 1})"
        raise YamlError(f"файл не читается: {reason}", reason) from None
    except OSError as exc:
        reason = str(exc.strerror or exc)
        raise YamlError(f"файл не читается: {reason}", reason) from None
    return load_text(text)

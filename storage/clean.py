"""Text that comes from outside, checked once where it comes in.

Files (rules, card bases, desk and scenario files), links and their query parameters, and typed
boxes all bring text that a page will show. Some characters never belong in it:

- a lone surrogate (U+D800–U+DFFF outside a pair). JSON's and YAML's «\\ud800» escapes make one;
  it has no UTF-8 form, so the page that shows it fails with a traceback;
- control characters: C0 but tab, line feed and carriage return, DEL and C1 draw nothing or
  garble a line; the bidirectional overrides and isolates (U+202A–U+202E, U+2066–U+2069) make a
  card's name read backwards.

A file is refused with the place of the character (`check`, `check_tree`): the judge fixes the
file and uploads it again, and nothing half-read is opened. A link's parameter or a typed word gets
U+FFFD in place of the character (`scrub`), and the page may say so (`first_flaw`).

Clean text is normalised to NFC here, once: «й» typed on one keyboard and «й» pasted from a PDF
(и + combining breve) are then one letter for the search and for card names.
"""

from __future__ import annotations

import dataclasses
import re
import unicodedata

REPLACEMENT = "\ufffd"
_FLAW = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")
# How much of a key a path shows: enough to find it in the file, not a screen of it.
_KEY_SHOWN = 40


class TextError(ValueError):
    """Text with a character that does not belong in it; the message (Russian) says where."""


@dataclasses.dataclass(frozen=True)
class Flaw:
    """The first character of a text that does not belong in it, and where it is."""

    index: int
    char: str
    line: int

    @property
    def code(self) -> str:
        return f"U+{ord(self.char):04X}"

    @property
    def what(self) -> str:
        """The character in Russian words, without the character itself (it cannot be shown)."""
        point = ord(self.char)
        if 0xD800 <= point <= 0xDFFF:
            return f"недопустимый символ {self.code} (половина суррогатной пары: в тексте такого не бывает)"
        if 0x202A <= point <= 0x202E or 0x2066 <= point <= 0x2069:
            return f"недопустимый управляющий символ направления текста {self.code}"
        return f"недопустимый управляющий символ {self.code}"


def first_flaw(text: str) -> Flaw | None:
    """The first character of `text` that does not belong in it, or None for clean text."""
    found = _FLAW.search(text)
    if found is None:
        return None
    return Flaw(found.start(), found.group(), text.count("\n", 0, found.start()) + 1)


def normal(text: str) -> str:
    """Clean text in NFC (the common case — already NFC — costs one scan)."""
    return text if unicodedata.is_normalized("NFC", text) else unicodedata.normalize("NFC", text)


def scrub(text: str) -> str:
    """`text` with each character that does not belong in it replaced by U+FFFD, in NFC."""
    return normal(_FLAW.sub(REPLACEMENT, text))


def check(text: str, where: str, *, lines: bool = False) -> str:
    """`text` in NFC, or TextError «where: what» (with «строка N» when `lines`).

    Raises:
        TextError: the text holds a lone surrogate or a control character.
    """
    flaw = first_flaw(text)
    if flaw is not None:
        at = f", строка {flaw.line}" if lines else ""
        raise TextError(f"{where}{at}: {flaw.what}")
    return normal(text)


def check_tree(value: object, where: str = "") -> object:
    """Check every string of a value a parser has just returned (JSON's or YAML's dicts, lists,
    strings, numbers) and put each in NFC, in place; return the value.

    Linear in the value's size even when its parts are shared (a YAML alias is visited once).
    Keys are checked like values. `where` begins the path the message names:
    «cards[3].name: управляющий символ U+0007».

    Raises:
        TextError: a string holds a lone surrogate or a control character (nothing is changed
            after it; the caller drops the whole value).
    """
    if isinstance(value, str):
        return check(value, where or "текст")
    seen: set[int] = set()
    stack: list[tuple[object, str]] = [(value, where)]
    while stack:
        node, path = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, list):
            for i, item in enumerate(node):
                at = f"{path}[{i}]"
                if isinstance(item, str):
                    node[i] = check(item, at)
                elif isinstance(item, (list, dict)):
                    stack.append((item, at))
        elif isinstance(node, dict):
            _check_dict(node, path, stack)
    return value


def _check_dict(node: dict[object, object], path: str, stack: list[tuple[object, str]]) -> None:
    renamed: dict[object, object] = {}
    for key, item in node.items():
        name = key
        if isinstance(key, str):
            flaw = first_flaw(key)
            if flaw is not None:
                raise TextError(f"{path or 'ключ'}: в имени ключа {flaw.what}")
            name = normal(key)
        at = f"{path}.{str(name)[:_KEY_SHOWN]}" if path else str(name)[:_KEY_SHOWN]
        if isinstance(item, str):
            item = check(item, at)
        elif isinstance(item, (list, dict)):
            stack.append((item, at))
        if name in renamed:
            raise TextError(f"{at}: ключ повторяется (два написания одного слова)")
        renamed[name] = item
    node.clear()  # rebuilt in its order, with the checked strings and keys
    node.update(renamed)

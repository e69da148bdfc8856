"""Reading rules files: bytes to text (encoding detection) and markup to plain numbered lines.

A text file becomes a list of `blocks.Block`s, one per physical line, so the parser can name
the line a paragraph starts on whatever markup the file used.
"""

from __future__ import annotations

import re
from pathlib import PurePath

from rules_index.blocks import Block
from rules_index.errors import CorpusError

SUFFIXES = (".txt", ".md", ".rst")

_CONTROL = re.compile(r"[\x00-\x08\x0e-\x1f]")
_LINE_BREAK = re.compile(r"\r\n|\r|\n")


def decode(name: str, data: bytes) -> tuple[str, str]:
    """Return (text, encoding name) for a rules file, or raise CorpusError naming the file.

    Accepts UTF-8 with or without BOM, UTF-16 (with BOM, or without one when its zero bytes
    say so), and the 8-bit Russian encodings Windows-1251 and KOI8-R (recognised by where
    their letters fall, since any byte string decodes in both).
    """
    if not data.strip():
        raise CorpusError(f"Файл «{name}» пуст: в нём нет текста правил.")
    text, encoding = _decode(name, data)
    if not text.strip():
        raise CorpusError(f"Файл «{name}» пуст: в нём нет текста правил.")
    return text, encoding


def _decode(name: str, data: bytes) -> tuple[str, str]:
    if data.startswith(b"\xef\xbb\xbf"):
        return _strict(name, data[3:], "utf-8", "UTF-8 с BOM"), "utf-8-sig"
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return _strict(name, data, "utf-16", "UTF-16"), "utf-16"
    if b"\x00" in data:
        codec = _utf16_without_bom(data)
        if codec is not None:
            try:
                return _strict(name, data, codec, "UTF-16"), codec
            except CorpusError:
                pass  # zero bytes in the right places by chance: binary after all
        raise CorpusError(
            f"Файл «{name}» двоичный (в нём есть нулевые байты), а не текст правил: "
            "экспортируйте правила в .txt, .md или .rst (или загрузите исходный PDF, веб-страницу "
            "или документ Word)."
        )
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        utf8_error = err
    else:
        _reject_control(name, text)
        return text, "utf-8"
    codec = _eight_bit_cyrillic(data)
    if codec is not None:
        text = data.decode(codec)
        _reject_control(name, text)
        return text, codec
    line = data[: utf8_error.start].count(b"\n") + 1
    raise CorpusError(
        f"Файл «{name}», строка {line}: не удалось определить кодировку. "
        "Ожидается UTF-8 (с BOM или без), Windows-1251 или KOI8-R; пересохраните файл в UTF-8."
    )


def _strict(name: str, data: bytes, codec: str, label: str) -> str:
    try:
        text = data.decode(codec)
    except UnicodeDecodeError as err:
        line = data[: err.start].count(b"\n") + 1
        raise CorpusError(
            f"Файл «{name}», строка {line}: текст не читается как {label} (ошибка кодировки)."
        ) from None
    _reject_control(name, text)
    return text


def _reject_control(name: str, text: str) -> None:
    found = _CONTROL.search(text)
    if found is None:
        return
    line = text.count("\n", 0, found.start()) + 1
    raise CorpusError(
        f"Файл «{name}», строка {line}: управляющий символ U+{ord(found.group()):04X} — "
        "похоже, это двоичный файл, а не текст правил."
    )


def _utf16_without_bom(data: bytes) -> str | None:
    """UTF-16 without a BOM: the zero bytes (high bytes of ASCII characters) all fall on odd
    offsets (little-endian) or all on even ones (big-endian); a binary file mixes them."""
    if len(data) % 2:
        return None
    even, odd = data[0::2].count(0), data[1::2].count(0)
    if (even + odd) * 20 < len(data):
        return None  # UTF-16 text has a zero for every space, digit and stop: at least 5 % of bytes
    if not even:
        return "utf-16-le"
    if not odd:
        return "utf-16-be"
    return None


def utf16_codec(data: bytes) -> str | None:
    """«utf-16» for text with a UTF-16 BOM, «utf-16-le»/«utf-16-be» for UTF-16 without one (told
    by where its zero bytes fall), None for anything else."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return "utf-16"
    return _utf16_without_bom(data) if b"\x00" in data else None


def _eight_bit_cyrillic(data: bytes) -> str | None:
    """Windows-1251 or KOI8-R for Russian text that is not UTF-8, or None.

    In both, letters are bytes 0xC0-0xFF and bytes 0x80-0xBF (punctuation, «ё») are rare;
    UTF-8 misread has a 0x80-0xBF byte after every letter, so it fails this. The two differ
    in which half holds the lower case: 0xE0-0xFF in Windows-1251, 0xC0-0xDF in KOI8-R, and
    Russian prose is mostly lower case.
    """
    upper = sum(1 for b in data if 0xC0 <= b < 0xE0)
    lower = sum(1 for b in data if b >= 0xE0)
    others = sum(1 for b in data if 0x80 <= b < 0xC0)
    letters = upper + lower
    if not letters or others > 0.15 * letters:
        return None
    if lower >= upper:
        # 0x98 is the one byte Windows-1251 leaves undefined.
        return "cp1251" if 0x98 not in data else None
    return "koi8-r"


def split_lines(text: str) -> list[str]:
    """Physical lines, whatever the line ending (CRLF, CR, LF); no trailing newline needed."""
    return _LINE_BREAK.split(text)


def to_source_lines(name: str, text: str) -> list[Block]:
    """Plain lines for the parser: markup stripped by the file kind (.md, .rst or plain text)."""
    lines = split_lines(text)
    suffix = PurePath(name).suffix.lower()
    if suffix == ".md":
        return _markdown(lines)
    if suffix == ".rst":
        return _rst(lines)
    return _plain(lines)


# In a plain-text export an underline is a line of «=» (any length) or of three or more «-»;
# a lone «-» may be a dash.
_TXT_UNDERLINE = re.compile(r"^\s*(?:=+|-{3,})\s*$")


def _underline(out: list[Block], number: int) -> None:
    """An underline (or an rst overline) is not text; it makes the text line above a heading."""
    if out and out[-1].text.strip() and not out[-1].heading:
        out[-1] = Block(out[-1].text, out[-1].line, heading=True)
    out.append(Block("", number))


def _plain(lines: list[str]) -> list[Block]:
    out: list[Block] = []
    for i, raw in enumerate(lines):
        if _TXT_UNDERLINE.match(raw):
            _underline(out, i + 1)
        else:
            out.append(Block(raw, i + 1))
    return out


_MD_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$")
_MD_UNDERLINE = re.compile(r"^\s{0,3}(?:=+|-+)\s*$")
_MD_FENCE = re.compile(r"^\s{0,3}(?:```|~~~)")
_MD_LIST = re.compile(r"^\s*[-*+]\s+")
_MD_QUOTE = re.compile(r"^\s{0,3}>\s?")
_MD_RULE = re.compile(r"^\s{0,3}(?:\*\s*){3,}$|^\s{0,3}(?:_\s*){3,}$")
_MD_INLINE = (
    (re.compile(r"!?\[([^\]]*)\]\([^)]*\)"), r"\1"),
    (re.compile(r"<[^<>\n]+>"), ""),
    (re.compile(r"`+([^`]*)`+"), r"\1"),
    (re.compile(r"\*\*(.+?)\*\*"), r"\1"),
    (re.compile(r"__(.+?)__"), r"\1"),
    (re.compile(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])"), r"\1"),
    (re.compile(r"(?<![\w_])_(?!\s)(.+?)(?<!\s)_(?![\w_])"), r"\1"),
    (re.compile(r"\\([\\`*_{}\[\]()#+\-.!>])"), r"\1"),
)


def _strip_inline(text: str, rules: tuple[tuple[re.Pattern[str], str], ...]) -> str:
    """Inline markup (emphasis, code, links) removed by the file kind's rules, in order."""
    for pattern, repl in rules:
        text = pattern.sub(repl, text)
    return text


def _md_inline(text: str) -> str:
    return _strip_inline(text, _MD_INLINE)


def _markdown(lines: list[str]) -> list[Block]:
    out: list[Block] = []
    in_fence = False
    for i, raw in enumerate(lines):
        number = i + 1
        if _MD_FENCE.match(raw):
            in_fence = not in_fence
            out.append(Block("", number))
            continue
        if in_fence:
            out.append(Block(raw, number))
            continue
        if _MD_UNDERLINE.match(raw):  # setext heading underline
            _underline(out, number)
            continue
        if _MD_RULE.match(raw):
            out.append(Block("", number))
            continue
        line = _MD_QUOTE.sub("", raw)
        heading = _MD_HEADING.match(line)
        if heading:
            out.append(Block(_md_inline(heading.group(1)), number, heading=True))
            continue
        bullet = _MD_LIST.match(line)
        if bullet:
            out.append(Block("● " + _md_inline(line[bullet.end() :]), number, bullet=True))
            continue
        out.append(Block(_md_inline(line), number))
    return out


_RST_ADORN = re.compile(r"^([=\-~^\"'`#*+:.!_<>])\1*\s*$")
_RST_DIRECTIVE = re.compile(r"^\s*\.\.(?:\s|$)")
_RST_LIST = re.compile(r"^\s*[-*+•]\s+")
_RST_INLINE = (
    (re.compile(r"`([^`<]*?)\s*<[^>]*>`__?"), r"\1"),
    (re.compile(r":[\w:-]+:`([^`]*)`"), r"\1"),
    (re.compile(r"``([^`]*)``"), r"\1"),
    (re.compile(r"`([^`]*)`_{0,2}"), r"\1"),
    (re.compile(r"\*\*(.+?)\*\*"), r"\1"),
    (re.compile(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])"), r"\1"),
    (re.compile(r"\\(.)"), r"\1"),
)


def _rst_inline(text: str) -> str:
    return _strip_inline(text, _RST_INLINE)


def _rst(lines: list[str]) -> list[Block]:
    out: list[Block] = []
    in_directive = False
    for i, raw in enumerate(lines):
        number = i + 1
        if in_directive:
            # A directive's body is its indented block.
            if raw.strip() and not raw[:1].isspace():
                in_directive = False
            else:
                out.append(Block("", number))
                continue
        if _RST_DIRECTIVE.match(raw):
            in_directive = True
            out.append(Block("", number))
            continue
        if _RST_ADORN.match(raw):
            _underline(out, number)
            continue
        bullet = _RST_LIST.match(raw)
        if bullet:
            out.append(Block("● " + _rst_inline(raw[bullet.end() :]), number, bullet=True))
            continue
        out.append(Block(_rst_inline(raw), number))
    return out

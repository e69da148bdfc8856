"""Reading a card base file into raw records: community JSON, CSV with a header, our own YAML.

Each reader returns the records as plain mappings with where each came from («запись 12»,
«строка 7»), or raises CardBaseError for a file that cannot be read at all (malformed JSON, a CSV
without a header, too big). Decoding a record's fields is cardbase/importer.py's job.
"""

from __future__ import annotations

import csv
import dataclasses
import io
import json
import re
import sys
from collections.abc import Mapping
from typing import Any

from cardbase.model import CardBaseError
from rules_index import yamlread

# The stated limits of an import: a real base of the relaunched edition is about 1 MB and
# 1,500 cards; anything far larger is not a card base (or would stall the server).
MAX_FILE_BYTES = 20 * 1024 * 1024
MAX_RECORDS = 20_000
FORMATS = {"json": "JSON", "csv": "CSV", "yaml": "YAML"}


@dataclasses.dataclass(frozen=True)
class RawRecord:
    """One record as the file gives it, and where it is («запись 3», «строка 4»)."""

    where: str
    data: Mapping[str, Any]
    problem: str = ""  # why the record cannot be read at all (not an object, wrong field count)


def detect_format(name: str, data: bytes) -> str:
    """json | csv | yaml, by the file's extension, else by its first character."""
    lower = name.lower()
    for ext, fmt in ((".json", "json"), (".csv", "csv"), (".yaml", "yaml"), (".yml", "yaml")):
        if lower.endswith(ext):
            return fmt
    head = data.lstrip()[:1]
    return "json" if head in (b"[", b"{") else "yaml" if head in (b"-", b"#") else "csv"


def decode_text(data: bytes, name: str) -> str:
    """UTF-8 (with or without BOM), else Windows-1251 (a CSV saved by Excel in Russian)."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        pass
    try:
        text = data.decode("cp1251")
    except UnicodeDecodeError:
        raise CardBaseError(f"Файл «{name}»: не текст в UTF-8 или Windows-1251.") from None
    if sum(ch.isalpha() for ch in text) < len(text) // 4:
        raise CardBaseError(f"Файл «{name}» не похож на текст (двоичные данные).")
    return text


def check_size(data: bytes, name: str) -> None:
    if not data.strip():
        raise CardBaseError(f"Файл «{name}» пуст.")
    if len(data) > MAX_FILE_BYTES:
        raise CardBaseError(
            f"Файл «{name}» больше {MAX_FILE_BYTES // (1024 * 1024)} МБ — это не похоже на базу карт "
            f"(настоящая база — около 1 МБ). Предел: {MAX_FILE_BYTES // (1024 * 1024)} МБ и "
            f"{MAX_RECORDS} записей."
        )
    if b"\x00" in data[:65536]:
        raise CardBaseError(f"Файл «{name}» не похож на текст (в нём есть двоичные данные).")


def _too_many(n: int, name: str) -> CardBaseError:
    return CardBaseError(f"Файл «{name}»: записей {n}, больше предела {MAX_RECORDS}.")


def parse_json(text: str, what: str) -> Any:
    """The JSON value of a file's text, or CardBaseError in Russian naming `what` («Файл «x»»,
    «Файл кодов «x»»), the line and the column. Used for a base and for its constants file."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise CardBaseError(
            f"{what}, строка {exc.lineno}, позиция {exc.colno}: ошибка JSON ({_json_msg(exc.msg)}). "
            "Ничего не загружено."
        ) from None
    except RecursionError:
        raise CardBaseError(f"{what}: слишком глубокая вложенность JSON. Ничего не загружено.") from None
    except ValueError:  # an integer longer than Python converts (sys.get_int_max_str_digits)
        raise CardBaseError(f"{what}{_long_number_at(text)}. Ничего не загружено.") from None


def _long_number_at(text: str) -> str:
    """«, строка 3, позиция 9: число из 5000 цифр — …» for the first over-long run of digits."""
    limit = sys.get_int_max_str_digits()  # Python refuses to turn a longer run of digits into an int
    found = re.search(rf"\d{{{limit + 1},}}", text) if limit else None
    if found is None:
        return ": слишком длинное число"
    line = text.count("\n", 0, found.start()) + 1
    column = found.start() - (text.rfind("\n", 0, found.start()) + 1) + 1
    return (
        f", строка {line}, позиция {column}: число из {len(found.group())} цифр — такого кода или "
        "значения у карт не бывает"
    )


def read_json(text: str, name: str) -> list[RawRecord]:
    """A list of records, or an object with a `cards` list."""
    raw = parse_json(text, f"Файл «{name}»")
    if isinstance(raw, Mapping) and isinstance(raw.get("cards"), list):
        raw = raw["cards"]
    if not isinstance(raw, list):
        raise CardBaseError(f"Файл «{name}»: ожидался список карт JSON ([{{…}}, {{…}}]).")
    if len(raw) > MAX_RECORDS:
        raise _too_many(len(raw), name)
    return [_record(f"запись {i + 1}", r, "объект JSON {…}") for i, r in enumerate(raw)]


def _record(where: str, raw: object, shape: str) -> RawRecord:
    if isinstance(raw, Mapping):
        return RawRecord(where, raw)
    return RawRecord(where, {}, f"ожидался {shape}, а не {type(raw).__name__}")


_JSON_MESSAGES = {
    "Expecting value": "ожидалось значение",
    "Expecting ',' delimiter": "пропущена запятая",
    "Expecting property name enclosed in double quotes": "ожидалось имя поля в двойных кавычках",
    "Expecting ':' delimiter": "пропущено двоеточие",
    "Unterminated string starting at": "строка не закрыта кавычкой",
    "Extra data": "лишние данные после конца списка",
    "Invalid control character at": "управляющий символ внутри строки",
}


def _json_msg(msg: str) -> str:
    return next((ru for en, ru in _JSON_MESSAGES.items() if msg.startswith(en)), msg)


def read_csv(text: str, name: str) -> list[RawRecord]:
    """A table with a header row; the delimiter (, ; or tab) is the one the header uses."""
    lines = text.splitlines()
    header = next((ln for ln in lines if ln.strip()), "")
    delimiter = max(",;\t", key=header.count)
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
    numbered: list[tuple[int, list[str]]] = []
    last = 0
    try:
        for row in reader:
            if any(cell.strip() for cell in row):
                numbered.append((last + 1, row))  # the line the row starts on
            last = reader.line_num
            if len(numbered) > MAX_RECORDS + 1:
                raise _too_many(len(numbered) - 1, name)
    except csv.Error as exc:
        raise CardBaseError(
            f"Файл «{name}», строка {reader.line_num}: ошибка CSV ({_csv_msg(str(exc))}). "
            "Ничего не загружено."
        ) from None
    if not numbered:
        raise CardBaseError(f"Файл «{name}»: нет ни одной строки.")
    head_line, head = numbered[0]
    keys = [h.strip().lstrip("\ufeff").lower() for h in head]
    if "name" not in keys:
        raise CardBaseError(
            f"Файл «{name}», строка {head_line}: в заголовке нет столбца name. Первая строка CSV — "
            "названия столбцов: id, set_id, number, name, type, life, move, cost, color, class, hit, "
            "icons, text…"
        )
    out: list[RawRecord] = []
    for line, row in numbered[1:]:
        where = f"строка {line}"
        if len(row) != len(keys):
            out.append(RawRecord(where, {}, f"полей {len(row)}, а в заголовке {len(keys)}"))
            continue
        out.append(RawRecord(where, {k: v for k, v in zip(keys, row, strict=True) if k}))
    return out


def _csv_msg(msg: str) -> str:
    if "unexpected end of data" in msg or "EOF" in msg:
        return "кавычка не закрыта до конца файла"
    if "expected" in msg and "after" in msg:
        return "после закрывающей кавычки ожидался разделитель"
    return msg


def parse_yaml(text: str, what: str) -> Any:
    """The YAML value of a file's text (safe loader), or CardBaseError in Russian naming `what`,
    the line and the column."""
    try:
        return yamlread.load_text(text)
    except yamlread.YamlError as exc:
        raise CardBaseError(f"{what}{exc.where}: ошибка YAML ({exc.reason}). Ничего не загружено.") from None
    except RecursionError:
        raise CardBaseError(f"{what}: слишком глубокая вложенность YAML. Ничего не загружено.") from None
    except ValueError:  # an integer longer than Python converts (sys.get_int_max_str_digits)
        raise CardBaseError(f"{what}{_long_number_at(text)}. Ничего не загружено.") from None


def read_yaml(text: str, name: str) -> list[RawRecord]:
    """Our own format: `cards:` (or the top level) is a list of cards in our words."""
    raw = parse_yaml(text, f"Файл «{name}»")
    if isinstance(raw, Mapping):
        raw = raw.get("cards")
    if not isinstance(raw, list):
        raise CardBaseError(f"Файл «{name}»: ожидался список карт под ключом cards.")
    if len(raw) > MAX_RECORDS:
        raise _too_many(len(raw), name)
    return [_record(f"карта {i + 1}", r, "словарь с полями карты") for i, r in enumerate(raw)]


def read_records(data: bytes, name: str, fmt: str | None = None) -> tuple[str, list[RawRecord]]:
    """The file's format and its raw records. Raises CardBaseError for a file unreadable as a whole."""
    check_size(data, name)
    fmt = fmt or detect_format(name, data)
    if fmt not in FORMATS:
        raise CardBaseError(f"Файл «{name}»: формат «{fmt}» неизвестен (есть: {', '.join(FORMATS)}).")
    text = decode_text(data, name)
    reader = {"json": read_json, "csv": read_csv, "yaml": read_yaml}[fmt]
    return fmt, reader(text, name)

"""Sharing a desk: a desk file (JSON) and a URL token (compressed JSON), and reading them back
(strictly: every string of either is clean text, or the desk is refused)."""

from __future__ import annotations

import base64
import binascii
import json
import zlib

from desk.model import MAX_DESK_CHARS, Desk, DeskError
from desk.schema import MAX_DEPTH, from_dict
from storage import clean


def to_file_text(desk: Desk) -> str:
    return json.dumps(desk.to_dict(), ensure_ascii=False, indent=1) + "\n"


def from_file_text(raw: bytes) -> Desk:
    """A desk file (JSON) back to a Desk.

    Raises:
        DeskError: too large, not UTF-8, not JSON or not a desk.
    """
    if len(raw) > MAX_DESK_CHARS * 4:
        raise DeskError(f"файл стола больше {MAX_DESK_CHARS * 4} байт")
    try:
        text = raw.decode("utf-8-sig")
        data = json.loads(text)
    except UnicodeDecodeError:
        raise DeskError("файл стола не в кодировке UTF-8") from None
    except json.JSONDecodeError as exc:
        raise DeskError(f"файл стола — не JSON: строка {exc.lineno}, знак {exc.colno}") from None
    except RecursionError:
        raise DeskError(f"файл стола: слишком глубокая вложенность (больше {MAX_DEPTH} уровней)") from None
    except ValueError:  # a number of thousands of digits
        raise DeskError("файл стола: слишком длинное число") from None
    return _clean_desk(data)


def encode(desk: Desk) -> str:
    """The desk as a URL-safe token (compressed JSON). The loaded scenario file is left out of it:
    its setup and actions are already in the desk."""
    data = desk.to_dict()
    data["scenario_text"] = ""
    raw = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    return base64.urlsafe_b64encode(zlib.compress(raw, 9)).decode("ascii").rstrip("=")


def decode(token: str) -> Desk:
    """A URL token back to a Desk; inflation is bounded so a crafted token cannot exhaust memory.

    Raises:
        DeskError: a damaged or foreign token.
    """
    if len(token) > MAX_DESK_CHARS:
        raise DeskError("ссылка на стол слишком длинная")
    try:
        packed = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
        inflater = zlib.decompressobj()
        raw = inflater.decompress(packed, MAX_DESK_CHARS * 4)
        if inflater.unconsumed_tail:
            raise DeskError("ссылка на стол распаковывается в слишком большой текст")
        data = json.loads(raw.decode("utf-8"))
    except DeskError:
        raise
    except RecursionError:
        raise DeskError(
            f"ссылка на стол: слишком глубокая вложенность (больше {MAX_DEPTH} уровней)"
        ) from None
    except (binascii.Error, ValueError, zlib.error):
        raise DeskError("ссылка на стол повреждена (её обрезали при копировании?)") from None
    return _clean_desk(data)


def _clean_desk(data: object) -> Desk:
    """A desk from parsed JSON whose every string is clean text: a lone surrogate (JSON's
    «\\ud800») or a control character is refused naming the key, before it reaches a page."""
    try:
        clean.check_tree(data)
    except clean.TextError as err:
        raise DeskError(str(err)) from None
    return from_dict(data)

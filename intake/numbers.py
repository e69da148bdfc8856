"""Numbers typed into links: ASCII digits within bounds, or nothing.

`str.isdigit()` says yes to «²», «⑦» and «٣», which `int()` then refuses or reads as a digit of
another script; a number of 26 digits is not a ruling's number and overflows SQLite's integers.
A page asks for the number with its bounds and treats None as «no such item».
"""

from __future__ import annotations

import re

# SQLite's INTEGER: the largest whole number a journal's id can be.
INT64_MAX = 2**63 - 1
_DIGITS = re.compile(r"[0-9]+")


def whole(text: object, low: int = 0, high: int = INT64_MAX) -> int | None:
    """The whole number `text` writes in ASCII digits (surrounding spaces allowed), if it lies
    in [low, high]; None for anything else: other scripts' digits, signs, fractions, too many digits."""
    if not isinstance(text, str):
        return None
    text = text.strip(" ")
    if len(text) > len(str(high)) or _DIGITS.fullmatch(text) is None:
        return None
    value = int(text)
    return value if low <= value <= high else None

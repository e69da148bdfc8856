"""The one grammar of citation ids: rules clauses («211.3.1») and the engine's assumptions («A7»).

Every module that recognises, orders or climbs clause ids uses this one: the parser, the index,
search, the CLIs, the engine's rule registry, the scenario format and the rulings journal.
Ids stay strings everywhere; `sort_key` is only for ordering («211.10» after «211.9»).

A part after the first may carry one letter, Cyrillic or Latin: community pages number lettered
subclauses «210.11а» (under 210.11) and «100.1a». A lettered part is a subclause of the same part
without its letter: «210.11а» is a child of «210.11» and a sibling of «210.11б», ordered after
«210.11» and before «210.12»; it is one level below 210.11.
An id has at most `MAX_DEPTH` parts; deeper «numbers» are refused (the parser says where).
"""

from __future__ import annotations

import re
from types import MappingProxyType

# The deepest id accepted: real rules go five levels down (535.5.1.2); eight leaves room.
MAX_DEPTH = 8
# A letter suffix: lower-case Cyrillic or Latin («210.11а», «100.1a»).
LETTER = "a-zа-яё"
_PART = rf"\d{{1,4}}[{LETTER}]?"
# A clause number: «211», «211.3.1», «535.5.1.2», «210.11а». The first part never starts with 0,
# so dates such as «09.11.2024» are not mistaken for numbers.
CLAUSE_PATTERN = rf"[1-9]\d{{0,3}}(?:\.{_PART}){{0,{MAX_DEPTH - 1}}}"
# The same without the depth bound, to recognise a refused over-deep number and say so.
DEEP_PATTERN = rf"[1-9]\d{{0,3}}(?:\.{_PART}){{{MAX_DEPTH},}}"
# An assumption of the engine (engine/data/assumptions.yaml): «A1», «A13».
ASSUMPTION_PATTERN = r"A[1-9]\d{0,3}"

_CLAUSE_RE = re.compile(CLAUSE_PATTERN)
_ASSUMPTION_RE = re.compile(ASSUMPTION_PATTERN)
_PART_RE = re.compile(rf"(\d+)([{LETTER}]?)")

# Rank of a suffix letter inside one part: none first, then Latin a–z, then Cyrillic а–я with ё
# after е (as a reader orders «а, б, в … е, ё, ж»).
_LETTERS = "abcdefghijklmnopqrstuvwxyz" + "абвгдеёжзийклмнопрстуфхцчшщъыьэюя"
_LETTER_RANK = MappingProxyType({ch: i + 1 for i, ch in enumerate(_LETTERS)})
_SLOTS = len(_LETTERS) + 1
# Latin letters that look like Cyrillic ones: «210.11a» typed on a Latin keyboard means «210.11а».
_TO_CYRILLIC = MappingProxyType(str.maketrans("aeopcxyk", "аеорсхук"))
_TO_LATIN = MappingProxyType(str.maketrans("аеорсхук", "aeopcxyk"))


def is_clause_id(text: object) -> bool:
    """A well-formed clause id (not whether the rules hold it): «211.10» yes, «211.» or «A7» no."""
    return isinstance(text, str) and _CLAUSE_RE.fullmatch(text) is not None


def is_assumption_id(text: object) -> bool:
    """An assumption id of the engine: «A7»."""
    return isinstance(text, str) and _ASSUMPTION_RE.fullmatch(text) is not None


def is_citation_id(text: object) -> bool:
    """What a trace step, a scenario or a ruling may cite: a clause id or an assumption id."""
    return is_clause_id(text) or is_assumption_id(text)


def lettered(cid: str) -> bool:
    """Whether the id is a lettered subclause: «210.11а», «100.1a»."""
    return bool(cid) and cid[-1].isalpha()


def parent(cid: str) -> str | None:
    """«211.3.1» → «211.3»; «210.11а» → «210.11» (a lettered subclause); «211» → None."""
    if lettered(cid):
        return cid[:-1]
    head, dot, _ = cid.rpartition(".")
    return head if dot else None


def level(cid: str) -> int:
    """Steps from the section: «211» is level 1, «211.3.1» level 3, «210.11а» level 3 (under 210.11)."""
    return cid.count(".") + 1 + sum(1 for ch in cid if ch.isalpha())


def section(cid: str) -> str:
    """The section a clause belongs to: «211.3.1» → «211»."""
    return cid.split(".", 1)[0]


def part_number(part: str) -> int:
    """The number of one part without its letter: «11а» → 11."""
    found = _PART_RE.match(part)
    if found is None:
        raise ValueError(f"not a clause id part: {part!r}")
    return int(found.group(1))


def part_letter(part: str) -> str:
    """The letter of one part, or "": «11а» → «а»."""
    found = _PART_RE.fullmatch(part)
    return found.group(2) if found else ""


def sort_key(cid: str) -> tuple[int, ...]:
    """Numeric order of clause ids: «211.10» after «211.9», «210.11а» between «210.11» and «210.12».

    One integer per part (number × slots + letter rank), so equal parts compare equal and
    «211.1» never equals «211.10». Raises ValueError on a non-id.
    """
    key: list[int] = []
    for part in cid.split("."):
        found = _PART_RE.fullmatch(part)
        if found is None:
            raise ValueError(f"not a clause id: {cid!r}")
        number, letter = found.groups()
        key.append(int(number) * _SLOTS + (_LETTER_RANK[letter] if letter else 0))
    return tuple(key)


def citation_sort_key(cid: str) -> tuple[int, tuple[int, ...]]:
    """Clauses in numeric order, then assumptions in theirs (A2 before A10)."""
    if is_assumption_id(cid):
        return (1, (int(cid[1:]),))
    return (0, sort_key(cid))


def lookalikes(cid: str) -> tuple[str, ...]:
    """The id with its letter in the other script, where the letters look alike: «210.11a»
    typed on a Latin keyboard means «210.11а», and the other way round."""
    out = [other for other in (cid.translate(_TO_CYRILLIC), cid.translate(_TO_LATIN)) if other != cid]
    return tuple(dict.fromkeys(out))


def successors(cid: str) -> tuple[str, ...]:
    """Ids that may follow `cid` in a document read top to bottom: its first subclause, the next
    sibling, or the next number of any ancestor («211.3.1» → 211.3.1.1, 211.3.2, 211.4, 212).

    A lettered part may be followed by the next letter of its alphabet («210.11а» → «210.11б»),
    and a part without a letter by its first lettered sibling («210.11» → «210.11а»). Used to
    tell a clause number that opens an entry from a citation a line wrap put at a line start.
    """
    out: list[str] = [cid + ".1"]
    parts = cid.split(".")
    for depth in range(len(parts), 0, -1):
        head = parts[: depth - 1]
        found = _PART_RE.fullmatch(parts[depth - 1])
        if found is None:
            break
        number, letter = int(found.group(1)), found.group(2)
        if depth > 1 and not letter and depth == len(parts):
            out.extend(".".join([*head, f"{number}{first}"]) for first in ("а", "a"))
        if letter:
            alphabet = _LETTERS[:26] if letter in _LETTERS[:26] else _LETTERS[26:]
            at = alphabet.index(letter)
            if at + 1 < len(alphabet):
                out.append(".".join([*head, f"{number}{alphabet[at + 1]}"]))
        out.append(".".join([*head, str(number + 1)]))
    return tuple(out)


# Clause references as people type them --------------------------------------------------------
# «211,10» (a phone's decimal comma), «п.211,3,1», «211.10.», «п 211.10», «п535.1.1», «пункт 534.8»,
# «пп. 211.3–211.5» (a range), «534.4.1-534.4.2», «210.11а» (a lettered part); a query of bare
# numbers «211 9» or «534 4 2» (spaces for dots). A comma before a group of three digits starts
# a new number («211.3,211.5»); a hyphen counts only as a range to another section-sized number,
# so «РП 4.1-2» is no clause; «09.11.2024» starts with 0 and is no clause either. After a
# section's number a short tail is the range's last part («пп. 211.3–5» is 211.3–211.5) or, after
# a bare section, the clause («211-10» is 211.10).
_TYPED_RE = re.compile(
    r"(?<![\w.,])(?:(?P<lead>пп|п|пункт[а-яё]*|§)\.?\s*)?"
    rf"(?P<first>[1-9]\d{{0,3}}(?:[.,]\d{{1,4}}(?![\d])(?:[{LETTER}](?![{LETTER}]))?)*)"
    rf"(?:\s*[-–—]\s*(?:(?P<last>[1-9]\d{{2,3}}(?:[.,]\d{{1,4}}(?:[{LETTER}](?![{LETTER}]))?)*)"
    r"|(?P<tail>\d{1,2})(?![\d.,])))?"
    r"[.,]?(?![\w]|[.,]\d|\s*[-–—]\s*\d)",
    re.IGNORECASE,
)
_SPACED_RE = re.compile(
    r"\s*(?:(?:пп|п|пункт[а-яё]*|§)\.?\s*)?([1-9]\d{2,3})((?:\s+\d{1,2})+)[.?!]?\s*", re.IGNORECASE
)


class TypedRef(tuple[str, str | None, str, int, int]):
    """One typed reference: (first id, last id of a range or None, lead word, start, end)."""

    __slots__ = ()

    @property
    def first(self) -> str:
        return self[0]

    @property
    def last(self) -> str | None:
        return self[1]

    @property
    def lead(self) -> str:
        """«п», «пп», «пункт», «§» when the number had one, else «»."""
        return self[2]

    @property
    def start(self) -> int:
        return self[3]

    @property
    def end(self) -> int:
        return self[4]


def typed_refs(text: str) -> list[TypedRef]:
    """Every clause reference in a typed text, as written (not checked against any rules text):
    ids normalised to dots, ranges as (first, last), with their spans in `text`."""
    spaced = _SPACED_RE.fullmatch(text)
    if spaced:
        cid = spaced.group(1) + "".join("." + part for part in spaced.group(2).split())
        return [TypedRef((cid, None, "", spaced.start(1), spaced.end(2)))]
    refs: list[TypedRef] = []
    for m in _TYPED_RE.finditer(text):
        lead = (m.group("lead") or "").lower()
        lead = "пункт" if lead.startswith("пункт") else lead
        pieces = _split_commas(m.group("first").lower())
        last = m.group("last")
        tail = m.group("tail")
        if tail is not None:
            head = pieces[-1].split(".") if pieces else []
            if not head or len(head[0]) < 3:
                continue  # «РП 4.1-2»: a version, not a clause
            if len(head) == 1:
                pieces[-1] = f"{head[0]}.{tail}"  # «211-10»
            else:
                last = ".".join([*head[:-1], tail])  # «211.3–5»
        for i, piece in enumerate(pieces):
            end_id = last.replace(",", ".").lower() if last and i == len(pieces) - 1 else None
            if is_clause_id(piece) and (end_id is None or is_clause_id(end_id)):
                refs.append(TypedRef((piece, end_id, lead, m.start(), m.end())))
    return refs


def _split_commas(raw: str) -> list[str]:
    """«211,3,1» → [«211.3.1»]; «211.3,211.5» → [«211.3», «211.5»]: a comma before three digits
    separates two numbers, any other comma is a decimal comma."""
    out: list[str] = []
    current = ""
    for sep, part in re.findall(rf"(^|[.,])(\d+[{LETTER}]?)", raw):
        if sep == "," and len(part) >= 3 and current:
            out.append(current)
            current = part
        else:
            current += ("." if sep else "") + part
    if current:
        out.append(current)
    return out


def parse_typed(text: str) -> list[str]:
    """The clause ids a person typed, in order, a range given by its two ends:
    «211,10» → [«211.10»]; «пп. 211.3–211.5» → [«211.3», «211.5»]; «211.1» never gives «211.10».
    A bare number shorter than a section's three digits is a count, not a clause («1 раз»),
    unless «п.» or «пункт» stands before it."""
    out: list[str] = []
    for ref in typed_refs(text):
        if not (ref.lead or "." in ref.first or len(ref.first) >= 3):
            continue
        out.append(ref.first)
        if ref.last:
            out.append(ref.last)
    return out

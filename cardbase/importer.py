"""Importing a card base: records decoded into CardRecords, with a report of what was read.

`import_base(data, name, constants=…)` never raises for a bad record: the record is skipped and
the report says where and why (in Russian). It raises CardBaseError only for a file unreadable as
a whole (cardbase/readers.py) or one without a single card. What the result replaces is the
caller's decision (cardbase/store.py stores only what a judge accepted).

Fields (community JSON names; our YAML may use the names in brackets):
  id, set_id [set], number, name, rarity, cost, elite, uniq [unique], color (bitmask) [element,
  elements: names], class [classes], type (a code of the constants; or creature|artifact|terrain
  with subtype; or a type word «Летающее»), life, move (null for flyers), hit [strike]
  ([weak, medium, strong] or «1-2-3»), icons ({code: value}, or «zoo regen=1»), text, banned,
  altto [alt_of] (an alternate printing: the id of its base card), abilities (YAML: declarations
  of engine/model/abilities.py, read as written), incorporeal (YAML).

Every value of a record is checked for its kind and its bounds; a value that fails skips the
record, and the report names the record (its place in the file, id and name), the field and what
was wrong. NaN and the strings "", "nan", "null", "none" are an empty field. The bounds:
  life, move, cost, each strike value, an icon's value: whole numbers 0–99 (life ≥ 1 for a
  creature); number and a numeric set id: 0–99,999; color: a bitmask of the known elements;
  name ≤ 200 characters; text ≤ 5,000 characters; id, set, rarity, class, subtype, an icon's
  code, altto ≤ 100 characters each. Flags (elite, uniq, banned, incorporeal): true/false, 1/0
  or a word (да/нет, yes/no).
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any

import lexicon
import storage
from cardbase import readers, recognise
from cardbase.constants import Constants, default_constants, read_constants, type_words
from cardbase.model import CardBase, CardBaseError, CardRecord, ImportReport, Modelled, Problem
from engine import LibraryError, parse_ability
from storage import clean

_TRUE = {"1", "true", "да", "yes", "y", "+", "истина"}
_FALSE = {"0", "false", "нет", "no", "n", "-", "", "ложь", "nan", "none", "null"}
_EMPTY = ("", "nan", "null", "none")

MAX_SMALL = 99  # life, move, cost, each strike value, an icon's value
MAX_NUMBER = 99_999  # number in its set, a numeric set id
MAX_NAME = 200  # characters of a card's name
MAX_TEXT = 5_000  # characters of a card's text
MAX_WORD = 100  # characters of an id, a set, a rarity, a class, a subtype, an icon's code
_DIGITS = 15  # a run of digits longer than this is out of every bound (and never turned into an int)


class _Skip(Exception):
    """A record cannot be imported; the message says why (Russian)."""


def _shown(value: Any) -> str:
    """A value as a problem quotes it: short, and saying what kind of value it is."""
    if isinstance(value, bool):
        return f"«{str(value).lower()}» (да/нет)"
    if isinstance(value, float):
        if math.isnan(value):
            return "NaN"
        return "бесконечность" if math.isinf(value) else f"{value:g}"
    if isinstance(value, int):
        return str(value) if value.bit_length() < 50 else "слишком большое число"
    if isinstance(value, str):
        text = "".join(ch if ch.isprintable() else f"\\x{ord(ch):02x}" for ch in " ".join(value.split()))
        return f"«{text[:40]}…» ({len(value)} знаков)" if len(text) > 40 else f"«{text}»"
    if isinstance(value, Mapping):
        return "словарь {…}"
    if isinstance(value, list | tuple):
        return "список […]"
    return f"значение вида {type(value).__name__}"


def _get(data: Mapping[str, Any], *keys: str) -> Any:
    for key in keys:
        if key in data:
            value = data[key]
            if isinstance(value, str) and value.strip().lower() in _EMPTY:
                return None
            if isinstance(value, float) and math.isnan(value):  # an empty cell of a spreadsheet export
                return None
            return value
    return None


def _whole(value: Any) -> int | None:
    """The whole number a value is (7, 7.0, «7», «7.0»), or None. A run of more than _DIGITS
    digits is MAX_NUMBER + 1: out of every bound, and never converted."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        return int(value) if math.isfinite(value) and value.is_integer() else None
    if isinstance(value, str):
        found = re.fullmatch(r"\s*(-?)(\d+)(?:\.0+)?\s*", value)
        if found is None:
            return None
        if len(found.group(2).lstrip("0")) > _DIGITS:
            return -(MAX_NUMBER + 1) if found.group(1) else MAX_NUMBER + 1
        return int(found.group(1) + found.group(2))
    return None


def _int(value: Any, field: str, minimum: int = 0, maximum: int = MAX_SMALL) -> int | None:
    if value is None:
        return None
    number = _whole(value)
    bounds = f"нужно целое число от {minimum} до {maximum:,}".replace(",", " ")
    if number is None:
        raise _Skip(f"{field}: {bounds}, а не {_shown(value)}")
    if not minimum <= number <= maximum:
        raise _Skip(f"{field}: {bounds}, а не {_shown(value if isinstance(value, str) else number)}")
    return number


def _bool(value: Any, field: str) -> bool:
    if value is None or isinstance(value, bool):
        return bool(value)
    if isinstance(value, int | float) and value in (0, 1):
        return bool(value)
    text = value.strip().lower() if isinstance(value, str) else None
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    raise _Skip(f"{field}: нужно да или нет (true/false, 1/0), а не {_shown(value)}")


def _word(value: Any, field: str, limit: int = MAX_WORD) -> str | None:
    """A short string field (an id, a code, a class): a string or a whole number, stripped."""
    if value is None:
        return None
    number = None if isinstance(value, str) else _whole(value)
    if number is not None:
        value = str(number)
    if not isinstance(value, str):
        raise _Skip(f"{field}: нужна строка или целое число, а не {_shown(value)}")
    text = " ".join(value.split())
    if len(text) > limit:
        raise _Skip(f"{field}: длиннее {limit} знаков ({len(text)})")
    if not text.isprintable():
        raise _Skip(f"{field}: управляющий символ в значении {_shown(text)}")
    return clean.normal(text)


def _text(value: Any, field: str) -> str:
    """A card's text: a string of at most MAX_TEXT characters (a number is read as its digits)."""
    if value is None:
        return ""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() < 50:
        value = str(value)
    elif isinstance(value, float) and math.isfinite(value):
        value = f"{value:g}"
    if not isinstance(value, str):
        raise _Skip(f"{field}: нужна строка, а не {_shown(value)}")
    if len(value) > MAX_TEXT:
        raise _Skip(f"{field}: длиннее {MAX_TEXT:,} знаков ({len(value):,})".replace(",", " "))
    flaw = clean.first_flaw(value)  # JSON's «\ud800» would break every page that shows the card
    if flaw is not None:
        raise _Skip(f"{field}: {flaw.what} (строка {flaw.line} текста)")
    return clean.normal(value)


def _strings(value: Any, split: str, field: str) -> tuple[str, ...]:
    """A list of short strings (classes, elements): a list, or one string split at `split`."""
    if value is None:
        return ()
    if isinstance(value, str):
        items: list[Any] = re.split(split, value)
    elif isinstance(value, list | tuple):
        items = list(value)
    else:
        items = [value]
    words = (_word(i, field) for i in items if not (isinstance(i, float) and math.isnan(i)))
    return tuple(w for w in words if w and w.lower() not in _EMPTY)


class _Decoder:
    """Decodes one base's records against its constants (holds only read-only tables)."""

    def __init__(self, constants: Constants) -> None:
        self.c = constants
        self.element_names = {lexicon.fold(v): v for v in constants.colors.values()}
        self._noted: set[str] = set()  # a code reported once, at its first record

    def once(self, code: str) -> bool:
        """True the first time a code is worth a note (later records with it stay quiet)."""
        if code in self._noted:
            return False
        self._noted.add(code)
        return True

    def kind(self, data: Mapping[str, Any]) -> tuple[str, str | None]:
        raw = _get(data, "type")
        if raw is None:
            raise _Skip("не указан тип карты (type)")
        if isinstance(raw, bool) or not isinstance(raw, str | int | float):
            raise _Skip(f"type (тип): нужен код типа или слово, а не {_shown(raw)}")
        code = _whole(raw)
        if code is not None:
            if str(code) not in self.c.types:
                known = ", ".join(f"{k} — {_type_word(*v)}" for k, v in self.c.types.items())
                shown = f"«{code}»" if abs(code) <= MAX_NUMBER else "(слишком большое число)"
                raise _Skip(f"неизвестный код типа {shown} ({self.c.source}; известны: {known})")
            return self.c.types[str(code)]
        if not isinstance(raw, str):
            raise _Skip(f"type (тип): нужен код типа или слово, а не {_shown(raw)}")
        text = raw.strip()
        if text in lexicon.CARD_TYPES:
            if text != "creature":
                return text, None
            subtype = _word(_get(data, "subtype"), "subtype") or "ground"
            if subtype not in lexicon.SUBTYPES:
                raise _Skip(
                    f"subtype {_shown(subtype)} неизвестен (допустимы: {', '.join(lexicon.SUBTYPES)})"
                )
            return text, subtype
        found = type_words().get(lexicon.fold(text))
        if found is None:
            raise _Skip(f"тип {_shown(text)} неизвестен")
        return found

    def elements(self, data: Mapping[str, Any]) -> tuple[str, ...]:
        color = _get(data, "color")
        as_names = isinstance(color, list | tuple) or (isinstance(color, str) and _whole(color) is None)
        if color is not None and not as_names:
            mask = _int(color, "color (стихии)", minimum=1, maximum=MAX_NUMBER)
            assert mask is not None
            out = [name for bit, name in sorted(self.c.colors.items()) if mask & bit]
            unknown = mask & ~sum(self.c.colors)
            if unknown:
                raise _Skip(
                    f"неизвестный код стихии {unknown} в color={mask} (известны: "
                    + ", ".join(f"{b} — {n}" for b, n in sorted(self.c.colors.items()))
                    + ")"
                )
            return tuple(out)
        names = _strings(_get(data, "elements", "element", "color"), r"[,;/]", "стихии")
        out = []
        for name in names:
            known = self.element_names.get(lexicon.fold(name))
            if known is None:
                raise _Skip(
                    f"стихия {_shown(name)} неизвестна (известны: {', '.join(self.c.colors.values())})"
                )
            out.append(known)
        return tuple(out)

    def set_of(self, data: Mapping[str, Any], notes: list[str]) -> tuple[str, str]:
        raw = _get(data, "set_id", "set")
        text = _word(raw, "set_id (выпуск)")
        if text is None:
            return "", ""
        if text.isdecimal():
            _int(text, "set_id (выпуск)", maximum=MAX_NUMBER)
        if text in self.c.sets:
            return text, self.c.sets[text]
        by_name = {lexicon.fold(v): k for k, v in self.c.sets.items()}
        if lexicon.fold(text) in by_name:
            key = by_name[lexicon.fold(text)]
            return key, self.c.sets[key]
        if text.isdecimal():
            if self.once(f"set:{text}"):
                notes.append(
                    f"выпуска {text} нет в справочнике ({self.c.source}): он показан как «выпуск {text}» "
                    "(и у остальных карт этого выпуска)"
                )
            return text, f"выпуск {text}"
        return text, text

    def strike(self, data: Mapping[str, Any]) -> tuple[int, int, int] | None:
        raw = _get(data, "hit", "strike")
        if raw is None:
            return None
        items: Sequence[Any]
        if isinstance(raw, list | tuple):
            items = raw
        elif isinstance(raw, str):
            items = re.split(r"\s*[-–—/,;]\s*", raw.strip().strip("[]()").strip())  # «1-2-3», «[1,2,3]»
        else:
            items = [raw]
        if len(items) != 3 or any(v is None for v in items):
            raise _Skip(f"hit (удар): нужны три числа — слабый, средний, сильный, а не {_shown(raw)}")
        weak, medium, strong = (_int(v, "hit (удар)") or 0 for v in items)
        return (weak, medium, strong)

    def icons(self, data: Mapping[str, Any], notes: list[str]) -> tuple[tuple[str, int], ...]:
        raw = _get(data, "icons")
        if raw is None:
            return ()
        pairs: list[tuple[str, Any]]
        if isinstance(raw, Mapping):
            pairs = [(_word(k, "icons (значки)") or "", v) for k, v in raw.items()]
        elif isinstance(raw, list | tuple):
            pairs = [(_word(k, "icons (значки)") or "", 0) for k in raw]
        elif isinstance(raw, str):
            pairs = []
            for item in re.split(r"[\s,;]+", raw.strip()):
                if item:
                    code, _, value = item.partition("=") if "=" in item else item.partition(":")
                    pairs.append((_word(code, "icons (значки)") or "", value or 0))
        else:
            raise _Skip(f"icons (значки): нужен словарь, список или строка, а не {_shown(raw)}")
        out: list[tuple[str, int]] = []
        for code, value in pairs:
            if not code:
                continue
            if code not in self.c.icons:
                if self.once(f"icon:{code}"):
                    notes.append(
                        f"значка «{code}» нет в справочнике ({self.c.source}) — он не учтён "
                        "(и у остальных карт с ним)"
                    )
                continue
            number = _int(0 if value is None or value == "" else value, f"icons (значок {code})")
            out.append((code, number or 0))
        return tuple(out)


def _type_word(ctype: str, sub: str | None) -> str:
    return lexicon.class_of_card(ctype, sub)


def _label(where: str, data: Mapping[str, Any]) -> str:
    """«запись 12 (id 10012, «Гоблин»)»: how a report names a record (a long or odd id or name
    is cut short: the place in the file names the record anyway)."""
    bits = []
    card_id = _get(data, "id")
    if isinstance(card_id, str) or (isinstance(card_id, int) and card_id.bit_length() < 50):
        shown = " ".join(clean.scrub(str(card_id)).split())
        if shown and not isinstance(card_id, bool):
            bits.append(f"id {shown[:40]}…" if len(shown) > 40 else f"id {shown}")
    name = _get(data, "name")
    if isinstance(name, str) and name.strip():
        name = " ".join(clean.scrub(name).split())  # the record is skipped, its name still shown
        bits.append(f"«{name[:60]}…»" if len(name) > 60 else f"«{name}»")
    return f"{where} ({', '.join(bits)})" if bits else where


Draft = dict[str, Any]  # a CardRecord's fields while the import fills them (one object made at the end)


def _decode(rec: readers.RawRecord, dec: _Decoder, notes: list[Problem]) -> tuple[Draft, str | None]:
    """One raw record as a CardRecord's fields (its text not yet recognised) and the id of the card
    it is an alternate printing of (or None). Raises _Skip."""
    data = rec.data
    if rec.problem:
        raise _Skip(rec.problem)
    name = _get(data, "name")
    if name is None or (isinstance(name, str) and not name.strip()):
        raise _Skip("нет названия карты (name)")
    if not isinstance(name, str):
        raise _Skip(f"name (название): нужна строка, а не {_shown(name)}")
    if len(name) > MAX_NAME:
        raise _Skip(f"name (название): длиннее {MAX_NAME} знаков ({len(name)})")
    if not " ".join(name.split()).isprintable():
        raise _Skip(f"name (название): управляющий символ в названии {_shown(name)}")
    ctype, subtype = dec.kind(data)
    life = _int(_get(data, "life"), "life (жизнь)")
    if ctype == "creature" and (life is None or life < 1):
        raise _Skip("у существа должна быть жизнь (life) — целое число от 1 до 99")
    own: list[str] = []
    set_id, set_name = dec.set_of(data, own)
    raw_text = _text(_get(data, "text"), "text (текст)")
    text, unknown = recognise.expand(raw_text, dec.c.placeholder)
    own.extend(f"обозначение «{{{u}}}» в тексте неизвестно — оставлено как написано" for u in unknown)
    icons = dec.icons(data, own)
    rarity_code = _word(_get(data, "rarity"), "rarity (редкость)")
    rarity = "" if rarity_code is None else dec.c.rarities.get(rarity_code, rarity_code)
    unknown_rarity = rarity_code is not None and rarity_code not in dec.c.rarities
    if unknown_rarity and rarity_code and rarity_code.isdecimal() and dec.once(f"rarity:{rarity_code}"):
        own.append(f"редкости «{rarity_code}» нет в справочнике ({dec.c.source}) (и у остальных карт с ней)")
    declared: list[Modelled] = []
    abilities = _get(data, "abilities")
    if abilities is not None and not isinstance(abilities, list | tuple):
        raise _Skip(f"abilities (особенности): нужен список, а не {_shown(abilities)}")
    for i, ab in enumerate(abilities or []):
        try:
            clean.check_tree(ab, f"abilities[{i}]")
            ability = parse_ability(ab, f"особенность {i + 1}")
        except (LibraryError, clean.TextError) as exc:
            raise _Skip(str(exc)) from None
        declared.append(Modelled(source="задано в файле базы", ability=ability))
    if _bool(_get(data, "incorporeal"), "incorporeal"):
        declared.append(Modelled(source="задано в файле базы", prop="incorporeal"))
    card_id = _word(_get(data, "id"), "id")
    alt_of = _word(_get(data, "altto", "alt_of"), "altto (основная карта)")
    record: Draft = dict(
        id=card_id or "",
        name=clean.normal(" ".join(name.split())),
        type=ctype,
        subtype=subtype,
        life=life,
        move=_int(_get(data, "move"), "move (движение)"),
        set_id=set_id,
        set_name=set_name,
        number=_int(_get(data, "number"), "number (номер)", maximum=MAX_NUMBER),
        rarity=rarity,
        cost=_int(_get(data, "cost"), "cost (стоимость)"),
        elite=_bool(_get(data, "elite"), "elite"),
        unique=_bool(_get(data, "uniq", "unique"), "uniq"),
        elements=dec.elements(data),
        classes=_strings(_get(data, "class", "classes"), r"[.,;]", "class (класс)"),
        strike=dec.strike(data),
        icons=icons,
        icon_names=tuple(dec.c.icons[c] + (f" {v}" if v else "") for c, v in icons),
        text=text,
        raw_text=raw_text,
        banned=_bool(_get(data, "banned"), "banned"),
        modelled=tuple(declared),
        where=_label(rec.where, data),
    )
    notes.extend(Problem(record["where"], n) for n in own)
    return record, alt_of or None


def _fill_ids(records: list[Draft]) -> None:
    """A record without an id gets «set-number», else its position («n12»)."""
    for i, r in enumerate(records):
        if not r["id"]:
            has_place = r["set_id"] and r["number"] is not None
            r["id"] = f"{r['set_id']}-{r['number']}" if has_place else f"n{i + 1}"


def _library_names(records: list[Draft], notes: list[Problem]) -> None:
    """Two cards of a base with one printed name (a reprint with other numbers): the one of the
    latest set keeps the name on the desk, each other one is «Name (set, №N)»."""
    groups: dict[str, list[int]] = {}
    for i, r in enumerate(records):
        r["library_name"] = r["name"]
        groups.setdefault(lexicon.fold(r["name"]), []).append(i)
    taken = {lexicon.fold(r["name"]) for r in records}
    for idx in groups.values():
        if len(idx) < 2:
            continue
        ranked = sorted(
            idx, key=lambda i: (_set_rank(records[i]["set_id"]), records[i]["number"] or 0), reverse=True
        )
        keep = records[ranked[0]]
        for i in ranked[1:]:
            r = records[i]
            number = r["number"] if r["number"] is not None else r["id"]
            alias = f"{r['name']} ({r['set_name'] or 'выпуск ?'}, №{number})"
            if lexicon.fold(alias) in taken:
                alias = f"{r['name']} (id {r['id']})"
            taken.add(lexicon.fold(alias))
            r["library_name"] = alias
            notes.append(
                Problem(
                    r["where"],
                    f"то же название — {keep['where']}; на столе «{r['name']}» — карта из "
                    f"«{keep['set_name'] or keep['id']}», а эта — «{alias}»",
                )
            )


def _set_rank(set_id: str) -> tuple[int, str]:
    return (int(set_id), "") if set_id.isdecimal() else (0, set_id)


def _recognise(
    r: Draft, names: Mapping[str, str], icon_names: Mapping[str, str], elements: Collection[str]
) -> None:
    found, rest = recognise.recognise(
        r["text"], r["raw_text"], r["icons"], icon_names, names, r["name"], elements
    )
    merged = list(r["modelled"])
    for m in found:
        if not any(m.ability == o.ability and m.prop == o.prop for o in merged):
            merged.append(m)
    r["modelled"], r["unmodelled"] = tuple(merged), rest


def base_id(files: Sequence[tuple[str, bytes]]) -> str:
    """The content address of an import: the same files (names and bytes), the same id."""
    return storage.content_id(b"cardbase/1\n", files)


def import_base(
    data: bytes,
    name: str,
    *,
    constants: tuple[str, bytes] | None = None,
    fmt: str | None = None,
    progress: Callable[[float], None] | None = None,
) -> CardBase:
    """A CardBase from a file's bytes (and its constants file). Raises CardBaseError for a file
    unreadable as a whole or without a single card; bad records are skipped and reported."""
    consts = read_constants(constants[1], constants[0]) if constants else default_constants()
    fmt, raws = readers.read_records(data, name, fmt)
    dec = _Decoder(consts)
    errs: list[Problem] = []
    notes: list[Problem] = []
    decoded: list[tuple[Draft, str | None]] = []
    for i, rec in enumerate(raws):
        try:
            decoded.append(_decode(rec, dec, notes))
        except _Skip as exc:
            errs.append(Problem(_label(rec.where, rec.data), f"{exc} — запись пропущена"))
        if progress and i % 200 == 0:
            progress(0.8 * i / max(len(raws), 1))
    drafts = [r for r, _ in decoded]
    _fill_ids(drafts)
    seen: dict[str, Draft] = {}
    base_records: list[Draft] = []
    alternates: list[tuple[Draft, str]] = []
    for r, (_, alt_of) in zip(drafts, decoded, strict=True):
        if r["id"] in seen:
            first = seen[r["id"]]["where"]
            errs.append(Problem(r["where"], f"повтор id {r['id']} (первый — {first}) — запись пропущена"))
            continue
        seen[r["id"]] = r
        if alt_of is not None and alt_of != r["id"]:
            alternates.append((r, alt_of))
        else:
            base_records.append(r)
    by_id = {r["id"]: r for r in base_records}
    for r, alt_of in alternates:
        if alt_of not in by_id:
            errs.append(
                Problem(
                    r["where"],
                    f"альтернативная печать карты с id {alt_of}, а такой карты в файле нет — "
                    "запись пропущена",
                )
            )
            continue
        target = by_id[alt_of]
        target["alts"] = (*target.get("alts", ()), r["id"])
    if not base_records:
        first_error = f" Первая ошибка: {errs[0]}" if errs else ""
        raise CardBaseError(f"В файле «{name}» нет ни одной карты, которую можно загрузить.{first_error}")
    _library_names(base_records, notes)
    names = {lexicon.fold(r["name"]): r["name"] for r in base_records}
    for r in base_records:
        _recognise(r, names, consts.icons, tuple(consts.colors.values()))
    done = [CardRecord(**r) for r in base_records]
    if progress:
        progress(1.0)
    files = [(name, data)] + ([constants] if constants else [])
    sets = Counter(r.set_name for r in done if r.set_name)
    report = ImportReport(
        source=name,
        format=readers.FORMATS[fmt],
        records=len(raws),
        cards=len(done),
        alternates=sum(len(r.alts) for r in done),
        sets=tuple(sets.items()),
        modelled=sum(r.is_modelled for r in done),
        fully_modelled=sum(r.is_modelled and not r.unmodelled for r in done),
        banned=sum(r.banned for r in done),
        errors=tuple(errs),
        notes=tuple(notes),
    )
    return CardBase.of(base_id(files), name, tuple(done), report)

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
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import lexicon
import storage
from cardbase import readers, recognise
from cardbase.constants import Constants, default_constants, read_constants, type_words
from cardbase.model import CardBase, CardBaseError, CardRecord, ImportReport, Modelled, Problem
from engine import errors
from engine.model.abilities import parse_ability

_TRUE = {"1", "true", "да", "yes", "y", "+", "истина"}
_FALSE = {"0", "false", "нет", "no", "n", "-", "", "ложь", "nan", "none", "null"}


class _Skip(Exception):
    """A record cannot be imported; the message says why (Russian)."""


def _get(data: Mapping[str, Any], *keys: str) -> Any:
    for key in keys:
        if key in data:
            value = data[key]
            if isinstance(value, str) and value.strip().lower() in ("", "nan", "null", "none"):
                return None
            return value
    return None


def _int(value: Any, field: str, minimum: int = 0) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool):
        raise _Skip(f"{field}: нужно целое число, а не «{value}»")
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, str) and re.fullmatch(r"\s*-?\d+(?:\.0+)?\s*", value):
        value = int(float(value))
    if not isinstance(value, int):
        raise _Skip(f"{field}: нужно целое число, а не «{value}»")
    if value < minimum:
        raise _Skip(f"{field}: нужно целое число ≥ {minimum}, а не {value}")
    return value


def _bool(value: Any, field: str) -> bool:
    if value is None or isinstance(value, bool):
        return bool(value)
    if isinstance(value, int | float):
        return bool(value)
    text = str(value).strip().lower()
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    raise _Skip(f"{field}: нужно да или нет (true/false, 1/0), а не «{value}»")


def _strings(value: Any, split: str) -> tuple[str, ...]:
    if value is None:
        return ()
    items = value if isinstance(value, list | tuple) else re.split(split, str(value))
    return tuple(s for s in (str(i).strip() for i in items) if s and s.lower() != "nan")


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
        sub = _get(data, "subtype")
        if raw is None:
            raise _Skip("не указан тип карты (type)")
        text = str(raw).strip()
        if isinstance(raw, int | float) or re.fullmatch(r"-?\d+(?:\.0+)?", text):
            code = str(int(float(text)))
            if code not in self.c.types:
                known = ", ".join(f"{k} — {_type_word(*v)}" for k, v in self.c.types.items())
                raise _Skip(f"неизвестный код типа «{code}» ({self.c.source}; известны: {known})")
            return self.c.types[code]
        if text in lexicon.CARD_TYPES:
            if text != "creature":
                return text, None
            subtype = str(sub).strip() if sub is not None else "ground"
            if subtype not in lexicon.SUBTYPES:
                raise _Skip(f"subtype «{subtype}» неизвестен (допустимы: {', '.join(lexicon.SUBTYPES)})")
            return text, subtype
        found = type_words().get(lexicon.fold(text))
        if found is None:
            raise _Skip(f"тип «{text}» неизвестен")
        return found

    def elements(self, data: Mapping[str, Any]) -> tuple[str, ...]:
        color = _get(data, "color")
        if color is not None and not (isinstance(color, str) and not color.strip().isdigit()):
            mask = _int(color, "color (стихии)", minimum=1)
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
        names = _strings(_get(data, "elements", "element", "color"), r"[,;/]")
        out = []
        for name in names:
            known = self.element_names.get(lexicon.fold(name))
            if known is None:
                raise _Skip(f"стихия «{name}» неизвестна (известны: {', '.join(self.c.colors.values())})")
            out.append(known)
        return tuple(out)

    def set_of(self, data: Mapping[str, Any], notes: list[str]) -> tuple[str, str]:
        raw = _get(data, "set_id", "set")
        if raw is None:
            return "", ""
        text = str(int(raw) if isinstance(raw, float) and raw.is_integer() else raw).strip()
        if text in self.c.sets:
            return text, self.c.sets[text]
        by_name = {lexicon.fold(v): k for k, v in self.c.sets.items()}
        if lexicon.fold(text) in by_name:
            key = by_name[lexicon.fold(text)]
            return key, self.c.sets[key]
        if text.isdigit():
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
        items: Sequence[Any] = raw if isinstance(raw, list | tuple) else re.split(r"\s*[-–—/,;]\s*", str(raw))
        values = [_int(v, "hit (удар)") for v in items]
        if len(values) != 3 or None in values:
            raise _Skip(f"hit (удар): нужны три числа — слабый, средний, сильный, а не «{raw}»")
        return (int(values[0] or 0), int(values[1] or 0), int(values[2] or 0))

    def icons(self, data: Mapping[str, Any], notes: list[str]) -> tuple[tuple[str, int], ...]:
        raw = _get(data, "icons")
        if raw is None:
            return ()
        pairs: list[tuple[str, Any]]
        if isinstance(raw, Mapping):
            pairs = [(str(k), v) for k, v in raw.items()]
        elif isinstance(raw, list | tuple):
            pairs = [(str(k), 0) for k in raw]
        else:
            pairs = []
            for item in re.split(r"[\s,;]+", str(raw).strip()):
                if item:
                    code, _, value = item.partition("=") if "=" in item else item.partition(":")
                    pairs.append((code, value or 0))
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
            number = _int(value if value not in (None, "") else 0, f"значок {code}")
            out.append((code, number or 0))
        return tuple(out)


def _type_word(ctype: str, sub: str | None) -> str:
    return lexicon.class_of_card(ctype, sub)


def _label(where: str, data: Mapping[str, Any]) -> str:
    """«запись 12 (id 10012, «Гоблин»)»: how a report names a record."""
    bits = []
    if _get(data, "id") is not None:
        bits.append(f"id {_get(data, 'id')}")
    name = _get(data, "name")
    if isinstance(name, str) and name.strip():
        bits.append(f"«{name.strip()}»")
    return f"{where} ({', '.join(bits)})" if bits else where


Draft = dict[str, Any]  # a CardRecord's fields while the import fills them (one object made at the end)


def _decode(rec: readers.RawRecord, dec: _Decoder, notes: list[Problem]) -> tuple[Draft, str | None]:
    """One raw record as a CardRecord's fields (its text not yet recognised) and the id of the card
    it is an alternate printing of (or None). Raises _Skip."""
    data = rec.data
    if rec.problem:
        raise _Skip(rec.problem)
    name = _get(data, "name")
    if not isinstance(name, str) or not name.strip():
        raise _Skip("нет названия карты (name)")
    ctype, subtype = dec.kind(data)
    life = _int(_get(data, "life"), "life (жизнь)")
    if ctype == "creature" and (life is None or life < 1):
        raise _Skip("у существа должна быть жизнь (life) — целое число ≥ 1")
    own: list[str] = []
    set_id, set_name = dec.set_of(data, own)
    raw_text = _get(data, "text")
    raw_text = "" if raw_text is None else str(raw_text)
    text, unknown = recognise.expand(raw_text, dec.c.placeholder)
    own.extend(f"обозначение «{{{u}}}» в тексте неизвестно — оставлено как написано" for u in unknown)
    icons = dec.icons(data, own)
    rarity_code = _get(data, "rarity")
    rarity = "" if rarity_code is None else dec.c.rarities.get(str(rarity_code), str(rarity_code))
    unknown_rarity = rarity_code is not None and str(rarity_code) not in dec.c.rarities
    if unknown_rarity and str(rarity_code).isdigit() and dec.once(f"rarity:{rarity_code}"):
        own.append(f"редкости «{rarity_code}» нет в справочнике ({dec.c.source}) (и у остальных карт с ней)")
    declared: list[Modelled] = []
    for i, ab in enumerate(_get(data, "abilities") or []):
        try:
            ability = parse_ability(ab, f"особенность {i + 1}")
        except errors.LibraryError as exc:
            raise _Skip(str(exc)) from None
        declared.append(Modelled(source="задано в файле базы", ability=ability))
    if _bool(_get(data, "incorporeal"), "incorporeal"):
        declared.append(Modelled(source="задано в файле базы", prop="incorporeal"))
    card_id = _get(data, "id")
    alt_of = _get(data, "altto", "alt_of")
    record: Draft = dict(
        id="" if card_id is None else str(card_id).strip(),
        name=" ".join(name.split()),
        type=ctype,
        subtype=subtype,
        life=life,
        move=_int(_get(data, "move"), "move (движение)"),
        set_id=set_id,
        set_name=set_name,
        number=_int(_get(data, "number"), "number (номер)"),
        rarity=rarity,
        cost=_int(_get(data, "cost"), "cost (стоимость)"),
        elite=_bool(_get(data, "elite"), "elite"),
        unique=_bool(_get(data, "uniq", "unique"), "uniq"),
        elements=dec.elements(data),
        classes=_strings(_get(data, "class", "classes"), r"[.,;]"),
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
    return record, (None if alt_of is None else str(alt_of).strip() or None)


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
    return (int(set_id), "") if set_id.isdigit() else (0, set_id)


def _recognise(r: Draft, names: Mapping[str, str], icon_names: Mapping[str, str]) -> None:
    found, rest = recognise.recognise(r["text"], r["raw_text"], r["icons"], icon_names, names)
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
        _recognise(r, names, consts.icons)
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

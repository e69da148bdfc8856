"""A position in one line, like a chess FEN: `B Вайл c4; A Карлик Унд на Вайл; B Орк d4 раны 2 …`.

One card per item; items are separated by «;» or a new line. An item is the owner (A or B), the
card (a library name, or an own name with its template in brackets: «Орк (Наземное существо,
жизнь 5)»), where it is (a cell, «на <хозяин>» for a symbiote, or a zone: «в руке», «в колоде»,
«на кладбище», «в изгнании», «во вспомогательной зоне») and its properties in any order
(«раны 2», «закрыта», «скрыта», «контроль A», «id und» …; the words are in casebook/data/notation.yaml).
An optional header item sets the phase, the turn and the active player: «фаза вскрытие, ход 2,
активный B». The full grammar is in docs/scenarios.md.

Names resolve through the card library as scenario files do (case, «ё» and apostrophes do not
matter; an unknown name gets the nearest ones). Ids are made from the names («Карлик Унд» →
karlik_und) unless written. Errors name the word and where it stands (line and character).
This module checks the notation; whether the position is legal is `engine.build_state`'s question.
"""

from __future__ import annotations

import dataclasses
import functools
import pathlib
import re
import types
from collections.abc import Mapping, Sequence
from typing import Any

import engine
import lexicon
from rules_index import yamlread

DATA = pathlib.Path(__file__).with_name("data")
MAX_CHARS = 20_000
MAX_NUMBER = 999
CARD_ID_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_\-]{0,39}")
_SPECIAL = ';()«»",'
_ZONES = ("aux", "hand", "deck", "graveyard", "exile")


class NotationError(ValueError):
    """A position text that cannot be read; the message names the word and where it stands."""

    def __init__(self, detail: str, token: str = "", line: int = 1, column: int = 1, lines: int = 1) -> None:
        self.detail, self.token, self.line, self.column = detail, token, line, column
        where = (f"строка {line}, " if lines > 1 else "") + f"знак {column}"
        super().__init__(f"{where}" + (f", «{token}»" if token else "") + f": {detail}")


@dataclasses.dataclass(frozen=True)
class Position:
    """What a position text says: its cards, the header values it sets, and each card's line."""

    cards: tuple[engine.CardSpec, ...]
    header: Mapping[str, object]
    lines: Mapping[str, int]


@dataclasses.dataclass(frozen=True)
class _Word:
    key: str
    kind: str
    value: object = None


@dataclasses.dataclass(frozen=True)
class _Vocabulary:
    properties: Mapping[str, _Word]
    card_values: Mapping[str, _Word]
    header: Mapping[str, str]
    phases: Mapping[str, str]
    host_word: str
    lookalikes: Mapping[int, str]
    latin: Mapping[int, str]
    writes: Mapping[tuple[str, object], str]  # (key, value or kind) -> the word the writer uses


def _words(entries: Sequence[Mapping[str, Any]]) -> dict[str, _Word]:
    out: dict[str, _Word] = {}
    for e in entries:
        for w in e["words"]:
            out[lexicon.fold(str(w))] = _Word(str(e["key"]), str(e["kind"]), e.get("value"))
    return out


@functools.cache
def vocabulary() -> _Vocabulary:
    """The notation's words (casebook/data/notation.yaml, latin.yaml), read once, read-only."""
    raw = yamlread.load_file(DATA / "notation.yaml")
    latin = yamlread.load_file(DATA / "latin.yaml")
    phases = {lexicon.fold(c): c for c in lexicon.PHASES}
    phases.update({lexicon.fold(w): code for code, ws in raw["phases"].items() for w in ws})
    writes = {(str(e["key"]), e.get("value", e["kind"])): str(e["words"][0]) for e in raw["properties"]}
    writes.update(
        {("card." + str(e["key"]), e.get("value", e["kind"])): str(e["words"][0]) for e in raw["card_values"]}
    )
    return _Vocabulary(
        properties=types.MappingProxyType(_words(raw["properties"])),
        card_values=types.MappingProxyType(_words(raw["card_values"])),
        header=types.MappingProxyType(
            {lexicon.fold(w): str(e["key"]) for e in raw["header"] for w in e["words"]}
        ),
        phases=types.MappingProxyType(phases),
        host_word=lexicon.fold(str(raw["host_word"])),
        lookalikes=types.MappingProxyType({ord(k): str(v) for k, v in raw["lookalikes"].items()}),
        latin=types.MappingProxyType({ord(str(k)): str(v) for k, v in latin.items()}),
        writes=types.MappingProxyType(writes),
    )


@functools.cache
def _zone_phrases() -> tuple[tuple[tuple[str, ...], str], ...]:
    """Every way the notation names a zone («в руке», «рука», «руке», «hand»), longest first."""
    out: set[tuple[tuple[str, ...], str]] = set()
    for code in _ZONES:
        where = lexicon.fold(lexicon.zone_where(code)).split()
        for phrase in (lexicon.fold(lexicon.zone(code)).split(), where, where[1:], [code]):
            if phrase:
                out.add((tuple(phrase), code))
    return tuple(sorted(out, key=lambda p: -len(p[0])))


def latin_id(name: str) -> str:
    """A card name as Latin letters for an id: «Карлик Унд» → «karlik_und», «Бул'Багур» → «bulbagur»."""
    text = lexicon.fold(name).translate(vocabulary().latin)
    stem = re.sub(r"[^A-Za-z0-9_]", "", text)[:30] or "card"
    return stem if stem[0].isalpha() else "c" + stem


def free_id(base: str, taken: set[str] | frozenset[str]) -> str:
    """base, base2, base3 … whichever is not taken."""
    if base not in taken:
        return base
    n = 2
    while f"{base}{n}" in taken:
        n += 1
    return f"{base}{n}"


# -- reading ----------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class _Token:
    text: str
    kind: str  # word | quoted | group
    line: int
    column: int

    @property
    def folded(self) -> str:
        return lexicon.fold(self.text) if self.kind == "word" else ""


class _Reader:
    def __init__(self, text: str, library: engine.CardLibrary) -> None:
        self.text = text
        self.library = library
        self.voc = vocabulary()
        self.lines = text.count("\n") + 1

    def fail(self, detail: str, token: _Token | None = None, text: str | None = None) -> NotationError:
        shown = token.text if token is not None and text is None else (text or "")
        if token is not None and token.kind == "group" and text is None:
            shown = f"({shown})"
        line, col = (token.line, token.column) if token is not None else (self.lines, 1)
        return NotationError(detail, shown[:60], line, col, self.lines)

    # tokens

    def items(self) -> list[list[_Token]]:
        """The text split into items (at «;» and new lines), each a list of tokens."""
        items: list[list[_Token]] = [[]]
        i, line, line_start, n = 0, 1, 0, len(self.text)
        while i < n:
            ch = self.text[i]
            col = i - line_start + 1
            if ch == "\n" or ch == ";":
                items.append([])
                if ch == "\n":
                    line, line_start = line + 1, i + 1
                i += 1
            elif ch.isspace() or ch == ",":
                i += 1
            elif ch in '«"(':
                close = {"«": "»", '"': '"', "(": ")"}[ch]
                end = self.text.find(close, i + 1)
                if end < 0 or "\n" in self.text[i:end] or ";" in self.text[i:end]:
                    what = "скобка «(» не закрыта" if ch == "(" else "кавычка не закрыта"
                    raise NotationError(what, ch, line, col, self.lines)
                kind = "group" if ch == "(" else "quoted"
                items[-1].append(_Token(self.text[i + 1 : end].strip(), kind, line, col))
                i = end + 1
            elif ch in ")»":
                raise NotationError("лишняя закрывающая скобка или кавычка", ch, line, col, self.lines)
            else:
                j = i
                while j < n and not self.text[j].isspace() and self.text[j] not in _SPECIAL:
                    j += 1
                items[-1].append(_Token(self.text[i:j], "word", line, col))
                i = j
        return [item for item in items if item]

    # words

    def cell(self, tok: _Token) -> str | None:
        text = tok.text.translate(self.voc.lookalikes).lower() if tok.kind == "word" else ""
        return text if engine.is_cell(text) else None

    def player(self, tok: _Token | None) -> str | None:
        text = (
            tok.text.translate(self.voc.lookalikes).upper() if tok is not None and tok.kind == "word" else ""
        )
        return text if text in engine.PLAYERS else None

    def zone_at(self, tokens: Sequence[_Token], i: int) -> tuple[str, int] | None:
        """The zone named by the words from `i`, and how many words it took."""
        for phrase, code in _zone_phrases():
            words = tokens[i : i + len(phrase)]
            if len(words) == len(phrase) and tuple(t.folded for t in words) == phrase:
                return code, len(phrase)
        return None

    def structural(self, tokens: Sequence[_Token], i: int) -> bool:
        """A token that ends a card's name: a cell, «на», a zone, a property word, brackets, quotes."""
        tok = tokens[i]
        if tok.kind != "word":
            return True
        return bool(
            self.cell(tok)
            or tok.folded == self.voc.host_word
            or tok.folded in self.voc.properties
            or self.zone_at(tokens, i)
        )

    def number(self, tokens: Sequence[_Token], i: int, what: str, low: int = 0) -> int:
        tok = tokens[i] if i < len(tokens) else None
        if tok is None or tok.kind != "word" or not tok.text.isdigit() or len(tok.text) > 4:
            raise self.fail(f"после «{what}» — целое число", tok if tok else tokens[i - 1])
        value = int(tok.text)
        if not low <= value <= MAX_NUMBER:
            raise self.fail(f"«{what}»: число от {low} до {MAX_NUMBER}", tok)
        return value

    # items

    def read(self) -> Position:
        if len(self.text) > MAX_CHARS:
            raise NotationError(f"текст позиции длиннее {MAX_CHARS} знаков", "", 1, 1)
        header: dict[str, object] = {}
        drafts: list[_Draft] = []
        for item in self.items():
            if item[0].folded in self.voc.header and not self.player(item[0]):
                self.header(item, header)
            else:
                drafts.append(self.card(item))
        if len(drafts) > 200:
            raise self.fail("больше 200 карт в одной позиции", drafts[200].owner)
        return _finish(self, drafts, header)

    def header(self, item: Sequence[_Token], out: dict[str, object]) -> None:
        i = 0
        while i < len(item):
            tok = item[i]
            key = self.voc.header.get(tok.folded)
            if key is None:
                raise self.fail("ожидается «фаза», «ход», «активный» или «зерно»", tok)
            value_tok = item[i + 1] if i + 1 < len(item) else None
            if key == "phase":
                phase = self.voc.phases.get(value_tok.folded) if value_tok else None
                if phase is None:
                    raise self.fail("фаза: набор, рассадка, вскрытие или бой", value_tok or tok)
                out[key] = phase
            elif key == "active":
                if self.player(value_tok) is None:
                    raise self.fail("активный игрок — A или B", value_tok or tok)
                out[key] = self.player(value_tok)
            else:
                out[key] = self.number(item, i + 1, tok.text, 1 if key == "turn" else 0)
            i += 2

    def card(self, item: Sequence[_Token]) -> _Draft:
        owner = self.player(item[0])
        if owner is None:
            raise self.fail("карта начинается с владельца: A или B", item[0])
        if len(item) == 1:
            raise self.fail("после владельца — название карты", item[0])
        card, name, rest = self.card_name(item)
        draft = _Draft(owner=item[0], owner_code=owner, card=card, name=name, name_token=item[1])
        self.tail(item, rest, draft)
        if draft.at is None and draft.host is None:
            raise self.fail("не сказано, где карта: клетка (c4), «на <хозяин>» или зона («в руке»)", item[-1])
        return draft

    def card_name(self, item: Sequence[_Token]) -> tuple[str | dict[str, object], str, int]:
        """The card of an item: (a library name or an own card, its name, where its tail begins)."""
        first = item[1]
        if first.kind == "group":
            raise self.fail("перед скобками — название своей карты: Орк (Наземное существо)", first)
        upper = next(
            (j for j in range(2, len(item)) if item[j].kind != "word" or self.cell(item[j])), len(item)
        )
        if first.kind == "quoted":
            upper = 2
        if upper < len(item) and item[upper].kind == "group":
            name = " ".join(t.text for t in item[1:upper])
            # a base's card whose name holds brackets («Степной дозорный (Пробный выпуск, №1)»),
            # written without quotes: the library knows the whole name
            whole = self.library.get(f"{name} ({item[upper].text})") if first.kind == "word" else None
            if whole is not None and not whole.template:
                return whole.name, whole.name, upper + 1
            return self.own_card(name, item[upper]), name, upper + 1
        for j in range(upper, 1, -1):
            found = self.library.get(" ".join(t.text for t in item[1:j]))
            if found is not None:
                return found.name, found.name, j
        end = next((j for j in range(2, upper) if self.structural(item, j)), upper)
        guess = " ".join(t.text for t in item[1:end])
        near = ", ".join(f"«{n}»" for n in self.library.nearest(guess, 3))
        detail = f"карты «{guess}» нет в библиотеке" + (f"; похожие: {near}" if near else "")
        raise self.fail(
            detail + f". Своя карта — с шаблоном в скобках: {guess} (Наземное существо)", first, guess
        )

    def own_card(self, name: str, group: _Token) -> dict[str, object]:
        parts = [p.strip() for p in group.text.split(",")]
        template = self.library.template_defs.get(lexicon.fold(parts[0])) if parts[0] else None
        if template is None:
            known = ", ".join(self.library.templates())
            raise self.fail(f"в скобках сначала шаблон своей карты: {known}", group)
        card: dict[str, object] = {"template": template.name, "name": name}
        for part in parts[1:]:
            words = part.split()
            word = self.voc.card_values.get(lexicon.fold(words[0])) if words else None
            if word is None:
                raise self.fail("в скобках после шаблона: жизнь N, движение N, бестелесное", group, part)
            if word.kind == "flag":
                card[word.key] = word.value
            elif len(words) != 2 or not words[1].isdigit() or int(words[1]) > MAX_NUMBER:
                raise self.fail(f"после «{words[0]}» — целое число", group, part)
            else:
                card[word.key] = int(words[1])
        return card

    def tail(self, item: Sequence[_Token], i: int, draft: _Draft) -> None:
        """The place and the properties after the card's name, in any order."""
        while i < len(item):
            tok = item[i]
            zone = self.zone_at(item, i + 1) if tok.folded == self.voc.host_word else None
            if zone is not None:  # «на кладбище»
                draft.place(self, tok, at=zone[0])
                i += 1 + zone[1]
            elif tok.folded == self.voc.host_word:
                ref, i = self.reference(item, i + 1, tok)
                draft.place(self, tok, host=ref)
            elif self.cell(tok):
                draft.place(self, tok, at=self.cell(tok))
                i += 1
            elif (zone := self.zone_at(item, i)) is not None:
                draft.place(self, tok, at=zone[0])
                i += zone[1]
            elif tok.folded in self.voc.properties:
                i = self.property(item, i, draft)
            else:
                raise self.fail(
                    "ожидается клетка (c4), «на <хозяин>», зона или свойство"
                    " (раны 2, закрыта, скрыта, контроль A)",
                    tok,
                )

    def property(self, item: Sequence[_Token], i: int, draft: _Draft) -> int:
        tok = item[i]
        word = self.voc.properties[tok.folded]
        if word.key in draft.props:
            raise self.fail("это свойство уже указано", tok)
        if word.kind == "flag":
            draft.props[word.key] = word.value
            return i + 1
        if word.kind == "number":
            draft.props[word.key] = self.number(item, i + 1, tok.text)
            return i + 2
        if word.kind == "player":
            if self.player(item[i + 1] if i + 1 < len(item) else None) is None:
                raise self.fail(
                    f"после «{tok.text}» — игрок A или B", item[i + 1] if i + 1 < len(item) else tok
                )
            draft.props[word.key] = self.player(item[i + 1])
            return i + 2
        if word.kind == "id":
            nxt = item[i + 1] if i + 1 < len(item) else None
            if nxt is None or nxt.kind != "word" or not CARD_ID_RE.fullmatch(nxt.text):
                raise self.fail("id — латинские буквы, цифры, «_» и «-», с буквы, до 40 знаков", nxt or tok)
            draft.props["id"] = nxt.text
            draft.id_token = nxt
            return i + 2
        ref, nxt_i = self.reference(item, i + 1, tok)
        draft.props[word.key] = ref
        return nxt_i

    def reference(self, item: Sequence[_Token], i: int, before: _Token) -> tuple[_Token, int]:
        """Another card of the position named after «на» (or «изгнана» …): its name or id."""
        if i < len(item) and item[i].kind == "quoted":
            return item[i], i + 1
        j = i
        while j < len(item) and item[j].kind == "word" and not self.structural(item, j):
            j += 1
        if j == i:
            raise self.fail(f"после «{before.text}» — карта позиции (её название или id)", before)
        words = item[i:j]
        return _Token(" ".join(t.text for t in words), "word", words[0].line, words[0].column), j


@dataclasses.dataclass
class _Draft:
    """One card item while it is read (ids and references are settled once every item is read)."""

    owner: _Token
    owner_code: str
    card: str | dict[str, object]
    name: str
    name_token: _Token
    at: str | None = None
    host: _Token | None = None
    place_token: _Token | None = None
    id_token: _Token | None = None
    props: dict[str, object] = dataclasses.field(default_factory=dict)

    def place(self, reader: _Reader, tok: _Token, at: str | None = None, host: _Token | None = None) -> None:
        if self.place_token is not None:
            raise reader.fail(f"место карты уже указано («{self.place_token.text}»)", tok)
        self.at, self.host, self.place_token = at, host, tok


def _finish(reader: _Reader, drafts: list[_Draft], header: dict[str, object]) -> Position:
    """Ids for every card (written or made from names), then the references between cards."""
    explicit = [str(d.props["id"]) for d in drafts if "id" in d.props]
    dup = next((i for i in explicit if explicit.count(i) > 1), None)
    if dup is not None:
        token = next(d.id_token for d in reversed(drafts) if d.props.get("id") == dup)
        raise reader.fail("такой id уже есть в позиции", token)
    ids = assign_ids([(d.name, str(d.props["id"]) if "id" in d.props else None) for d in drafts])
    specs, lines = [], {}
    for draft, cid in zip(drafts, ids, strict=True):
        fields: dict[str, Any] = {k: v for k, v in draft.props.items() if k != "id"}
        for key in ("exiled_by", "borrowed"):
            if key in fields:
                fields[key] = _resolve(reader, drafts, ids, cid, fields[key])
        host = _resolve(reader, drafts, ids, cid, draft.host) if draft.host is not None else None
        specs.append(
            engine.CardSpec(id=cid, card=draft.card, owner=draft.owner_code, at=draft.at, host=host, **fields)
        )
        lines[cid] = draft.owner.line
    return Position(tuple(specs), types.MappingProxyType(header), types.MappingProxyType(lines))


def assign_ids(cards: Sequence[tuple[str, str | None]]) -> list[str]:
    """The ids of (name, written id) pairs: a written id stays; the others are made from the names
    in order, never one that is written elsewhere (so a text means the same whatever its order)."""
    taken = {cid for _, cid in cards if cid}
    out = []
    for name, cid in cards:
        if cid:
            out.append(cid)
            continue
        made = free_id(latin_id(name), taken)
        taken.add(made)
        out.append(made)
    return out


def _resolve(reader: _Reader, drafts: Sequence[_Draft], ids: Sequence[str], own: str, ref: object) -> str:
    assert isinstance(ref, _Token)
    if ref.text in ids:
        found = [ref.text]
    else:
        wanted = lexicon.fold(ref.text)
        found = [cid for d, cid in zip(drafts, ids, strict=True) if lexicon.fold(d.name) == wanted]
        if not found:
            found = [
                cid for d, cid in zip(drafts, ids, strict=True) if _inflected(wanted, lexicon.fold(d.name))
            ]
    if not found:
        names = ", ".join(dict.fromkeys(f"«{d.name}»" for d in drafts))
        raise reader.fail(f"такой карты в позиции нет; есть: {names}", ref)
    if len(found) > 1:
        raise reader.fail(f"в позиции несколько таких карт: укажите id ({', '.join(found)})", ref)
    if found[0] == own:
        raise reader.fail("карта не может ссылаться на саму себя", ref)
    return found[0]


def _inflected(ref: str, name: str) -> bool:
    """«Вайла» for «Вайл», «Карлика Унда» for «Карлик Унд»: the same words with other endings."""
    refs, names = ref.split(), name.split()
    if len(refs) != len(names):
        return False
    for r, n in zip(refs, names, strict=True):
        stem = n[: max(3, len(n) - 1)]
        if not (r.startswith(stem) and abs(len(r) - len(n)) <= 2):
            return False
    return True


def read_position(text: str, library: engine.CardLibrary | None = None) -> Position:
    """The cards (and header values) a position text describes.

    Raises:
        NotationError: a word that does not fit, named with its line and character (Russian).
    """
    return _Reader(text, library or engine.load_library()).read()


# -- writing ----------------------------------------------------------------------------------


def write_position(
    setup: engine.Setup, library: engine.CardLibrary | None = None, header: bool = True
) -> str:
    """The position as a text `read_position` reads back to the same cards (and, with `header`,
    the same phase, turn, active player and seed when they are not the defaults).

    Raises:
        NotationError: a card the notation cannot express (an own card with its own abilities).
    """
    lib = library or engine.load_library()
    voc = vocabulary()
    names = [_card_text(spec, lib) for spec in setup.cards]
    plain_names = [_display_name(spec, lib) for spec in setup.cards]
    explicit: set[int] = set()
    while True:  # write an id wherever the one the reader would make differs
        made = assign_ids(
            [
                (n, spec.id if i in explicit else None)
                for i, (n, spec) in enumerate(zip(plain_names, setup.cards, strict=True))
            ]
        )
        wrong = {i for i, (m, spec) in enumerate(zip(made, setup.cards, strict=True)) if m != spec.id}
        if wrong <= explicit:
            break
        explicit |= wrong
    folded = [lexicon.fold(n) for n in plain_names]
    by_id = {spec.id: i for i, spec in enumerate(setup.cards)}

    def ref(cid: str) -> str:
        i = by_id.get(cid)
        if i is None or folded.count(folded[i]) > 1 or not _plain_words(plain_names[i]):
            return quoted(cid)  # an id that reads as a cell or a word («c1», «id») goes in quotes
        return plain_names[i]

    items = [_header_text(setup)] if header and _header_text(setup) else []
    for i, spec in enumerate(setup.cards):
        parts = [spec.owner, names[i]]
        if spec.host is not None:
            parts.append(f"{voc.host_word} {ref(spec.host)}")
        elif spec.at is not None:
            parts.append(spec.at if engine.is_cell(spec.at) else lexicon.zone_where(spec.at))
        for key in ("wounds", "tokens"):
            if getattr(spec, key):
                parts.append(f"{voc.writes[(key, 'number')]} {getattr(spec, key)}")
        for key in ("closed", "hidden", "incarnated"):
            if getattr(spec, key):
                parts.append(voc.writes[(key, True)])
        if spec.controller is not None and spec.controller != spec.owner:
            parts.append(f"{voc.writes[('controller', 'player')]} {spec.controller}")
        if spec.incorporeal is not None:
            parts.append(voc.writes[("incorporeal", spec.incorporeal)])
        for key in ("exiled_by", "borrowed"):
            if getattr(spec, key):
                parts.append(f"{voc.writes[(key, 'card')]} {ref(getattr(spec, key))}")
        if i in explicit:
            parts.append(f"id {spec.id}")
        items.append(" ".join(parts))
    return "; ".join(items)


def _header_text(setup: engine.Setup) -> str:
    voc = vocabulary()
    word = {
        key: next(w for w, k in voc.header.items() if k == key) for key in ("phase", "turn", "active", "seed")
    }
    parts = []
    if setup.phase != "battle":
        phase = next((w for w, code in voc.phases.items() if code == setup.phase and w != code), setup.phase)
        parts.append(f"{word['phase']} {phase}")
    if setup.turn != 1:
        parts.append(f"{word['turn']} {setup.turn}")
    if setup.active != "A":
        parts.append(f"{word['active']} {setup.active}")
    if setup.seed:
        parts.append(f"{word['seed']} {setup.seed}")
    return ", ".join(parts)


def _display_name(spec: engine.CardSpec, lib: engine.CardLibrary) -> str:
    if isinstance(spec.card, str):
        found = lib.get(spec.card)
        return found.name if found is not None else spec.card
    return str(spec.card.get("name", ""))


def _plain_words(name: str) -> bool:
    """A name the reader takes back as words: no brackets, quotes or separators, and no word of its
    own that would end a name (a cell, «на», a zone, a property)."""
    if not name.strip() or any(ch in _SPECIAL for ch in name):
        return False
    reader = _Reader(name, engine.CardLibrary(types.MappingProxyType({}), types.MappingProxyType({})))
    tokens = [_Token(w, "word", 1, 1) for w in name.split()]
    return not any(reader.structural(tokens, j) for j in range(len(tokens))) and not reader.player(tokens[0])


def quoted(name: str) -> str:
    """A card name as the reader takes it back whole: as it is when it is plain words, else in
    «…» (or "…" when it holds «»»): «Степной дозорный (Пробный выпуск, №1)», «Страж на стене».

    Raises:
        NotationError: a name no quotes can hold (both kinds of closing quote, «;» or a new line).
    """
    if _plain_words(name):
        return name
    if ";" in name or "\n" in name or ("»" in name and '"' in name):
        raise NotationError(
            "название с «;», переводом строки или кавычками обоих видов строкой не записать", name
        )
    return f"«{name}»" if "»" not in name else f'"{name}"'


def _card_text(spec: engine.CardSpec, lib: engine.CardLibrary) -> str:
    """A library card by its name (quoted when it is not plain words); an own card as
    «Орк (Наземное существо, жизнь 6)»."""
    if isinstance(spec.card, str):
        return quoted(_display_name(spec, lib))
    card = dict(spec.card)
    name = str(card.get("name", ""))
    template = (
        lib.template_defs.get(lexicon.fold(str(card.get("template", "")))) if "template" in card else None
    )
    if template is None:
        template = _template_for(card, lib)
    if (
        template is None
        or card.get("abilities")
        or set(card) - {"name", "template", "type", "subtype", "life", "incorporeal", "move"}
    ):
        raise NotationError("своя карта с особенностями строкой не записывается: сохраните стол файлом", name)
    voc = vocabulary()
    values = [template.name]  # every value the card states, so it reads back as the same card
    for key in ("life", "move"):
        if key in card:
            values.append(f"{voc.writes[('card.' + key, 'number')]} {card[key]}")
    if "incorporeal" in card:
        values.append(voc.writes[("card.incorporeal", bool(card["incorporeal"]))])
    return f"{quoted(name)} ({', '.join(values)})"


def _template_for(card: Mapping[str, object], lib: engine.CardLibrary) -> engine.CardDef | None:
    """The template whose type and subtype an own card written without one has."""
    ctype = card.get("type", "creature")
    subtype = card.get("subtype", "ground" if ctype == "creature" else None)
    for t in lib.template_defs.values():
        if t.type == ctype and t.subtype == subtype and not t.abilities and t.incorporeal is False:
            return t
    return None


def read_card(text: str, library: engine.CardLibrary | None = None) -> str | dict[str, object]:
    """One card as a position item names it: a library name («вайл» → «Вайл») or an own card with
    its template («Орк (Наземное существо, жизнь 5)»).

    Raises:
        NotationError: an unknown name (with the nearest ones) or words after the card.
    """
    reader = _Reader(text, library or engine.load_library())
    items = reader.items()
    if len(items) != 1:
        raise NotationError("одна карта: название из библиотеки или своя карта с шаблоном в скобках")
    tokens = [_Token("A", "word", 1, 1), *items[0]]  # the owner an item starts with
    card, _, rest = reader.card_name(tokens)
    if rest < len(tokens):
        raise reader.fail("после карты лишние слова", tokens[rest])
    return card

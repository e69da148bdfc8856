"""Reading a position text: tokens, items, a card's name and tail, then ids and references between
cards. Errors name the word and where it stands (line and character)."""

from __future__ import annotations

import dataclasses
import types
from collections.abc import Sequence
from typing import Any

import engine
import lexicon
from casebook.notation.words import (
    CARD_ID_RE,
    MAX_CHARS,
    MAX_NUMBER,
    MAX_SEED,
    SPECIAL,
    NotationError,
    Position,
    assign_ids,
    vocabulary,
    zone_phrases,
)


@dataclasses.dataclass(frozen=True)
class Token:
    text: str
    kind: str  # word | quoted | group
    line: int
    column: int

    @property
    def folded(self) -> str:
        return lexicon.fold(self.text) if self.kind == "word" else ""


class Reader:
    def __init__(self, text: str, library: engine.CardLibrary) -> None:
        self.text = text
        self.library = library
        self.voc = vocabulary()
        self.lines = text.count("\n") + 1

    def fail(self, detail: str, token: Token | None = None, text: str | None = None) -> NotationError:
        shown = token.text if token is not None and text is None else (text or "")
        if token is not None and token.kind == "group" and text is None:
            shown = f"({shown})"
        line, col = (token.line, token.column) if token is not None else (self.lines, 1)
        return NotationError(detail, shown[:60], line, col, self.lines)

    # tokens

    def items(self) -> list[list[Token]]:
        """The text split into items (at «;» and new lines), each a list of tokens."""
        items: list[list[Token]] = [[]]
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
                items[-1].append(Token(self.text[i + 1 : end].strip(), kind, line, col))
                i = end + 1
            elif ch in ")»":
                raise NotationError("лишняя закрывающая скобка или кавычка", ch, line, col, self.lines)
            else:
                j = i
                while j < n and not self.text[j].isspace() and self.text[j] not in SPECIAL:
                    j += 1
                items[-1].append(Token(self.text[i:j], "word", line, col))
                i = j
        return [item for item in items if item]

    # words

    def cell(self, tok: Token) -> str | None:
        text = tok.text.translate(self.voc.lookalikes).lower() if tok.kind == "word" else ""
        return text if engine.is_cell(text) else None

    def player(self, tok: Token | None) -> str | None:
        text = (
            tok.text.translate(self.voc.lookalikes).upper() if tok is not None and tok.kind == "word" else ""
        )
        return text if text in engine.PLAYERS else None

    def zone_at(self, tokens: Sequence[Token], i: int) -> tuple[str, int] | None:
        """The zone named by the words from `i`, and how many words it took."""
        for phrase, code in zone_phrases():
            words = tokens[i : i + len(phrase)]
            if len(words) == len(phrase) and tuple(t.folded for t in words) == phrase:
                return code, len(phrase)
        return None

    def structural(self, tokens: Sequence[Token], i: int) -> bool:
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

    def number(self, tokens: Sequence[Token], i: int, what: str, low: int = 0, high: int = MAX_NUMBER) -> int:
        tok = tokens[i] if i < len(tokens) else None
        if (
            tok is None
            or tok.kind != "word"
            or not tok.text.isdigit()
            or len(tok.text) > max(4, len(str(high)))
        ):
            raise self.fail(f"после «{what}» — целое число", tok if tok else tokens[i - 1])
        value = int(tok.text)
        if not low <= value <= high:
            raise self.fail(f"«{what}»: число от {low} до {high}", tok)
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

    def header(self, item: Sequence[Token], out: dict[str, object]) -> None:
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
                low, high = (
                    (1, MAX_NUMBER) if key == "turn" else (0, MAX_SEED if key == "seed" else MAX_NUMBER)
                )
                out[key] = self.number(item, i + 1, tok.text, low, high)
            i += 2

    def card(self, item: Sequence[Token]) -> _Draft:
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

    def card_name(self, item: Sequence[Token]) -> tuple[str | dict[str, object], str, int]:
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

    def own_card(self, name: str, group: Token) -> dict[str, object]:
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

    def tail(self, item: Sequence[Token], i: int, draft: _Draft) -> None:
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

    def property(self, item: Sequence[Token], i: int, draft: _Draft) -> int:
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

    def reference(self, item: Sequence[Token], i: int, before: Token) -> tuple[Token, int]:
        """Another card of the position named after «на» (or «изгнана» …): its name or id."""
        if i < len(item) and item[i].kind == "quoted":
            return item[i], i + 1
        j = i
        while j < len(item) and item[j].kind == "word" and not self.structural(item, j):
            j += 1
        if j == i:
            raise self.fail(f"после «{before.text}» — карта позиции (её название или id)", before)
        words = item[i:j]
        return Token(" ".join(t.text for t in words), "word", words[0].line, words[0].column), j


@dataclasses.dataclass
class _Draft:
    """One card item while it is read (ids and references are settled once every item is read)."""

    owner: Token
    owner_code: str
    card: str | dict[str, object]
    name: str
    name_token: Token
    at: str | None = None
    host: Token | None = None
    place_token: Token | None = None
    id_token: Token | None = None
    props: dict[str, object] = dataclasses.field(default_factory=dict)

    def place(self, reader: Reader, tok: Token, at: str | None = None, host: Token | None = None) -> None:
        if self.place_token is not None:
            raise reader.fail(f"место карты уже указано («{self.place_token.text}»)", tok)
        self.at, self.host, self.place_token = at, host, tok


def _finish(reader: Reader, drafts: list[_Draft], header: dict[str, object]) -> Position:
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


def _resolve(reader: Reader, drafts: Sequence[_Draft], ids: Sequence[str], own: str, ref: object) -> str:
    assert isinstance(ref, Token)
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
    return Reader(text, library or engine.load_library()).read()


def read_card(text: str, library: engine.CardLibrary | None = None) -> str | dict[str, object]:
    """One card as a position item names it: a library name («вайл» → «Вайл») or an own card with
    its template («Орк (Наземное существо, жизнь 5)»).

    Raises:
        NotationError: an unknown name (with the nearest ones) or words after the card.
    """
    reader = Reader(text, library or engine.load_library())
    items = reader.items()
    if len(items) != 1:
        raise NotationError("одна карта: название из библиотеки или своя карта с шаблоном в скобках")
    tokens = [Token("A", "word", 1, 1), *items[0]]  # the owner an item starts with
    card, _, rest = reader.card_name(tokens)
    if rest < len(tokens):
        raise reader.fail("после карты лишние слова", tokens[rest])
    return card

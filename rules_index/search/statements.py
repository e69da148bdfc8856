"""What a sentence of a clause states, for the answerability decision: a number beside the
question's word, a definition of it, an order things are done in; and where a clause's source
breaks off, two words of the question it would have spoken of (split from answerability.py, which
asks these of the clauses that cover a question).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Sequence

from rules_index import morph
from rules_index.search.corpus import Corpus
from rules_index.search.query import Query
from rules_index.text import Token, normalize, phrase_starts, side_by_side

# A number counts a word of the question when it stands at most this many words from it
# («не более 1 карты», «количество жетонов», «инкарнация Х»).
COUNT_REACH = 2

# (sentence text, its tokens, where the sentence starts in its piece) → whether it is marked
Marker = Callable[[str, Sequence[Token], int], bool]


def cut_short(c: Corpus, q: Query, d: int) -> tuple[str, tuple[frozenset[str], ...]] | None:
    """Two words the question types side by side («бестелесный симбиот») that paragraph d
    writes side by side only in the sentence its source breaks off in (the rest of it may have
    them apart, or each with another word: «небестелесного симбиота»): what d would say of them
    is lost. The two words as typed and the keys each may stand for, or None."""
    tokens = c.pieces[d][0].tokens
    cut = c.cut_from[d]
    if cut >= len(tokens):
        return None
    text = c.pieces[d][0].text
    # side by side: nothing between them, not even a little word or a comma
    pairs = [
        (j, a.key, b.key) for j, (a, b) in enumerate(itertools.pairwise(tokens)) if side_by_side(text, a, b)
    ]
    # each typed word's keys, with the broader words it stands for («компаньон» is a «симбиот»)
    alts = {qw.word: {a.key for a in qw.alts} for qw in q.words}
    at: dict[int, set[str]] = {}
    spans: dict[int, tuple[int, int]] = {}
    for tk in q.term_keys:
        for i in range(tk.start, tk.end):
            at.setdefault(i, set()).update({tk.key} | alts.get(tk.typed, set()))
            spans.setdefault(i, tk.span)
    for i in sorted(at):
        first, second = at[i], at.get(i + 1, set())
        if not second or first & second or q.text[spans[i][1] : spans[i + 1][0]].strip():
            continue
        if normalize(q.text[: spans[i][0]]).split()[-1:] == ["не"]:
            continue  # «не бестелесного симбиота» is the rules' «небестелесного симбиота»
        typed = (normalize(q.text[slice(*spans[i])]), normalize(q.text[slice(*spans[i + 1])]))
        # the rules' order or the other («сам симбиот бестелесный»: the rules write «бестелесный
        # симбиот», when the second is a dictionary adjective or participle: not «симб бестелесн
        # сущ-во», whose word cut short may qualify the next one, nor «симбиоту бестелесность»);
        # «стал бестелесным | паразит умирает» is two words, not one thing
        turned = (second, first, typed[::-1]) if morph.qualifier(typed[1]) else None
        for one, other, words in filter(None, ((first, second, typed), turned)):
            if not morph.agree(*words):
                continue
            where = [j for j, a, b in pairs if a in one and b in other]
            if where and all(j >= cut for j in where):
                return q.text[spans[i][0] : spans[i + 1][1]], (frozenset(one), frozenset(other))
    return None


def unfinished(c: Corpus, d: int) -> str:
    """The sentence paragraph d's source breaks off in («Если бестелесный симбиот», 211.5), as
    written; «» when its text is whole."""
    tokens = c.pieces[d][0].tokens
    cut = c.cut_from[d]
    return c.pieces[d][0].text[tokens[cut].start :].strip() if cut < len(tokens) else ""


def order_marker(c: Corpus, d: int, who: bool = False) -> Marker:
    """A sentence that states an order («Затем …», «После этого …»; asks.yaml `order.states`) in
    paragraph d's own words, not where it points to another clause or says it in passing; with
    `who` (the order of the players), one that names the active player too (`order.who_states`)."""
    words = c.asks.order_states | c.asks.order_who if who else c.asks.order_states

    def orders(_text: str, toks: Sequence[Token], _start: int) -> bool:
        return any(t.surface in words and not c.in_passing(d, t.key) for t in toks)

    return orders


# How near the replaced thing stands after «вместо» («вместо символа запаса движения»).
INSTEAD_REACH = 3


def instead_marker(c: Corpus, replaced: Sequence[frozenset[str]]) -> Marker:
    """A sentence that says what stands in place of a thing the question names in place of
    another (asks.yaml `definition.instead`): «вместо» with a key of each word `replaced` within
    INSTEAD_REACH words after it («у симба вместо цифры движения значок»: 211.1's «вместо символа
    запаса движения»; not «вместо символа компаньона»); any «вместо» when the question points back
    («а вместо неё значок»)."""

    def says(_text: str, toks: Sequence[Token], _start: int) -> bool:
        for i, t in enumerate(toks):
            if t.surface in c.asks.instead:
                near = {x.key for x in toks[i + 1 : i + 1 + INSTEAD_REACH]}
                if all(keys & near for keys in replaced):
                    return True
        return False

    return says


def until_marker(c: Corpus, d: int) -> Marker:
    """A sentence that bounds a time («до конца вашего следующего хода», «пока … не предпишет»;
    asks.yaml `until.states`) in paragraph d's own words."""

    def bounds(_text: str, toks: Sequence[Token], _start: int) -> bool:
        typed = [t.surface for t in toks]
        return any(not c.in_passing(d, toks[i].key) for i, _ in phrase_starts(typed, c.asks.until_states))

    return bounds


def number_marker(c: Corpus, matched: Sequence[Sequence[str]]) -> Marker:
    """A sentence that states a number (digits, «Х», or a number word of asks.yaml) of one of
    the question's words: the number stands within COUNT_REACH words of it. «сколько карт в
    руке в начале хода» is not answered by 535.7.1's «в начале своего хода карта … инкарнация
    Х»: its number counts the incarnation, which the question does not name."""
    keys = {k for m in matched for k in m}

    def counts(_text: str, toks: Sequence[Token], _start: int) -> bool:
        at = [i for i, t in enumerate(toks) if t.key in keys]
        return any(
            (_count_digits(t.surface) or t.surface in c.asks.numbers)
            and not _idiom(toks, i)
            and any(abs(i - j) <= COUNT_REACH for j in at)
            for i, t in enumerate(toks)
        )

    return counts


def count_of_marker(c: Corpus, keys: Sequence[str]) -> Marker:
    """A sentence that counts two or more of a thing right before its word («перемещение двух
    существ», 211.11): what a question of how many of that thing asks. One is no count of a
    thing («не более 1 карты на клетку» limits a cell)."""
    wanted = set(keys)

    def counts(text: str, toks: Sequence[Token], start: int) -> bool:
        return any(
            n.key in wanted and _many(c, t.surface) and side_by_side(text, t, n, start)
            for t, n in itertools.pairwise(toks)
        )

    return counts


def _count_digits(word: str) -> bool:
    """A count in digits: one or two of them; «207» in «(см. 207. Рука)» is a clause number."""
    return word.isdigit() and len(word) <= 2


def _many(c: Corpus, word: str) -> bool:
    """A number of two or more: a count in digits, or a number word of asks.yaml's numerals (any
    form; not an ordinal: «в третьем ряду» counts no rows)."""
    if word.isdigit():
        return _count_digits(word) and int(word) >= 2
    info = morph.analyse(word)
    return not info.ordinal and c.asks.numerals.get(info.lemma, 0) >= 2


# A number word that with the next word means something else: «все равно» (anyway), «одно и то же».
_IDIOMS = frozenset({("все", "равно"), ("всё", "равно"), ("одно", "и"), ("один", "и")})


def _idiom(toks: Sequence[Token], i: int) -> bool:
    """Whether the number word at i begins an idiom that counts nothing («летающие существа … все
    равно сразу помещаются во вспомогательную зону», 535.4, says no number of cards)."""
    return i + 1 < len(toks) and (toks[i].surface, toks[i + 1].surface) in _IDIOMS


def definition_marker(c: Corpus, matched: Sequence[Sequence[str]]) -> Marker:
    """A sentence that defines the matched words: «X – это Y» with X before the dash
    («Возродить карту – это … в зону битвы» defines no «зона битвы»); «X является Y», «X
    считается Y» with X before the word as its subject, not after a preposition («в подфазу
    Набора отряд … считается нелегальным» defines no phase; «… является эффектом правил игры и
    не использует стек» no stack); «называется X» (asks.yaml `names`) with X anywhere."""
    forms = [
        r"\s*".join("[–—-]" if part == "–" else re.escape(part) for part in w.split()) for w in c.asks.defines
    ]
    pattern = re.compile(r"(?<!\w)(?:" + "|".join(forms) + r")(?!\w)" if forms else r"(?!)")

    def subject(toks: Sequence[Token], i: int) -> bool:
        return i == 0 or not morph.analyse(toks[i - 1].surface).preposition

    def defines(text: str, toks: Sequence[Token], start: int) -> bool:
        low = normalize(text)
        for found in pattern.finditer(low):
            if low[: found.start()].rstrip().endswith(" не"):
                continue  # «не является более наземным существом» defines nothing
            if found.group() in c.asks.names:
                return True
            head = [(i, t) for i, t in enumerate(toks) if t.end - start <= found.start()]
            dash = found.group()[:1] in "–—-"
            if all(any(t.key in m and (dash or subject(toks, i)) for i, t in head) for m in matched):
                return True
        return False

    return defines


def states(
    c: Corpus, d: int, matched: Sequence[Sequence[str]], marker: Marker, rule_only: bool = False
) -> bool:
    """Whether one sentence of paragraph d is marked (states a number, defines) and has every
    matched word (a card is what the clause or its example is about, not a word of a sentence);
    with `rule_only`, a sentence of its rule, not of its example."""
    matched = [m for m in matched if not all(k.startswith("card:") for k in m)]
    for piece in c.pieces[d][:1] if rule_only else c.pieces[d]:
        for start, end, lo, hi in piece.bounds:
            toks = piece.tokens[lo:hi]
            keys = {t.key for t in toks}
            if all(any(k in keys for k in m) for m in matched) and marker(piece.text[start:end], toks, start):
                return True
    return False

"""The question's relations the answerability decision reads: whether it asks how many, how
many times, or with one of a kind's phrases (asks.yaml); what a question of who or when asks
about, which noun a genitive says («маркер жетона»), what a verb is done to («пропустить ход»),
and the words each candidate clause covers once those relations are read."""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Mapping, Sequence

from rules_index import morph
from rules_index.search.corpus import Corpus
from rules_index.search.query import Query
from rules_index.search.retrieval import How
from rules_index.text import normalize, phrase_starts, side_by_side


def related(
    c: Corpus, q: Query, covered: Mapping[int, set[int]], candidates: Sequence[int], how: How
) -> Mapping[int, set[int]]:
    """The words each candidate covers, less a verb a question of who asks about («кто первым
    вскрывает карты») that the candidate has only as a noun or a passive participle («до
    вскрытия», «в открытом виде»): it says when or how that is done, not who does it; and less
    a noun the question says which one of by a genitive («маркер жетона») that the candidate
    lacks, where the candidate says another one («маркера контроля»); and less an ordinal said
    of the doer («кто первым вызывает»: who goes first), which is no row's «первом ряду»; and
    less a verb the question does to a noun («пропустить ход») that the candidate does to a noun
    of its own and lacks the question's («пропустить эту срабатывающую особенность»); and less a
    state typed before its noun («закрытое существо») or a verb typed («атака закрывает существо»)
    that the candidate has only in a phrase of manner («в закрытом виде»)."""
    doings = asked_doings(c, q, c.asks.agent)
    owned = _owned(c, q, covered)
    order = doers_order(c, q)
    objects = _objects(c, q, covered)
    states = _states_of(c, q, covered) | _events(q, covered)
    if not doings and not owned and not order and not objects and not states:
        return covered
    out = dict(covered)
    for d in candidates:
        off = {wi for wi in doings if wi in covered[d] and not _as_verb(c, d, how[d][wi][0].key)}
        off |= {
            hi
            for hi, gi in owned
            if hi in covered[d] and gi not in covered[d] and _owned_otherwise(c, d, how[d][hi][0].key)
        }
        off |= order & covered[d]
        off |= {
            vi
            for vi, oi in objects
            if vi in covered[d] and oi not in covered[d] and _done_to_another(c, d, how[d][vi][0].key)
        }
        off |= {ai for ai in states if ai in covered[d] and _only_a_manner(c, d, how[d][ai][0].key)}
        if off:
            out[d] = covered[d] - off
    return out


# «в открытом виде», «во вскрытом виде»: how a card is put into play (535.5), not what a card is.
_MANNER = frozenset({"виде", "вид"})


def _states_of(c: Corpus, q: Query, covered: Mapping[int, set[int]]) -> set[int]:
    """The adjectives and participles typed just before a noun they agree with («закрытое
    существо», «тапнутое существо»): what state a thing is in."""
    return {
        ai
        for ai, ni in _pairs(
            q, covered, lambda w: (w.minor or w.verbal) and not w.noun and not w.ordinal, lambda w: w.noun
        )
        if normalize(q.words[ni].word) not in _MANNER
        and morph.agree(normalize(q.words[ai].word), normalize(q.words[ni].word))
    }


def _events(q: Query, covered: Mapping[int, set[int]]) -> set[int]:
    """The verbs typed that some paragraph covers («существо закрылось после атаки», «когда оно
    откроется»): a thing that happens, which a phrase of manner («в закрытом виде») does not say."""
    got = {wi for ws in covered.values() for wi in ws}
    return {
        wi for wi in got if (info := q.words[wi].info) is not None and info.verb and not q.words[wi].together
    }


def _only_a_manner(c: Corpus, d: int, key: str) -> bool:
    """Whether paragraph d has `key` only in a phrase of manner («в закрытом виде», 535.7): the
    way a card comes into play, which says nothing of a creature that is closed («закрытое существо
    может защищаться?»)."""
    places = [(piece.tokens, i) for piece in c.pieces[d] for i, t in enumerate(piece.tokens) if t.key == key]
    return bool(places) and all(i + 1 < len(toks) and toks[i + 1].surface in _MANNER for toks, i in places)


def doers_order(c: Corpus, q: Query) -> set[int]:
    """The ordinals typed in the part of a question of who («кто первым вызывает»): they ask
    which doer goes first, not which row."""
    return set(_in_parts_of(q, c.asks.agent, lambda info: info.ordinal, after=False))


# Where a question's parts part: a clause of «кто» ends at a comma, a dash, a bracket…
PARTS = re.compile(r"[,;:.!?()–—]|\s-\s")
_WORD = re.compile(r"\w+")


def words(text: str) -> list[str]:
    """The words of a text, without the punctuation typed after them («меня,» → «меня»)."""
    return _WORD.findall(text)


def _pairs(
    q: Query,
    covered: Mapping[int, set[int]],
    first: Callable[[morph.WordInfo], bool],
    second: Callable[[morph.WordInfo], bool],
) -> list[tuple[int, int]]:
    """Each word typed just before another, both words the rules have, the first such that
    `first` holds of it and the second such that `second` does."""
    whole = {wi for got in covered.values() for wi in got}
    at = {normalize(qw.word): wi for wi, qw in enumerate(q.words) if not qw.together}
    out: list[tuple[int, int]] = []
    for a, b in itertools.pairwise(q.typed):
        ai, bi = at.get(a), at.get(b)
        if ai is None or bi is None or ai not in whole or bi not in whole:
            continue
        ainfo, binfo = q.words[ai].info, q.words[bi].info
        if ainfo is not None and first(ainfo) and binfo is not None and second(binfo):
            out.append((ai, bi))
    return out


def _owned(c: Corpus, q: Query, covered: Mapping[int, set[int]]) -> list[tuple[int, int]]:
    """Each noun typed just before a noun in the genitive that says which one («маркер
    жетона»), both words the rules have."""
    return _pairs(q, covered, lambda w: w.noun, lambda w: w.genitive)


def _objects(c: Corpus, q: Query, covered: Mapping[int, set[int]]) -> list[tuple[int, int]]:
    """Each verb typed just before a noun it is done to («пропустить ход»), both words the
    rules have."""
    return _pairs(q, covered, lambda w: w.verb, lambda w: w.noun)


def _done_to_another(c: Corpus, d: int, key: str) -> bool:
    """Whether paragraph d has `key` as a verb done to a noun of its own («пропустить эту
    срабатывающую особенность», 535.5.2): another doing than the question's. A card of any kind
    (asks.yaml's any_card: «Возродить карту», 535.6) is no other noun: a creature is a card."""
    return any(
        t.key == key
        and morph.analyse(t.surface).verb
        and any(
            morph.analyse(n.surface).noun and n.surface not in c.asks.any_card
            for n in piece.tokens[i + 1 : i + 4]
        )
        for piece in c.pieces[d]
        for i, t in enumerate(piece.tokens)
    )


def _owned_otherwise(c: Corpus, d: int, key: str) -> bool:
    """Whether paragraph d has `key` followed by another noun in the genitive («маркера
    контроля», 535.1.1): another thing than the question's. Not across a comma or a bracket:
    «вызова (возрождения, инкарнации)» lists three doings."""
    return any(
        t.key == key and side_by_side(piece.text, t, n) and morph.analyse(n.surface).genitive
        for piece in c.pieces[d]
        for t, n in itertools.pairwise(piece.tokens)
    )


def asked_doings(c: Corpus, q: Query, asks: frozenset[str]) -> list[int]:
    """The verbs a question of who («кто первым вскрывает карты») asks the doer of, or a question
    of when («когда начинается шаг рассадки») the time of: those typed after its question word in
    its part of the question («вызвал симбиота способностью, кто хозяин» asks who the host is,
    not who summoned). «кто шарит», «кто знает» ask the chat (asks.yaml `chat` after the question
    word), not who does what follows («кто шарит паразит может бить своего хозяина»)."""
    return _in_parts_of(q, asks, lambda info: info.verb, unless=c.asks.chat)


def _in_parts_of(
    q: Query,
    asks: frozenset[str],
    kind: Callable[[morph.WordInfo], bool],
    after: bool = True,
    unless: frozenset[str] = frozenset(),
) -> list[int]:
    """The words of `kind` (one word each, not a phrase's) typed in a part of the question (PARTS:
    a comma, a dash, a bracket… part it) with one of the question words `asks`; with `after`, only
    those after it: a story told before the question word («брат уверяет … кто прав», «у
    противника существо оказалось на моей половине … на тех кто в первом ряду») is not what it
    asks, but an ordinal may come first («первым кто вскрывает»). A question word followed by a
    word of `unless` asks nothing."""
    said = _said_in_parts(q, asks, after, unless)
    return [
        wi
        for wi, qw in enumerate(q.words)
        if qw.info is not None and kind(qw.info) and not qw.together and normalize(qw.word) in said
    ]


def in_asking_parts(q: Query, asks: frozenset[str]) -> set[int]:
    """The words typed in the parts of the question (PARTS) that have one of the question words
    `asks`: «я запутался с инкарнацией: сколько раз за бой существо может инкарнировать, и что
    будет если оно снова погибнет» counts incarnations, not deaths."""
    said = _said_in_parts(q, asks, after=False)
    return {wi for wi, qw in enumerate(q.words) if set(words_of(qw.word)) <= said}


def counted_word(q: Query, asks: frozenset[str]) -> int | None:
    """The thing a question of how many counts: the first noun of the question typed after its
    question word, in its part («сколько всего существ считается переместившимися»: «существ»),
    or None."""
    at = {
        normalize(qw.word): wi
        for wi, qw in enumerate(q.words)
        if not qw.together and qw.meaningful and qw.info is not None and qw.info.noun
    }
    for part in PARTS.split(normalize(q.text)):
        typed = _WORD.findall(part)
        first = next((i for i, w in enumerate(typed) if w in asks), None)
        if first is not None:
            return next((at[w] for w in typed[first + 1 :] if w in at), None)
    return None


def _said_in_parts(
    q: Query, asks: frozenset[str], after: bool, unless: frozenset[str] = frozenset()
) -> set[str]:
    """The words of the question's parts that have a question word not followed by a word of
    `unless` (after its first, `after`)."""
    said: set[str] = set()
    for part in PARTS.split(normalize(q.text)):
        typed = _WORD.findall(part)
        at = next(
            (
                i
                for i, w in enumerate(typed)
                if w in asks and (i + 1 == len(typed) or typed[i + 1] not in unless)
            ),
            None,
        )
        if at is not None:
            said.update(typed[at + 1 :] if after else typed)
    return said


# A sentence ends at «.», «!», «?», «…» or a line's end followed by a space (not «211.3»); not
# at the dot of an abbreviation: a word of one or two letters («п.», «т.е.») or of up to
# _ABBREVIATION letters that the jargon cuts short («сущ.», «особ.»).
_END = re.compile(r"(?<=[.!?…\n])\s+")
_ABBREVIATION = 4


def _sentences(c: Corpus, text: str) -> list[str]:
    out: list[str] = []
    for piece in _END.split(text):
        last = _WORD.findall(out[-1])[-1:] if out else []
        if out and out[-1].endswith(".") and last and _abbreviation(c, last[0]):
            out[-1] += " " + piece
        else:
            out.append(piece)
    return [x for x in out if _WORD.search(x)]


def _abbreviation(c: Corpus, word: str) -> bool:
    return len(word) <= 2 or (len(word) <= _ABBREVIATION and word in c.jargon_lemmas)


def told_around(c: Corpus, q: Query) -> frozenset[int]:
    """In a message of several sentences, some of them asking («?») and some not, the words typed
    only in those that do not: the story told around the question («Добрый день. Купил стартовый
    набор… Можно ли …?»)."""
    asked = asked_in(c, q)
    if asked is None:
        return frozenset()
    return frozenset(
        wi for wi, qw in enumerate(q.words) if (typed := words_of(qw.word)) and not set(typed) & asked
    )


def likened(c: Corpus, q: Query) -> frozenset[str]:
    """The words that liken what is asked to something else: a part of the question (PARTS) that
    a word of asks.yaml `simile` begins and one more word ends («…можно? типа матрёшка»); inside
    a sentence «типа», «вроде» are fillers («симбиот может стать типа защитником?»)."""
    out: set[str] = set()
    for part in PARTS.split(normalize(q.text)):
        typed = _WORD.findall(part)
        for i, phrase in phrase_starts(typed, c.asks.simile):
            if i == 0 and len(typed) == len(phrase) + 1:
                out.add(typed[-1])
    return frozenset(out)


def said_when(c: Corpus, q: Query) -> frozenset[int]:
    """The question's words that say when in a turn (asks.yaml `turn_times`: «в начале хода», «в
    конце своего хода»), not what happens then."""
    inside: set[str] = set()
    outside: set[str] = set()
    for part in PARTS.split(normalize(q.text)):
        words = _WORD.findall(part)
        at = {j for i, phrase in phrase_starts(words, c.asks.turn_times) for j in range(i, i + len(phrase))}
        for j, w in enumerate(words):
            (inside if j in at else outside).add(w)
    # a word typed inside such a phrase and again outside it («хода в начале хода») is not only when
    when = inside - outside
    return frozenset(wi for wi, qw in enumerate(q.words) if not qw.together and normalize(qw.word) in when)


def words_of(text: str) -> list[str]:
    """The words of a typed text, normalised."""
    return _WORD.findall(normalize(text))


def section_parts(c: Corpus, q: Query, asked: frozenset[str] | None) -> frozenset[str]:
    """The words typed in the parts of the question (PARTS) that ask for a section: a word of
    asks.yaml `section` and one of `section_asks` («в каком разделе правил описаны симбиоты»), in a
    sentence that asks when the message has some («Я прочитал раздел про симбиотов. А в каком
    разделе про защитников?» asks for a section of defenders). `asked`: `asked_in`'s words."""
    out: set[str] = set()
    for part in PARTS.split(normalize(q.text)):
        typed = _WORD.findall(part)
        if (
            set(typed) & c.asks.section
            and set(typed) & c.asks.section_asks
            and (asked is None or set(typed) <= asked)
        ):
            out.update(typed)
    return frozenset(out)


def asked_in(c: Corpus, q: Query) -> frozenset[str] | None:
    """The words typed in the sentences that ask («?») of a message whose other sentences tell
    the story around them; None when the message is not so split."""
    sentences = _sentences(c, normalize(q.text))
    asking = [x for x in sentences if x.rstrip().endswith("?")]
    if not asking or len(asking) == len(sentences):
        return None
    return frozenset(w for x in asking for w in _WORD.findall(x))


def timed(c: Corpus, q: Query) -> list[int]:
    """The verbs a question of when asks about: only a query that begins with its word
    («когда начинается шаг рассадки»); inside a sentence «когда» tells the situation
    («остался без носителя, когда закончилось вскрытие»)."""
    typed = q.typed
    return asked_doings(c, q, c.asks.time) if typed and typed[0] in c.asks.time else []


def _as_verb(c: Corpus, d: int, key: str) -> bool:
    """Whether paragraph d has `key` as a verb or an active participle, which say who does it
    («он выбирает», «игрок, контролирующий карту»), not only as a noun or a passive participle
    («до вскрытия», «в открытом виде»)."""
    return any(t.key == key and morph.analyse(t.surface).doer for piece in c.pieces[d] for t in piece.tokens)


def asks_count(c: Corpus, typed: Sequence[str]) -> bool:
    """A question of how many («сколько карт»), not of how long («сколько длится», «сколько это
    действует»: little words may stand between); a noun of quantity after a verb is what the verb
    does, not a question («замещение меняет только количество ран, тип тот же?»)."""
    return any(
        w in c.asks.quantity
        and _next_word(c, typed, i) not in c.asks.duration
        and not (_quantity_noun(w) and any(_doing(c, v) for v in typed[:i]))
        for i, w in enumerate(typed)
    )


def _next_word(c: Corpus, typed: Sequence[str], i: int) -> str:
    """The first word after place i that is no stopword («» when none)."""
    return next((w for w in typed[i + 1 :] if w not in c.analyzer.stopwords), "")


def compares(c: Corpus, typed: Sequence[str]) -> bool:
    """A question of the difference between two things («чем X отличается от Y», «это одно и то
    же?»), not one that says two doings have the same object («на одно и то же игродействие»:
    a preposition before the phrase)."""
    return any(
        not (i and morph.analyse(typed[i - 1]).preposition) for i, _ in phrase_starts(typed, c.asks.compare)
    )


def asks_times(c: Corpus, typed: Sequence[str]) -> bool:
    """A question of how many times («сколько раз можно вызывать»): it counts a doing."""
    return any(
        w in c.asks.quantity and i + 1 < len(typed) and typed[i + 1] in c.asks.times
        for i, w in enumerate(typed)
    )


def typed_loosely(c: Corpus, typed: Sequence[str], phrases: Sequence[tuple[str, ...]]) -> bool:
    """Whether one of the phrases is typed, its words in order with only little words (stopwords)
    between them: «сколько это действует», «как долго это действует»."""
    for phrase in phrases:
        for i, word in enumerate(typed):
            if word != phrase[0]:
                continue
            k, j = 1, i + 1
            while k < len(phrase) and j < len(typed):
                if typed[j] == phrase[k]:
                    k += 1
                elif typed[j] not in c.analyzer.stopwords:
                    break
                j += 1
            if k == len(phrase):
                return True
    return False


def typed_phrase(typed: Sequence[str], phrases: tuple[tuple[str, ...], ...]) -> bool:
    """Whether one of the phrases is typed, its words in a row (looked up by their first word)."""
    return bool(phrase_starts(typed, phrases))


def _doing(c: Corpus, word: str) -> bool:
    """A verb that does something to what follows it («меняет»), not one that asks or frames the
    question («подскажите количество», «есть лимит»)."""
    return word not in c.asks.light and word not in c.analyzer.stopwords and morph.analyse(word).verb


def _quantity_noun(word: str) -> bool:
    """«количество», «лимит»: a noun the dictionary knows (not chat's «скока», which it guesses)."""
    info = morph.analyse(word)
    return info.known and info.noun

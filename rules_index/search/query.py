"""Reading a query: clause numbers, quoted phrases, and each typed word with the keys of the
corpus it may stand for (the word itself, a card, a card of the judge's base, jargon, a word
form, a derivation, a typo), plus the keys that may name a defined term.

Reads a `Corpus`, decides nothing about ranking: retrieval scores what this module reads.
"""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import NamedTuple

import Stemmer
from rapidfuzz import process
from rapidfuzz.distance import OSA

from rules_index import morph, numbers
from rules_index.errors import QueryError
from rules_index.model import Named
from rules_index.search import linking, matching, postings, spoken, translit
from rules_index.search.corpus import Corpus
from rules_index.snippet import find_all
from rules_index.text import Token, normalize

MAX_QUERY = 500
WEIGHT = linking.WEIGHT
Alt = linking.Alt

_PHRASE = re.compile(r"[«\"“„]([^«»\"“”„]+)[»\"”“]")


@dataclass(frozen=True)
class QWord:
    """A query word and the keys it may match; `together` = a multi-word jargon meaning,
    scored as the mean over its keys (both «летающее» and «существо» for «летун»)."""

    word: str
    alts: tuple[Alt, ...]
    together: bool = False
    meaningful: bool = True  # a bare count («3») says nothing on its own
    info: morph.WordInfo | None = None  # the dictionary's view of a one-token word
    named: str = ""  # what the caller said these words name (model.Named.label)
    like: str = ""  # the jargon word it was read as, by its form («вражины» → «враг»)


class TermKey(NamedTuple):
    """A key of the query for term detection: typed as `typed`, over content tokens [start, end)."""

    key: str
    typed: str
    start: int
    end: int
    span: tuple[int, int]  # where in the query it was typed


@dataclass(frozen=True)
class Query:
    """One query as read against one corpus."""

    text: str
    numbers: tuple[numbers.Typed, ...]
    phrases: tuple[tuple[str, tuple[str, ...]], ...]  # a quoted phrase and its keys
    tokens: tuple[Token, ...]  # every word, little words too (numbers blanked out)
    words: tuple[QWord, ...]
    term_keys: tuple[TermKey, ...]
    latin: Mapping[str, str] = field(default_factory=dict)  # a word typed in Latin letters → its reading
    # whether it asks about a step itself («когда начинается шаг рассадки»: Corpus.asks_a_step)
    about_a_step: bool = False

    @functools.cached_property
    def keys(self) -> tuple[str, ...]:
        """Every word's key, little words too, in the order typed."""
        return tuple(t.key for t in self.tokens)

    @functools.cached_property
    def typed(self) -> tuple[str, ...]:
        """Every word as read, little words too, in the order typed."""
        return tuple(t.surface for t in self.tokens)

    @functools.cached_property
    def found_where(self) -> dict[tuple[int, int], str]:
        """Where each clause has each word of this query (passing.where), kept for this query
        alone: the decision asks it of the same pair many times."""
        return {}


def check(query: object, top: int) -> None:
    """Raises QueryError for an empty or over-long query, or a `top` below 1."""
    if not isinstance(query, str) or not query.strip():
        raise QueryError("Пустой запрос: введите номер пункта, слова правил или название карты.")
    if len(query) > MAX_QUERY:
        raise QueryError(f"Запрос слишком длинный: {len(query)} символов (не больше {MAX_QUERY}).")
    if top < 1:
        raise QueryError("Число результатов (top) должно быть не меньше 1.")


def read(c: Corpus, query: str, named: Sequence[Named] = ()) -> Query:
    """The query's numbers, phrases and words; raises QueryError when it has neither words nor
    a clause number. A clause number said in words is read as digits («двести одиннадцать три»:
    spoken.read_said), two words typed without the space between them apart («хостумер»: `unglue`),
    a word a phone's voice input heard as two together («сим биота»: `rejoin`), and `Query.text` is
    the query so read."""
    stemmer = c.analyzer.stemmer()
    query, said = spoken.read_said(c.asks.numerals, c.asks.joins, query)
    query = rejoin(c, unglue(c, query, stemmer), stemmer)
    found, rest = c.number_index.find(query)
    # a number said in words is reported as said («двести одиннадцать три» → п. 211.3)
    found = [n._replace(typed=_as_said(n.typed, said)) for n in found]
    phrases = [
        (m.group(1).strip(), keys)
        for m in _PHRASE.finditer(rest)
        if len(keys := c.analyzer.keys(m.group(1), stemmer, content_only=False)) >= 2
    ]
    tokens, latin = translit.read_tokens(c, list(c.analyzer.tokens(rest, stemmer)), stemmer)
    if not tokens and not found:
        raise QueryError("В запросе нет ни слов, ни номера пункта.")
    framing = c.analyzer.framing(tokens)
    content = [t for i, t in enumerate(tokens) if t.surface not in c.analyzer.stopwords and i not in framing]
    infos = {t.surface: morph.analyse(t.surface) for t in content if not t.surface.isdigit()}
    words, term_keys = _words(c, query, content, stemmer, infos, named, tokens)
    return Query(
        query,
        tuple(found),
        tuple(phrases),
        tuple(tokens),
        tuple(words),
        tuple(term_keys),
        MappingProxyType(latin),
        c.asks_a_step(tokens),
    )


def _as_said(typed: str, said: Mapping[str, str]) -> str:
    """A typed clause number as the judge said it («п. 211.3» → «п. двести одиннадцать три»)."""
    digits = next((d for d in said if typed.endswith(d)), None)
    return typed[: -len(digits)] + said[digits] if digits else typed


# A word this long or longer that neither the rules nor the dictionary know may be two words
# typed without the space («двапаразита», «светфонаря»); each part has at least _PART letters
# (a little word of the stopword list, «на», may be shorter).
_GLUED = 7
_PART = 3
_SLIPS = 2
_CYRILLIC_RUN = re.compile(r"[а-яА-ЯёЁ]+")


def unglue(c: Corpus, query: str, stemmer: Stemmer.Stemmer) -> str:
    """The query with a space put back inside each word that is two words typed together: both
    parts words the rules have (or jargon, or little words), or one such and one the dictionary
    knows; the split that leaves the longest first part known to the rules wins."""
    out: list[str] = []
    last = 0
    for m in _CYRILLIC_RUN.finditer(query):
        word = normalize(m.group())
        if len(word) < _GLUED or len(word) != len(m.group()) or _known(c, word, stemmer, dictionary=True):
            continue
        best: tuple[int, int] | None = None
        for i in range(2, len(word) - 1):
            left, right = word[:i], word[i:]
            stop = c.analyzer.stopwords
            if min(len(left), len(right)) < _PART and left not in stop and right not in stop:
                continue
            ours = _known(c, left, stemmer) + _known(c, right, stemmer)
            if not ours or (best is not None and (ours, i) <= best):
                continue
            if ours < 2 and not (_known(c, left, stemmer, True) and _known(c, right, stemmer, True)):
                continue
            if best is None or (ours, len(left)) > best:
                best = (ours, len(left))
        # A word a slip or two from a word of the rules («симбиод», «сущесво»), or one keystroke
        # from a word the dictionary knows («толкули», «перввый»), is that word mistyped (asked
        # only of a word that splits: the look-up reads the whole vocabulary).
        near = best is not None and (
            process.extractOne(word, c.vocab.keys(), scorer=OSA.distance, score_cutoff=_SLIPS)
            or morph.corrections(word, 1)
        )
        if best is not None and not near:
            at = m.start() + best[1]
            out.append(query[last:at] + " ")
            last = at
    return "".join(out) + query[last:] if out else query


# Two words typed apart that together are a word of the rules: at least this long together.
_JOINED = 6


def rejoin(c: Corpus, query: str, stemmer: Stemmer.Stemmer) -> str:
    """The query with the space taken out between two words that together are a word of the rules
    and apart are not two words (`_two_words`): a word a phone's voice input heard as two («сим
    биота», «бес телесное», «су гедом», «игро действие»). A little word joins only as the first
    half, before a half neither the rules nor a dictionary know («за мещающая»)."""
    runs = list(_CYRILLIC_RUN.finditer(query))
    stop = c.analyzer.stopwords
    cut: list[int] = []  # where a space goes out
    for a, b in itertools.pairwise(runs):
        left, right = normalize(a.group()), normalize(b.group())
        if (
            query[a.end() : b.start()] != " "
            or (cut and cut[-1] == a.start() - 1)  # «a» is already the second half of a word
            or len(left + right) < _JOINED
            or len(right) < 2
            or (len(left) < 2 and left not in stop)
            or right in stop
            # the word itself, not a word of the rules it begins with («симбиот атаковать»)
            or (left + right not in c.vocab and stemmer.stemWord(left + right) not in c.postings)
            # a little word heard apart from the rest of a word the rules have («за мещающая»): only
            # before a half the rules do not know, and a half a dictionary knows only where the rules
            # write the whole word so («под фазу» → «подфазу»; «про пустую» stays two words)
            or (
                _little_apart(c, left + right, right, stemmer)
                if left in stop
                else _two_words(c, left, right, stemmer)
            )
        ):
            continue
        cut.append(a.end())
    for at in reversed(cut):
        query = query[:at] + query[at + 1 :]
    return query


def _little_apart(c: Corpus, whole: str, right: str, stemmer: Stemmer.Stemmer) -> bool:
    """Whether a little word and the word after it stay apart: the rules know the word after it,
    or a dictionary does and the rules never write the two as one word."""
    return _known(c, right, stemmer) or (morph.known(right) and whole not in c.vocab)


def _two_words(c: Corpus, left: str, right: str, stemmer: Stemmer.Stemmer) -> bool:
    """Whether two typed words are two words, not one heard apart: both words of the rules
    («симбиот бестелесный»), or one of the rules and the other a word the dictionary knows; a half
    no dictionary knows beside a word of the rules is a piece of one («игро действие»)."""
    ours = _known(c, left, stemmer), _known(c, right, stemmer)
    return all(ours) or (any(ours) and morph.known(left) and morph.known(right))


def _known(c: Corpus, word: str, stemmer: Stemmer.Stemmer, dictionary: bool = False) -> bool:
    """Whether the rules (their words, jargon, little words) or, with `dictionary`, the Russian
    dictionary know the word."""
    if (
        word in c.vocab
        or word in c.analyzer.stopwords
        or word in c.jargon_lemmas
        or word in c.analyzer.phrase_words
    ):
        return True
    key = c.analyzer.key(word, stemmer)
    if key in c.postings or key in c.jargon_first or "=" + word in c.jargon_first:
        return True
    return dictionary and morph.known(word)


def _words(
    c: Corpus,
    query: str,
    content: list[Token],
    stemmer: Stemmer.Stemmer,
    infos: Mapping[str, morph.WordInfo],
    named: Sequence[Named] = (),
    tokens: Sequence[Token] = (),
) -> tuple[list[QWord], list[TermKey]]:
    """Query words with their alternatives; also the keys for term detection."""
    keys = [t.key for t in content]
    exact = ["=" + t.surface for t in content]
    # Every token (little words too) for jargon phrases, and where each content token is.
    whole = list(postings.phrase_keys(tokens, c.analyzer.stopwords))
    # A jargon phrase typed with a slip in its word («не нашёл хлзяина»): that word read as the
    # one rules word one edit from it, for the phrases only.
    slipped = [_slipped_key(c, t, infos) for t in tokens]
    if any(slipped):
        whole = [postings.PHRASE + k if k else w for w, k in zip(whole, slipped, strict=True)]
    at_content = {id(t): i for i, t in enumerate(content)}
    used = [False] * len(content)
    words: list[QWord] = []
    term_keys: list[TermKey] = []

    def span(start: int, n: int) -> tuple[int, int]:
        return content[start].start, content[start + n - 1].end

    def typed(start: int, n: int) -> str:
        return query[slice(*span(start, n))]

    # Cards first (longest alias first), then multi-word and single-word jargon.
    surfaces = [t.surface for t in content]
    for seq, name, alias in c.cards_typed:
        for start in [*find_all(keys, seq), *matching.misspelt(surfaces, keys, alias, seq)]:
            if any(used[start : start + len(seq)]):
                continue
            for i in range(start, start + len(seq)):
                used[i] = True
            label = typed(start, len(seq))
            words.append(QWord(label, (Alt("card:" + name, "card", WEIGHT["card"], name),)))
            # a question about a card is not about a term
            where = span(start, len(seq))
            term_keys.append(TermKey("card:" + name, label, start, start + len(seq), where))
    for nm in named:
        _named(c, nm, keys, used, words, term_keys, stemmer, span, typed)
    typed_keys = set(keys) | set(exact) | set(whole)
    rows = sorted(i for k in typed_keys for i in c.jargon_first.get(k, ()))
    for seq, means, means_keys in (c.jargon[i] for i in rows):
        if seq[0].startswith(postings.PHRASE):
            _phrase(seq, means, means_keys, whole, tokens, at_content, used, words, term_keys, query)
            continue
        for start in find_all(exact if seq[0].startswith("=") else keys, seq):
            if any(used[start : start + len(seq)]):
                continue
            if len(seq) == 1 and _mistyped_rules_word(c, content[start].surface, infos):
                continue
            for i in range(start, start + len(seq)):
                used[i] = True
            label = typed(start, len(seq))
            alts = tuple(Alt(mk, "jargon", WEIGHT["jargon"], means) for mk in means_keys)
            own = keys[start]
            if len(seq) == 1 and len(alts) == 1 and own in c.postings and own != alts[0].key:
                # A jargon word the loaded rules use literally («свойства» in other rules) still
                # finds itself first.
                alts = (Alt(own, "form", WEIGHT["form"]), *alts)
            if len(alts) == 1 and alts[0].key in c.broader:
                wide = c.broader[alts[0].key]
                alts += tuple(
                    Alt(k, wide.relation, WEIGHT[wide.relation], wide.means, wide.within) for k in wide.keys
                )
            info = infos.get(content[start].surface) if len(seq) == 1 else None
            words.append(QWord(label, alts, together=len(means_keys) > 1, info=info))
            # a meaning that denies («не имеет хозяина») names no term by its words: «некуда посадить
            # паразита» is no «хозяин паразита» (211.2), but a symbiote without one (211.7)
            if not means.startswith("не "):
                term_keys.extend(
                    TermKey(mk, label, start, start + len(seq), span(start, len(seq))) for mk in means_keys
                )
    for i, t in enumerate(content):
        if used[i]:
            continue
        info = infos.get(t.surface)
        kept = c.broader.get(t.key)
        if (
            kept is not None
            and t.key not in c.postings
            and kept.only_with
            and not _names(keys, words, kept.only_with)
        ):
            # «как выставлять местность»: a terrain is no card a symbiote goes on here, and the
            # rules do not say how one is played
            words.append(QWord(typed(i, 1), (), info=info))
            continue
        if kept is not None and t.key not in c.postings:
            # A «keep» word these rules do not write («выстрел» where they speak only of «дальние
            # атаки»): it stands for its broader (opposite, near) words, all of them together.
            weight = WEIGHT[kept.relation]
            alts = tuple(Alt(k, kept.relation, weight, kept.means, kept.within) for k in kept.keys)
            words.append(QWord(typed(i, 1), alts, together=len(alts) > 1, info=info))
            term_keys.extend(TermKey(a.key, typed(i, 1), i, i + 1, span(i, 1)) for a in alts)
            continue
        row = None if t.key in c.postings or info is None else c.jargon_lemmas.get(info.lemma)
        how, share, like = "jargon", 1.0, ""
        alts = ()
        if (
            row is None
            and info is not None
            and not info.known
            and t.key not in c.postings
            and t.surface not in c.jargon_lemmas
        ):
            # A word no dictionary knows, not a form of a rules or jargon word, one edit from a
            # word when no word of the rules is that near: the nearest reading wins («отккуда»
            # is «откуда», not the rules' «оттуда»; «рбаотает» is a light verb mistyped).
            slip = c.linker.slip(t.surface, stemmer)
            if slip is not None and slip.stopword:
                continue
            if slip is not None:
                row, alts, share, how = slip.row, slip.alts, slip.share, "typo"
                info = slip.info or info  # as the word meant: «перввый» says which one, as «первый» does
        if row is None and not alts and info is not None and t.key not in c.postings:
            alts = c.linker.alternatives(t, stemmer, info)
            fixed = None
            if not alts and not info.known:
                fixed = c.linker.misspelt(t.surface, stemmer)
                if fixed is not None and fixed.stopword:
                    continue  # «теперьь», «какмо»: a little word mistyped says nothing
            elif not alts:
                fixed = c.linker.akin(t.surface)  # «вражина»: a real word, like the jargon «враг»
            if fixed is not None:
                row, alts, share, like = fixed.row, fixed.alts, fixed.share, fixed.like
                info = fixed.info or info
                how = "akin" if like else "typo"
        if row is not None:
            # Another form of a jargon word («сдвинули» for the listed «сдвинуть»), a jargon
            # word mistyped («тиггер») or a word like one by its form («вражины» → «враг»).
            alts = tuple(Alt(mk, how, WEIGHT["jargon"] * share, row[1]) for mk in row[2])
            if len(alts) == 1:
                alts = _broadened(c, alts)
            words.append(QWord(typed(i, 1), alts, together=len(row[2]) > 1, info=info, like=like))
            term_keys.extend(TermKey(mk, typed(i, 1), i, i + 1, span(i, 1)) for mk in row[2])
            continue
        if not alts:
            alts = c.linker.alternatives(t, stemmer, info)
        alts = _broadened(c, alts)
        label = typed(i, 1)
        # A word the corpus lacks counts for terms as its closest matches («хазяен» → хозяин,
        # «замещющая» → замещающая); a word with no match at all («покажи») says nothing.
        own_keys = [t.key] if t.key in c.postings else []
        term_alts = dict.fromkeys(own_keys + [a.key for a in alts if a.how == "typo"])
        if not term_alts and alts:
            term_alts = {alts[0].key: None}
        for key in term_alts:
            term_keys.append(TermKey(key, label, i, i + 1, span(i, 1)))
        words.append(QWord(label, alts, meaningful=not t.surface.isdigit(), info=info))
    return words, term_keys


def _names(keys: Sequence[str], words: Sequence[QWord], wanted: Sequence[str]) -> bool:
    """Whether the question names one of the `wanted` keys: a word typed as it is, or read so
    (a card, jargon: «симб» is «симбиот»)."""
    return any(k in wanted for k in keys) or any(a.key in wanted for w in words for a in w.alts)


_STAND_INS = frozenset({"broader", "opposite", "near"})


def _broadened(c: Corpus, alts: tuple[Alt, ...]) -> tuple[Alt, ...]:
    """A word read as a «keep» word of the rules (jargon.yaml) by any link — another form of a
    jargon word, a typo, a derivation — searches that word's broader (opposite, near) words too,
    as the word itself does: «нсоителя» is «носителя», a host, and a host is the creature a
    symbiote sits on (211.4); «паразта» is a parasite, and a symbiote. Each weighs as for the
    word itself times the sureness of the link (1 for a slip of one key)."""
    if any(a.how in _STAND_INS for a in alts):
        return alts  # the word itself brought them («паразит»)
    out = {a.key: a for a in alts}
    for a in alts:
        wide = c.broader.get(a.key)
        if wide is None:
            continue
        sure = min(1.0, a.weight / WEIGHT[a.how]) if a.how in WEIGHT else 1.0
        for k in wide.keys:
            out.setdefault(k, Alt(k, wide.relation, WEIGHT[wide.relation] * sure, wide.means, wide.within))
    return tuple(out.values())


def _slipped_key(c: Corpus, t: Token, infos: Mapping[str, morph.WordInfo]) -> str:
    """The key of the one rules word a word no dictionary knows is one edit from, or «»."""
    info = infos.get(t.surface)
    if info is None or info.known or t.key in c.postings or t.surface in c.jargon_lemmas:
        return ""
    near = c.linker.near_rules_word(t.surface)
    return near[0] if len(near) == 1 else ""


def _mistyped_rules_word(c: Corpus, surface: str, infos: Mapping[str, morph.WordInfo]) -> bool:
    """Whether a word that shares its stem with a jargon form is rather a word of the rules
    mistyped: no dictionary knows it, the jargon table does not list it, and the rules write a
    word one edit from it («замешающая» is 534.7's «замещающая», not a form of «замешать»)."""
    info = infos.get(surface)
    if info is None or info.known or surface in c.jargon_lemmas or surface in c.vocab:
        return False
    return bool(c.linker.near_rules_word(surface))


def _phrase(
    seq: Sequence[str],
    means: str,
    means_keys: tuple[str, ...],
    whole: Sequence[str],
    tokens: Sequence[Token],
    at_content: Mapping[int, int],
    used: list[bool],
    words: list[QWord],
    term_keys: list[TermKey],
    query: str,
) -> None:
    """A jargon phrase with its little words («чья карта» → владелец карты), or of little words
    only («чей он»: no word of it alone says anything, the phrase does)."""
    for start in find_all(whole, seq):
        inside = [at_content[id(t)] for t in tokens[start : start + len(seq)] if id(t) in at_content]
        if any(used[i] for i in inside):
            continue
        for i in inside:
            used[i] = True
        where = (tokens[start].start, tokens[start + len(seq) - 1].end)
        label = query[slice(*where)]
        alts = tuple(Alt(mk, "jargon", WEIGHT["jargon"], means) for mk in means_keys)
        words.append(QWord(label, alts, together=len(means_keys) > 1))
        if inside:
            term_keys.extend(TermKey(mk, label, inside[0], inside[-1] + 1, where) for mk in means_keys)


def _named(
    c: Corpus,
    nm: Named,
    keys: Sequence[str],
    used: list[bool],
    words: list[QWord],
    term_keys: list[TermKey],
    stemmer: Stemmer.Stemmer,
    span: Callable[[int, int], tuple[int, int]],
    typed: Callable[[int, int], str],
) -> None:
    """Words the caller named («горного клеща» = Горный клещ, a card of its base) stand for
    the words of their kind («паразит»): one query word, as a card is, any of whose kinds
    answers for it, weighed a little less than a typed word."""
    seq = c.analyzer.keys(nm.words, stemmer)
    if all(k in c.postings for k in seq):
        return  # a card named with rules words only («Вызов»): the words mean the rules' words
    free = [s for s in find_all(keys, seq) if not any(used[s : s + len(seq)])] if seq else []
    if not free:
        return
    start = free[0]
    end = start + len(seq)
    for i in range(start, end):
        used[i] = True
    label, where = typed(start, len(seq)), span(start, len(seq))
    stop = c.analyzer.stopwords
    means = [t for t in c.analyzer.tokens(nm.means, stemmer) if t.surface not in stop]
    # One word of the query, as a card is: any of its kinds' words answers for it.
    alts: dict[str, Alt] = {}
    for t in means:
        for a in c.linker.alternatives(t, stemmer, morph.analyse(t.surface)):
            alts.setdefault(a.key, Alt(a.key, "named", a.weight * WEIGHT["named"], nm.label))
        term_keys.append(TermKey(t.key, label, start, end, where))
    # A card of no kind the rules speak of is understood, and answers nothing.
    words.append(QWord(label, tuple(alts.values()), meaningful=bool(alts), named=nm.label))

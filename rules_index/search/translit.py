"""Russian typed in Latin letters: «hozyaina» is «хозяина», «vaila» is «Вайла», «bul'bagur» is
«Бульбагур» (the letters' readings are data: translit.yaml).

A word of Latin letters only that the jargon table does not list as it is («summon» is jargon of
its own) is spelt in Russian every way the table allows; the spelling the search knows best is
the word's reading (a word or form of the rules, a card, jargon, a little word; then a word the
dictionary knows; then one a slip from a word of the rules, which the search then reads as a
typo), the likeliest spelling among equals. A word no spelling of which is known stays as typed
(«hearthstone», «lorem»). The query reader (search.query) reads the tokens so spelt like any
typed word; `relabel` then says in the result which words were read so («транслит»).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import replace

import Stemmer

from rules_index import morph
from rules_index.model import SearchResult
from rules_index.search.corpus import Corpus
from rules_index.tables import Translit
from rules_index.text import TOKEN_RE, Token, normalize

HOW = "translit"
_LATIN_WORD = frozenset("abcdefghijklmnopqrstuvwxyz'")
_VOWELS = frozenset("aeiouy")
# At most this many spellings of one word are weighed (the likeliest first); a word whose
# letters allow more keeps the first reading of its last ambiguous letters.
SPELLINGS = 256
# Spellings, the likeliest first, asked whether they are one slip from a word of the rules.
SLIP_TRIED = 8
# What a hit says of a word that is not how the word was read: a term, a phrase, a number.
_KEPT = frozenset({"parent", "number", "term", "phrase", "count"})
# Ranks of a spelling, the best first (`_rank`).
_NONE = 9


def is_latin(word: str) -> bool:
    """A word of Latin letters only (an apostrophe inside), no digits: «hozyaina», «bul'bagur»."""
    return bool(word) and word[0] != "'" and all(ch in _LATIN_WORD for ch in word)


def spellings(word: str, table: Translit, limit: int = SPELLINGS) -> list[str]:
    """Russian spellings of a normalised Latin word by the table, the likeliest first (by the sum
    of each group's place among its readings); [] when a letter has no reading."""
    if not table.letters:
        return []
    longest = max(len(g) for g in table.letters)
    options: list[tuple[str, ...]] = []
    i = 0
    while i < len(word):
        for n in range(min(longest, len(word) - i), 0, -1):
            group = word[i : i + n]
            readings = table.letters.get(group)
            if readings is None:
                continue
            if i == 0 and group in table.start:
                readings = table.start[group]
            elif i > 0 and word[i - 1] in _VOWELS and group in table.after_vowel:
                readings = table.after_vowel[group]
            options.append(readings)
            i += n
            break
        else:
            return []
    # Too many spellings: the last ambiguous groups keep their likeliest reading.
    total = 1
    for k, opts in enumerate(options):
        if total * len(opts) > limit * 16:
            options[k] = opts[:1]
        total *= len(options[k])
    ranked = sorted(
        itertools.product(*(range(len(o)) for o in options)),
        key=lambda idx: (sum(idx), idx),
    )
    out = ["".join(options[k][j] for k, j in enumerate(idx)) for idx in ranked[:limit]]
    return list(dict.fromkeys(s for s in out if s))


def reading(c: Corpus, word: str, stemmer: Stemmer.Stemmer) -> str:
    """The Russian reading of a normalised Latin word, or «» when the search knows none of its
    spellings (or the word is jargon as it is: «summon»)."""
    if not is_latin(word) or word in c.jargon_lemmas:
        return ""
    if c.analyzer.key(word, stemmer) in c.jargon_first or "=" + word in c.jargon_first:
        return ""
    candidates = spellings(word, c.translit)
    if not candidates:
        return ""
    cards = {s for _, _, surfaces in c.cards_typed for s in surfaces}
    card_keys = {k for keys, _, _ in c.cards_typed for k in keys}
    best, best_rank = "", _NONE
    for s in candidates:
        rank = _rank(c, s, stemmer, cards, card_keys)
        if rank < best_rank:
            best, best_rank = s, rank
            if rank == 0:
                break
    if best:
        return best
    # A word typed with a slip besides («simbiod»): its likeliest spellings one edit from a word
    # of the rules or of the tables; the query reader then reads it as a typo.
    for s in candidates[:SLIP_TRIED]:
        if c.linker.near_rules_word(s) or c.linker.near_table_word(s):
            return s
    return ""


def _rank(c: Corpus, s: str, stemmer: Stemmer.Stemmer, cards: set[str], card_keys: set[str]) -> int:
    """How well the search knows a spelling: 0 a word or form the rules, the tables or a card
    write; 1 a word of the dictionary whose key the rules or the tables have; 2 another word of
    the dictionary; 3 a key the rules or the tables have; _NONE none of these."""
    if (
        s in c.vocab
        or s in c.analyzer.stopwords
        or s in c.jargon_lemmas
        or s in cards
        or "=" + s in c.jargon_first
    ):
        return 0
    key = c.analyzer.key(s, stemmer)
    ours = key in c.postings or key in c.jargon_first or key in card_keys
    if morph.known(s):
        return 1 if ours else 2
    return 3 if ours else _NONE


def read_tokens(
    c: Corpus, tokens: Sequence[Token], stemmer: Stemmer.Stemmer
) -> tuple[list[Token], dict[str, str]]:
    """The tokens with each Latin word that has a reading spelt in Russian (its offsets as
    typed), and each word so read → its reading."""
    out: list[Token] = []
    read: dict[str, str] = {}
    for t in tokens:
        if not is_latin(t.surface):
            out.append(t)
            continue
        if t.surface not in read:
            read[t.surface] = reading(c, t.surface, stemmer)
        r = read[t.surface]
        out.append(Token(t.start, t.end, r, c.analyzer.key(r, stemmer)) if r else t)
    return out, {w: r for w, r in read.items() if r}


def read_label(label: str, read: Mapping[str, str]) -> str:
    """A typed label («karlik und», «vaila») with its Latin words spelt as read, or «» when none
    of its words was read so."""
    text = normalize(label)
    parts: list[str] = []
    last = 0
    changed = False
    for m in TOKEN_RE.finditer(text):
        r = read.get(m.group())
        if r:
            parts.append(text[last : m.start()] + r)
            last = m.end()
            changed = True
    return "".join(parts) + text[last:] if changed else ""


def relabel(result: SearchResult, read: Mapping[str, str]) -> SearchResult:
    """The result with each word read from Latin letters said so: `how` «translit» (what it
    matched kept), the Russian reading in `like`."""
    if not read:
        return result
    spelt = {}
    for w in result.words:
        r = read_label(w.word, read)
        if r:
            spelt[w.word] = r
    if not spelt:
        return result
    found = ("", "number", "count")
    words = tuple(
        replace(w, how=HOW, like=spelt[w.word]) if w.word in spelt and w.how not in found else w
        for w in result.words
    )
    evidence = tuple(
        replace(e, how=HOW) if e.word in spelt and e.how not in found else e for e in result.answer.evidence
    )
    hits = tuple(
        replace(
            h,
            matched=tuple(
                replace(m, how=HOW) if m.word in spelt and m.how not in _KEPT else m for m in h.matched
            ),
        )
        for h in result.hits
    )
    return replace(result, words=words, hits=hits, answer=replace(result.answer, evidence=evidence))

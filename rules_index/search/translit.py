"""Russian typed in Latin letters: «hozyaina» is «хозяина», «vaila» is «Вайла», «bul'bagur» is
«Бульбагур» (the letters' readings are data: translit.yaml).

A word of Latin letters only that the jargon table does not list as it is («summon» is jargon of
its own) is spelt in Russian every way the table allows; the spelling the search knows best is
the word's reading (a word or form of the rules, a card, jargon, a little word; then a word the
dictionary knows), the likeliest spelling among equals; failing that, a word the search knows
with a soft sign left out («skolko»), or a long word's spelling one slip from a word of the
rules, which the search then reads as a typo («simbiod»). A short word is read only as a word
the rules or the tables write: many English words are short Russian ones too («in», «step»). A
word no spelling of which is known stays as typed («hearthstone», «lorem»). The query reader
(search.query) reads the tokens so spelt like any typed word; `relabel` then says in the result
which words were read so («транслит»).
"""

from __future__ import annotations

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
_RU_VOWELS = frozenset("аеиоуыэюяьъ")
# At most this many spellings of one word are weighed, the likeliest first.
SPELLINGS = 64
# Spellings, the likeliest first, asked whether they are one slip from a word of the rules.
SLIP_TRIED = 8
# Spellings, the likeliest first, asked whether the dictionary knows them when the search does
# not.
KNOWN_TRIED = 16
# The fewest Latin letters of a word read as a word the rules or the tables write with a soft
# sign put back («byt»), as a key of ours («simb», «hozyain»), as another word of the dictionary,
# a soft sign put back or not («zabrali», «smotret»), as a slip from a word of the rules
# («simbiod»); a word the rules or the tables write as spelt is read at any length («s», «ot»).
MIN_LEFT_OUT = 3
MIN_OURS = 4
MIN_KNOWN = 5
MIN_SLIP = 6
# What a hit says of a word that is not how the word was read: a term, a phrase, a number.
_KEPT = frozenset({"parent", "number", "cited", "absent", "term", "phrase", "count"})


def is_latin(word: str) -> bool:
    """A word of Latin letters only (an apostrophe inside), no digits: «hozyaina», «bul'bagur»."""
    return bool(word) and word[0] != "'" and all(ch in _LATIN_WORD for ch in word)


def spellings(word: str, table: Translit, limit: int = SPELLINGS) -> list[str]:
    """Russian spellings of a normalised Latin word by the table, the likeliest first; [] when a
    letter has no reading. A spelling costs the sum of each group's place among its readings,
    and one more for each group read as shorter groups («vojak»: «j» and «a» rather than «ja»,
    «вожак»); only the `limit` cheapest are kept at each letter."""
    letters = table.letters
    if not letters:
        return []
    longest = max(len(g) for g in letters)
    beams: list[dict[str, int]] = [{} for _ in range(len(word) + 1)]
    beams[0][""] = 0
    for i in range(len(word)):
        if not beams[i]:
            continue
        here = sorted(beams[i].items(), key=lambda sc: (sc[1], sc[0]))[:limit]
        groups = [
            word[i : i + n] for n in range(min(longest, len(word) - i), 0, -1) if word[i : i + n] in letters
        ]
        for shorter, group in enumerate(groups):
            readings = letters[group]
            if i == 0 and group in table.start:
                readings = table.start[group]
            elif i > 0 and word[i - 1] in _VOWELS and group in table.after_vowel:
                readings = table.after_vowel[group]
            nxt = beams[i + len(group)]
            for place, reading in enumerate(readings):
                for spelt, cost in here:
                    total = cost + place + shorter
                    spelt += reading
                    if nxt.get(spelt, total + 1) > total:
                        nxt[spelt] = total
    done = sorted(beams[len(word)].items(), key=lambda sc: (sc[1], sc[0]))[:limit]
    return [spelt for spelt, _ in done if spelt]


def reading(c: Corpus, word: str, stemmer: Stemmer.Stemmer) -> str:
    """The Russian reading of a normalised Latin word, or «» when the search knows none of its
    spellings (or the word is jargon or a little word as it is: «summon», «rules»)."""
    if not is_latin(word) or word in c.jargon_lemmas or word in c.analyzer.stopwords:
        return ""
    if c.analyzer.key(word, stemmer) in c.jargon_first or "=" + word in c.jargon_first:
        return ""
    candidates = spellings(word, c.translit)
    if not candidates:
        return ""
    cards = {s for _, _, surfaces in c.cards_typed for s in surfaces}
    card_keys = {k for keys, _, _ in c.cards_typed for k in keys}

    def ours(s: str) -> bool:  # a key the rules, the tables or a card have
        key = c.analyzer.key(s, stemmer)
        return key in c.postings or key in c.jargon_first or key in card_keys

    def written(s: str) -> bool:  # a word or form the rules, the tables or a card write
        return (
            s in c.vocab
            or s in c.analyzer.stopwords
            or s in c.jargon_lemmas
            or s in cards
            or "=" + s in c.jargon_first
        )

    # The best known first: written by the rules or the tables; a word of the dictionary with a
    # key of ours; another word of the dictionary; a key of ours the dictionary does not know.
    # Only a word written so when short: an English word is often a short Russian one too («in»,
    # «rule», «step»: «ин», «руле», «степ»). The dictionary is asked last and of fewer spellings
    # (it is the slow look-up).
    n = len(word)
    keyed = [s for s in candidates if written(s) or (n >= MIN_OURS and ours(s))]
    found = next((s for s in keyed if written(s)), "")
    found = found or next((s for s in keyed if morph.known(s)), "")
    if not found and n >= MIN_KNOWN:
        found = next((s for s in candidates[:KNOWN_TRIED] if morph.known(s)), "")
    if found or keyed:
        return found or keyed[0]
    # A word the search knows with a soft sign left out («skolko» is «сколько», «ispolzuet»
    # «использует»); or a long word typed with a slip besides («simbiod»): its likeliest
    # spellings one edit from a word of the rules, which the query reader then reads as a typo
    # (not from a jargon word: «player» is no «флаер», «cost» no «хост»).
    tried = candidates[:SLIP_TRIED]
    if n >= MIN_LEFT_OUT:
        for s in tried:
            for fixed in _with_left_out(s, c.translit.left_out):
                if written(fixed) or (n >= MIN_KNOWN and morph.known(fixed)):
                    return fixed
    if n >= MIN_SLIP:
        for s in tried:
            if c.linker.near_rules_word(s):
                return s
    return ""


def _with_left_out(s: str, left_out: Sequence[str]) -> list[str]:
    """A spelling with one letter players leave out put back after a consonant («сколко» →
    «сколько»)."""
    return [
        s[:i] + letter + s[i:]
        for letter in left_out
        for i in range(1, len(s) + 1)
        if s[i - 1] not in _RU_VOWELS
    ]


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
    spelt: dict[str, str] = {}
    for w in result.words:
        r = read_label(w.word, read)
        if r:
            spelt[w.word] = r
    if not spelt:
        return result
    found = ("", "number", "cited", "absent", "count")
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

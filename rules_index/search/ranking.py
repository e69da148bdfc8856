"""Ranking the retrieved paragraphs: signals on top of the word scores, then the hits.

Section headings rank below their clauses unless the query is the section's name; a subclause
reads in its parent's context; a word typed twice, or after «два», favours the clauses about
«another» of it; a question that counts more than one of a kind («2 симба», «третий симбиот»,
«уже есть компаньон, можно ещё паразита») favours the clauses that limit it to one; a question
whether one may do something favours the clauses that allow or forbid that doing; a defined
term the query names puts its definition first; a quoted phrase rewards the clauses that have
it verbatim. Then the hits, best first, each with its snippet and match reasons.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence

from rules_index import ids, morph
from rules_index.model import Hit, Match
from rules_index.numbers import Typed
from rules_index.search import matching, relation, retrieval
from rules_index.search.corpus import Corpus
from rules_index.search.query import Alt, Query, QWord, TermKey
from rules_index.search.retrieval import How
from rules_index.snippet import find_all, snippet
from rules_index.text import Token, fold_lookalikes, normalize

# A heading ranks below its clauses (its words are the whole section's topic, not an answer)
# unless the query is the section's name.
HEADING_FACTOR = 0.35
# A subclause gains this share of its parent's score, up to CHILD_CAP of it («некуда
# инкарнировать» matches 535.7's «на свободную клетку»; its 535.7.2 answers what then).
CHILD_SHARE = 0.5
CHILD_CAP = 0.99
# The best paragraphs whose sentences are read for the question's words together, and how much
# one sentence holding them all adds.
TOGETHER_TOP = 20
TOGETHER_GAIN = 1.0
TOGETHER_POWER = 2.0
# A word typed twice («симб на симба») and a clause with «другой» or «несколько» (asks.yaml
# «another») just before that word.
ANOTHER_GAIN = 1.5
# A term's definition gains the top score times the share of the question the term is, to
# this power: «что такое хозяин» is about the term, «хозяина изгнали, что с симбиотом» is not.
TERM_POWER = 2.0
# ... and, scoring at least this share of the best clause on the question's words alone, goes
# above it: of two clauses with the same words, the one that states the term answers («может ли
# эффект поменять владельца карты»: 535.1 defines the owner, 535.8.1 only names «сменить
# владельца»).
TIE_EDGE = 0.01
# ... when the term is at least this share of the question's words (by weight): «симбиот остался
# без носителя когда закончилось вскрытие» names the host in passing, and 211.7 answers it.
TIE_TERM_SHARE = 0.25
TERM_TIE = 0.9
# A verb typed that a clause has only as a noun («заместить»: 534.7's «эффекты замещения») says
# the doing less than a clause that has it as a verb or a participle (534.7.1's «не может быть
# замещена»): that clause's score times this, among the best VERB_TOP.
VERB_AS_NOUN = 0.85
VERB_TOP = 5
# A question whether one may do something («можно смотреть колоду при вызове») is answered by a
# clause that says the doing is allowed or forbidden (a word of asks.yaml «permission» just before
# it: 535.5.1's «он вправе посмотреть содержимое колоды»), more than by one
# that tells how it is done (535.5.1.1's «просмотр колоды не производится»): its score times this,
# among the best VERB_TOP.
PERMITTED_GAIN = 1.2
# The doing follows its word of permission within this many words («может быть замещена»).
PERMITTED_REACH = 3
# A quoted phrase found verbatim adds this many times the idf of its words.
PHRASE_GAIN = 1.5
# A question that counts more than one of a kind («2 симба», «третий симбиот», «уже есть
# компаньон, можно ещё паразита») is about the clauses that limit that kind to one (asks.yaml
# «limit»: 211.6's «только одного симбиота», 535.5's «не более 1 карты на клетку»): their score
# times this. Of the 57 tuning questions that count a kind and are answered by such a clause, it
# was first for 39 with no gain, 48 at 2, 52 at 4 (no other question lost) and 51 at 6 («инкарнация
# 2 и 3 на одном существе» lost 535.7.4 to 535.7's «не более 1 карты на клетку»).
LIMIT_GAIN = 4.0
# The kind's word follows its limit within this many words («не более 1 карты»).
LIMIT_REACH = 2
# The word a count is of follows it within this many words («две разные инкарнации»).
COUNT_REACH = 3
# An ordinal says which one of the thing it stands before, at most this many words before it
# («третий симбиот», «в своём третьем ряду»).
ORDINAL_REACH = 2

# Matches of a word by its own stem: a word no dictionary knows found so may be any part of speech.
_STEM_ONLY = frozenset({"form", "prefix", "derived"})
# Matches that stand in for a word without being it: they never make a query a section's name.
_STAND_INS = frozenset({"broader", "opposite", "near", "typo"})


def place_headings(c: Corpus, q: Query, scores: dict[int, float], how: How) -> tuple[list[int], list[int]]:
    """A heading first when the query is its section's name («симбиоты», «всё про
    симбов», «раздел взятие карт в отряд скиньте»: a light verb asks the chat), or a part of it that
    asks for a section names it (relation.section_parts: «я только начал играть, в каком разделе
    правил описаны симбиоты»: the rest is the story around it); otherwise below the clauses it
    heads. Returns the headings placed first, and of them those a part asking for a section names."""
    words = q.words
    meaningful = [
        wi
        for wi, qw in enumerate(words)
        if qw.meaningful and fold_lookalikes(normalize(qw.word)) not in c.asks.light
    ]
    scope = relation.asked_in(c, q)
    asking = relation.section_parts(c, q, scope)
    top_score = max(scores.values(), default=0.0)
    sections: list[int] = []
    asked: list[int] = []
    for d, keys in c.heading_keys.items():
        if d not in scores:
            continue
        matched = {wi: alt for wi, (alt, _) in how.get(d, {}).items() if alt.how not in _STAND_INS}
        named = {alt.key for alt in matched.values()} & keys
        by_name = [wi for wi, alt in matched.items() if alt.key in keys]
        # its name typed in a sentence that asks (anywhere in a message that has none)
        in_asking = (
            named == keys
            and bool(asking)
            and (scope is None or all(set(relation.words_of(words[wi].word)) <= scope for wi in by_name))
        )
        is_name = named == keys and len(meaningful) <= len(keys)
        if in_asking or (meaningful and all(wi in matched for wi in meaningful) and is_name):
            scores[d] = top_score + 1.0
            sections.append(d)
            if in_asking:
                asked.append(d)
        else:
            scores[d] *= HEADING_FACTOR
    return sections, asked


def sections_asked(c: Corpus, q: Query, scores: dict[int, float], sections: Sequence[int]) -> None:
    """A section the query names first, above a term's definition named the same way, when the
    query asks for a section («раздел взятие карт в отряд»: 535, not 535.2; asks.yaml `section`)."""
    if sections and any(t.surface in c.asks.section for t in q.tokens):
        top_score = max(scores.values(), default=0.0)
        for d in sections:
            scores[d] = top_score + 1.0


def inherit(c: Corpus, scores: dict[int, float]) -> dict[int, int]:
    """A subclause reads in its parent's context: it gains a share of its parent's score, but
    never rises above its parent (the family fills the places after it, the best stays).
    Returns the subclauses found only so (→ their parent), for «Как нашлось»."""
    base = dict(scores)
    only: dict[int, int] = {}
    for parent, score in base.items():
        for d in c.child_docs.get(parent, ()):
            own = base.get(d, 0.0)
            scores[d] = max(own, min(own + CHILD_SHARE * score, score * CHILD_CAP))
            if own <= 0 and scores[d] > 0:
                only[d] = parent
    return only


def together_first(c: Corpus, words: Sequence[QWord], scores: dict[int, float], how: How) -> None:
    """A clause that says the question's words in one sentence states the thing; one that has
    them scattered over its sentences only mentions them: the best paragraphs gain by the
    largest share of the question (by word weight) one of their sentences holds."""
    light = c.asks.light
    weights = {
        wi: retrieval.word_weight(c, qw)
        for wi, qw in enumerate(words)
        if qw.meaningful
        and not (qw.info is not None and qw.info.function)
        and fold_lookalikes(normalize(qw.word)) not in light
    }
    total = sum(weights.values())
    if len(weights) < 2 or total <= 0:
        return
    for d in sorted(scores, key=lambda d: (-scores[d], d))[:TOGETHER_TOP]:
        matched = how.get(d, {})
        keys = {
            wi: [a.key for a in words[wi].alts] if words[wi].together else [alt.key]
            for wi, (alt, _) in matched.items()
            if wi in weights
        }
        best = 0.0
        for sentence in c.sentence_keys[d]:
            share = sum(weights[wi] for wi, ks in keys.items() if any(k in sentence for k in ks))
            best = max(best, share)
        scores[d] *= 1.0 + TOGETHER_GAIN * (best / total) ** TOGETHER_POWER


def _typed_verbs(words: Sequence[QWord]) -> list[int]:
    """The verbs typed, each a word of its own (not a phrase's)."""
    return [
        wi
        for wi, qw in enumerate(words)
        if qw.meaningful and not qw.together and qw.info is not None and qw.info.verb
    ]


def _best(scores: Mapping[int, float]) -> list[int]:
    """The VERB_TOP best paragraphs, the best first (ties by corpus order)."""
    return sorted(scores, key=lambda d: (-scores[d], d))[:VERB_TOP]


def verbs_as_verbs(c: Corpus, words: Sequence[QWord], scores: dict[int, float], how: How) -> None:
    """A verb typed is said by the clauses that have it as a verb or a participle; among the best
    paragraphs, one that has it only as a noun («эффекты замещения» for «заместить») loses a
    little to them."""
    verbs = _typed_verbs(words)
    if not verbs:
        return
    for d in _best(scores):
        for wi in verbs:
            alt = how.get(d, {}).get(wi, (None, ""))[0]
            if alt is None or alt.how not in ("form", "prefix", "derived"):
                continue
            if not any(
                t.key == alt.key and morph.analyse(t.surface).verbal
                for piece in c.pieces[d]
                for t in piece.tokens
            ):
                scores[d] *= VERB_AS_NOUN


def permitted(c: Corpus, q: Query, scores: dict[int, float], how: How) -> None:
    """Among the best paragraphs, those that say the doing a question of permission asks about
    next to a word of permission gain PERMITTED_GAIN."""
    allowed = c.asks.permission
    if not any(t.surface in allowed for t in q.tokens):
        return
    verbs = _typed_verbs(q.words)
    if not verbs:
        return
    for d in _best(scores):
        keys = {alt.key for wi in verbs if (alt := how.get(d, {}).get(wi, (None, ""))[0]) is not None}
        if keys and any(
            t.surface in allowed and any(n.key in keys for n in piece.tokens[i + 1 : i + 1 + PERMITTED_REACH])
            for piece in c.pieces[d]
            for i, t in enumerate(piece.tokens)
        ):
            scores[d] *= PERMITTED_GAIN


def another(c: Corpus, words: Sequence[QWord], scores: dict[int, float], text: str = "") -> None:
    """A word typed twice relates two of a kind («симб на симба», «замена замены», «инкарнация 2
    и инкарнация 3»), as does a count of two or more typed before it («два замещения», asks.yaml
    «pair»): the clauses that speak of «другой» or «несколько» of that kind («на другого
    симбиота», «несколько эффектов замещения») answer it. A word is typed twice when both stand
    for the same keys: «замена» (эффект замещения) and «эффект» are two words, not one twice."""
    typed = [tuple(a.key for a in qw.alts) for qw in words if qw.alts and qw.meaningful]
    # … unless each is a player's own: «у меня замещение и у оппа замещение» is one of each player
    # (534.4.2's «оба игрока»), not several of one
    owned = _two_owners(text)
    twice = {keys[0] for keys in typed if typed.count(keys) > 1 and not owned} | _counted(c, words, text)
    if not twice:
        return
    other: set[int] = set()
    for another_key in c.another_keys:
        other.update(c.postings.get(another_key, {}))
    for key in twice:
        for d in set(c.postings.get(key, {})) & other & set(scores):
            if any(_follows(piece.tokens, a, key) for a in c.another_keys for piece in c.pieces[d]):
                scores[d] *= ANOTHER_GAIN


def _two_owners(text: str) -> bool:
    """Whether the question gives one thing to the asker and one to another: «у меня …» and
    then «и у …» («у меня замещение, и у него тоже»). Not «а у …»: «у меня урон уже заменился, а
    у соперника второе замещение на то, что получилось» is a replacement of a replacement."""
    typed = relation.words(normalize(text))
    mine = next((i for i, pair in enumerate(itertools.pairwise(typed)) if pair == ("у", "меня")), None)
    return mine is not None and any(pair == ("и", "у") for pair in itertools.pairwise(typed[mine + 2 :]))


def _counted(c: Corpus, words: Sequence[QWord], text: str) -> set[str]:
    """The keys of the words typed right after a count of two or more («два замещения»,
    «2 симба»): the first word with keys that follows the count in the text."""
    low = normalize(text)
    out: set[str] = set()
    for qw in words:
        count = normalize(qw.word)
        if qw.alts or not (count in c.asks.pair or (count.isdigit() and 2 <= int(count) <= 9)):
            continue
        at = low.find(count)
        places = [(low.find(normalize(o.word), at + len(count)), o) for o in words if o.alts and o.meaningful]
        after = [(i, o) for i, o in places if i > at]
        if at >= 0 and after:
            out.add(min(after, key=lambda io: io[0])[1].alts[0].key)
    return out


def limited(c: Corpus, q: Query, scores: dict[int, float]) -> None:
    """A question that counts more than one of a kind (`counted_kinds`) is about the clauses that
    limit that kind to one: those gain LIMIT_GAIN («2 симба на 1 хоста»: 211.6's «только одного
    симбиота», not 211.4's «на другого симбиота»). A limit of cards («не более 1 карты на
    клетку») limits a kind of card only where no clause limits that kind by its own word."""
    kinds = counted_kinds(c, q)
    if not kinds:
        return
    stemmer = c.analyzer.stemmer()
    cards = frozenset(c.analyzer.key(w, stemmer) for w in c.asks.card_kinds)
    any_card = frozenset(c.analyzer.key(w, stemmer) for w in c.asks.any_card)
    found: set[int] = set()
    for kind in kinds:
        own = {d for d in _having(c, kind, scores) if _limits(c, d, kind)}
        if not own and kind & cards:
            own = {d for d in _having(c, any_card, scores) if _limits(c, d, any_card)}
        found |= own
    for d in found:
        scores[d] *= LIMIT_GAIN


def _having(c: Corpus, keys: frozenset[str], scores: Mapping[int, float]) -> set[int]:
    """The scored paragraphs that have one of the keys."""
    return {d for k in keys for d in c.postings.get(k, {}) if d in scores}


def counted_kinds(c: Corpus, q: Query) -> list[frozenset[str]]:
    """The kinds (each the keys of a word typed) a question counts more than one of: the word
    after a count of two or more («2 симба», «двух компаньонов»); the thing an ordinal after the
    first says which one of («третий симбиот»; «сидит мой паразит, второго могу кинуть»: with no
    thing after it, the one before it); two words of one kind with a word of one more between
    them («уже есть компаньон, можно ещё паразита»: both are symbiotes) or before both, in one
    part of the question with the first («уже висит его компаньон, могу я своего паразита
    докинуть»; not «я уже спрашивал: паразит может атаковать, а компаньон?»)."""
    places = _places(c, q)
    ordinals = _ordinals(q)
    kinds: list[frozenset[str]] = []
    for i, t in enumerate(q.tokens):
        if t.surface.isdigit() and any(at == i - 1 for at, _ in places):
            continue  # a value, not a count: «инкарнация 3»
        if t.surface in c.asks.pair or (t.surface.isdigit() and 2 <= int(t.surface) <= 9):
            after = [wi for at, wi in places if i < at <= i + COUNT_REACH]
            if after:
                kinds.append(_kind(q.words[after[0]]))
        elif (
            i in ordinals
            and ordinals[i].lemma not in c.asks.first
            and (thing := _ordinal_of(q, places, i)) is not None
        ):
            kinds.append(_kind(q.words[thing]))
    more = [i for i, t in enumerate(q.tokens) if t.surface in c.asks.more]
    if more:
        for (a, wa), (b, wb) in itertools.combinations(places, 2):
            shared = _kind(q.words[wa]) & _kind(q.words[wb])
            if shared and any(a < m < b or (m < a and _one_part(q, m, a)) for m in more):
                kinds.append(shared)
    return kinds


def _one_part(q: Query, i: int, j: int) -> bool:
    """Whether tokens i < j are typed in one part of the question (relation's parts: no comma,
    colon, dash… between)."""
    return not relation.PARTS.search(q.text[q.tokens[i].end : q.tokens[j].start])


def astray_ordinals(c: Corpus, q: Query) -> dict[int, frozenset[int]]:
    """The paragraphs where an ordinal typed does not say which one of the thing it says it of
    (per the ordinal's word index): «третий симбиот» is not 535.7's «третьем ряду»; «третий ряд»
    is. An ordinal said of nothing typed («кто первым») stays as it is."""
    ordinals = _ordinals(q)
    if not ordinals:
        return {}
    places = _places(c, q)
    typed = {normalize(qw.word): wi for wi, qw in enumerate(q.words) if not qw.together}
    out: dict[int, frozenset[int]] = {}
    for i, t in enumerate(q.tokens):
        wi = typed.get(t.surface)
        if i not in ordinals or wi is None or not q.words[wi].alts:
            continue
        thing = _ordinal_of(q, places, i)
        if thing is None:
            continue
        kind = _kind(q.words[thing])
        keys = {a.key for a in q.words[wi].alts}
        found = set().union(*(c.postings.get(k, {}) for k in keys))
        astray = frozenset(
            d
            for d in found
            if not any(
                tk.key in keys and any(n.key in kind for n in piece.tokens[j + 1 : j + 1 + ORDINAL_REACH])
                for piece in c.pieces[d]
                for j, tk in enumerate(piece.tokens)
            )
        )
        if astray:
            out[wi] = astray
    return out


def _places(c: Corpus, q: Query) -> list[tuple[int, int]]:
    """The words that may name a kind (one word each, with keys; no count, ordinal, verb,
    adjective or «раз»), each with its place among the typed tokens (a word typed twice, each
    time), in the order typed."""
    at: dict[str, list[int]] = {}
    for i, t in enumerate(q.tokens):
        at.setdefault(t.surface, []).append(i)
    out: list[tuple[int, int]] = []
    for wi, qw in enumerate(q.words):
        word = normalize(qw.word)
        info = qw.info
        if qw.together or not qw.alts or not qw.meaningful or not at.get(word) or word.isdigit():
            continue
        place = at[word].pop(0)
        if word in c.asks.times:
            continue  # «второй раз», «три раза» count a doing, not things of a kind
        if info is not None and (info.verb or info.function or info.ordinal):
            continue
        stem_only = all(a.how in _STEM_ONLY for a in qw.alts)
        if info is not None and info.minor and stem_only:
            continue  # an adjective («разных»); not slang the dictionary reads as one («сущ»)
        if info is not None and not info.known and stem_only and word not in c.vocab:
            continue  # a form neither a dictionary nor the rules know: maybe a verb («инкарнировало»)
        out.append((place, wi))
    return sorted(out)


def _ordinals(q: Query) -> dict[int, morph.WordInfo]:
    """The ordinals typed («третий», «вторым»; not «одну», a count) by their place among the
    tokens, with the dictionary's view of each."""
    infos = {normalize(qw.word): qw.info for qw in q.words if not qw.together and qw.info is not None}
    return {
        i: info
        for i, t in enumerate(q.tokens)
        if (info := infos.get(t.surface)) is not None and info.ordinal and not info.function
    }


def _ordinal_of(q: Query, places: Sequence[tuple[int, int]], i: int) -> int | None:
    """The word (index) of the thing the ordinal at token i says which one of: the one right after
    it (within ORDINAL_REACH words), else the nearest before it («мой паразит, второго»), else
    None."""
    after = [wi for at, wi in places if i < at <= i + ORDINAL_REACH]
    if after:
        return after[0]
    before = [wi for at, wi in places if at < i]
    return before[-1] if before else None


def _kind(qw: QWord) -> frozenset[str]:
    """The keys a word stands for: the kind of thing it names («компаньон»: компаньон, симбиот)."""
    return frozenset(a.key for a in qw.alts)


def _limits(c: Corpus, d: int, kind: frozenset[str]) -> bool:
    """Whether paragraph d limits the kind to one: a limit (asks.yaml) just before the kind's word
    («только одного симбиота»), or before a word pointing back at the many of the kind named
    before it («несколько особенностей "инкарнация Х", то применяется только одна из них»)."""
    for piece in c.pieces[d]:
        tokens = piece.tokens
        surfaces = [t.surface for t in tokens]
        said = set(surfaces)
        for limit in c.asks.limit:
            if limit[0] not in said:
                continue
            for start in find_all(surfaces, limit):
                end = start + len(limit)
                if any(t.key in kind for t in tokens[end : end + LIMIT_REACH]):
                    return True
                back = any(tuple(surfaces[end : end + len(b)]) == b for b in c.asks.limit_back)
                if back and _many(c, tokens[:start], kind):
                    return True
    return False


def _many(c: Corpus, tokens: Sequence[Token], kind: frozenset[str]) -> bool:
    """Whether the tokens name many of the kind: a count of two or more (asks.yaml «pair»: «несколько
    особенностей "инкарнация Х"») just before its word."""
    return any(
        t.surface in c.asks.pair and any(n.key in kind for n in tokens[i + 1 : i + 1 + COUNT_REACH])
        for i, t in enumerate(tokens)
    )


def add_terms(
    c: Corpus,
    query: str,
    term_keys: Sequence[TermKey],
    all_keys: Sequence[str],
    scores: dict[int, float],
    extra: dict[int, list[Match]],
    shares: dict[int, float] | None = None,
) -> list[int]:
    """Put the definition of a term the query names above the word hits, in proportion to
    how much of the query the term is; fully when the query has the term's whole wording,
    little words included («не может быть взята в отряд»). Returns the defining paragraphs (and
    fills `shares`: each one's share of the query, before the power)."""
    top_score = max(scores.values(), default=0.0)
    # One weight per typed word (a misspelt word may stand for several keys): its rarest key.
    by_word: dict[tuple[int, int], list[str]] = {}
    for tk in term_keys:
        by_word.setdefault(tk.span, []).append(tk.key)

    def weight(keys: Sequence[str]) -> float:
        return max(c.idf.get(k, c.max_idf) for k in keys)

    total_idf = sum(weight(keys) for keys in by_word.values()) or 1.0
    defining: list[int] = []
    for term_set, term, clause, whole in matched_terms(c, query, term_keys, all_keys):
        # Share by word weight (a rare word outside the term means the question is about
        # something else), squared: «что такое хозяин» is about the term; «хозяина
        # изгнали, что с симбиотом» is not.
        covered = sum(
            weight([k for k in keys if k in term_set]) for keys in by_word.values() if set(keys) & term_set
        )
        share = (covered / total_idf) ** TERM_POWER
        if len(whole) >= 4 and find_all(all_keys, whole):
            share = 1.0
        d = c.first[clause]
        defining.append(d)
        if shares is not None:
            shares[d] = max(shares.get(d, 0.0), covered / total_idf)
        scores[d] = scores.get(d, 0.0) + share * (top_score + 1.0)
        used = [tk.span for tk in term_keys if tk.key in term_set]
        typed = query[min(a for a, _ in used) : max(b for _, b in used)]
        extra.setdefault(d, []).append(Match(typed, "term", term))
    return defining


def terms_on_ties(
    c: Corpus, words: Sequence[QWord], scores: dict[int, float], how: How, shares: Mapping[int, float]
) -> None:
    """A clause that defines a term the question names goes first when it scores at least
    TERM_TIE of the best after every re-weighing and has every word of the question the best
    has: of two clauses with the same words, the one that states the term answers. Not over its
    own subclause, nor over a clause with a word of the question it lacks: those state a detail
    (the most specific clause first: «инка не может выйти, клетки заняты» is 535.7.2, not 535.7;
    «потерял контроль, а карта не может быть взята в отряд противника» is 535.8.1, not 535.9)."""
    top = max(scores.values(), default=0.0)
    first = max(scores, key=lambda d: (scores[d], -d), default=None)
    best = max(
        (
            d
            for d, share in shares.items()
            if share >= TIE_TERM_SHARE and scores.get(d, 0.0) >= TERM_TIE * top > 0
        ),
        key=scores.__getitem__,
        default=None,
    )
    if best is None or first is None or scores[best] >= top:
        return
    if c.paragraphs[first].id.startswith(c.paragraphs[best].id + "."):
        return
    # the words that say what is asked, not a light verb («считается») that a clause happens to use
    said = [wi for wi in how.get(first, {}) if normalize(words[wi].word) not in c.asks.light]
    if not set(said) <= set(how.get(best, {})):
        return
    scores[best] = top * (1 + TIE_EDGE)


def matched_terms(
    c: Corpus, query: str, term_keys: Sequence[TermKey], all_keys: Sequence[str] = ()
) -> list[tuple[frozenset[str], str, str, tuple[str, ...]]]:
    """Terms whose every word the query has, side by side (question words aside) and in the
    term's order: «хозяин паразита» is the term; «хост умер что с паразитом» and «симб и
    хост» are not about it."""
    present = {tk.key for tk in term_keys}
    spans: dict[str, set[tuple[int, int]]] = {}
    for tk in term_keys:
        spans.setdefault(tk.key, set()).add(tk.span)
    # A term typed twice relates two of a kind («замещение замещения», «симб на симба»): the
    # question is about that relation, not about what the term means.
    # … unless it is typed whole, little words too («у меня в отряде такая, а на карте написано не
    # может быть взята в отряд с»): a key typed again is the question's other words, wherever
    matched = [
        (k, term, clause, whole)
        for k, term, clause, order, whole in c.terms
        if k <= present
        and _together([tk for tk in term_keys if tk.key in k])
        and (
            (len(whole) >= 4 and bool(find_all(all_keys, whole)))
            or (all(len(spans[key]) == 1 for key in k) and matching.in_order(query, order, spans))
        )
    ]
    # A term inside a longer matched term («вызов» in «правила вызова») is not matched alone;
    # of two terms with the same words, the one whose little words the query has too
    # («взятие в отряд», not «не может быть взята в отряд», for «взятием в отряд»).
    typed_keys = {tk.key for tk in term_keys} | set(all_keys)

    def fit(whole: tuple[str, ...]) -> tuple[int, float]:
        have = sum(1 for k in whole if k in typed_keys)
        return have, have / max(1, len(whole))

    best: dict[str, tuple[frozenset[str], str, str, tuple[str, ...]]] = {}
    for k, term, clause, whole in matched:
        if any(k < other for other, _, _, _ in matched):
            continue
        if any(k == other and fit(w) > fit(whole) for other, _, _, w in matched):
            continue
        if clause not in best or len(k) > len(best[clause][0]):
            best[clause] = (k, term, clause, whole)
    return list(best.values())


def add_phrases(
    c: Corpus,
    phrases: Sequence[tuple[str, tuple[str, ...]]],
    scores: dict[int, float],
    extra: dict[int, list[Match]],
) -> None:
    """A quoted phrase rewards the paragraphs that have it verbatim."""
    for text, keys in phrases:
        bonus = sum(c.idf.get(k, 0.0) for k in keys) * PHRASE_GAIN
        for d, doc_pieces in enumerate(c.pieces):
            if any(find_all([t.key for t in pc.tokens], keys) for pc in doc_pieces):
                scores[d] = scores.get(d, 0.0) + bonus
                extra.setdefault(d, []).append(Match(text, "phrase", "«…»"))


def add_numbers(
    c: Corpus, numbers: Sequence[Typed], scores: dict[int, float], extra: dict[int, list[Match]]
) -> None:
    """A clause number typed puts that clause (its subclauses, the clauses citing it) first."""
    for n in numbers:
        for d, bonus in n.targets:
            scores[d] = scores.get(d, 0.0) + bonus
            extra.setdefault(d, []).append(Match(n.typed, n.how, c.paragraphs[d].id))


def ranked(
    c: Corpus,
    scores: Mapping[int, float],
    how: How,
    extra: Mapping[int, list[Match]],
    top: int,
    words: Sequence[QWord],
    cited: Sequence[str] = (),
) -> list[Hit]:
    """Hits best first (ties in corpus order), one per id, at most `top`."""
    hits: list[Hit] = []
    seen_ids: set[str] = set()
    for d in sorted(scores, key=lambda d: (-scores[d], d)):
        p = c.paragraphs[d]
        if scores[d] <= 0 or p.id in seen_ids:
            continue
        seen_ids.add(p.id)
        others = [cid for cid in cited if cid != p.id]
        hits.append(_hit(c, d, scores[d], how.get(d, {}), extra.get(d, []), words, others))
        if len(hits) >= top:
            break
    return hits


def _hit(
    c: Corpus,
    d: int,
    score: float,
    how: Mapping[int, tuple[Alt, str]],
    extra: list[Match],
    words: Sequence[QWord],
    cited: Sequence[str],
) -> Hit:
    p = c.paragraphs[d]
    found = c.found[d]
    surfaces = c.surfaces[d]
    matches: list[Match] = list(extra)
    marked: set[str] = set()
    for wi, (alt, word) in sorted(how.items()):
        marked.add(alt.key)
        if words[wi].together:  # every word of «становится летающим» that the clause has
            marked.update(a.key for a in words[wi].alts if a.key in found)
        if alt.how in ("card", "named"):
            matches.append(Match(word, alt.how, alt.label))
            continue
        form = found.get(alt.key, "")
        if words[wi].together and all(a.key in found for a in words[wi].alts):
            form = alt.label  # the whole meaning is there: «улетел» → «становится летающим»
        kind = alt.how
        if kind == "form" and fold_lookalikes(normalize(word)) in surfaces and form:
            kind, form = "exact", fold_lookalikes(normalize(word))
        elif kind == "prefix":
            kind = "form"
        matches.append(Match(word, kind, form))
    card_keys = {k[5:] for k in marked if k.startswith("card:")}
    card_seqs = [seq for seq, name in c.cards if name in card_keys]
    text, spans = snippet(c.pieces[d], marked, card_seqs, cited)
    return Hit(p.id, score, str(c.titles.get(ids.section(p.id), "")), text, spans, tuple(matches))


def _follows(tokens: Sequence[Token], first: str, then: str, within: int = 2) -> bool:
    """Whether a token keyed `then` stands at most `within` tokens after one keyed `first`."""
    keys = [t.key for t in tokens]
    return any(k == first and then in keys[i + 1 : i + 1 + within] for i, k in enumerate(keys))


def _together(keys: Sequence[TermKey]) -> bool:
    """The query spans of these keys follow one another without a gap."""
    spans = sorted({(tk.start, tk.end) for tk in keys})
    return all(nxt[0] <= prev[1] for prev, nxt in itertools.pairwise(spans))

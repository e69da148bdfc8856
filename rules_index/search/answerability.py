"""Answerability: whether these rules answer the query at all, on what evidence, and what each
typed word matched anywhere in them (the evidence a judge reads under the search box).

The decision weighs the question's meaningful words. A word a clause has counts for it by the
word's weight (its rarest key's idf; an adverb or adjective half): fully where the rule itself
says it, half where only its example or a cross-reference does (a quoted name in an example,
«свет фонаря», is what the example is about and counts fully; a question that names it or the
example's card is about the example, whose words then count fully, unless it names a thing the
rules never do: that is what it asks about the card). A word the rules lack counts
against every clause by its part of speech (a noun names the topic, a verb says what happens to
it; a light verb, «работает», says nothing; a word no dictionary knows is likelier slang we
could not read than a topic; a card it names weighs more than any word, yet is no answer by
itself: a clause with only the card does not answer what the question asks about it, a noun
it lacks; a word said twice counts once). The clause covering the largest share answers the
question when the share reaches ANSWER_COVERAGE and it states what the kind of question asks for
(kinds.py: a number for «сколько», a definition for «что такое», the doing for «можно ли»); a
terse question of two things («защитник летуна») is not answered by a clause that has only one of
them, unless the other is a word most clauses imply («существо»);
in a long question («я честно перечитал правила и не понял: …») a verb, adverb or adjective the
rules lack tells the story around what it asks, not its topic, and weighs nothing (a noun the rules
lack still does: «как работает броня»), and a word the rules have elsewhere but a clause lacks counts
against it LONG_ELSEWHERE of its weight (the story's «открыл» is not what is asked); a question
that begins with «когда» weighs a verb the rules lack as a noun;
a verb done to another noun in the clause («пропустить эту особенность») is another doing than
the question's («пропустить ход»). Two words the question types side by side («бестелесный симбиот»)
that a clause writes side by side only in the sentence its source breaks off in (211.5) are what
that sentence was to say: the question is not answered, by that clause or by one without those
words, and the reason says where the text breaks off.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import replace

from rules_index import morph
from rules_index.model import Answer
from rules_index.search import kinds, passing, relation, retrieval, statements
from rules_index.search.corpus import Corpus
from rules_index.search.kinds import Topic
from rules_index.search.linking import WEIGHT
from rules_index.search.query import Query, QWord
from rules_index.search.retrieval import How
from rules_index.text import fold_lookalikes, normalize

# The share of the question's weight one clause must cover to answer it.
ANSWER_COVERAGE = 0.52
# A matched adverb or adjective («прямо», «обычный») weighs this much of its idf.
MATCHED_MINOR = 0.5
# A word a clause has only in its example or a cross-reference counts this much for it.
EXAMPLE_ONLY = 0.5
# A word the rules lack, against the rarest word's weight: a noun by morph.topic_weight; a verb
# this much; a word the dictionary does not know this much (likelier slang we could not read
# than a topic); a jargon meaning the rules never state whole («ходит первым» → первый ход)
# nearly as a noun; an ordinal («вторым») as an adjective.
MISSING_VERB = 0.6
MISSING_UNKNOWN = 0.5
MISSING_PHRASE = 0.8
MISSING_ORDINAL = 0.28
# How much a matched word's rarity (idf) counts in its weight (0: every matched word alike);
# a matched verb weighs this much of a noun.
IDF_POWER = 1.0
MATCHED_VERB = 1.0
# How much the sureness of a link (linking.WEIGHT) counts.
LINK_POWER = 1.0
# How many of the best-scored clauses the decision reads.
CANDIDATES = 30
# A card the question names weighs this much of the rarest word: what the question is about, but
# not an answer by itself («регенерация у Бул'Багура» asks about regeneration, which our text lacks).
CARD_TOPIC = 1.5
# Two words the rules write side by side weigh as the heavier plus this much of the other.
PHRASE_REST = 0.5
# A multi-word meaning a clause states only in part counts this much of its stated share.
PARTIAL_MEANING = 0.5
# A question of at most this many topics names each of them as part of what it asks («защитник
# летуна», «закрытие существа»): a clause that lacks one of its things (a noun, an adjective or an
# ordinal the rules have elsewhere) answers another question, however heavy the word it has. With
# two words the share of weight turns on which of the two is rarer, not on whether the clause
# says both. Chosen by leave-one-set-out cross-validation (tests/bench/answerability_cv.py).
SHORT_TOPICS = 2
# ... except a word so common in the rules that most clauses imply it where they do not say it
# («существо», «карта», «игрок», «эффект»: 535.8's «взять карту под контроль» is said of a
# creature too): its rarity (idf against the rarest word's) is below this.
GENERIC_RARITY = 0.3
# A question of at least LONG_TOPICS topics tells a story around what it asks («я честно перечитал
# правила три раза и так и не понял: …»): a verb, adverb or adjective of it the rules lack
# («перечитал», «честно», «понял») is the story's, not the topic's, and weighs this much of what it
# would (a noun the rules lack still names a topic: «броня»). Chosen by leave-one-set-out
# cross-validation (tests/bench/answerability_cv.py).
LONG_TOPICS = 6
LONG_STORY = 0.0
# In a long question the words the rules have elsewhere but a clause lacks are mostly its story
# too («открыл бустер… а там вместо запаса движения другой символ»: «открыл» is 535.5's «в открытом
# виде»): against a clause they weigh LONG_ELSEWHERE of their weight, and the words the rules lack
# LONG_MISSING of theirs. Chosen on the tuning sets by tests/bench/answerability_cv.py (a silent
# answerable question costs three errors), among the values that keep «ничего нет» on at least 0.9
# of their unanswerable and noise questions. Over every tuning set, «молчит» / «ничего нет»: 1.0 and
# 1.0 (before) .028 / .919; 0.5 and 1.0 .014 / .925 (with the later table work); 0.4 and 0.8 .010 /
# .914; 0.4 and 0.4 .008 / .908, within noise of it, says «ничего нет» less; 0.3 and 0.6 .897.
# Why a clause does not answer, said both for a clause that covers enough and for the closest one
# below the threshold.
_ONLY_THE_CARD = "п. {} называет только карту"
_IN_PASSING = "п. {} упоминает это только в примере или ссылке"
_ONLY_WHEN = "п. {} совпал только словами о том, когда ({}), а не о том, что спрошено"
_ELSEWHERE = "«{}» — особенность из других разделов правил, а п. {} о ней не говорит"
# A message of several sentences that asks in some of them («Добрый день. Купил набор… Можно ли
# поместить небестелесного симбиота на бестелесное существо?») tells its story in the others: a
# topic typed only there weighs this much of its weight. Chosen on the tuning sets (0.4 silenced an
# answerable question; 0.7 answered two fewer than 0.5).
STORY_SENTENCE = 0.5
LONG_ELSEWHERE = 0.4
LONG_MISSING = 0.8


def decide(
    c: Corpus,
    q: Query,
    covered: Mapping[int, set[int]],
    how: How,
    defining: Sequence[int],
    scores: Mapping[int, float],
    sections: Sequence[int] = (),
) -> Answer:
    """Whether the rules answer the query, the clause the decision rests on, and the evidence.
    `sections`: the headings of the sections the query names and asks for («где раздел про
    симбиотов»), which answer it whatever story is told around them."""
    # a number with no clause, no citation and no neighbour («у меня 300 жетонов») is a quantity:
    # the words decide
    worded = any(qw.meaningful for qw in q.words)
    numbered = [n for n in q.numbers if n.targets] or ([] if worded else q.numbers)
    if numbered:
        targets = [d for n in numbered for d, _ in n.targets]
        clause = c.paragraphs[targets[0]].id if targets else ""

        def by_the_words() -> Answer:
            return decide(c, replace(q, numbers=()), covered, how, defining, scores, sections)

        if any(n.how == "number" for n in numbered):
            typed_ids = {n.cid for n in numbered if n.how == "number"}
            if worded and ("?" in q.text or set(q.typed) & c.asks.asking):
                # the clause typed and a question its words say it does not answer («в 211.11
                # упоминается передвижение, чем передвижение отличается от перемещения»: only in
                # passing); a look-up («211.5 бестелесный симбиот») asks nothing, and is answered
                by_words = by_the_words()
                of_it = by_words.clause in typed_ids and f"п. {by_words.clause} " in by_words.reason + " "
                if not by_words.answered and of_it:
                    return by_words
            return Answer(bool(targets), clause, coverage=1.0)
        # only clauses the loaded rules lack: those citing them or near them are no answer; a
        # number nothing cites, beside words that answer with a clause near it («активный игрок
        # выбирает замещение, это вроде 534.4.3?»: 534.4.2), is one misremembered, and the words
        # answer; not words that only frame it («что написано в 211.12», «534.4.3 полностью»)
        refused = Answer(False, clause, reason=c.number_index.absent_reason(numbered))
        if any(n.how == "cited" for n in numbered) or not worded:
            return refused
        by_words = by_the_words()
        near = {c.paragraphs[d].id for d in targets}
        return by_words if by_words.answered and by_words.clause in near else refused
    # a name the rules quote in an aside, or the title of a section they cite but lack
    # («порождённое игродействие», 536): what is asked
    # an ability other sections treat, typed whole («защита от летающих»): what is asked of it
    elsewhere = c.elsewhere_typed(q.keys)
    names = c.quoted_typed(q.keys) | c.cited_typed(q.keys) | elsewhere
    # a step's name typed whole (a question about the step): its words name the step, nothing else
    steps = (
        frozenset(k for d in covered for k in c.names_a_step(d, q.keys)) if q.about_a_step else frozenset()
    )
    counting = relation.asks_count(c, q.typed)
    topics = _asked_sentences(
        c,
        q,
        _story(
            c,
            q,
            _one_thing(
                c,
                q,
                _topics(
                    c, q.words, covered, relation.timed(c, q), counting, names, steps, relation.likened(c, q)
                ),
            ),
        ),
    )
    missing = _missing(c, q.words, topics)
    asking = relation.section_parts(c, q, relation.asked_in(c, q)) if sections else frozenset()
    if sections and not any(
        kinds.foreign(c, q, t) and set(relation.words_of(q.words[t.wi].word)) <= asking for t in topics
    ):
        # «в каком разделе правил описаны симбиоты»; not «в каком разделе про броню симбиотов»
        d = sections[0]
        evidence = passing.evidence(c, q, d, how, covered, GENERIC_RARITY)
        return Answer(True, c.paragraphs[d].id, evidence, missing)
    total = sum(t.weight for t in topics)
    if total <= 0:
        return Answer(False, missing=missing)
    # The best-scored clauses only: one ranked past them is never shown, and a large rules text
    # has thousands covering a common word.
    candidates = sorted(covered, key=lambda d: (-scores.get(d, 0.0), d))[:CANDIDATES]
    covered = relation.related(c, q, covered, candidates, how)
    topics = _with_nouns(c, q, topics, candidates, covered, how)
    shares = {
        d: _support(c, q, topics, d, covered[d], how) / _whole(topics, covered[d], total) for d in candidates
    }
    if not shares:
        return Answer(False, missing=missing)
    term = kinds.term_asked(c, q, topics, covered, defining)
    if term is not None:
        # «что значит вызвать карту, откуда она берётся»: the definition answers what else the
        # question asks of the term
        evidence = passing.evidence(c, q, term, how, covered, GENERIC_RARITY)
        return Answer(
            True, c.paragraphs[term].id, evidence, missing, coverage=shares.get(term, 0.0), defines=True
        )
    reason = ""
    # The clauses that cover enough, best ranked first: the evidence shown is for the clause
    # a judge reads first.
    ranked = sorted(shares, key=lambda d: (-scores.get(d, 0.0), d))
    enough = [d for d in ranked if shares[d] >= ANSWER_COVERAGE]
    # Those that break off where they would speak of two words of the question (any candidate,
    # however little it covers), and the first of them: a clause without those words does not
    # answer it either.
    cuts = {d: cut for d in ranked if (cut := statements.cut_short(c, q, d))}
    cut_off = next(((d, cuts[d]) for d in ranked if d in cuts), None)
    when = relation.said_when(c, q)
    # the question's words most clauses do not imply, in the order typed
    rare = [t.wi for t in topics if not _generic(c, q, t.wi)]
    for d in enough:
        share = shares[d]
        if (
            elsewhere
            and not elsewhere <= c.names_written(d, q.keys)
            and not _example_named(c, q, d, covered[d], how)
        ):
            # «у Бул'Багура защита от летающих, мой летун его бьёт, урон проходит?»: 534.5's
            # example has the card, the attacks and the wounds, never that protection; a name it
            # writes («свет фонаря») is what is asked, and the protection the story around it
            said = "», «".join(c.elsewhere_said(q.keys))
            reason = reason or _ELSEWHERE.format(said, c.paragraphs[d].id)
            continue
        if not any(
            passing.where(c, q, d, t.wi, how) in passing.CENTRAL for t in topics if t.wi in covered[d]
        ):
            # Only words its example or a cross-reference mentions in passing: the clause is
            # not about them («как работает яд»: 534.5's example says the wounds still count
            # as from poison).
            reason = reason or _IN_PASSING.format(c.paragraphs[d].id)
            continue
        if when and _only_when(rare, covered[d], when):
            # «существо закрыли, оно открывается само в начале следующего хода?»: 535.7.1's «В начале
            # своего хода» says when a graveyard's card gets a token, not what opens a creature
            said = ", ".join(f"«{q.words[wi].word}»" for wi in sorted(when & covered[d]))
            reason = reason or _ONLY_WHEN.format(c.paragraphs[d].id, said)
            continue
        if _said_only_by_the_way(c, q, [wi for wi in rare if wi in covered[d]], d, how):
            # it states only the words most clauses imply («карты»); the question's own words
            # it has in a parenthesis of examples or in passing («изгнанные карты можно вернуть»:
            # 211.4's «(например, погибает, изгоняется, возвращается в колоду)»)
            reason = reason or _IN_PASSING.format(c.paragraphs[d].id)
            continue
        if all(_slip(q, d, t.wi, how) for t in topics if t.wi in covered[d]):
            # Only real words read as slips for rules words («тест» for «текст»): a guess, not
            # an answer.
            reason = reason or f"п. {c.paragraphs[d].id} совпал только со словами, похожими на набранные"
            continue
        if _only_the_card(c, q, topics, d, covered[d], how):
            # A card is what the question is about; a thing it names that the clause lacks is
            # what it asks about the card («регенерация у Бул'Багура», «броня Вайла»).
            reason = reason or _ONLY_THE_CARD.format(c.paragraphs[d].id)
            continue
        failed = kinds.unstated(
            c, q, topics, d, covered[d], how, defining, _share(c, q, topics, d, covered[d], how)
        )
        if not failed and cut_off is not None and not all(c.text_keys[d] & keys for keys in cut_off[1][1]):
            # the words a clause breaks off at are what is asked; a clause without them is about
            # something else («перестал быть бестелесным»: 211.3 speaks of a host that ceases to be one)
            failed = _broken_off(c, *cut_off)
        if not failed and d in cuts:
            # «бестелесный симбиот на небестелесное существо»: 211.5 breaks off at «Если
            # бестелесный симбиот»; its whole sentences speak of a «небестелесный симбиот»
            failed = _broken_off(c, d, cuts[d])
        if not failed and (lacks := _short_lacks(c, q, topics, covered[d])):
            # «защитник летуна»: 534.8 has the defender, never a flyer
            failed = f"п. {c.paragraphs[d].id} не говорит о «{lacks}»"
        if not failed:
            return Answer(
                True,
                c.paragraphs[d].id,
                passing.evidence(c, q, d, how, covered, GENERIC_RARITY),
                missing,
                coverage=share,
            )
        reason = reason or failed
    # the clause the text breaks off in is the one a judge reads, whatever covers more
    d = cut_off[0] if cut_off else max(shares, key=lambda d: (shares[d], scores.get(d, 0.0), -d))
    reason = _broken_off(c, *cut_off) if cut_off else reason
    # however little the closest clause covers, why it does not answer: «броня вайла» (it has the
    # card and nothing asked of it), «как работает броня у хозяина» (the rules lack the armour)
    if not reason and _only_the_card(c, q, topics, d, covered[d], how):
        reason = _ONLY_THE_CARD.format(c.paragraphs[d].id)
    if not reason and (unknown := kinds.undefined(c, q, topics, q.typed)):
        reason = kinds.NO_SUCH_THING.format(unknown)
    evidence = passing.evidence(c, q, d, how, covered, GENERIC_RARITY)
    return Answer(
        False,
        c.paragraphs[d].id,
        evidence,
        missing,
        reason,
        shares[d],
        cut_off=statements.unfinished(c, d) if cut_off else "",
    )


def _broken_off(c: Corpus, d: int, cut: tuple[str, tuple[frozenset[str], ...]]) -> str:
    """Why paragraph d does not answer: its text breaks off where it speaks of the words typed."""
    return f"текст п. {c.paragraphs[d].id} обрывается на полуслове там, где он говорит о «{cut[0]}»"


def _whole(topics: Sequence[Topic], got: set[int], total: float) -> float:
    """What a clause's support is a share of: the question's whole weight; in a long question
    (LONG_TOPICS topics or more) the words the rules have elsewhere count LONG_ELSEWHERE of theirs
    and the words they lack LONG_MISSING."""
    if len(topics) < LONG_TOPICS:
        return total
    elsewhere = sum(t.weight for t in topics if t.whole and t.wi not in got)
    lacking = sum(t.weight for t in topics if not t.whole)
    return max(1e-9, total - (1 - LONG_ELSEWHERE) * elsewhere - (1 - LONG_MISSING) * lacking)


def _short_lacks(c: Corpus, q: Query, topics: Sequence[Topic], got: set[int]) -> str:
    """In a question of at most SHORT_TOPICS topics, the first thing it names (a noun, an
    adjective, an ordinal) that the rules have elsewhere but this clause lacks; or «». A doing
    («отжали», «стал паразитом») may be what the clause says in other words; a card is checked
    by _only_the_card; a multi-word meaning stated in part counts as stated; a word of
    GENERIC_RARITY is implied."""
    if len(topics) > SHORT_TOPICS:
        return ""
    for t in topics:
        info = q.words[t.wi].info
        if t.wi in got or not (t.whole or (info is not None and info.ordinal)) or t.nouns:
            continue
        if info is None or info.verb:
            continue
        if _generic(c, q, t.wi):
            continue
        if info.noun or info.minor or info.ordinal:
            return q.words[t.wi].word
    return ""


def _generic(c: Corpus, q: Query, wi: int) -> bool:
    """A word so common in the rules that most clauses imply it (GENERIC_RARITY)."""
    return passing.common(c, q, wi, GENERIC_RARITY)


def _only_when(rare: Sequence[int], got: set[int], when: frozenset[int]) -> bool:
    """Whether a clause has, of the question's words that most clauses do not imply (`rare`), only
    those that say when in a turn (`when`), and the question names something else."""
    stated = [wi for wi in rare if wi in got]
    return bool(stated) and all(wi in when for wi in stated) and any(wi not in when for wi in rare)


def _said_only_by_the_way(c: Corpus, q: Query, rare: Sequence[int], d: int, how: How) -> bool:
    """Whether paragraph d states of the question only words so common that most clauses imply
    them (GENERIC_RARITY), and has its other words (`rare`: those it covers) only in passing: in a
    parenthesis of examples, an aside, a cross-reference or its example. The name of the step its
    rule holds in is no passing mention here («подфаза набора кто контролирует карты»: 535.3 is
    about that step)."""
    if not rare:
        return False
    paren = passing.only_in_parentheses(c, q, rare, d, how, GENERIC_RARITY)
    for wi in rare:
        said = passing.where(c, q, d, wi, how)
        if said == "frame" or (said in passing.CENTRAL and wi not in paren):
            return False
    return True


def _only_the_card(c: Corpus, q: Query, topics: Sequence[Topic], d: int, got: set[int], how: How) -> bool:
    """Whether paragraph d has of the question only the cards it names, and lacks a noun of it:
    the thing asked about the card; or only the cards and words its example tells of them («в
    начале хода» of Бул'Багур's text), and the question names a thing the rules never do
    («регенерация у Бул'Багура в начале хода»). A doing it lacks may be the card's ability its
    example tells in other words («Сугед перепрыгнул на другого»: 211.8.1's «может быть помещён
    на существо»)."""
    matched = [t for t in topics if t.wi in got]
    if all(how[d][t.wi][0].how in ("card", "named") for t in matched):
        return any(t.wi not in got and (info := q.words[t.wi].info) is not None and info.noun for t in topics)
    if all(
        how[d][t.wi][0].how in ("card", "named") or passing.where(c, q, d, t.wi, how) == "example"
        for t in matched
    ):
        return any(kinds.unknown_noun(q, t) for t in topics)
    return False


def _topics(
    c: Corpus,
    words: Sequence[QWord],
    covered: Mapping[int, set[int]],
    timed: Sequence[int] = (),
    counting: bool = False,
    names: frozenset[str] = frozenset(),
    steps: frozenset[str] = frozenset(),
    likened: frozenset[str] = frozenset(),
) -> list[Topic]:
    """The question's meaningful words with their weights: bare counts, pronoun-like words and
    light verbs the rules lack say nothing about the topic. A verb a question of when asks about
    (`timed`: «когда начинается шаг рассадки») weighs as a noun when the rules lack it: the
    start is what is asked, not the step. A word of a name typed (`names`: a name the rules
    quote in an aside, «особенности при гибели», 535.7.3; the title of a section they cite,
    «порождённое игродействие», 536's) weighs as a card: it names what the question is about,
    which a clause with only its other words («срабатывающая особенность», 535.5.2) does not
    answer, and counts only where a clause has the name (534.7.2's example writes it; 535.7.3's
    «за бой» is no «история боя»); so does, at its own weight, a word of a step's name typed
    whole in a question about the step (`steps`: «шаг применения эффектов замещения это когда»
    is not 534.7.1's «в момент применения»). In a question of how many (`counting`) its word
    («количество карт в колоде») asks, as «сколько» does, and names no topic. A word the rules
    lack typed right after a word that likens (`likened`: «типа матрёшка») is a likeness, no topic."""
    whole = {wi for got in covered.values() for wi in got}
    out: list[Topic] = []
    light = c.asks.light
    seen: set[tuple[tuple[str, ...], bool]] = set()
    for wi, qw in enumerate(words):
        if not qw.meaningful or (qw.info is not None and qw.info.function):
            continue  # «3», «одна», «другой»: they point at the topic, they are not it
        keys = tuple(a.key for a in qw.alts) or (c.analyzer.key(normalize(qw.word), c.analyzer.stemmer()),)
        # a verb and a noun of one stem are two topics («в подфазу вскрытия кто первым вскрывает»)
        same = (keys, qw.info is not None and qw.info.verb)
        if same in seen:
            continue  # «выстрел … это выстрел или…»: a word said twice is one topic
        seen.add(same)
        present = [a for a in qw.alts if a.key in c.postings]
        info = qw.info
        if not present and info is not None and info.person:
            continue  # «@саня ты не прав», «дима говорит»: who is in the story, not what it asks
        if (
            not present
            and normalize(qw.word) in likened
            and (info is None or info.lemma not in c.asks.elsewhere)
        ):
            continue  # «симбиот на симбиота, типа матрёшка»: a likeness, not what is asked
        if fold_lookalikes(normalize(qw.word)) in light or normalize(qw.word) in c.asks.permission:
            continue  # «работает», «считается», «легально»: they say what is asked, not about what
        if counting and normalize(qw.word) in c.asks.quantity:
            continue
        # An ordinal the rules say only of other things («третьем ряду» for «третий симбиот»:
        # ranking.astray_ordinals) weighs as a matched one: still which one is asked.
        ordinal = info is not None and info.ordinal
        if present and (wi in whole or ordinal):
            # A matched adverb or adjective («прямо», «обычный») weighs less than a matched
            # noun: it rarely decides what the question is about; so does a verb.
            rarity = (retrieval.word_weight(c, qw) / c.max_idf) ** IDF_POWER
            factor = MATCHED_MINOR if info is not None and info.minor else 1.0
            factor = MATCHED_VERB if info is not None and info.verb else factor
            if any(a.how in ("card", "named") for a in present):
                factor = CARD_TOPIC
            if any(a.key in names for a in present):
                rarity, factor = 1.0, CARD_TOPIC  # the name, however common its word elsewhere
            named = any(a.key in names or a.key in steps for a in present)
            out.append(Topic(wi, c.max_idf * rarity * factor, wi in whole, quoted=named))
        elif present:
            out.append(Topic(wi, c.max_idf * MISSING_PHRASE, False))
        elif info is None:
            out.append(Topic(wi, c.max_idf, False))
        elif not info.known:
            out.append(Topic(wi, c.max_idf * MISSING_UNKNOWN, False))
        elif info.lemma in c.asks.elsewhere:
            out.append(Topic(wi, c.max_idf * CARD_TOPIC, False))  # «защитником», «побеждает»: what is asked
        elif info.verb and wi not in timed:
            out.append(Topic(wi, c.max_idf * MISSING_VERB, False))
        elif info.verb:
            out.append(Topic(wi, c.max_idf, False))
        elif not info.topic_weight:
            out.append(Topic(wi, c.max_idf * MISSING_ORDINAL, False))  # «вторым»: which one
        else:
            out.append(Topic(wi, c.max_idf * info.topic_weight, False))
    return out


def _one_thing(c: Corpus, q: Query, topics: list[Topic]) -> list[Topic]:
    """Two words typed side by side that the rules write side by side («поле боя», «шаге
    рассадки») name one thing: together they weigh as the heavier of them."""
    at = sorted(topics, key=lambda t: q.text.find(q.words[t.wi].word))
    weight = {t.wi: t.weight for t in topics}
    for a, b in itertools.pairwise(at):
        wa, wb = q.words[a.wi], q.words[b.wi]
        if not (wa.alts and wb.alts) or wa.alts[0].how != "form" or wb.alts[0].how != "form":
            continue
        if (wa.alts[0].key, wb.alts[0].key) in c.phrases:
            share = (max(a.weight, b.weight) + PHRASE_REST * min(a.weight, b.weight)) / (a.weight + b.weight)
            weight[a.wi], weight[b.wi] = a.weight * share, b.weight * share
    return [replace(t, weight=weight[t.wi]) for t in topics]


def _story(c: Corpus, q: Query, topics: list[Topic]) -> list[Topic]:
    """The topics, in a question of at least LONG_TOPICS of them each word of its story (a known
    word the rules lack that is no noun, nor a noun or adjective of another section's term:
    «уникальное»; its verbs, «выиграл», are the story's) weighed
    LONG_STORY of its weight."""
    if len(topics) < LONG_TOPICS:
        return topics
    out: list[Topic] = []
    for t in topics:
        info = q.words[t.wi].info
        if (
            not t.whole
            and info is not None
            and info.known
            and not info.noun
            and (info.verb or info.lemma not in c.asks.elsewhere)
        ):
            t = replace(t, weight=t.weight * LONG_STORY)
        out.append(t)
    return out


def _asked_sentences(c: Corpus, q: Query, topics: list[Topic]) -> list[Topic]:
    """The topics typed only in the sentences around the one that asks (relation.told_around)
    weigh STORY_SENTENCE of their weight."""
    around = relation.told_around(c, q)
    return [replace(t, weight=t.weight * STORY_SENTENCE) if t.wi in around else t for t in topics]


def _example_named(c: Corpus, q: Query, d: int, got: set[int], how: How) -> bool:
    """Whether the question types the quoted name of paragraph d's example («свет фонаря» of
    534.5's), not only its card: what the example shows is what it asks."""
    return any(
        how[d][wi][0].how not in ("card", "named") and passing.where(c, q, d, wi, how) == "name" for wi in got
    )


def _missing(c: Corpus, words: Sequence[QWord], topics: Sequence[Topic]) -> tuple[str, ...]:
    """The typed words (and jargon phrases) the loaded text lacks, in the order typed."""
    return tuple(dict.fromkeys(words[t.wi].word for t in topics if not t.whole))


def _support(c: Corpus, q: Query, topics: Sequence[Topic], d: int, got: set[int], how: How) -> float:
    """The weight of the question's words paragraph d covers: fully where the rule says them,
    EXAMPLE_ONLY where only its example or a cross-reference does; fully where its example does
    when the question names what the example is about (its card, its quoted name: «вожак сатиров
    целый, его лечат, а я хочу ранить соседа» asks about 534.7.2's example, whose words are then
    the question's topic, not a passing mention), unless the question names a thing the rules
    never do: that is what it asks about the card («регенерация у Бул'Багура в начале хода»)."""
    about = any(t.wi in got and passing.where(c, q, d, t.wi, how) == "name" for t in topics) and not any(
        kinds.unknown_noun(q, t) for t in topics
    )
    aside = passing.only_in_parentheses(c, q, (t.wi for t in topics if t.wi in got), d, how, GENERIC_RARITY)
    # a quoted name's word counts only where the clause has the name («погибает» is no «при гибели»)
    named = (
        c.names_typed(d, q.keys, q.about_a_step) | c.names_written(d, q.keys)
        if any(t.quoted for t in topics)
        else frozenset()
    )
    whole = sum(
        t.weight * _quality(c, q, d, t.wi, how, about) * (EXAMPLE_ONLY if t.wi in aside else 1.0)
        for t in topics
        if t.wi in got and (not t.quoted or all(k in named for k in passing.matched_keys(q, d, t.wi, how)))
    )
    return whole + sum(t.weight * _partial(c, q, d, t, how) for t in topics if t.wi not in got and t.nouns)


def _partial(c: Corpus, q: Query, d: int, topic: Topic, how: How) -> float:
    """How much of a multi-word meaning paragraph d's rule text states when it lacks some of its
    words («переманил» → «взять под контроль»; 535.1.1 says «под контролем»), every noun of it
    among them: the stated words' share of the meaning's weight (idf), times PARTIAL_MEANING."""
    qw = q.words[topic.wi]
    if topic.wi not in how.get(d, {}):
        return 0.0

    step = q.about_a_step

    def states(key: str) -> bool:
        return key in c.text_keys[d] and not c.in_passing(d, key, step)

    # The thing the meaning names must be there: «первом ряду» is no part of «первый ход».
    if not all(states(k) for k in topic.nouns):
        return 0.0
    weights = {a.key: c.idf.get(a.key, 0.0) for a in qw.alts}
    total = sum(weights.values())
    stated = sum(w for k, w in weights.items() if states(k))
    return PARTIAL_MEANING * stated / total if total > 0 else 0.0


def _with_nouns(
    c: Corpus,
    q: Query,
    topics: list[Topic],
    candidates: Sequence[int],
    covered: Mapping[int, set[int]],
    how: How,
) -> list[Topic]:
    """The topics, each multi-word meaning that a candidate has only in part with its nouns (the
    dictionary is asked only about those)."""
    out: list[Topic] = []
    for t in topics:
        if q.words[t.wi].together and any(
            t.wi in how.get(d, {}) and t.wi not in covered[d] for d in candidates
        ):
            t = replace(t, nouns=_meaning_nouns(c, q.words[t.wi]))
        out.append(t)
    return out


def _meaning_nouns(c: Corpus, qw: QWord) -> tuple[str, ...]:
    """The keys of the nouns of a multi-word meaning («взять под контроль» → контрол), what a
    clause stating it in part must have; () for a word of one meaning."""
    if not qw.together or not qw.alts:
        return ()
    stemmer = c.analyzer.stemmer()
    return tuple(
        t.key
        for t in c.analyzer.tokens(qw.alts[0].label, stemmer)
        if t.surface not in c.analyzer.stopwords and morph.analyse(t.surface).noun
    )


def _share(c: Corpus, q: Query, topics: Sequence[Topic], d: int, got: set[int], how: How) -> float:
    total = sum(t.weight for t in topics)
    return _support(c, q, topics, d, got, how) / total if total > 0 else 0.0


def _slip(q: Query, d: int, wi: int, how: How) -> bool:
    """Whether word wi, a word the dictionary knows, matched paragraph d only as a slip for
    another word."""
    info = q.words[wi].info
    return how[d][wi][0].how == "typo" and info is not None and info.known


def _quality(c: Corpus, q: Query, d: int, wi: int, how: How, about_example: bool = False) -> float:
    """How well paragraph d has word wi: where it says it (its example as its rule when the
    question is about that example), times how sure the link is (the word itself 1, jargon 0.95,
    a typo or a derivation less: linking.WEIGHT). A word no dictionary knows read as a rules word
    mistyped counts by its edits alone («хощяин» is «хозяин», one edit: fully): the ranking's
    discount for a typo keeps the clauses with the word as typed first, but whether the rules
    answer does not depend on how the word was typed."""
    said = passing.where(c, q, d, wi, how)
    where = 1.0 if said in passing.CENTRAL or (about_example and said == "example") else EXAMPLE_ONLY
    alt = how[d][wi][0]
    weight = alt.weight
    info = q.words[wi].info
    if alt.how == "typo" and info is not None and not info.known:
        weight /= WEIGHT["typo"]
    return where * float(min(1.0, weight) ** LINK_POWER)

"""Kinds of question: what a clause that covers a question's words must also state for the kind
of question asked (asks.yaml), and the topics the decision weighs.

A count («сколько») needs its number beside a word of the question («инкарнация Х» counts no
cards), «сколько раз» the question's verb; «до какого момента» a bound of time; «в каком порядке»
an order; a question whether one may do something («можно ли атаковать летающее существо») a
clause that says the doing, or PERMISSION_COVERAGE of the question without it; a question of who
does something («кто первым вскрывает карты») a clause that says the doing with its doer, and is
not answered when the rules never say that doing at all; a question of a difference a clause that
has both things as its topic, not in passing; «что такое X» a clause that states X (not in a
parenthesis, not only beside it), and about a noun X the rules lack is not answered by a clause on
its other words; a sentence that says what stands in a thing's place («вместо символа запаса
движения ставится символ…», asks.yaml `definition.instead`) says what it is to a question that
says «вместо» too. A question of what a term is is answered by the term's definition, with what
else it asks of the term (`term_asked`: «что значит вызвать карту, откуда она берётся»).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from rules_index import morph
from rules_index.search import passing, relation, statements
from rules_index.search.corpus import Corpus
from rules_index.search.query import Query, QWord
from rules_index.search.retrieval import How
from rules_index.text import normalize, phrase_starts

# A question of what a thing is names the thing in at most this many words: «что за символ у
# симбиотов вместо запаса движения» asks which symbol, not what a symbol is.
DEFINITION_WORDS = 3
# A question whether one may do something, answered by a clause that lacks the doing (a verb the
# rules use elsewhere): the share of the question's weight the clause must cover instead. At 0.6
# «может ли летающее существо атаковать наземное» (0.63) read as answered by 211.4, which
# speaks of flyers and never of attacking them; no answered question of the tuning sets lies
# between 0.6 and 0.65.
PERMISSION_COVERAGE = 0.65
# A sentence that states an order has this many of the question's words (or all, when fewer):
# one more than a word («Затем как часть заявки вызова …»), not every word of the question, which an
# order tells over several sentences of a rule. An example's sentence has them all: 534.7.2's
# «непосредственно перед применением» tells no order of «порождённые игродействия».
ORDERED = 2
# A question of a difference names this many things («чем передвижение отличается от
# перемещения»); a clause that has one of them only in passing does not answer it.
COMPARED = 2
NO_SUCH_THING = "вопрос «что такое», а в правилах нет «{}»"


@dataclass(frozen=True)
class Topic:
    """A meaningful word of the question and its weight in the decision."""

    wi: int
    weight: float
    whole: bool  # some paragraph has it whole (for a multi-word jargon meaning, every word)
    nouns: tuple[str, ...] = ()  # a multi-word meaning's nouns (keys), what it names
    quoted: bool = False  # a word of a name or a step's name typed, counted where a clause has it (`_topics`)


def unknown_noun(q: Query, t: Topic) -> bool:
    """Whether topic t is a noun (a dictionary word) that no clause of the rules has: a thing the
    rules never name («броня», «регенерация»)."""
    info = q.words[t.wi].info
    return not t.whole and info is not None and info.known and info.noun


def unstated(
    c: Corpus,
    q: Query,
    topics: Sequence[Topic],
    d: int,
    got: set[int],
    how: How,
    defining: Sequence[int],
    share: float,
) -> str:
    """Why paragraph d, which covers the question's words, still does not answer it (a number
    or a definition it does not state), or «». `share`: the share of the
    question's weight it covers."""
    typed = q.typed
    matched = [passing.matched_keys(q, d, t.wi, how) for t in topics if t.wi in got]
    words = ", ".join(f"«{q.words[t.wi].word}»" for t in topics if t.wi in got)
    if relation.asks_count(c, typed):
        # the words of the part that asks how many, when it has some of the clause's
        part = relation.in_asking_parts(q, c.asks.quantity)
        counted = [passing.matched_keys(q, d, t.wi, how) for t in topics if t.wi in got and t.wi in part]
        # … or the word it counts, with another word of the question, where the clause has the rest
        # («сколько существ считается переместившимися»: 211.11's «перемещение двух существ»)
        wi = relation.counted_word(q, c.asks.quantity)
        thing = passing.matched_keys(q, d, wi, how) if wi is not None and wi in got else []
        if not any(
            statements.states(c, d, m, statements.number_marker(c, m)) for m in (matched, counted) if m
        ) and not (
            thing
            and any(
                statements.states(c, d, [thing, m], statements.count_of_marker(c, thing))
                for m in matched
                if m != thing
            )
        ):
            return f"вопрос «сколько», а п. {c.paragraphs[d].id} не называет числа для {words}"
    if relation.asks_times(c, typed):
        # «сколько раз можно вызывать за бой»: 535.7.3's «1 раз за бой» counts incarnations
        doing = [t for t in topics if t.whole and _is_verb(q.words[t.wi])]
        if doing and not any(t.wi in got for t in doing):
            said = ", ".join(f"«{q.words[t.wi].word}»" for t in doing)
            return f"вопрос «сколько раз», а п. {c.paragraphs[d].id} не говорит, сколько раз {said}"
    if _asks_how_long(c, typed) and not statements.states(c, d, matched, statements.until_marker(c, d)):
        # «многоликий … до какого момента они у него остаются»: 211.8.1's example says when he takes them
        return f"вопрос «как долго», а п. {c.paragraphs[d].id} не называет срока для {words}"
    asked = set(relation.asked_doings(c, q, c.asks.agent))
    doers = [t for t in topics if t.wi in asked]
    if doers:
        # in the order typed (cards and jargon are read before the other words)
        text = normalize(q.text)
        doers.sort(key=lambda t: text.find(normalize(q.words[t.wi].word)))
    if doers and not doers[0].whole:
        # «кто первым выкладывает карты на шаге рассадки»: who does what the rules never say; the
        # clause on the step does not say who does it. The doing asked is the first after «кто»:
        # «кто из нас начинает бой, тот кто набрал отряд дешевле» tells the rest
        return f"вопрос «кто», а правила не говорят, кто «{q.words[doers[0].wi].word}»"
    may = _asks_may(c, typed)
    how_to = not may and _asks_how_to(c, typed)
    if may or how_to:
        # the doing asked about: a verb the rules have, or one they never name («защищать»)
        doing = [t for t in topics if _is_verb(q.words[t.wi]) and (t.whole or _never_named(q, t))]
        if doing and not any(t.wi in got for t in doing) and share < PERMISSION_COVERAGE:
            said = ", ".join(f"«{q.words[t.wi].word}»" for t in doing)
            kind = "как" if how_to else "можно ли"
            return f"вопрос «{kind}», а п. {c.paragraphs[d].id} не говорит о том, чтобы {said}"
    if relation.compares(c, typed):
        mentioned = [t for t in topics if t.wi in got and _aside(c, q, d, t.wi, how)]
        # … unless the question names more of the clause than the two things: «передвижение и
        # перемещение симбиота разница» asks what 211.11 says of a symbiote's move; not when «чем»
        # asks of the thing mentioned in passing itself («чем передвижение симбиота отличается»)
        if mentioned and (
            sum(t.wi in got for t in topics) <= COMPARED or _asked_after_which(c, q, mentioned, typed)
        ):
            said = ", ".join(f"«{q.words[t.wi].word}»" for t in mentioned)
            return f"вопрос о разнице, а п. {c.paragraphs[d].id} упоминает {said} только к слову"
    # an order runs over sentences («Объявляя вызов … Затем … После этого …», 535.5.1): a sentence
    # of the rule that orders with two of the question's words states it
    ordering = statements.order_marker(c, d, who=_asks_who_first(c, typed))
    if _asks_order(c, typed) and not (
        statements.states(c, d, matched, ordering)
        or any(
            statements.states(c, d, pair, ordering, rule_only=True)
            for pair in itertools.combinations(matched, min(ORDERED, len(matched)))
        )
    ):
        return f"вопрос «в каком порядке», а п. {c.paragraphs[d].id} не говорит о порядке для {words}"
    unknown = undefined(c, q, topics, typed)
    if unknown:
        # «как работает броня у хозяина паразита»: the armour is what is asked, and no clause
        # has it; a clause on the host does not say how armour works
        return NO_SUCH_THING.format(unknown)
    what = _defined(c, q, topics, typed)
    if what is not None and what.whole and d not in defining:
        # «… я так и не понял что такое передвижение»: 211.11 has it only in a parenthesis, and
        # 211.1 not at all, however many of the story's words they have besides
        word = q.words[what.wi].word
        if what.wi not in got:
            return f"вопрос «что такое», а п. {c.paragraphs[d].id} не говорит, что такое «{word}»"
        if _aside(c, q, d, what.wi, how):
            return f"вопрос «что такое», а п. {c.paragraphs[d].id} упоминает «{word}» только к слову"
    if (
        len(topics) <= DEFINITION_WORDS
        and relation.typed_phrase(typed, c.asks.definition)
        and d not in defining
        # what an example is about («свет фонаря» in 534.5's) is what that example shows
        and not all(t.wi in got and passing.where(c, q, d, t.wi, how) == "name" for t in topics)
    ):
        # the thing asked about whole: «что делает защита от атак» is not answered by 534.8's
        # «на шаге проверки защит», which lacks the attacks the rules speak of elsewhere
        # (a card, which every clause implies, is no thing asked about: «у некоторых карт …»)
        lacks = ", ".join(
            f"«{q.words[t.wi].word}»"
            for t in topics
            if t.whole and t.wi not in got and normalize(q.words[t.wi].word) not in c.asks.any_card
        )
        if lacks:
            return f"вопрос «что такое», а п. {c.paragraphs[d].id} не говорит о {words} вместе с {lacks}"
        replaced = _replaced(c, q)
        if not statements.states(c, d, matched, statements.definition_marker(c, matched)) and not (
            replaced is not None and statements.states(c, d, matched, statements.instead_marker(c, replaced))
        ):
            return f"вопрос «что такое», а п. {c.paragraphs[d].id} не определяет {words}"
    return ""


def _replaced(c: Corpus, q: Query) -> list[frozenset[str]] | None:
    """The keys of each word typed right after «вместо» (asks.yaml `definition.instead`), up to a
    little word: what the question says a thing stands in place of («вместо цифры движения»: its
    jargon's «запас движения» too); [] when a pronoun follows it («вместо неё»); None when the
    question does not say «вместо»."""
    tokens = q.tokens
    at = next((i for i, t in enumerate(tokens) if t.surface in c.asks.instead), None)
    if at is None:
        return None
    out: list[frozenset[str]] = []
    for u in tokens[at + 1 :]:
        if u.surface in c.analyzer.stopwords:
            break
        qw = next((w for w in q.words if u.surface in relation.words_of(w.word)), None)
        keys = {u.key} | ({a.key for a in qw.alts} if qw is not None else set())
        if qw is not None and qw.together and out and out[-1] & keys:
            continue  # the next word of one jargon phrase («цифры движения»)
        out.append(frozenset(keys))
    return out


def term_asked(
    c: Corpus, q: Query, topics: Sequence[Topic], covered: Mapping[int, set[int]], defining: Sequence[int]
) -> int | None:
    """The clause that defines the term a question of what a thing is asks about («что значит
    вызвать карту, откуда она берётся»: 535.5), which answers what else the question asks of the
    term; None when it asks of no term the rules define, asks what another kind of question asks
    too («…, сколько раз за бой»), names a word the rules lack («что такое вызов у заклинаний») or
    a thing the definition does not («что такое инкарнация у артефактов»)."""
    typed = q.typed
    if not defining or not relation.typed_phrase(typed, c.asks.definition) or _asks_more(c, q):
        return None
    what = _defined(c, q, topics, typed)
    if what is None or any(not t.whole for t in topics) or _happens(c, q, what):
        return None
    d = next((d for d in defining if what.wi in covered.get(d, ())), None)
    # what else it asks of the term is a doing («откуда она берётся»), not another thing it lacks
    # («что такое инкарнация у артефактов»)
    if d is None or any(
        t.wi not in covered[d] and (info := q.words[t.wi].info) is not None and info.noun for t in topics
    ):
        return None
    return d


def _asks_more(c: Corpus, q: Query) -> bool:
    """Whether the question asks what another kind asks besides what a thing is: how many, how
    long, in what order, whether one may, who («что значит инкарнация, сколько раз за бой»)."""
    typed = q.typed
    return (
        relation.asks_count(c, typed)
        or relation.asks_times(c, typed)
        or _asks_how_long(c, typed)
        or _asks_order(c, typed)
        or _asks_may(c, typed)
        or _asks_how_to(c, typed)
        or any(
            normalize(q.words[wi].word) not in c.asks.light
            for wi in relation.asked_doings(c, q, c.asks.agent)
        )
    )


def _asked_after_which(c: Corpus, q: Query, mentioned: Sequence[Topic], typed: Sequence[str]) -> bool:
    """Whether a thing mentioned only in passing is the one «чем … отличается» asks about, the
    first word after «чем» but little ones («чем же передвижение отличается от перемещения, в
    правилах про симбиотов это слово есть»), or a pronoun for it («… передвижение, чем оно
    отличается»): the story's other words do not make the clause say what it is."""
    names = {normalize(q.words[t.wi].word) for t in mentioned}
    for i, w in enumerate(typed):
        if w != "чем":
            continue
        rest = typed[i + 1 :]
        said = next((x for x in rest if x not in c.analyzer.stopwords), "")
        skipped = rest[: rest.index(said)] if said else rest
        if said in names or (set(skipped) & _PRONOUNS and relation.compares(c, [said])):
            return True
    return False


# «чем оно отличается»: a pronoun for the thing the question named before.
_PRONOUNS = frozenset({"он", "она", "оно", "они"})


def _asks_how_long(c: Corpus, typed: Sequence[str]) -> bool:
    """«до какого момента», «как долго это действует» (asks.yaml `until`)."""
    return relation.typed_loosely(c, typed, c.asks.until)


def _asks_may(c: Corpus, typed: Sequence[str]) -> bool:
    """«можно ли», «правомерно ли» (asks.yaml `permission`)."""
    return any(w in c.asks.permission for w in typed)


def _asks_how_to(c: Corpus, typed: Sequence[str]) -> bool:
    """«как (же, вообще) атаковать летающее существо» asks how one may do it, as «можно ли» does:
    «как» before an infinitive, little words between; not «как атакует» nor a light verb («как
    работает»)."""
    for i, w in enumerate(typed):
        if w == "как":
            after = itertools.dropwhile(lambda x: x in c.analyzer.stopwords, typed[i + 1 :])
            nxt = next(after, "")
            if nxt and nxt not in c.asks.light and (info := morph.analyse(nxt)).verb and info.lemma == nxt:
                return True
    return False


# Words that ask which comes first right after a doing («выполняется первым»).
_FIRST = frozenset({"первым", "первой", "первее"})


def _asks_order(c: Corpus, typed: Sequence[str]) -> bool:
    """«в каком порядке» (asks.yaml `order`); «что выполняется первым», «последнее положенное
    выполняется первым?»: a doing done right before «первым». Not a light verb («какой ряд
    считается первым» asks which row), nor an infinitive («какой из них применить первым»), nor
    in a question of which («какой эффект применяется первым»: the player chooses, 534.4.1): those
    ask which one; nor «первым» of a thing («был первым симбиотом», «бьёт первым ударом»)."""
    if relation.typed_phrase(typed, c.asks.order):
        return True
    if any(w.startswith("как") and w != "как" for w in typed):  # «какой», «какая», «каким»…
        return False
    return any(
        typed[i + 1] in _FIRST
        and typed[i] not in c.asks.light
        and (info := morph.analyse(typed[i])).verb
        and info.lemma != typed[i]
        and not (
            i + 2 < len(typed)
            and morph.analyse(typed[i + 2]).noun
            and morph.agree(typed[i + 1], typed[i + 2])
        )
        for i in range(len(typed) - 1)
    )


def _asks_who_first(c: Corpus, typed: Sequence[str]) -> bool:
    """An order of the players: an order asked in a question of who (asks.yaml `agent`: «кто
    первый», «кто выбирает, какой применить, я или по порядку»), not «что раньше применяется»."""
    return any(w in c.asks.agent for w in typed)


def foreign(c: Corpus, q: Query, t: Topic) -> bool:
    """Whether topic t names a thing these rules lack: a noun no clause has («броня») or a term of
    another section (asks.yaml `elsewhere`: «защитник», «элитный»)."""
    info = q.words[t.wi].info
    return not t.whole and (unknown_noun(q, t) or (info is not None and info.lemma in c.asks.elsewhere))


def _happens(c: Corpus, q: Query, what: Topic) -> bool:
    """Whether a verb said of the word asked about follows it, before a little word or the end of
    its part of the question: «что значит симбиот поменял хозяина» asks what a happening means,
    not what a symbiote is; «что значит вызвать карту откуда она берётся» asks what «вызвать» is."""
    word = normalize(q.words[what.wi].word)
    for part in relation.PARTS.split(normalize(q.text)):
        typed = part.split()
        if word in typed:
            after = typed[typed.index(word) + 1 :]
            said = itertools.takewhile(lambda w: w not in c.analyzer.stopwords, after)
            return any(
                (info := morph.analyse(w)).verb and info.lemma != w for w in said if w not in c.asks.light
            )
    return False


def _aside(c: Corpus, q: Query, d: int, wi: int, how: How) -> bool:
    """Whether paragraph d has the question's word wi only in passing or only in a parenthesis
    (211.11's «(но не с передвижением)»), however much else of the question it has."""
    return passing.where(c, q, d, wi, how) not in passing.CENTRAL or all(
        k in c.paren_keys[d] for k in passing.matched_keys(q, d, wi, how)
    )


def _never_named(q: Query, t: Topic) -> bool:
    """A word of the dictionary that matched nothing in these rules (not a light verb: those are
    no topic)."""
    info = q.words[t.wi].info
    return not t.whole and not q.words[t.wi].alts and info is not None and info.known


def _is_verb(qw: QWord) -> bool:
    """A verb or an infinitive as typed (a jargon word too: «сбросить»)."""
    info = qw.info
    if info is None and " " not in qw.word:
        info = morph.analyse(normalize(qw.word))
    return info is not None and info.verb


def undefined(c: Corpus, q: Query, topics: Sequence[Topic], typed: Sequence[str]) -> str:
    """The word a question of what a thing is asks about (_defined, after the phrase typed first:
    «как работает броня у хозяина»), when it is a noun no clause has; or «»."""
    t = _defined(c, q, topics, typed, first=True)
    return q.words[t.wi].word if t is not None and unknown_noun(q, t) else ""


def _defined(
    c: Corpus, q: Query, topics: Sequence[Topic], typed: Sequence[str], first: bool = False
) -> Topic | None:
    """The topic a question of what a thing is asks about: the word typed right after its phrase.
    The first phrase typed with a topic after it is the question's (the longest of those typed at
    one place: «что это такое»; «сказал что это не движение … что такое передвижение» asks
    about «передвижение»); with `first`, the phrase typed first, whatever follows it."""
    found = sorted(
        (i, -len(phrase), i + len(phrase)) for i, phrase in phrase_starts(typed, c.asks.definition)
    )
    for _, _, at in found:
        after = typed[at] if at < len(typed) else ""
        asked = next((t for t in topics if normalize(q.words[t.wi].word) == after), None)
        if asked is not None or first:
            return asked
    return None

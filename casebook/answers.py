"""Ready answers («Готовые ответы»): the library's scenarios and the journal's rulings that answer a
search query, for the search page; and which scenarios a clause fires in, for the clause page.

A player's question often has an answer already. Scenarios (their titles, sources and answers, run
through the engine once for their verdicts and clauses) and rulings are scored against the query by
the journal's one scoring (rulings.search.match), with the words the rules search understood («двигать»
read as «движение»). They are shown only for the rules they were written for: the «Берсерк» rules of
the version they name (when both they and the loaded rules name one), and only when the loaded rules
have every clause they cite. No Streamlit: app_pages.search.ready renders what this module decides
(and opens a scenario on the desk, a ruling in the journal).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping, Sequence
from pathlib import Path

import casebook
import engine
import lexicon
from casebook import wording
from rules_index import RulesIndex, ids
from rules_index.model import SearchResult
from rulings import model
from rulings import search as ruling_search
from rulings.affected import names_version

MIN_SCORE = 0.5
# How the rules search linked a typed word to a rules word: the answers read that rules word.
_LINKED = frozenset({"jargon", "typo", "derived", "opposite", "near"})
_ID_AFTER_DASH = re.compile(r"(?<=— )[\w-]+")


@dataclasses.dataclass(frozen=True)
class Step:
    """One step of a scenario: what it asks, in words with the cards' names, and the engine's
    verdict (legal | illegal | undetermined; "" when the engine could not run it)."""

    asked: str
    verdict: str
    note: str = ""


@dataclasses.dataclass(frozen=True)
class Answer:
    """One ready answer: a scenario of the library or a journal ruling."""

    kind: str  # "scenario" | "ruling"
    title: str
    detail: str  # where it comes from: «разбор», «решение № 3, стол 7»
    verdict: str  # legal | illegal | undetermined | "" (a ruling recorded without the engine)
    clauses: tuple[str, ...]
    params: tuple[tuple[str, str], ...]  # the query of the page it opens, built only from ids we listed
    score: float
    steps: tuple[Step, ...] = ()  # a scenario's steps
    summary: str = ""  # the answer in words: a scenario's `answer`, a ruling's decision

    @property
    def by_steps(self) -> bool:
        """A scenario of several steps, several verdicts: no single verdict heads the answer
        (a ruling is headed by the judge's answer, its steps listed below it)."""
        return self.kind == "scenario" and len(self.steps) > 1


@dataclasses.dataclass(frozen=True)
class ScenarioDigest:
    """A library scenario as the ready answers and the clause page need it (immutable)."""

    path: str  # relative to the project, e.g. scenarios/official/211.3.1_karlik_und.yaml
    group: str
    title: str
    text: str  # title, source and answer, for matching
    verdict: str  # the first step that is not legal decides the headline; else legal
    clauses: tuple[str, ...]
    steps: tuple[Step, ...] = ()
    answer: str = ""  # the scenario's `answer`: the judge's answer to its question, in words
    rules: str = ""  # the rules version it was written for («РП 4.1-2»); "" when it names none
    fired: frozenset[str] = frozenset()  # every clause in any step's trace
    title_stems: frozenset[str] = frozenset()  # computed once, not per query
    body_stems: frozenset[str] = frozenset()


# Words -----------------------------------------------------------------------------------


def step_question(action: engine.Action, names: Mapping[str, str]) -> str:
    """What a step asks, as the desk says an action, with the cards' names for their ids:
    «Объявить нападение: атакующий — Вайл; цель — Орк»."""
    return _ID_AFTER_DASH.sub(lambda m: names.get(m.group(), m.group()), wording.action_words(action))


def verdict_line(a: Answer) -> str:
    """The judge's or the engine's word in plain words: «Решение судьи: нельзя», «Проверено
    движком: можно»; for a scenario of several steps the heading of their list («Проверено
    движком по шагам:»)."""
    if a.kind == "ruling":
        said = lexicon.option_mark(a.verdict) if a.verdict in lexicon.VERDICTS else "не указано"
        return f"Решение судьи: {said}"
    if a.by_steps:
        return "Проверено движком по шагам:"
    if a.verdict in lexicon.VERDICTS:
        return f"Проверено движком: {lexicon.option_mark(a.verdict)}"
    return "Вердикт не записан"


def verdict_head(a: Answer) -> str:
    """The verdict line with where the answer comes from: «Проверено движком: нельзя (разбор)»,
    «Проверено движком по шагам (официальный пример):»."""
    line = verdict_line(a)
    if line.endswith(":"):
        return f"{line[:-1]} ({a.detail}):"
    return f"{line} ({a.detail})"


def step_lines(a: Answer, limit: int = 8) -> list[str]:
    """Each step's question and its verdict in plain words: «1. Объявить нападение: атакующий —
    Вайл; цель — Орк → нельзя»; past `limit` steps, how many more there are. A ruling lists the
    engine's steps under «Движок по шагам:» (or says its last step, when only that was kept)."""
    if a.kind == "ruling":
        if not a.steps:
            return []
        if len(a.steps) == 1 and not a.steps[0].asked:
            return [f"Движок (последний шаг): {verdict_word(a.steps[0].verdict)}"]
        head = ["Движок по шагам:"]
    elif a.by_steps:
        head = []
    else:
        return []
    out = [
        f"{i}. {s.asked} → {verdict_word(s.verdict)}" if s.asked else f"{i}. {verdict_word(s.verdict)}"
        for i, s in enumerate(a.steps[:limit], 1)
    ]
    if len(a.steps) > limit:
        rest = len(a.steps) - limit
        out.append(f"…и ещё {lexicon.plural(rest, 'шаг', 'шага', 'шагов')} на столе судьи")
    return head + out


def verdict_word(code: str) -> str:
    """«можно», «нельзя», «не определено»; a step the engine could not run says so."""
    return lexicon.option_mark(code) if code in lexicon.VERDICTS else "движок не смог проверить"


def short(text: str, limit: int = 280) -> str:
    """The start of a long answer, cut at a word."""
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    return text[:limit].rsplit(" ", 1)[0] + " …"


def brief_verdict(d: ScenarioDigest) -> str:
    """A link label's head, short enough for a phone: one step's verdict, or the number of steps."""
    if len(d.steps) > 1:
        return lexicon.plural(len(d.steps), "шаг", "шага", "шагов")
    return verdict_word(d.verdict) if d.verdict else "вердикт не записан"


# Scenarios -------------------------------------------------------------------------------


def digest(e: casebook.Entry) -> ScenarioDigest:
    """A run library entry as the answers need it."""
    verdicts = e.verdicts
    verdict = next((v for v in verdicts if v in ("illegal", "undetermined")), "legal" if verdicts else "")
    words = " ".join(x for x in (e.title, e.source, e.answer) if x)
    names = dict(e.card_names)
    steps = tuple(
        Step(step_question(action, names), verdict, note)
        for action, verdict, note in zip(e.actions, verdicts, e.notes or ("",) * len(verdicts), strict=False)
    )
    return ScenarioDigest(
        path=e.path,
        group=e.group_label,
        title=e.title,
        text=words,
        verdict=verdict,
        clauses=e.clauses[:8],
        steps=steps,
        answer=e.answer,
        rules=e.rules,
        fired=e.fired,
        title_stems=frozenset(ruling_search.stems(e.title)),
        body_stems=frozenset(ruling_search.stems(words)),
    )


def scenario_digests(
    root: Path, index: RulesIndex, library: engine.CardLibrary, cards: casebook.CardSource | None = None
) -> tuple[ScenarioDigest, ...]:
    """Every library scenario that runs, with its verdicts and clauses (the page keeps one copy
    per process: this runs the whole library). `cards` opens the bases of real-card scenarios."""
    entries = casebook.library_scenarios(root, run=True, index=index, library=library, cards=cards)
    return tuple(digest(e) for e in entries if e.ran)


def clause_usage(
    cid: str, digests: Sequence[ScenarioDigest], handlers: Mapping[str, Sequence[str]] | None = None
) -> tuple[list[ScenarioDigest], list[str]]:
    """The library scenarios in which clause `cid` fires, and the engine handlers that implement it."""
    by_clause = engine.handlers_by_clause() if handlers is None else handlers
    return [d for d in digests if cid in d.fired], list(by_clause.get(cid, []))


# Matching --------------------------------------------------------------------------------


def answer_query(result: SearchResult) -> str:
    """The query the answers are matched against, as the rules search understood it: bare counts
    left out («3 ываыва» is no question about «инкарнация 3»), and a word the search linked to
    rules words read as those words («двигать» → «движение», «улетел» → «становится летающим»)."""
    linked = {w.word: w.found[0] for w in result.words if w.how in _LINKED and len(w.found) == 1}
    counts = {w.word for w in result.words if w.how == "count"}
    out: list[str] = []
    for word in result.query.split():
        bare = word.strip('?!.,;:«»"()')
        if bare in counts:
            continue
        out.append(linked.get(bare, word))
    return " ".join(out)


def fits(index: RulesIndex | None, clauses: Sequence[str], written_for: str = "") -> bool:
    """Whether an answer belongs to the loaded rules: they are the «Берсерк» rules, the version it
    was written for when both name one (rulings.affected.names_version: «РП 4.1-2» names «РП 4.1-2
    от 09.11.2024»), and they have every clause it cites (an answer about 211.10 says nothing of
    rules without it)."""
    if index is None:
        return True
    if not index.is_berserk_rules:
        return False
    named = index.version_label or index.version  # rules that name no version cannot be told apart
    if named and names_version(written_for, index.version_label, index.version) is False:
        return False
    return all(index.has(c) for c in clauses if ids.is_clause_id(c))


def find_answers(
    query: str,
    rulings: Sequence[model.Ruling],
    digests: Sequence[ScenarioDigest],
    *,
    index: RulesIndex | None = None,
    cited_rank: Mapping[str, int] | None = None,
    top: int = 5,
    stop: frozenset[str] | None = None,
) -> list[Answer]:
    """Scenarios and rulings that answer the query, best first by rulings.search.match; on a tie,
    the one citing the better clause hit (`cited_rank`: clause → its place among the hits), then
    the better cited hits on the whole, then the judges' own rulings. With `index`, only those
    for these rules (`fits`). `stop`: the question words left out (the rules search's stopwords
    unless given)."""
    if index is not None and not index.is_berserk_rules:
        return []
    stop = ruling_search.stopwords() if stop is None else stop
    query_words, query_stems = ruling_search.query_terms(query, stop)
    if not query_stems:
        return []
    found: list[Answer] = []
    for d in digests:
        if not fits(index, d.clauses, d.rules):
            continue
        score = ruling_search.match(query_words, query_stems, d.title_stems, d.body_stems, d.clauses).score
        if score >= MIN_SCORE:
            found.append(
                Answer(
                    "scenario",
                    d.title,
                    d.group,
                    d.verdict,
                    d.clauses,
                    (("scn", d.path),),
                    score,
                    d.steps,
                    d.answer,
                )
            )
    for hit in ruling_search.search_rulings(rulings, query, top=top * 2, stopwords=stop):
        cur = hit.ruling.current
        if hit.score < MIN_SCORE or not fits(index, cur.clauses, cur.rules_version):
            continue
        where = f"решение № {hit.ruling.id}" + (f", стол {cur.table_no}" if cur.table_no else "")
        where += f", {cur.event}" if cur.event else ""
        # The headline is the judge's answer; the engine's verdict of every step goes below it.
        steps = tuple(Step(action, verdict) for action, verdict in model.step_verdicts(cur.trace_json))
        if not steps and cur.verdict:
            steps = (Step("", cur.verdict),)  # only the last step's verdict was kept
        found.append(
            Answer(
                "ruling",
                cur.title,
                where,
                cur.judge_verdict,
                cur.clauses,
                (("r", str(hit.ruling.id)),),
                hit.score,
                steps,
                cur.decision,
            )
        )
    rank = cited_rank or {}

    def order(a: Answer) -> tuple[float, int, float, bool, str]:
        # on a tie: the better best hit cited, then the better cited hits on the whole (an answer
        # decided by 211.4 alone is more about 211.4 than one touching four clauses)
        places = [rank.get(c, len(rank)) for c in a.clauses] or [len(rank)]
        return (-a.score, min(places), sum(places) / len(places), a.kind != "ruling", a.title)

    found.sort(key=order)
    return found[:top]

"""Value types of the rules index: paragraphs, citations, hits and integrity facts.

All of them are frozen dataclasses: an index built once is shared by every judge's session.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Paragraph:
    """One numbered entry of the rules (a section heading or a clause)."""

    id: str
    parent: str | None
    level: int
    text: str
    examples: tuple[str, ...] = ()
    bullets: tuple[str, ...] = ()
    is_heading: bool = False
    source: str = ""
    line: int = 0
    cut_off: bool = False
    # The page of a paged document (PDF, Word) the entry starts on; 0 for a text file.
    page: int = 0

    def to_dict(self) -> dict[str, object]:
        return {
            "id": self.id,
            "parent": self.parent,
            "level": self.level,
            "text": self.text,
            "examples": list(self.examples),
            "bullets": list(self.bullets),
            "is_heading": self.is_heading,
            "source": self.source,
            "line": self.line,
            "cut_off": self.cut_off,
            "page": self.page,
        }

    @property
    def where(self) -> str:
        """Where the entry starts, in Russian: «rules.pdf, страница 3» or «rules.txt, строка 12»."""
        if self.page:
            return f"{self.source}, страница {self.page}"
        return f"{self.source}, строка {self.line}"

    @property
    def full_text(self) -> str:
        """Rule text with its bullets (examples excluded), as a reader sees the clause."""
        if not self.bullets:
            return self.text
        return "\n".join([self.text, *("● " + b for b in self.bullets)])


@dataclass(frozen=True)
class Citation:
    """A reference from one paragraph to another, with the sentence it was found in."""

    source: str
    target: str
    sentence: str
    target_absent: bool

    def to_dict(self) -> dict[str, object]:
        return {
            "source": self.source,
            "target": self.target,
            "sentence": self.sentence,
            "target_absent": self.target_absent,
        }


@dataclass(frozen=True)
class SourceInfo:
    """One file of the corpus: its name, how many entries it gave, the encoding it was read in."""

    name: str
    paragraphs: int
    encoding: str
    preamble: str = ""
    notes: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, object]:
        return {
            "name": self.name,
            "paragraphs": self.paragraphs,
            "encoding": self.encoding,
            "preamble": self.preamble,
            "notes": list(self.notes),
        }


@dataclass(frozen=True)
class Duplicate:
    """An id numbered more than once; every occurrence is kept, with its file and line."""

    id: str
    places: tuple[tuple[str, int], ...]

    def to_dict(self) -> dict[str, object]:
        return {"id": self.id, "places": [{"source": s, "line": n} for s, n in self.places]}


@dataclass(frozen=True)
class Integrity:
    """Facts about the corpus a judge should know: what is missing, cut off or doubled."""

    version: str | None
    paragraphs: int
    headings: int
    examples: int
    absent_cited: tuple[str, ...]
    gaps: tuple[str, ...]
    cut_off: tuple[str, ...]
    duplicates: tuple[Duplicate, ...]
    warnings: tuple[str, ...] = field(default=())
    # What structure recovery found: entries per level (1 = sections), lettered subclauses per
    # level, numbers implied by list numbering, and what was dropped as furniture (by role:
    # «contents», «header», «footer», «page_number») or kept as glossary rows.
    levels: tuple[tuple[int, int], ...] = field(default=())
    lettered: tuple[tuple[int, int], ...] = field(default=())
    implied: int = 0
    dropped: tuple[tuple[str, int], ...] = field(default=())
    glossary: int = 0

    def dropped_as(self, role: str) -> int:
        """How many lines were dropped as `role` («contents», «header», «footer», «page_number»)."""
        return sum(n for r, n in self.dropped if r == role)

    def to_dict(self) -> dict[str, object]:
        return {
            "version": self.version,
            "paragraphs": self.paragraphs,
            "headings": self.headings,
            "examples": self.examples,
            "absent_cited": list(self.absent_cited),
            "gaps": list(self.gaps),
            "cut_off": list(self.cut_off),
            "duplicates": [d.to_dict() for d in self.duplicates],
            "warnings": list(self.warnings),
            "levels": {str(level): n for level, n in self.levels},
            "lettered": {str(level): n for level, n in self.lettered},
            "implied": self.implied,
            "dropped": dict(self.dropped),
            "glossary": self.glossary,
        }


@dataclass(frozen=True)
class Named:
    """Words of a query that name something these rules never mention (a card of a judge's card
    base) and the rules words a search should read for it: `words` as typed («горного клеща»),
    `label` what to call it («Горный клещ»), `means` the words of its kind («паразит
    бестелесное»; "" when no rule is about its kind). The caller finds them; the index only
    reads them, so it needs to know nothing of card bases."""

    words: str
    label: str
    means: str = ""


@dataclass(frozen=True)
class Match:
    """How one query word matched a hit: how in number/exact/form/typo/jargon/card/term/phrase."""

    word: str
    how: str
    found: str

    def to_dict(self) -> dict[str, str]:
        return {"word": self.word, "how": self.how, "found": self.found}


@dataclass(frozen=True)
class Hit:
    """One search result: a clause with its score, section title, marked snippet and match reasons.

    `occurrence` tells doubled ids apart: 0 for the first (or only) entry numbered `id`, 1 for
    the second, and so on (`RulesIndex.occurrences(id)[occurrence]` is the entry that was hit).
    """

    id: str
    score: float
    title: str
    snippet: str
    spans: tuple[tuple[str, bool], ...]
    matched: tuple[Match, ...]
    occurrence: int = 0

    def to_dict(self) -> dict[str, object]:
        data: dict[str, object] = {
            "id": self.id,
            "score": round(self.score, 4),
            "title": self.title,
            "snippet": self.snippet,
            "spans": [[text, marked] for text, marked in self.spans],
            "matched": [m.to_dict() for m in self.matched],
        }
        if self.occurrence:
            data["occurrence"] = self.occurrence
        return data


@dataclass(frozen=True)
class QueryWord:
    """How one word (or number) the user typed was understood: `how` is number, exact, form,
    typo, jargon, akin (like a jargon word by its form), card, named, derived, broader, opposite,
    near, prefix, translit (typed in Latin letters, read as Russian), count (a bare number: it
    only adds to the other words); «» = it matched nothing in these rules."""

    word: str
    how: str
    found: tuple[str, ...] = ()
    like: str = ""  # «akin»: the jargon word it resembles («вражины» → «враг»); «translit»: the reading

    def to_dict(self) -> dict[str, object]:
        data: dict[str, object] = {"word": self.word, "how": self.how, "found": list(self.found)}
        if self.like:
            data["like"] = self.like
        return data


@dataclass(frozen=True)
class Evidence:
    """One typed word (or phrase) as evidence for the clause an answer rests on: `how` as in
    QueryWord («» = the loaded text lacks it), `found` the clause's words it matched, `where`
    «text» (the rule itself), «example» (only its example) or «» (not in that clause), and
    whether it is `central` to the clause (the rule says it, not only mentions it in passing)."""

    word: str
    how: str
    found: tuple[str, ...] = ()
    where: str = ""
    central: bool = False

    def to_dict(self) -> dict[str, object]:
        return {
            "word": self.word,
            "how": self.how,
            "found": list(self.found),
            "where": self.where,
            "central": self.central,
        }


@dataclass(frozen=True)
class Answer:
    """Whether the loaded rules answer a query, and why: `answered`, the clause the decision
    rests on (the one that covers most of the question; «» when none covers any of it), the
    evidence word by word, the typed words the text lacks, and `reason` in Russian when the
    rules do not answer it although its words are there (a question of how many, where the text
    states no number)."""

    answered: bool
    clause: str = ""
    evidence: tuple[Evidence, ...] = ()
    missing: tuple[str, ...] = ()
    reason: str = ""
    coverage: float = 0.0
    # the sentence `clause`'s source breaks off in (Paragraph.cut_off), when the question is about
    # where it breaks off: what it was to say is lost, and a judge reads the clause itself; or «»
    cut_off: str = ""
    # the answer is the definition of the term the question asks about («что значит вызвать
    # карту, откуда она берётся»: 535.5), read first
    defines: bool = False

    def to_dict(self) -> dict[str, object]:
        return {
            "answered": self.answered,
            "clause": self.clause,
            "evidence": [e.to_dict() for e in self.evidence],
            "missing": list(self.missing),
            "reason": self.reason,
            "coverage": round(self.coverage, 3),
            "cut_off": self.cut_off,
            "defines": self.defines,
        }


@dataclass(frozen=True)
class SearchResult:
    """Hits best first, what each typed word matched (stopwords left out), and the decision
    whether these rules answer the query at all (no hits when they do not)."""

    query: str
    hits: tuple[Hit, ...]
    words: tuple[QueryWord, ...]
    answer: Answer = field(default_factory=lambda: Answer(True))

    @property
    def nothing(self) -> bool:
        """Whether the loaded rules say nothing about the query: no hits, or only the clauses a
        clause number of it finds (itself, those citing it or nearest it), which answer nothing."""
        return not self.hits or not self.answer.answered

    @property
    def unmatched(self) -> tuple[str, ...]:
        """Typed words that matched nothing in the loaded rules."""
        return tuple(w.word for w in self.words if not w.how)

    def to_dict(self) -> dict[str, object]:
        return {
            "query": self.query,
            "hits": [h.to_dict() for h in self.hits],
            "words": [w.to_dict() for w in self.words],
            "unmatched": list(self.unmatched),
            "answer": self.answer.to_dict(),
        }

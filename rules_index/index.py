"""`RulesIndex`: the parsed corpus as a cross-reference graph, with queries and integrity facts.

Built once by `load_default`, `load_paths` or `load_texts`, then read-only: every attribute is
set in `__init__` and assigning afterwards raises, so one index can serve every judge at once. The
one exception is the citation graph, a pure function of the paragraphs built on first use (the graph
page, a clause's neighbours): most windows never ask for it, and networkx's import alone was a third
of a cold start (issue 24). Two threads asking at once both build the same graph; either is kept.
"""

from __future__ import annotations

import contextlib
import gc
import heapq
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from types import MappingProxyType
from typing import Any, TypeVar

from rules_index import ids, limits
from rules_index.errors import CorpusError
from rules_index.importers.dispatch import KINDS_TEXT, SUFFIXES, import_file
from rules_index.model import Citation, Duplicate, Hit, Integrity, Named, Paragraph, SearchResult, SourceInfo
from rules_index.parser import ParsedSource, find_citations, parse_blocks, version_label
from rules_index.search import SearchIndex
from rules_index.tables import Tables, load_tables
from rules_index.text import plural

CORPUS_DIR = Path(__file__).resolve().parent / "data" / "corpus"

Progress = Callable[[float], None]
T = TypeVar("T")


class RulesIndex:
    """The rules of one corpus: paragraphs, the citation graph, integrity facts, search."""

    version: str | None
    version_label: str | None
    _paragraphs: tuple[Paragraph, ...]
    _by_id: Mapping[str, Paragraph]
    _children: Mapping[str, tuple[str, ...]]
    _cites: Mapping[str, tuple[Citation, ...]]
    _cited_by: Mapping[str, tuple[Citation, ...]]
    _absent: frozenset[str]
    _sections: tuple[str, ...]
    _titles: Mapping[str, str]
    _positions: Mapping[str, tuple[int, ...]]
    _sources: tuple[SourceInfo, ...]
    _integrity: Integrity
    is_berserk_rules: bool
    _graph: Any  # None until `graph` is first asked for
    _graph_parts: tuple[tuple[str, ...], tuple[Citation, ...]]  # what it is built from
    _id_parts: Any  # None until `nearest_ids` is first asked: each id with its parts as numbers
    _search: SearchIndex

    def __init__(
        self,
        parsed: Sequence[ParsedSource],
        encodings: Sequence[str],
        tables: Tables | None = None,
        *,
        berserk: bool = True,
    ) -> None:
        """`berserk`: whether the text is a version of our «Берсерк» РП, so that our jargon,
        terms and card names apply (`is_berserk_rules`); `tables` None means `tables_for(berserk)`."""
        paragraphs = tuple(p for src in parsed for p in src.paragraphs)
        by_id: dict[str, Paragraph] = {}
        positions: dict[str, list[int]] = {}
        for i, p in enumerate(paragraphs):
            by_id.setdefault(p.id, p)
            positions.setdefault(p.id, []).append(i)
        citations = _citations(paragraphs, by_id)
        absent = sorted({c.target for c in citations if c.target_absent}, key=ids.sort_key)
        sections = list(dict.fromkeys(ids.section(p.id) for p in paragraphs))
        integrity = _integrity(parsed, paragraphs, by_id, absent)
        children: dict[str, list[str]] = {}
        for cid in by_id:
            parent = ids.parent(cid)
            if parent is not None:
                children.setdefault(parent, []).append(cid)
        titles = MappingProxyType({top: _section_title(by_id.get(top)) for top in sections})
        set_ = object.__setattr__
        set_(self, "version", integrity.version)
        set_(self, "version_label", version_label(integrity.version))
        set_(self, "_paragraphs", paragraphs)
        set_(self, "_by_id", MappingProxyType(by_id))
        set_(self, "_children", _frozen_groups(children))
        set_(self, "_cites", _frozen_groups(_group(citations, lambda c: c.source)))
        set_(self, "_cited_by", _frozen_groups(_group(citations, lambda c: c.target)))
        set_(self, "_absent", frozenset(absent))
        set_(self, "_sections", tuple(sections))
        set_(self, "_titles", titles)
        set_(self, "_positions", _frozen_groups(positions))
        set_(self, "is_berserk_rules", berserk)
        set_(
            self,
            "_sources",
            tuple(
                SourceInfo(s.name, len(s.paragraphs), enc, s.preamble, s.notes)
                for s, enc in zip(parsed, encodings, strict=True)
            ),
        )
        set_(self, "_integrity", integrity)
        set_(self, "_graph", None)
        set_(self, "_id_parts", None)
        set_(self, "_graph_parts", (tuple(absent), tuple(citations)))
        set_(self, "_search", SearchIndex(paragraphs, titles, tables or tables_for(berserk)))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("RulesIndex неизменяем после построения")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("RulesIndex неизменяем после построения")

    def __repr__(self) -> str:
        count = plural(len(self._paragraphs), "пункт", "пункта", "пунктов")
        return f"RulesIndex({count}, версия {self.version or 'не указана'})"

    # Paragraph access ---------------------------------------------------------------------

    @property
    def paragraphs(self) -> list[Paragraph]:
        """Every numbered entry in corpus order (duplicates included)."""
        return list(self._paragraphs)

    @property
    def sources(self) -> list[SourceInfo]:
        return list(self._sources)

    @property
    def graph(self) -> Any:
        """The frozen citation graph (networkx.DiGraph); copy it before changing anything."""
        graph = self._graph
        if graph is None:
            import networkx as nx

            graph = nx.freeze(_build_graph(self._by_id, *self._graph_parts))
            object.__setattr__(self, "_graph", graph)
        return graph

    def get(self, cid: str) -> Paragraph | None:
        """The paragraph with this id (the first one when the id is doubled)."""
        return self._by_id.get(cid)

    def occurrences(self, cid: str) -> list[Paragraph]:
        """Every entry numbered cid, in document order (more than one when the id is doubled)."""
        return [self._paragraphs[i] for i in self._positions.get(cid, ())]

    def has(self, cid: str) -> bool:
        return cid in self._by_id

    def is_absent(self, cid: str) -> bool:
        """Cited somewhere in the corpus but not present in it (e.g. 536 on the seeds)."""
        return cid in self._absent

    def parent(self, cid: str) -> str | None:
        return ids.parent(cid)

    def children(self, cid: str) -> list[str]:
        """Direct subclauses in numeric order («211.9» before «211.10»)."""
        return sorted(self._children.get(cid, ()), key=ids.sort_key)

    def cites(self, cid: str) -> list[Citation]:
        """Outgoing references of a paragraph, in text order."""
        return list(self._cites.get(cid, ()))

    def cited_by(self, cid: str) -> list[Citation]:
        """Backlinks: the paragraphs that refer to cid."""
        return list(self._cited_by.get(cid, ()))

    def sections(self) -> list[str]:
        """Top-level section numbers present or implied by subclauses, in corpus order."""
        return list(self._sections)

    def section(self, cid: str) -> list[Paragraph]:
        """The whole top-level section of cid: its heading (if present) and all descendants."""
        top = ids.section(cid)
        return [p for p in self._paragraphs if p.id == top or p.id.startswith(top + ".")]

    def subtree(self, cid: str) -> list[Paragraph]:
        """cid itself and every subclause below it, in corpus order."""
        return [p for p in self._paragraphs if p.id == cid or p.id.startswith(cid + ".")]

    def section_title(self, cid: str) -> str:
        """Title of cid's section heading («Симбиоты»), or "" where the heading is absent."""
        return str(self._titles.get(ids.section(cid), ""))

    def nearest_ids(self, cid: str, n: int = 5) -> list[str]:
        """Existing ids closest to cid: longest shared prefix first, then numeric distance.

        Every id's parts are read as numbers once per index (a scenario checked against a full
        rules text that lacks its clauses asks this for each: 3,000 ids read again each time
        were most of «Что изменилось»'s scenario check)."""
        wanted = [_part_value(x) for x in cid.strip().rstrip(".").split(".")]
        table: tuple[tuple[str, tuple[int, ...]], ...] | None = self._id_parts
        if table is None:
            table = tuple((other, tuple(_part_value(x) for x in other.split("."))) for other in self._by_id)
            object.__setattr__(self, "_id_parts", table)

        def distance(item: tuple[str, tuple[int, ...]]) -> tuple[int, int, int, str]:
            other, parts = item
            shared = 0
            while shared < min(len(parts), len(wanted)) and parts[shared] == wanted[shared]:
                shared += 1
            gap = abs(parts[shared] - wanted[shared]) if shared < min(len(parts), len(wanted)) else 0
            return (-shared, abs(len(parts) - len(wanted)), gap, other)

        return [other for other, _ in heapq.nsmallest(n, table, key=distance)]

    def resolve(self, cid: str) -> str | None:
        """The id of the entry a typed number means: as typed, or with its letter read in the other
        script («210.11a» → «210.11а» and back); None when the rules hold neither."""
        for candidate in (cid, *ids.lookalikes(cid)):
            if candidate in self._by_id or candidate in self._absent:
                return candidate
        return None

    # Graph queries ------------------------------------------------------------------------

    def neighbourhood(self, cid: str, radius: int = 1) -> Any:
        """A copy of the subgraph within `radius` steps of cid (edges in both directions)."""
        import networkx as nx

        graph = self.graph
        if cid not in graph:
            return nx.DiGraph()
        nodes = nx.ego_graph(graph, cid, radius=radius, undirected=True).nodes
        return nx.DiGraph(graph.subgraph(nodes))

    def to_dot(self, graph: Any) -> str:
        """DOT text for a graph of this index; absent nodes dashed and labelled «нет в тексте»."""
        return to_dot(graph)

    # Integrity and search -----------------------------------------------------------------

    def integrity(self) -> Integrity:
        return self._integrity

    def search(self, query: str, top: int = 10, named: Sequence[Named] = ()) -> list[Hit]:
        """Best clauses for a query (number, words, slang, typos, card names); raises QueryError.
        `named`: words of the query that name things the rules do not know (model.Named)."""
        hits = self._search.search(query, top, named)
        return [self._which(hit) if len(self._positions.get(hit.id, ())) > 1 else hit for hit in hits]

    def _which(self, hit: Hit) -> Hit:
        """For a doubled id, the occurrence the hit's snippet was taken from (the first if unsure)."""
        pieces = [piece.strip(" …") for piece in hit.snippet.split("…") if piece.strip(" …")]
        if not pieces:
            return hit
        for k, p in enumerate(self.occurrences(hit.id)):
            text = " ".join("\n".join([p.full_text, *p.examples]).split())
            if all(" ".join(piece.split()) in text for piece in pieces):
                return replace(hit, occurrence=k)
        return hit

    def lookup(self, query: str, top: int = 10, named: Sequence[Named] = ()) -> SearchResult:
        """`search` plus what each typed word matched; when the rules do not answer it, the only
        hits are the clauses a typed clause number finds (itself, those citing it or nearest it)."""
        result = self._search.lookup(query, top, named)
        hits = tuple(self._which(h) if len(self._positions.get(h.id, ())) > 1 else h for h in result.hits)
        return replace(result, hits=hits)

    def show(self, cid: str) -> dict[str, object] | None:
        """Everything about one id as a JSON-ready dict (for `show`), or None for an unknown id."""
        p = self.get(cid)
        if p is None and not self.is_absent(cid):
            return None
        data: dict[str, object] = {
            "id": cid,
            "title": self.section_title(cid),
            "text": p.text if p else "",
            "bullets": list(p.bullets) if p else [],
            "examples": list(p.examples) if p else [],
            "parent": ids.parent(cid),
            "children": self.children(cid),
            "cites": [c.to_dict() for c in self.cites(cid)],
            "cited_by": [c.to_dict() for c in self.cited_by(cid)],
            "absent": p is None,
            "source": {"file": p.source, "line": p.line} if p else None,
            "heading": p.is_heading if p else False,
            "cut_off": p.cut_off if p else False,
            "version": self.version,
            # Other entries numbered the same (a doubled id is kept, not hidden).
            "duplicates": [
                {"source": {"file": d.source, "line": d.line}, "text": d.full_text}
                for d in self._paragraphs
                if d.id == cid and d is not p
            ],
        }
        return data


def _citations(paragraphs: Sequence[Paragraph], by_id: Mapping[str, Paragraph]) -> list[Citation]:
    """Every reference in rule texts and examples, once per (source, target), in text order."""
    citations: list[Citation] = []
    seen: set[tuple[str, str]] = set()
    for p in paragraphs:
        if by_id.get(p.id) is not p:
            continue  # a duplicate's citations would double the edges of the first copy
        for piece in (p.full_text, *p.examples):
            for target, sentence in find_citations(piece):
                if target == p.id or (p.id, target) in seen:
                    continue
                seen.add((p.id, target))
                citations.append(Citation(p.id, target, sentence, target not in by_id))
    return citations


def _integrity(
    parsed: Sequence[ParsedSource],
    paragraphs: Sequence[Paragraph],
    by_id: Mapping[str, Paragraph],
    absent: Sequence[str],
) -> Integrity:
    """What a judge should know about the corpus, with Russian warnings."""
    places: dict[str, list[tuple[str, int]]] = {}
    for p in paragraphs:
        places.setdefault(p.id, []).append((p.source, p.line))
    duplicates = tuple(Duplicate(cid, tuple(where)) for cid, where in places.items() if len(where) > 1)
    versions = [s.version for s in parsed if s.version]
    warnings: list[str] = []
    if len(set(versions)) > 1:
        warnings.append("Файлы корпуса из разных версий правил: " + ", ".join(sorted(set(versions))))
    for src in parsed:
        if not src.paragraphs:
            warnings.append(f"В файле «{src.name}» не найдено ни одного пронумерованного пункта.")
        warnings.extend(src.problems)
    for d in duplicates:
        where = "; ".join(f"«{s}», строка {n}" for s, n in d.places)
        times = plural(len(d.places), "раз", "раза", "раз")
        warnings.append(f"Пункт {d.id} встречается {times}: {where}. Сохранены все.")
    levels: dict[int, int] = {}
    lettered: dict[int, int] = {}
    for p in paragraphs:
        levels[p.level] = levels.get(p.level, 0) + 1
        if ids.lettered(p.id):
            lettered[p.level] = lettered.get(p.level, 0) + 1
    dropped: dict[str, int] = {}
    for src in parsed:
        for role, n in src.recovery.dropped:
            dropped[role] = dropped.get(role, 0) + n
    return Integrity(
        levels=tuple(sorted(levels.items())),
        lettered=tuple(sorted(lettered.items())),
        implied=sum(src.recovery.implied for src in parsed),
        dropped=tuple(sorted(dropped.items())),
        glossary=sum(src.recovery.glossary for src in parsed),
        version=versions[0] if versions else None,
        paragraphs=len(paragraphs),
        headings=sum(1 for p in paragraphs if p.is_heading),
        examples=sum(len(p.examples) for p in paragraphs),
        absent_cited=tuple(absent),
        gaps=tuple(_gaps(by_id)),
        cut_off=tuple(p.id for p in paragraphs if p.cut_off),
        duplicates=duplicates,
        warnings=tuple(warnings),
    )


def _build_graph(by_id: Mapping[str, Paragraph], absent: Sequence[str], citations: Sequence[Citation]) -> Any:
    """Paragraphs and placeholders for absent cited ids; parent and citation edges."""
    import networkx as nx

    graph = nx.DiGraph()
    for p in by_id.values():
        graph.add_node(
            p.id, absent=False, level=p.level, heading=p.is_heading, title=_short(p), cut_off=p.cut_off
        )
    for cid in absent:
        graph.add_node(cid, absent=True, level=cid.count(".") + 1, heading=False, title="", cut_off=False)
    for p in by_id.values():
        if p.parent is not None and p.parent in by_id:
            graph.add_edge(p.parent, p.id, kind="parent", sentence="")
    for c in citations:
        graph.add_edge(c.source, c.target, kind="cites", sentence=c.sentence)
    return graph


def _group(citations: Sequence[Citation], key: Callable[[Citation], str]) -> dict[str, list[Citation]]:
    groups: dict[str, list[Citation]] = {}
    for c in citations:
        groups.setdefault(key(c), []).append(c)
    return groups


def _frozen_groups(groups: Mapping[str, Sequence[T]]) -> Mapping[str, tuple[T, ...]]:
    return MappingProxyType({k: tuple(v) for k, v in groups.items()})


def _short(p: Paragraph, limit: int = 80) -> str:
    text = p.text.replace("\n", " ")
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _section_title(heading: Paragraph | None) -> str:
    if heading is None or not heading.is_heading:
        return ""
    return heading.text.split("\n")[0].strip().rstrip(".").strip()


def _gaps(by_id: Mapping[str, Paragraph], limit: int = 3) -> list[str]:
    """Missing ids inside a section: absent ancestors, and skipped numbers among siblings.

    Top-level numbers are never gaps (the sections between 211 and 534 are simply not in the
    corpus); «534» is a gap on the seeds because 534.4 exists without its heading. A run of more
    than `limit` missing siblings is one item «211.7–211.9998»: the work and the report grow with
    the number of entries, never with the size of a number.
    """
    known = set(by_id)
    missing_parents: set[str] = set()
    for cid in known:
        parent = ids.parent(cid)
        while parent is not None and parent not in known and parent not in missing_parents:
            missing_parents.add(parent)
            parent = ids.parent(parent)
    siblings: dict[str, set[int]] = {}
    for cid in known | missing_parents:
        parent = ids.parent(cid)
        if parent is not None and not ids.lettered(cid):  # letters have no numbers to skip
            siblings.setdefault(parent, set()).add(ids.part_number(cid.rsplit(".", 1)[1]))
    items: list[tuple[tuple[int, ...], str]] = [(ids.sort_key(p), p) for p in missing_parents]
    for parent, numbers in siblings.items():
        previous = 0
        for number in sorted(numbers):
            first, last = previous + 1, number - 1
            if last - first + 1 > limit:
                items.append((ids.sort_key(f"{parent}.{first}"), f"{parent}.{first}–{parent}.{last}"))
            else:
                items.extend((ids.sort_key(f"{parent}.{k}"), f"{parent}.{k}") for k in range(first, last + 1))
            previous = max(previous, number)
    return [text for _, text in sorted(items)]


def _part_value(part: str) -> int:
    """A part of a typed or stored id as a number for distances («11а» → 11; junk → 0). ASCII
    digits only: `isdigit()` also says yes to «²» and «⑦», which `int()` refuses (a link's
    `?p=211.3²` was a traceback)."""
    digits = "".join(ch for ch in part if "0" <= ch <= "9")[:6]
    return int(digits) if digits else 0


def to_dot(graph: Any) -> str:
    """DOT text: headings bold, absent nodes dashed grey «нет в тексте», citations blue."""

    def q(text: str) -> str:
        return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'

    lines = ["digraph rules {", "  rankdir=LR;"]
    lines.append('  node [shape=box, style="rounded", fontname="sans-serif"];')
    for node, attrs in graph.nodes(data=True):
        if attrs.get("absent"):
            label = q(node + "\n" + "нет в тексте")
            lines.append(f"  {q(node)} [label={label}, style=dashed, color=grey50];")
        else:
            style = ', style="rounded,bold"' if attrs.get("heading") else ""
            lines.append(f"  {q(node)} [label={q(node)}, tooltip={q(str(attrs.get('title', '')))}{style}];")
    for source, target, attrs in graph.edges(data=True):
        if attrs.get("kind") == "cites":
            tip = q(attrs["sentence"])
            lines.append(f"  {q(source)} -> {q(target)} [color=blue, style=dashed, tooltip={tip}];")
        else:
            lines.append(f"  {q(source)} -> {q(target)} [color=grey40];")
    lines.append("}")
    return "\n".join(lines) + "\n"


# Loading ------------------------------------------------------------------------------------


def tables_for(berserk: bool, jargon: Sequence[str | Path] = ()) -> Tables:
    """The search tables for a rules text: all of ours for a version of «Берсерк» РП; for any
    other rules no jargon, terms or card names (they were written for РП and would mislead:
    «свойства» means something else in «Берсерк. Герои»). Stop words and word families are
    plain Russian (question words, pronouns, word forms, derivations, what a question asks)
    and stay."""
    tables = load_tables(extra_jargon=jargon)
    if berserk:
        return tables
    return replace(tables, jargon=(), terms=(), cards=())


def load_default(*, jargon: Sequence[str | Path] = ()) -> RulesIndex:
    """The embedded corpus (the seed fragments, РП 4.1-2); only its .txt files are rules.

    `jargon`: a judge's own jargon YAML files, added to rules_index/data/jargon.yaml.
    """
    files = sorted(CORPUS_DIR.glob("*.txt"))
    return load_texts([(f.name, f.read_bytes()) for f in files], jargon=jargon)


def expand_paths(paths: Iterable[str | Path]) -> list[Path]:
    """Files as given; a folder stands for its .txt/.md/.rst files in name order."""
    out: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            found = sorted(p for p in path.iterdir() if p.is_file() and p.suffix.lower() in SUFFIXES)
            if not found:
                raise CorpusError(f"В папке «{path}» нет файлов правил ({KINDS_TEXT}).")
            out.extend(found)
        elif path.is_file():
            out.append(path)
        elif path.exists():
            raise CorpusError(f"«{path}» — не файл и не папка.")
        else:
            raise CorpusError(f"Файл правил «{path}» не найден.")
    if not out:
        raise CorpusError("Не указан ни один файл правил.")
    return out


def load_paths(
    paths: Sequence[str | Path],
    *,
    progress: Progress | None = None,
    jargon: Sequence[str | Path] = (),
    berserk: bool = True,
) -> RulesIndex:
    """Files and folders indexed together; raises CorpusError with a Russian message."""
    files = expand_paths(paths)
    texts: list[tuple[str, bytes]] = []
    for f in files:
        try:
            texts.append((str(f), f.read_bytes()))
        except OSError as err:
            raise CorpusError(f"Файл «{f}» не читается: {err.strerror or err}.") from None
    return load_texts(texts, progress=progress, jargon=jargon, berserk=berserk)


def load_texts(
    files: Sequence[tuple[str, bytes]],
    *,
    progress: Progress | None = None,
    jargon: Sequence[str | Path] = (),
    berserk: bool = True,
) -> RulesIndex:
    """(file name, raw bytes) pairs, e.g. uploads, indexed together; raises CorpusError.

    Each file may be text (.txt/.md/.rst), PDF, HTML or Word (.docx). `berserk`: whether the
    text is a version of our «Берсерк» РП (our jargon, terms and cards apply only then).
    """
    if not files:
        raise CorpusError("Не передано ни одного файла правил.")
    with _collector_paused():
        return _build(files, progress, jargon, berserk)


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
    """Hold Python's cycle collector while an index is built: the build allocates millions of
    small objects and no cyclic garbage, and the collector's full passes over them made a 16×
    document take 1.6× longer (11 s instead of 6.7 s). Reference counting still frees memory.

    At the end the new objects are handed to the oldest generation unscanned (freeze, then
    unfreeze): left in the youngest, the first allocation after the build scanned all of them
    (about 0.5 s for a 16× document, 5% of its build) and the next middle-generation pass did
    it again. Nothing is frozen for good, so any cycle is still collected by a full pass; a
    process that froze objects itself (gc.get_freeze_count()) is left as it was."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if gc.get_freeze_count() == 0:
            gc.freeze()
            gc.unfreeze()
        if enabled:
            gc.enable()


def parse_file(name: str, data: bytes) -> tuple[ParsedSource, str]:
    """One rules file parsed (imported, its structure recovered, its entries built) and how it
    was read; raises CorpusError. A pure function of its arguments with a picklable result, so a
    bounded worker process can run it and hand the result back for `RulesIndex`."""
    imported = import_file(name, data)
    source = parse_blocks(name, imported.blocks)
    if source.version is None and imported.version is not None:
        source = replace(source, version=imported.version)
    return replace(source, notes=source.notes + imported.notes), imported.encoding


def _build(
    files: Sequence[tuple[str, bytes]], progress: Progress | None, jargon: Sequence[str | Path], berserk: bool
) -> RulesIndex:
    parsed: list[ParsedSource] = []
    encodings: list[str] = []
    entries = 0
    for i, (name, data) in enumerate(files):
        # Each file is its own document: a file without a final newline never runs into the next.
        source, encoding = parse_file(name, data)
        entries += len(source.paragraphs)
        if entries > limits.MAX_ENTRIES:
            raise CorpusError(
                f"В файлах вместе больше {limits.MAX_ENTRIES:,} пронумерованных пунктов".replace(",", " ")
                + " — в полных правилах их около 3 000. Загрузите сами правила."
            )
        parsed.append(source)
        encodings.append(encoding)
        if progress is not None:
            progress(0.5 * (i + 1) / len(files))
    if not any(src.paragraphs for src in parsed):
        names = ", ".join(f"«{n}»" for n, _ in files)
        raise CorpusError(
            f"В {names} не найдено ни одного пронумерованного пункта (строки вида «211.3. Текст»). "
            "Проверьте, что это текст правил, а не другой документ."
        )
    index = RulesIndex(parsed, encodings, tables_for(berserk, jargon), berserk=berserk)
    if progress is not None:
        progress(1.0)
    return index


__all__ = ["RulesIndex", "load_default", "load_paths", "load_texts", "parse_file", "tables_for", "to_dot"]

"""Scenarios: a disputed position written down as YAML, validated, run and checked.

A scenario names the cards (the setup), the actions (the steps) and what should come of each
(`expect`). The format is documented for judges in docs/scenarios.md. This module:

- loads a file safely (engine.scenario_yaml keeps the line of every value) and validates it
  against the card library, the engine's actions and the rules index, so that every error names
  the file, the line and the key in Russian;
- runs it step by step through `engine.apply`, answering the choices the file gives, and checks
  each expectation;
- writes a desk (setup and actions) back as a scenario file (`dump_scenario`).
"""

from __future__ import annotations

import dataclasses
import difflib
import re
import types
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import yaml

import engine
import lexicon
from engine.scenario_yaml import (
    FLOAT_TAG,
    INT_TAG,
    MAX_BYTES,
    Problem,
    ScenarioError,
    YMap,
    YNode,
    YScalar,
    YSeq,
    read_yaml,
    too_large,
)
from lexicon import cite

if TYPE_CHECKING:
    from rules_index import RulesIndex

__all__ = [
    "MAX_BYTES",
    "CardExpectation",
    "ChoiceExpectation",
    "Expectation",
    "Scenario",
    "ScenarioError",
    "ScenarioResult",
    "ScenarioStep",
    "StepExpect",
    "StepResult",
    "TraceExpectation",
    "dump_scenario",
    "load_scenario",
    "load_scenario_text",
    "run_scenario",
]

# --- the format -------------------------------------------------------------------------

TOP_KEYS = ("title", "source", "rules", "answer", "seed", "setup", "steps")
SETUP_KEYS = ("phase", "active", "turn", "cards")
# A card entry's keys are CardSpec's fields: the format and the engine cannot drift apart.
CARD_KEYS = tuple(f.name for f in dataclasses.fields(engine.CardSpec))
STEP_EXTRA_KEYS = ("expect", "choices", "xfail", "note")
EXPECT_KEYS = (
    "verdict",
    "fired",
    "not_fired",
    "forbidden_by",
    "undetermined_by",
    "assumptions",
    "trace",
    "cards",
    "asked",
)
TRACE_KEYS = ("clause", "kind", "reason_has")
ASKED_KEYS = ("clause", "who", "options")
# The card properties an expectation may name: those engine.card_props documents.
CARD_PROPS = engine.PROP_KEYS
VERDICTS = ("legal", "illegal", "undetermined")
VERDICT_RU: Mapping[str, str] = types.MappingProxyType(
    {"legal": "законно", "illegal": "запрещено", "undetermined": "не определено правилами"}
)
TRACE_KINDS = lexicon.STEP_KINDS
PHASES = ("recruit", "placement", "reveal", "battle")
PLAYERS = ("A", "B")
ZONES = ("aux", "deck", "hand", "graveyard", "exile")
CELL_RE = re.compile(r"^[a-e][1-6]$")
CLAUSE_RE = re.compile(r"^\d{1,4}(\.\d{1,4})*$")
ASSUMPTION_RE = re.compile(r"^A\d+$")
CARD_ID_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_\-]{0,39}$")
MAX_STEPS = 500
MAX_CARDS = 200

_TYPE_RU: Mapping[type, str] = types.MappingProxyType(
    {str: "строка", int: "целое число", bool: "да/нет (true/false)"}
)


# --- the loaded scenario ----------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class CardExpectation:
    """`expect.cards.<id>`: a subset of the card's documented properties."""

    card: str
    props: tuple[tuple[str, object], ...]
    line: int


@dataclasses.dataclass(frozen=True)
class TraceExpectation:
    """`expect.trace[]`: a trace step with this clause (and kind, and words in its reason)."""

    clause: str
    kind: str | None
    reason_has: str | None
    line: int


@dataclasses.dataclass(frozen=True)
class ChoiceExpectation:
    """`expect.asked[]`: a choice the step raised: its clause, who decides, some of its options."""

    clause: str | None
    who: str | None
    options: tuple[str, ...]
    line: int


@dataclasses.dataclass(frozen=True)
class StepExpect:
    verdict: str | None = None
    fired: tuple[str, ...] = ()
    not_fired: tuple[str, ...] = ()
    forbidden_by: tuple[str, ...] = ()
    undetermined_by: tuple[str, ...] = ()
    assumptions: tuple[str, ...] = ()
    trace: tuple[TraceExpectation, ...] = ()
    cards: tuple[CardExpectation, ...] = ()
    asked: tuple[ChoiceExpectation, ...] = ()
    line: int = 0

    def clause_ids(self) -> Iterator[tuple[str, int]]:
        """Every clause or assumption id this expectation names, with a line for errors."""
        for cid in (
            *self.fired,
            *self.not_fired,
            *self.forbidden_by,
            *self.undetermined_by,
            *self.assumptions,
        ):
            yield cid, self.line
        for t in self.trace:
            yield t.clause, t.line
        for a in self.asked:
            if a.clause is not None:
                yield a.clause, a.line


@dataclasses.dataclass(frozen=True)
class ScenarioStep:
    number: int
    line: int
    action: engine.Action
    choices: tuple[str, ...] = ()
    expect: StepExpect | None = None
    xfail: str | None = None
    note: str | None = None


@dataclasses.dataclass(frozen=True)
class Scenario:
    name: str
    title: str
    source: str | None
    rules: str | None
    answer: str | None
    setup: engine.Setup
    steps: tuple[ScenarioStep, ...]
    card_lines: tuple[tuple[str, int], ...] = ()

    def card_ids(self) -> list[str]:
        return [spec.id for spec in self.setup.cards]


# --- results ----------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Expectation:
    """One checked expectation: what was expected, whether it held, and what was found."""

    what: str
    ok: bool
    detail: str = ""

    def to_dict(self) -> dict[str, object]:
        return {"what": self.what, "ok": self.ok, "detail": self.detail}


@dataclasses.dataclass(frozen=True)
class StepResult:
    action: engine.Action
    outcome: engine.Outcome | None
    expectations: list[Expectation]
    pending_unanswered: engine.Pending | None = None
    number: int = 0
    line: int = 0
    verdict: str | None = None
    trace: tuple[engine.TraceStep, ...] = ()
    xfail: str | None = None
    error: str | None = None

    @property
    def failed(self) -> bool:
        """An expectation does not hold, the engine failed, or a choice was left unanswered."""
        return (
            self.error is not None
            or self.pending_unanswered is not None
            or any(not e.ok for e in self.expectations)
        )

    @property
    def status(self) -> str:
        """`ok`, `failed`, `xfail` (a documented engine gap that still fails) or `xpass`."""
        if self.xfail is None:
            return "failed" if self.failed else "ok"
        return "xfail" if self.failed else "xpass"

    def to_dict(self) -> dict[str, object]:
        pending = self.pending_unanswered
        return {
            "step": self.number,
            "line": self.line,
            "action": self.action.to_dict(),
            "verdict": self.verdict,
            "status": self.status,
            "xfail": self.xfail,
            "error": self.error,
            "pending": None if pending is None else _pending_dict(pending),
            "trace": [t.to_dict() for t in self.trace],
            "expectations": [e.to_dict() for e in self.expectations],
        }


@dataclasses.dataclass(frozen=True)
class ScenarioResult:
    scenario: Scenario
    steps: list[StepResult]
    notes: list[str] = dataclasses.field(default_factory=list)

    @property
    def ok(self) -> bool:
        """True when every step holds; a documented engine gap (`xfail`) does not count as a pass
        of its step, but it does not fail the file either (it is reported apart)."""
        return all(s.status in ("ok", "xfail") for s in self.steps)

    @property
    def xfailed(self) -> list[StepResult]:
        return [s for s in self.steps if s.status == "xfail"]

    @property
    def failures(self) -> list[StepResult]:
        return [s for s in self.steps if s.status in ("failed", "xpass")]

    def fired_clauses(self) -> set[str]:
        """Every clause id that appears anywhere in the traces of this run."""
        found: set[str] = set()
        for step in self.steps:
            for t in _walk(step.trace):
                if t.clause:
                    found.add(t.clause)
        return found

    def to_dict(self) -> dict[str, object]:
        return {
            "file": self.scenario.name,
            "title": self.scenario.title,
            "source": self.scenario.source,
            "answer": self.scenario.answer,
            "ok": self.ok,
            "xfail": [s.number for s in self.xfailed],
            "notes": list(self.notes),
            "steps": [s.to_dict() for s in self.steps],
        }


def _pending_dict(p: engine.Pending) -> dict[str, object]:
    return {
        "who": p.who,
        "clause": p.clause,
        "question": p.question,
        "options": [{"key": o.key, "label": o.label} for o in p.options],
    }


def _walk(trace: Sequence[engine.TraceStep]) -> Iterator[engine.TraceStep]:
    for t in trace:
        yield t
        yield from _walk(t.children)


# --- loading ----------------------------------------------------------------------------


def load_scenario(
    path: str | Path,
    *,
    index: RulesIndex | None = None,
    library: engine.CardLibrary | None = None,
) -> Scenario:
    """Read and validate a scenario file.

    Raises:
        ScenarioError: the file is missing, unreadable, too large or invalid (Russian message
            naming the file, the line and the key).
    """
    name = str(path)
    p = Path(path)
    try:
        size = p.stat().st_size
        if size > MAX_BYTES:
            raise ScenarioError([Problem(name, None, None, too_large(size))])
        raw = p.read_bytes()
    except FileNotFoundError:
        raise ScenarioError([Problem(name, None, None, "файл не найден")]) from None
    except IsADirectoryError:
        raise ScenarioError([Problem(name, None, None, "это папка, а не файл сценария")]) from None
    except OSError as exc:
        raise ScenarioError([Problem(name, None, None, f"файл не читается: {exc.strerror}")]) from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise ScenarioError([Problem(name, line, None, "файл не в кодировке UTF-8")]) from None
    return load_scenario_text(text, name, index=index, library=library)


def load_scenario_text(
    text: str,
    name: str,
    *,
    index: RulesIndex | None = None,
    library: engine.CardLibrary | None = None,
) -> Scenario:
    """Validate scenario text; `name` is what errors call the file.

    Raises:
        ScenarioError: as `load_scenario`.
    """
    root = read_yaml(text, name)
    if library is None:
        library = engine.load_library()
    if index is None:
        import rules_index

        index = rules_index.load_default()
    return _Reader(name, library, index).scenario(root)


class _Reader:
    """Turns located YAML nodes into a Scenario, collecting every problem it finds."""

    def __init__(self, file: str, library: engine.CardLibrary, index: RulesIndex) -> None:
        self.file = file
        self.library = library
        self.index = index
        self.problems: list[Problem] = []
        self.card_nodes: dict[str, YMap] = {}

    # -- reporting --

    def fail(self, line: int | None, key: str | None, message: str) -> None:
        self.problems.append(Problem(self.file, line, key, message))

    def raise_if_failed(self) -> None:
        if self.problems:
            raise ScenarioError(self.problems)

    # -- generic readers --

    def check_keys(self, node: YMap, allowed: Sequence[str], where: str) -> None:
        for key, line, _ in node.items:
            if key not in allowed:
                hint = _suggest(key, allowed)
                self.fail(line, key, f"неизвестный ключ в {where}{hint}; допустимы: {', '.join(allowed)}")

    def as_map(self, node: YNode | None, key: str, line: int) -> YMap | None:
        if isinstance(node, YMap):
            return node
        self.fail(node.line if node is not None else line, key, "ожидается словарь (ключ: значение)")
        return None

    def as_seq(self, node: YNode | None, key: str, line: int) -> YSeq | None:
        if isinstance(node, YSeq):
            return node
        self.fail(node.line if node is not None else line, key, "ожидается список (строки с «- »)")
        return None

    def scalar(self, node: YNode | None, key: str, line: int, kind: type) -> object | None:
        if not isinstance(node, YScalar) or node.value is None:
            self.fail(node.line if node is not None else line, key, f"ожидается значение: {_TYPE_RU[kind]}")
            return None
        value = node.value
        if kind is str and isinstance(value, (int, float)) and not isinstance(value, bool):
            # A plain `7` where a name is wanted: keep the text as written.
            return node.text
        if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
            self.fail(node.line, key, f"ожидается целое число, а не «{node.text}»")
            return None
        if kind is bool and not isinstance(value, bool):
            self.fail(node.line, key, f"ожидается true или false, а не «{node.text}»")
            return None
        if kind is str and not isinstance(value, str):
            self.fail(node.line, key, f"ожидается строка, а не «{node.text}»")
            return None
        return value

    def text(self, node: YNode | None, key: str, line: int) -> str | None:
        value = self.scalar(node, key, line, str)
        return value if isinstance(value, str) else None

    def choice(self, node: YNode | None, key: str, line: int, allowed: Sequence[str]) -> str | None:
        value = self.text(node, key, line)
        if value is None:
            return None
        if value not in allowed:
            where = node.line if node is not None else line
            self.fail(
                where,
                key,
                f"«{value}» не подходит{_suggest(value, allowed)}; допустимы: {', '.join(allowed)}",
            )
            return None
        return value

    def clause_id(self, node: YNode | None, key: str, line: int) -> str | None:
        """A clause id ('211.3.1') or an assumption id (A1), always a quoted string."""
        if isinstance(node, YScalar) and node.plain and node.tag in (INT_TAG, FLOAT_TAG):
            self.fail(
                node.line,
                key,
                f"номер пункта — строка: пишите '{node.text}' в кавычках"
                " (без кавычек YAML читает 211.10 как число 211.1)",
            )
            return None
        value = self.text(node, key, line)
        if value is None:
            return None
        where = node.line if node is not None else line
        if not (CLAUSE_RE.match(value) or ASSUMPTION_RE.match(value)):
            self.fail(where, key, f"«{value}» не похоже на номер пункта ('211.3.1') или допущения (A1)")
            return None
        if ASSUMPTION_RE.match(value):
            known = engine.load_assumptions()
            if value not in known:
                self.fail(
                    where,
                    key,
                    f"допущения {value} нет в engine/data/assumptions.yaml{_suggest(value, list(known))}",
                )
                return None
            return value
        if not (self.index.has(value) or self.index.is_absent(value)):
            near = self.index.nearest_ids(value, 3)
            hint = f"; ближайшие: {', '.join(near)}" if near else ""
            self.fail(where, key, f"пункта {value} нет в загруженных правилах{hint}")
            return None
        return value

    def clause_list(self, node: YNode | None, key: str, line: int) -> tuple[str, ...]:
        if isinstance(node, YScalar):
            one = self.clause_id(node, key, line)
            return (one,) if one else ()
        seq = self.as_seq(node, key, line)
        if seq is None:
            return ()
        out = [self.clause_id(item, key, seq.line) for item in seq.items]
        return tuple(c for c in out if c)

    # -- the scenario --

    def scenario(self, root: YNode | None) -> Scenario:
        if root is None:
            raise ScenarioError(
                [Problem(self.file, None, None, "файл пуст: нужен словарь с ключами title, setup, steps")]
            )
        if not isinstance(root, YMap):
            raise ScenarioError(
                [Problem(self.file, root.line, None, "сценарий — это словарь с ключами title, setup, steps")]
            )
        self.check_keys(root, TOP_KEYS, "сценарии")
        for required in ("title", "setup", "steps"):
            if root.get(required) is None:
                self.fail(root.line, required, "обязательный ключ отсутствует")
        title = self.text(root.get("title"), "title", root.key_line("title")) if root.get("title") else None
        source = self._optional_text(root, "source")
        rules = self._optional_text(root, "rules")
        answer = self._optional_text(root, "answer")
        seed = 0
        if root.get("seed") is not None:
            got = self.scalar(root.get("seed"), "seed", root.key_line("seed"), int)
            seed = got if isinstance(got, int) else 0
        cards: list[engine.CardSpec] = []
        card_lines: dict[str, int] = {}
        phase, active, turn = "battle", "A", 1
        setup_node = root.get("setup")
        if setup_node is not None:
            setup_map = self.as_map(setup_node, "setup", root.key_line("setup"))
            if setup_map is not None:
                phase, active, turn = self._setup_head(setup_map)
                cards, card_lines = self._cards(setup_map)
        self.raise_if_failed()
        setup = engine.Setup(phase=phase, active=active, seed=seed, turn=turn, cards=cards)
        self._build(setup, card_lines, root)
        steps = self._steps(root.get("steps"), root.key_line("steps"), setup, card_lines)
        if root.get("steps") is not None and not steps and not self.problems:
            self.fail(root.key_line("steps"), "steps", "нужен хотя бы один шаг")
        self.raise_if_failed()
        assert title is not None
        return Scenario(
            name=self.file,
            title=title,
            source=source,
            rules=rules,
            answer=answer,
            setup=setup,
            steps=tuple(steps),
            card_lines=tuple(card_lines.items()),
        )

    def _optional_text(self, node: YMap, key: str) -> str | None:
        if node.get(key) is None:
            return None
        return self.text(node.get(key), key, node.key_line(key))

    def _setup_head(self, setup: YMap) -> tuple[str, str, int]:
        self.check_keys(setup, SETUP_KEYS, "setup")
        phase = "battle"
        if setup.get("phase") is not None:
            phase = self.choice(setup.get("phase"), "phase", setup.key_line("phase"), PHASES) or phase
        active = "A"
        if setup.get("active") is not None:
            active = self.choice(setup.get("active"), "active", setup.key_line("active"), PLAYERS) or active
        turn = 1
        if setup.get("turn") is not None:
            got = self.scalar(setup.get("turn"), "turn", setup.key_line("turn"), int)
            if isinstance(got, int):
                if got < 1:
                    self.fail(setup.key_line("turn"), "turn", "номер хода начинается с 1")
                else:
                    turn = got
        return phase, active, turn

    def _cards(self, setup: YMap) -> tuple[list[engine.CardSpec], dict[str, int]]:
        node = setup.get("cards")
        specs: list[engine.CardSpec] = []
        lines: dict[str, int] = {}
        if node is None:
            return specs, lines
        seq = self.as_seq(node, "cards", setup.key_line("cards"))
        if seq is None:
            return specs, lines
        if len(seq.items) > MAX_CARDS:
            self.fail(
                seq.line, "cards", f"слишком много карт: {len(seq.items)}, допускается не больше {MAX_CARDS}"
            )
            return specs, lines
        entries: list[tuple[YMap, str]] = []
        for item in seq.items:
            card = self.as_map(item, "cards", seq.line)
            if card is None:
                continue
            self.check_keys(card, CARD_KEYS, "описании карты")
            cid = self.text(card.get("id"), "id", card.line)
            if cid is None:
                continue
            if not CARD_ID_RE.match(cid):
                self.fail(
                    card.key_line("id"),
                    "id",
                    f"«{cid}»: id карты — латинские буквы, цифры, _ и -, до 40 знаков",
                )
                continue
            if cid in lines:
                self.fail(card.key_line("id"), "id", f"id «{cid}» уже занят картой в строке {lines[cid]}")
                continue
            lines[cid] = card.line
            self.card_nodes[cid] = card
            entries.append((card, cid))
        for card, cid in entries:
            spec = self._card(card, cid, lines)
            if spec is not None:
                specs.append(spec)
        return specs, lines

    def _card(self, card: YMap, cid: str, ids: Mapping[str, int]) -> engine.CardSpec | None:
        bad_before = len(self.problems)
        what = self._card_name(card)
        owner = self.choice(card.get("owner"), "owner", card.line, PLAYERS)
        at: str | None = None
        if card.get("at") is not None:
            at = self.text(card.get("at"), "at", card.key_line("at"))
            if at is not None and not (CELL_RE.match(at) or at in ZONES):
                self.fail(
                    card.key_line("at"),
                    "at",
                    f"«{at}»: укажите клетку a1–e6 или зону ({', '.join(ZONES)}){_suggest(at, ZONES)}",
                )
        host: str | None = None
        if card.get("host") is not None:
            host = self.text(card.get("host"), "host", card.key_line("host"))
            if host is not None and host not in ids:
                self.fail(
                    card.key_line("host"),
                    "host",
                    _no_card(host, ids),
                )
            if host == cid:
                self.fail(card.key_line("host"), "host", "карта не может быть хозяином самой себя")
        if at is not None and host is not None:
            self.fail(
                card.key_line("host"),
                "host",
                "укажите либо at (место), либо host (хозяин симбиота), но не оба",
            )
        if at is None and host is None:
            self.fail(card.line, "at", f"у карты «{cid}» не указано место: at (клетка или зона) или host")
        refs: dict[str, str] = {}
        for key in ("exiled_by", "borrowed"):
            if card.get(key) is not None:
                ref = self.text(card.get(key), key, card.key_line(key))
                if ref is not None and ref not in ids:
                    self.fail(
                        card.key_line(key),
                        key,
                        _no_card(ref, ids),
                    )
                elif ref is not None:
                    refs[key] = ref
        controller: str | None = None
        if card.get("controller") is not None:
            controller = self.choice(
                card.get("controller"), "controller", card.key_line("controller"), PLAYERS
            )
        flags: dict[str, bool] = {}
        for key in ("closed", "hidden", "incorporeal", "incarnated"):
            if card.get(key) is not None:
                got = self.scalar(card.get(key), key, card.key_line(key), bool)
                if isinstance(got, bool):
                    flags[key] = got
        numbers: dict[str, int] = {}
        for key in ("wounds", "tokens"):
            if card.get(key) is not None:
                num = self.scalar(card.get(key), key, card.key_line(key), int)
                if isinstance(num, int):
                    if num < 0:
                        self.fail(card.key_line(key), key, "число не может быть отрицательным")
                    numbers[key] = num
        if len(self.problems) > bad_before or what is None or owner is None:
            return None
        return engine.CardSpec(
            id=cid,
            card=what,
            owner=owner,
            at=at,
            host=host,
            controller=controller,
            closed=flags.get("closed", False),
            hidden=flags.get("hidden", False),
            incorporeal=flags.get("incorporeal"),
            wounds=numbers.get("wounds", 0),
            tokens=numbers.get("tokens", 0),
            incarnated=flags.get("incarnated", False),
            exiled_by=refs.get("exiled_by"),
            borrowed=refs.get("borrowed"),
        )

    def _card_name(self, card: YMap) -> str | dict[str, object] | None:
        node = card.get("card")
        line = card.key_line("card") if node is not None else card.line
        if isinstance(node, YMap):
            return {k: _plain(v) for k, _, v in node.items}
        name = self.text(node, "card", line)
        if name is None:
            return None
        if self.library.get(name) is None:
            near = self.library.nearest(name, 3)
            hint = f"; возможно: {', '.join('«' + n + '»' for n in near)}" if near else ""
            self.fail(line, "card", f"карты «{name}» нет в библиотеке{hint}")
            return None
        return name

    def _build(self, setup: engine.Setup, card_lines: Mapping[str, int], root: YMap) -> None:
        """Let the engine judge the position itself; locate its complaint on the card it names."""
        try:
            engine.build_state(setup, self.library)
        except engine.SetupError as exc:
            message = str(exc)
            line, key = root.key_line("setup"), "setup"
            named = re.match(r"карта ([\w-]+), ключ (\w+)", message)
            if named and named.group(1) in self.card_nodes:
                node = self.card_nodes[named.group(1)]
                line, key = node.key_line(named.group(2)), named.group(2)
            else:
                for cid, cline in card_lines.items():
                    if re.search(rf"(?<![\w-]){re.escape(cid)}(?![\w-])", message):
                        line, key = cline, "cards"
                        break
            self.fail(line, key, message)
            self.raise_if_failed()

    def _steps(
        self, node: YNode | None, line: int, setup: engine.Setup, card_lines: Mapping[str, int]
    ) -> list[ScenarioStep]:
        seq = self.as_seq(node, "steps", line)
        if seq is None:
            return []
        if len(seq.items) > MAX_STEPS:
            self.fail(
                seq.line, "steps", f"слишком много шагов: {len(seq.items)}, допускается не больше {MAX_STEPS}"
            )
            return []
        steps: list[ScenarioStep] = []
        for number, item in enumerate(seq.items, start=1):
            step = self._step(number, item, seq.line, card_lines)
            if step is not None:
                steps.append(step)
        return steps

    def _step(
        self, number: int, item: YNode, line: int, card_lines: Mapping[str, int]
    ) -> ScenarioStep | None:
        node = self.as_map(item, "steps", line)
        if node is None:
            return None
        kinds = list(engine.ACTION_SPECS)
        actions = [k for k, _, _ in node.items if k not in STEP_EXTRA_KEYS]
        if len(actions) != 1:
            if not actions:
                self.fail(node.line, None, f"шаг {number}: не указано действие; действия: {', '.join(kinds)}")
            else:
                self.fail(
                    node.line,
                    actions[1],
                    f"шаг {number}: в одном шаге одно действие, а указаны: {', '.join(actions)}",
                )
            return None
        name = actions[0]
        name_line = node.key_line(name)
        if name not in engine.ACTION_SPECS:
            self.fail(
                name_line,
                name,
                f"шаг {number}: неизвестное действие{_suggest(name, kinds)}; действия: {', '.join(kinds)}",
            )
            return None
        args_node = node.get(name)
        args: dict[str, object] = {}
        if args_node is not None and not (isinstance(args_node, YScalar) and args_node.value is None):
            args_map = self.as_map(args_node, name, name_line)
            if args_map is None:
                return None
            args = {k: _plain(v) for k, _, v in args_map.items}
            self._check_card_args(name, args_map, card_lines)
        try:
            action = engine.parse_action(name, args)
        except engine.ActionError as exc:
            self.fail(name_line, name, f"шаг {number}: {exc}")
            return None
        choices: tuple[str, ...] = ()
        if node.get("choices") is not None:
            choices = self._choices(node.get("choices"), node.key_line("choices"))
        expect = None
        if node.get("expect") is not None:
            expect = self._expect(node.get("expect"), node.key_line("expect"), card_lines)
        xfail = self._optional_text(node, "xfail")
        if node.get("xfail") is not None and xfail is not None and not xfail.strip():
            self.fail(node.key_line("xfail"), "xfail", "укажите причину: какое правило движок нарушает")
        note = self._optional_text(node, "note")
        return ScenarioStep(
            number=number,
            line=node.line,
            action=action,
            choices=choices,
            expect=expect,
            xfail=xfail,
            note=note,
        )

    def _check_card_args(self, name: str, args: YMap, card_lines: Mapping[str, int]) -> None:
        spec = engine.ACTION_SPECS[name]
        card_args = {a.name for a in spec.args if a.type == "card"}
        for key, line, value in args.items:
            is_id = isinstance(value, YScalar) and isinstance(value.value, str)
            if key in card_args and is_id and str(_plain(value)) not in card_lines:
                self.fail(line, key, _no_card(str(_plain(value)), card_lines))

    def _choices(self, node: YNode | None, line: int) -> tuple[str, ...]:
        if isinstance(node, YScalar) and node.value is not None:
            return (node.text,)
        seq = self.as_seq(node, "choices", line)
        if seq is None:
            return ()
        out: list[str] = []
        for item in seq.items:
            # Keep the text as written: `yes` is an option key here, not YAML's boolean.
            if isinstance(item, YScalar) and item.value is not None:
                out.append(item.text)
            else:
                self.fail(
                    item.line,
                    "choices",
                    "ответ на выбор — ключ или название варианта, как их перечисляет движок",
                )
        return tuple(out)

    def _expect(self, node: YNode | None, line: int, card_lines: Mapping[str, int]) -> StepExpect | None:
        m = self.as_map(node, "expect", line)
        if m is None:
            return None
        self.check_keys(m, EXPECT_KEYS, "expect")
        verdict = None
        if m.get("verdict") is not None:
            verdict = self.choice(m.get("verdict"), "verdict", m.key_line("verdict"), VERDICTS)

        def ids(key: str) -> tuple[str, ...]:
            if m.get(key) is None:
                return ()
            return self.clause_list(m.get(key), key, m.key_line(key))

        trace: list[TraceExpectation] = []
        if m.get("trace") is not None:
            seq = self.as_seq(m.get("trace"), "trace", m.key_line("trace"))
            for item in seq.items if seq else ():
                t = self.as_map(item, "trace", item.line)
                if t is None:
                    continue
                self.check_keys(t, TRACE_KEYS, "expect.trace")
                clause = self.clause_id(t.get("clause"), "clause", t.line)
                kind = None
                if t.get("kind") is not None:
                    kind = self.choice(t.get("kind"), "kind", t.key_line("kind"), TRACE_KINDS)
                reason = self._optional_text(t, "reason_has")
                if clause:
                    trace.append(TraceExpectation(clause, kind, reason, t.line))
        asked: list[ChoiceExpectation] = []
        if m.get("asked") is not None:
            seq = self.as_seq(m.get("asked"), "asked", m.key_line("asked"))
            for item in seq.items if seq else ():
                a = self.as_map(item, "asked", item.line)
                if a is None:
                    continue
                self.check_keys(a, ASKED_KEYS, "expect.asked")
                clause = (
                    self.clause_id(a.get("clause"), "clause", a.line) if a.get("clause") is not None else None
                )
                who = (
                    self.choice(a.get("who"), "who", a.key_line("who"), PLAYERS)
                    if a.get("who") is not None
                    else None
                )
                options: tuple[str, ...] = ()
                if a.get("options") is not None:
                    opts = self.as_seq(a.get("options"), "options", a.key_line("options"))
                    options = tuple(o.text for o in (opts.items if opts else ()) if isinstance(o, YScalar))
                asked.append(ChoiceExpectation(clause, who, options, a.line))
        cards: list[CardExpectation] = []
        if m.get("cards") is not None:
            cm = self.as_map(m.get("cards"), "cards", m.key_line("cards"))
            for cid, cline, props_node in cm.items if cm else ():
                if cid not in card_lines:
                    self.fail(cline, cid, _no_card(cid, card_lines))
                    continue
                pm = self.as_map(props_node, cid, cline)
                if pm is None:
                    continue
                self.check_keys(pm, CARD_PROPS, f"expect.cards.{cid}")
                props = tuple((k, _plain(v)) for k, _, v in pm.items if k in CARD_PROPS)
                cards.append(CardExpectation(cid, props, cline))
        return StepExpect(
            verdict=verdict,
            fired=ids("fired"),
            not_fired=ids("not_fired"),
            forbidden_by=ids("forbidden_by"),
            undetermined_by=ids("undetermined_by"),
            assumptions=ids("assumptions"),
            trace=tuple(trace),
            cards=tuple(cards),
            asked=tuple(asked),
            line=m.line,
        )


def _plain(node: YNode) -> object:
    """A located node back to plain Python values (for the engine's own validation)."""
    if isinstance(node, YScalar):
        return node.value
    if isinstance(node, YSeq):
        return [_plain(i) for i in node.items]
    return {k: _plain(v) for k, _, v in node.items}


def _no_card(cid: str, ids: Mapping[str, int]) -> str:
    return f"карты с id «{cid}» в setup.cards нет{_suggest(cid, list(ids))}"


def _suggest(word: str, options: Sequence[str]) -> str:
    near = difflib.get_close_matches(word, list(options), n=3, cutoff=0.5)
    return f" (может быть, {', '.join(near)}?)" if near else ""


# --- running ----------------------------------------------------------------------------


def run_scenario(
    s: Scenario, index: RulesIndex | None = None, library: engine.CardLibrary | None = None
) -> ScenarioResult:
    """Run every step from the setup, answering choices from the file, checking expectations.

    A step whose choice the file leaves unanswered stops the run (the rest is not run). An
    engine failure on a step is reported as that step's error, never raised.
    """
    notes = _version_notes(s, index)
    try:
        state = engine.build_state(s.setup, library)
    except engine.SetupError as exc:  # loaded scenarios were built once already
        return ScenarioResult(s, [_broken_step(s, f"расстановка не собирается: {exc}")], notes)
    results: list[StepResult] = []
    for step in s.steps:
        result, state, stop = _run_step(state, step)
        results.append(result)
        if stop:
            break
    return ScenarioResult(s, results, notes)


def _version_notes(s: Scenario, index: RulesIndex | None) -> list[str]:
    """A scenario judged under other rules still runs, with a note saying so."""
    if s.rules is None or index is None or not index.version_label:
        return []
    loaded = {index.version_label, index.version or ""}
    if s.rules.strip() in loaded:
        return []
    return [f"сценарий решён по правилам «{s.rules}», а загружены «{index.version or index.version_label}»"]


def _broken_step(s: Scenario, error: str) -> StepResult:
    first = s.steps[0]
    return StepResult(
        action=first.action, outcome=None, expectations=[], number=1, line=first.line, error=error
    )


def _run_step(state: engine.GameState, step: ScenarioStep) -> tuple[StepResult, engine.GameState, bool]:
    outcomes: list[engine.Outcome] = []
    asked: list[engine.Pending] = []
    checks: list[Expectation] = []
    choices = list(step.choices)
    before = state
    try:
        outcome = engine.apply(state, step.action)
        outcomes.append(outcome)
        while outcome.pending is not None and choices:
            pending = outcome.pending
            asked.append(pending)
            answer = choices.pop(0)
            key = _match_option(pending, answer)
            if key is None:
                options = ", ".join(f"{o.key} ({o.label})" for o in pending.options)
                checks.append(
                    Expectation(
                        f"ответ «{answer}» на выбор по {cite(pending.clause)}",
                        False,
                        f"такого варианта нет; варианты: {options}",
                    )
                )
                break
            outcome = engine.apply(outcome.state, engine.parse_action("choose", {"option": key}))
            outcomes.append(outcome)
    except Exception as exc:  # an engine bug must not crash the runner: report it on the step
        error = f"движок не смог выполнить шаг: {type(exc).__name__}: {exc}"
        return (
            StepResult(step.action, None, checks, None, step.number, step.line, None, (), step.xfail, error),
            state,
            True,
        )
    last = outcomes[-1]
    # The engine replays the interrupted action with every answer so far, so the last outcome
    # holds the whole story of the step: its trace and its verdict.
    trace = last.trace
    verdict = last.verdict
    unanswered = last.pending
    if unanswered is not None:
        asked_now = _pending_dict(unanswered)
        checks.append(
            Expectation(
                "все выборы шага получили ответ (choices)",
                False,
                f"ждёт ответа игрок {asked_now['who']} по {cite(unanswered.clause)}: {unanswered.question};"
                f" варианты: {', '.join(f'{o.key} ({o.label})' for o in unanswered.options)}",
            )
        )
    elif choices:
        checks.append(
            Expectation("все ответы из choices использованы", False, f"лишние ответы: {', '.join(choices)}")
        )
    if outcomes[0].verdict == "illegal":
        # An illegal action leaves the game exactly as it was.
        checks.append(
            Expectation(
                "запрещённое действие не изменило позицию",
                outcomes[0].state == before,
                "" if outcomes[0].state == before else "состояние после запрета отличается от исходного",
            )
        )
    if step.expect is not None:
        checks.extend(_check_expect(step.expect, verdict, trace, last.state, asked))
    result = StepResult(
        action=step.action,
        outcome=last,
        expectations=checks,
        pending_unanswered=unanswered,
        number=step.number,
        line=step.line,
        verdict=verdict,
        trace=trace,
        xfail=step.xfail,
    )
    return result, last.state, unanswered is not None


def _match_option(pending: engine.Pending, answer: str) -> str | None:
    for o in pending.options:
        if o.key == answer:
            return o.key
    folded = answer.casefold().replace("ё", "е")
    for o in pending.options:
        if o.label.casefold().replace("ё", "е") == folded or o.key.casefold() == folded:
            return o.key
    return None


def _check_expect(
    e: StepExpect,
    verdict: str,
    trace: Sequence[engine.TraceStep],
    state: engine.GameState,
    asked: Sequence[engine.Pending],
) -> list[Expectation]:
    out: list[Expectation] = []
    steps = list(_walk(trace))
    seen = [t.clause for t in steps]
    if e.verdict is not None:
        ok = verdict == e.verdict
        out.append(
            Expectation(
                f"вердикт: {VERDICT_RU[e.verdict]} ({e.verdict})",
                ok,
                "" if ok else f"получено: {VERDICT_RU.get(verdict, verdict)} ({verdict})",
            )
        )
    for cid in e.fired:
        ok = cid in seen
        out.append(Expectation(f"в трассе есть {cite(cid)}", ok, "" if ok else _seen(seen)))
    for cid in e.not_fired:
        ok = cid not in seen
        out.append(Expectation(f"в трассе нет {cite(cid)}", ok, "" if ok else "пункт есть в трассе"))
    for what, kind, ids in (
        ("запрещает", "forbidden", e.forbidden_by),
        ("не определено из-за", "undetermined", e.undetermined_by),
        ("применено", "assumption", e.assumptions),
    ):
        have = [t.clause for t in steps if t.kind == kind]
        for cid in ids:
            ok = cid in have
            out.append(
                Expectation(
                    f"{what} {cite(cid)}", ok, "" if ok else f"шаги вида {kind}: {', '.join(have) or 'нет'}"
                )
            )
    for t in e.trace:
        match = [
            s
            for s in steps
            if s.clause == t.clause
            and (t.kind is None or s.kind == t.kind)
            and (t.reason_has is None or t.reason_has.casefold() in s.reason.casefold())
        ]
        what = f"шаг трассы {cite(t.clause)}" + (f" вида {t.kind}" if t.kind else "")
        if t.reason_has:
            what += f" с «{t.reason_has}» в объяснении"
        found = [f"{s.kind}: {s.reason}" for s in steps if s.clause == t.clause]
        out.append(Expectation(what, bool(match), "" if match else ("; ".join(found) or _seen(seen))))
    for a in e.asked:
        what = (
            "спрошен выбор"
            + (f" по {cite(a.clause)}" if a.clause else "")
            + (f" у игрока {a.who}" if a.who else "")
        )
        if a.options:
            what += f" с вариантами {', '.join(a.options)}"
        hit = [
            p
            for p in asked
            if (a.clause is None or p.clause == a.clause)
            and (a.who is None or p.who == a.who)
            and all(any(opt in (o.key, o.label) for o in p.options) for opt in a.options)
        ]
        detail = "; ".join(
            f"{cite(p.clause)}, игрок {p.who}: {', '.join(o.key for o in p.options)}" for p in asked
        )
        out.append(
            Expectation(
                what, bool(hit), "" if hit else (f"спрошено: {detail}" if detail else "выборов не было")
            )
        )
    for c in e.cards:
        try:
            props = engine.card_props(state, c.card)
        except (KeyError, ValueError) as exc:
            out.append(Expectation(f"карта {c.card}", False, f"карта не найдена: {exc}"))
            continue
        for key, want in c.props:
            got = props.get(key)
            ok = _same(got, want)
            out.append(
                Expectation(
                    f"карта {c.card}: {key} = {_show(want)}", ok, "" if ok else f"получено: {_show(got)}"
                )
            )
    return out


def _same(got: object, want: object) -> bool:
    if isinstance(want, bool) or isinstance(got, bool):
        return got is want
    if want is None or got is None:
        return got is want
    return str(got) == str(want)


def _show(value: object) -> str:
    if value is None:
        return "нет (null)"
    if isinstance(value, bool):
        return "да (true)" if value else "нет (false)"
    return str(value)


def _seen(seen: Sequence[str]) -> str:
    unique = list(dict.fromkeys(seen))
    return f"в трассе: {', '.join(unique)}" if unique else "трасса пуста"


# --- writing ----------------------------------------------------------------------------


def dump_scenario(
    setup: engine.Setup,
    steps: Sequence[engine.Action],
    title: str,
    source: str | None = None,
    *,
    outcomes: Sequence[engine.Outcome] | None = None,
    rules: str | None = None,
) -> str:
    """The desk as a scenario file: the setup and the actions in order.

    `choose` actions are folded into the `choices` of the step before them. With `outcomes`
    (one per action), each step records the verdict it got as its expectation.
    """
    doc: dict[str, object] = {"title": title}
    if source:
        doc["source"] = source
    if rules:
        doc["rules"] = rules
    if setup.seed:
        doc["seed"] = setup.seed
    setup_doc: dict[str, object] = {"phase": setup.phase, "active": setup.active}
    if setup.turn != 1:
        setup_doc["turn"] = setup.turn
    setup_doc["cards"] = [_card_doc(c) for c in setup.cards]
    doc["setup"] = setup_doc
    out_steps: list[dict[str, object]] = []
    for i, action in enumerate(steps):
        verdict = outcomes[i].verdict if outcomes is not None and i < len(outcomes) else None
        if action.kind == "choose" and out_steps:
            option = action.to_dict()["choose"].get("option")
            choices = out_steps[-1].setdefault("choices", [])
            assert isinstance(choices, list)
            choices.append(str(option))
            if verdict is not None:
                # The step's verdict is the one after its last answer (as run_scenario reads it).
                out_steps[-1]["expect"] = {"verdict": verdict}
            continue
        entry: dict[str, object] = dict(action.to_dict())
        if verdict is not None:
            entry["expect"] = {"verdict": verdict}
        out_steps.append(entry)
    doc["steps"] = out_steps
    return yaml.safe_dump(doc, allow_unicode=True, sort_keys=False, default_flow_style=None, width=110)


def _card_doc(c: engine.CardSpec) -> dict[str, object]:
    d: dict[str, object] = {
        "id": c.id,
        "card": c.card if isinstance(c.card, str) else dict(c.card),
        "owner": c.owner,
    }
    if c.host is not None:
        d["host"] = c.host
    elif c.at is not None:
        d["at"] = c.at
    if c.controller is not None:
        d["controller"] = c.controller
    for key in ("closed", "hidden", "incarnated"):
        if getattr(c, key):
            d[key] = True
    if c.incorporeal is not None:
        d["incorporeal"] = c.incorporeal
    for key in ("wounds", "tokens", "exiled_by", "borrowed"):
        if getattr(c, key):
            d[key] = getattr(c, key)
    return d

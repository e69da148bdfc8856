"""Loading a scenario file: located YAML nodes → a Scenario, every problem named by file, line and key.

The loader checks the FORMAT: which keys exist, what type each value has, card ids, limits,
quoted clause ids that the rules index knows, actions and their arguments, expectations. The
POSITION (cells, hosts, wounds, who may control what …) is judged by `engine.build_state`, once;
its SetupError carries the card and the key at fault, and the loader puts it on the line where
the file wrote that card and key.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

import engine
import lexicon
from casebook import notation
from casebook.model import (
    CardBaseRef,
    CardExpectation,
    CardSource,
    ChoiceExpectation,
    Scenario,
    ScenarioStep,
    StepExpect,
    TraceExpectation,
)
from casebook.nodes import (
    FLOAT_TAG,
    INT_TAG,
    NodeReader,
    Problem,
    ScenarioError,
    YMap,
    YNode,
    YScalar,
    plain,
    read_file,
    read_yaml,
    suggest,
)
from rules_index import ids

if TYPE_CHECKING:
    from rules_index import RulesIndex

TOP_KEYS = ("title", "source", "rules", "answer", "seed", "card_base", "setup", "steps")
CARD_BASE_KEYS = ("file", "constants")
SETUP_KEYS = ("phase", "active", "turn", "cards", "position")
# A card entry's keys are CardSpec's fields: the format and the engine cannot drift apart.
CARD_KEYS = tuple(f.name for f in dataclasses.fields(engine.CardSpec))
CARD_FLAGS = ("closed", "hidden", "incorporeal", "incarnated")
CARD_COUNTS = ("wounds", "tokens")
CARD_TEXTS = ("controller", "exiled_by", "borrowed")
STEP_EXTRA_KEYS = ("expect", "choices", "xfail", "note")
EXPECT_KEYS = (
    "verdict",
    "fired",
    "not_fired",
    "forbidden_by",
    "undetermined_by",
    "unchecked_by",
    "assumptions",
    "trace",
    "cards",
    "asked",
)
EXPECT_ID_KEYS = EXPECT_KEYS[1:7]
TRACE_KEYS = ("clause", "kind", "reason_has")
ASKED_KEYS = ("clause", "who", "options")
# The card properties an expectation may name: those engine.card_props documents.
CARD_PROPS = engine.PROP_KEYS
PLAYERS = engine.PLAYERS
CARD_ID_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_\-]{0,39}$")
MAX_STEPS = 500
MAX_CARDS = 200


def load_scenario(
    path: str | Path,
    *,
    index: RulesIndex | None = None,
    library: engine.CardLibrary | None = None,
    cards: CardSource | None = None,
) -> Scenario:
    """Read and validate a scenario file. A file that names its card base (`card_base`) is read
    against the library `cards` opens for it; without `cards` such a file is refused, saying where
    it can be run.

    Raises:
        ScenarioError: the file is missing, unreadable, too large or invalid (Russian message
            naming the file, the line and the key).
    """
    return load_scenario_text(read_file(path), str(path), index=index, library=library, cards=cards)


def load_scenario_text(
    text: str,
    name: str,
    *,
    index: RulesIndex | None = None,
    library: engine.CardLibrary | None = None,
    cards: CardSource | None = None,
) -> Scenario:
    """Validate scenario text; `name` is what errors call the file (and, when it is a file's
    path, where a `card_base: {file: …}` is found from).

    Raises:
        ScenarioError: as `load_scenario`.
    """
    return load_scenario_nodes(read_yaml(text, name), name, index=index, library=library, cards=cards)


def load_scenario_nodes(
    root: YNode | None,
    name: str,
    *,
    index: RulesIndex | None = None,
    library: engine.CardLibrary | None = None,
    cards: CardSource | None = None,
) -> Scenario:
    """Validate a scenario already read into nodes by `nodes.read_yaml` (an uploaded file's
    YAML is read in the server's bounded worker, and only its nodes come back); `cards` as in
    `load_scenario`.

    Raises:
        ScenarioError: as `load_scenario`.
    """
    if library is None:
        library = engine.load_library()
    if index is None:
        import rules_index

        index = rules_index.load_default()
    return _Reader(name, library, index, cards).scenario(root)


class _Reader(NodeReader):
    """Turns located YAML nodes into a Scenario, collecting every problem it finds."""

    def __init__(
        self, file: str, library: engine.CardLibrary, index: RulesIndex, cards: CardSource | None = None
    ) -> None:
        super().__init__(file)
        self.library = library
        self.index = index
        self.cards = cards
        self.card_nodes: dict[str, YMap] = {}
        self.position_lines: dict[str, int] = {}  # card id -> file line, for cards given by `position`
        self._assumptions: Mapping[str, str] | None = None

    # -- clause ids --

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
        if ids.is_assumption_id(value):
            known = self.assumptions()
            if value not in known:
                self.fail(
                    where,
                    key,
                    f"допущения {value} нет в engine/data/assumptions.yaml{suggest(value, list(known))}",
                )
                return None
            return value
        if not ids.is_clause_id(value):
            self.fail(where, key, f"«{value}» не похоже на номер пункта ('211.3.1') или допущения (A1)")
            return None
        if not (self.index.has(value) or self.index.is_absent(value)):
            near = self.index.nearest_ids(value, 3)
            hint = f"; ближайшие: {', '.join(near)}" if near else ""
            self.fail(where, key, f"пункта {value} нет в загруженных правилах{hint}")
            return None
        return value

    def assumptions(self) -> Mapping[str, str]:
        """The engine's assumptions, read once per file (only when the file cites one)."""
        if self._assumptions is None:
            self._assumptions = engine.load_assumptions()
        return self._assumptions

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
        title = self.optional_text(root, "title")
        source = self.optional_text(root, "source")
        rules = self.optional_text(root, "rules")
        answer = self.optional_text(root, "answer")
        seed = self.optional(root, "seed", int)
        before = len(self.problems)
        card_base = self._card_base(root)
        # cards cannot be judged against a base that did not open: the setup waits for it
        setup = (
            self._setup(root, seed if isinstance(seed, int) else 0) if len(self.problems) == before else None
        )
        self.raise_if_failed()
        card_lines = {cid: node.line for cid, node in self.card_nodes.items()} | self.position_lines
        steps = self._steps(root, card_lines)
        if root.get("steps") is not None and not steps and not self.problems:
            self.fail(root.key_line("steps"), "steps", "нужен хотя бы один шаг")
        self.raise_if_failed()
        assert title is not None and setup is not None
        return Scenario(
            name=self.file,
            title=title,
            source=source,
            rules=rules,
            answer=answer,
            setup=setup,
            steps=tuple(steps),
            card_lines=tuple(card_lines.items()),
            card_base=card_base,
            library=self.library if card_base is not None else None,
        )

    # -- the card base --

    def _card_base(self, root: YMap) -> CardBaseRef | None:
        """`card_base`: a stored base's id or name, or {file, constants} beside the scenario. The
        library it opens replaces the one given, so the cards are read against the base."""
        node = root.get("card_base")
        if node is None:
            return None
        line = root.key_line("card_base")
        if isinstance(node, YMap):
            self.check_keys(node, CARD_BASE_KEYS, "card_base")
            file = self.text(node.get("file"), "file", node.key_line("file")) if node.get("file") else None
            if not file:
                self.fail(line, "card_base", "укажите file: путь к файлу карт (от папки сценария)")
                return None
            consts = self.optional_text(node, "constants")
            ref = CardBaseRef(
                file=self._beside(file), constants=self._beside(consts) if consts else "", line=line
            )
        else:
            stored = self.text(node, "card_base", line)
            if not stored:
                return None
            ref = CardBaseRef(stored=stored.strip(), line=line)
        if self.cards is None:
            self.fail(
                line,
                "card_base",
                f"карты сценария — из базы ({ref.describe()}), а здесь базы карт не открываются: "
                "прогоните его командой python -m engine run (она откроет эту базу)",
            )
            return None
        try:
            self.library = self.cards(ref)
        except ValueError as exc:
            self.fail(line, "card_base", str(exc))
            return None
        return ref

    def _beside(self, path: str) -> str:
        """A path from the scenario's folder (when the scenario is a file), absolute."""
        p = Path(path)
        if not p.is_absolute() and Path(self.file).is_file():
            p = Path(self.file).parent / p
        return str(p.resolve())

    # -- setup --

    def _setup(self, root: YMap, seed: int) -> engine.Setup | None:
        """The setup as written, then judged by the engine (only if it was written correctly)."""
        node = root.get("setup")
        if node is None:
            return None
        setup_map = self.as_map(node, "setup", root.key_line("setup"))
        if setup_map is None:
            return None
        before = len(self.problems)
        self.check_keys(setup_map, SETUP_KEYS, "setup")
        turn = self.optional(setup_map, "turn", int)
        setup = engine.Setup(
            phase=self.optional_text(setup_map, "phase") or "battle",
            active=self.optional_text(setup_map, "active") or "A",
            seed=seed,
            turn=turn if isinstance(turn, int) else 1,
            cards=self._position(setup_map) if setup_map.get("position") else self._cards(setup_map),
        )
        if len(self.problems) > before:
            return None  # a half-read setup would make the engine complain about what is missing
        try:
            engine.build_state(setup, self.library)
        except engine.SetupError as exc:
            self.fail(*self._locate(exc, root, setup_map))
        return setup

    def _locate(self, exc: engine.SetupError, root: YMap, setup: YMap) -> tuple[int, str | None, str]:
        """The line, key and message of the engine's complaint, from the card and key it names."""
        if exc.card is not None and exc.card in self.position_lines:
            return self.position_lines[exc.card], "position", f"карта {exc.card}: {exc.detail}"
        if exc.card is not None and exc.card in self.card_nodes:
            node = self.card_nodes[exc.card]
            line = node.key_line(exc.key) if exc.key else node.line
            return line, exc.key, f"карта {exc.card}: {exc.detail}"
        if exc.key == "seed":
            return root.key_line("seed"), "seed", exc.detail
        if exc.key is not None:
            return setup.key_line(exc.key), exc.key, exc.detail
        return root.key_line("setup"), "setup", str(exc)

    def _position(self, setup: YMap) -> list[engine.CardSpec]:
        """The cards of `setup.position`, the position in one line (casebook/notation/)."""
        if setup.get("cards") is not None:
            self.fail(setup.key_line("cards"), "cards", "укажите либо cards, либо position, но не оба")
            return []
        node = setup.get("position")
        text = self.text(node, "position", setup.key_line("position"))
        if text is None or node is None:
            return []
        # A one-line value sits on its key's line; a block (|) starts on the line after it.
        first = node.line + (1 if "\n" in text.strip() else 0)
        try:
            pos = notation.read_position(text, self.library)
        except notation.NotationError as exc:
            self.fail(first + exc.line - 1, "position", str(exc))
            return []
        if pos.header:
            where = ", ".join(f"setup.{key}" for key in pos.header)
            rule = f"фаза, ход и активный игрок пишутся ключами ({where}), не в position"
            self.fail(first, "position", rule)
            return []
        self.position_lines = {cid: first + n - 1 for cid, n in pos.lines.items()}
        return list(pos.cards)

    def _cards(self, setup: YMap) -> list[engine.CardSpec]:
        if setup.get("cards") is None:
            return []
        items = self.bounded_seq(setup.get("cards"), "cards", setup.key_line("cards"), MAX_CARDS, "карт")
        specs: list[engine.CardSpec] = []
        for item in items:
            card = self.as_map(item, "cards", item.line)
            if card is None:
                continue
            self.check_keys(card, CARD_KEYS, "описании карты")
            cid = self._card_id(card)
            if cid is None:
                continue
            self.card_nodes[cid] = card
            spec = self._card(card, cid)
            if spec is not None:
                specs.append(spec)
        return specs

    def _card_id(self, card: YMap) -> str | None:
        cid = self.text(card.get("id"), "id", card.line)
        if cid is None:
            return None
        if not CARD_ID_RE.fullmatch(cid):  # fullmatch: «$» alone lets a trailing newline in
            rule = "id карты — латинские буквы, цифры, _ и -, до 40 знаков"
            shown = "".join(c if c.isprintable() else repr(c)[1:-1] for c in cid)  # «vail\\n» visible
            self.fail(card.key_line("id"), "id", f"«{shown}»: {rule}")
            return None
        if cid in self.card_nodes:
            taken = self.card_nodes[cid].line
            self.fail(card.key_line("id"), "id", f"id «{cid}» уже занят картой в строке {taken}")
            return None
        return cid

    def _card(self, card: YMap, cid: str) -> engine.CardSpec | None:
        """One card entry as written: its keys and their types (the engine judges the values)."""
        before = len(self.problems)
        what = self._card_name(card)
        owner = self.text(card.get("owner"), "owner", card.line)
        at = self.optional_text(card, "at")
        host = self.optional_text(card, "host")
        if card.get("at") is not None and card.get("host") is not None:
            both = "укажите либо at (место), либо host (хозяин симбиота), но не оба"
            self.fail(card.key_line("host"), "host", both)
        if card.get("at") is None and card.get("host") is None:
            self.fail(card.line, "at", f"у карты «{cid}» не указано место: at (клетка или зона) или host")
        texts = {key: self.optional_text(card, key) for key in CARD_TEXTS}
        flags = {key: self.optional(card, key, bool) for key in CARD_FLAGS}
        counts = {key: self.optional(card, key, int) for key in CARD_COUNTS}
        if len(self.problems) > before or what is None or owner is None:
            return None
        return engine.CardSpec(
            id=cid,
            card=what,
            owner=owner,
            at=at,
            host=host,
            controller=texts["controller"],
            closed=flags["closed"] is True,
            hidden=flags["hidden"] is True,
            incorporeal=flags["incorporeal"] if isinstance(flags["incorporeal"], bool) else None,
            wounds=counts["wounds"] if isinstance(counts["wounds"], int) else 0,
            tokens=counts["tokens"] if isinstance(counts["tokens"], int) else 0,
            incarnated=flags["incarnated"] is True,
            exiled_by=texts["exiled_by"],
            borrowed=texts["borrowed"],
        )

    def _card_name(self, card: YMap) -> str | dict[str, object] | None:
        """A library card's name (unknown names get the nearest ones) or an inline card's mapping."""
        node = card.get("card")
        line = card.key_line("card") if node is not None else card.line
        if isinstance(node, YMap):
            return {k: plain(v) for k, _, v in node.items}
        name = self.text(node, "card", line)
        if name is None:
            return None
        if self.library.get(name) is None:
            near = self.library.nearest(name, 3)
            hint = f"; возможно: {', '.join('«' + n + '»' for n in near)}" if near else ""
            self.fail(line, "card", f"{self.library.missing(name)}{hint}")
            return None
        return name

    # -- steps --

    def _steps(self, root: YMap, card_lines: Mapping[str, int]) -> list[ScenarioStep]:
        items = self.bounded_seq(root.get("steps"), "steps", root.key_line("steps"), MAX_STEPS, "шагов")
        steps: list[ScenarioStep] = []
        for number, item in enumerate(items, start=1):
            step = self._step(number, item, item.line, card_lines)
            if step is not None:
                steps.append(step)
        return steps

    def _step(
        self, number: int, item: YNode, line: int, card_lines: Mapping[str, int]
    ) -> ScenarioStep | None:
        node = self.as_map(item, "steps", line)
        if node is None:
            return None
        action = self._action(number, node, card_lines)
        if action is None:
            return None
        choices: tuple[str, ...] = ()
        if node.get("choices") is not None:
            choices = self._choices(node.get("choices"), node.key_line("choices"))
        expect = None
        if node.get("expect") is not None:
            expect = self._expect(node.get("expect"), node.key_line("expect"), card_lines)
        xfail = self.optional_text(node, "xfail")
        if xfail is not None and not xfail.strip():
            self.fail(node.key_line("xfail"), "xfail", "укажите причину: какое правило движок нарушает")
        return ScenarioStep(
            number=number,
            line=node.line,
            action=action,
            choices=choices,
            expect=expect,
            xfail=xfail,
            note=self.optional_text(node, "note"),
        )

    def _action(self, number: int, node: YMap, card_lines: Mapping[str, int]) -> engine.Action | None:
        """The step's one action, its arguments checked by the engine and its card ids by the file."""
        kinds = list(engine.ACTION_SPECS)
        actions = [k for k, _, _ in node.items if k not in STEP_EXTRA_KEYS]
        if not actions:
            self.fail(node.line, None, f"шаг {number}: не указано действие; действия: {', '.join(kinds)}")
            return None
        if len(actions) > 1:
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
                f"шаг {number}: неизвестное действие{suggest(name, kinds)}; действия: {', '.join(kinds)}",
            )
            return None
        args_node = node.get(name)
        args: dict[str, object] = {}
        if args_node is not None and not (isinstance(args_node, YScalar) and args_node.value is None):
            args_map = self.as_map(args_node, name, name_line)
            if args_map is None:
                return None
            args = {k: plain(v) for k, _, v in args_map.items}
            self._check_card_args(name, args_map, card_lines)
        try:
            return engine.parse_action(name, args)
        except engine.ActionError as exc:
            self.fail(name_line, name, f"шаг {number}: {exc}")
            return None

    def _check_card_args(self, name: str, args: YMap, card_lines: Mapping[str, int]) -> None:
        spec = engine.ACTION_SPECS[name]
        card_args = {a.name for a in spec.args if a.type == "card"}
        for key, line, value in args.items:
            is_id = isinstance(value, YScalar) and isinstance(value.value, str)
            if key in card_args and is_id and str(plain(value)) not in card_lines:
                self.fail(line, key, _no_card(str(plain(value)), card_lines))

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

    # -- expectations --

    def _expect(self, node: YNode | None, line: int, card_lines: Mapping[str, int]) -> StepExpect | None:
        m = self.as_map(node, "expect", line)
        if m is None:
            return None
        self.check_keys(m, EXPECT_KEYS, "expect")
        verdict = None
        if m.get("verdict") is not None:
            verdict = self.choice(m.get("verdict"), "verdict", m.key_line("verdict"), lexicon.VERDICTS)
        id_lists = {
            key: self.clause_list(m.get(key), key, m.key_line(key)) if m.get(key) is not None else ()
            for key in EXPECT_ID_KEYS
        }
        return StepExpect(
            verdict=verdict,
            fired=id_lists["fired"],
            not_fired=id_lists["not_fired"],
            forbidden_by=id_lists["forbidden_by"],
            undetermined_by=id_lists["undetermined_by"],
            unchecked_by=id_lists["unchecked_by"],
            assumptions=id_lists["assumptions"],
            trace=self._expect_trace(m),
            cards=self._expect_cards(m, card_lines),
            asked=self._expect_asked(m),
            line=m.line,
        )

    def _items(self, m: YMap, key: str, keys: tuple[str, ...]) -> list[YMap]:
        """The mappings listed under `key` of an expectation, each with its keys checked."""
        if m.get(key) is None:
            return []
        seq = self.as_seq(m.get(key), key, m.key_line(key))
        out = []
        for item in seq.items if seq else ():
            entry = self.as_map(item, key, item.line)
            if entry is not None:
                self.check_keys(entry, keys, f"expect.{key}")
                out.append(entry)
        return out

    def _expect_trace(self, m: YMap) -> tuple[TraceExpectation, ...]:
        out = []
        for t in self._items(m, "trace", TRACE_KEYS):
            clause = self.clause_id(t.get("clause"), "clause", t.line)
            kind = None
            if t.get("kind") is not None:
                kind = self.choice(t.get("kind"), "kind", t.key_line("kind"), lexicon.STEP_KINDS)
            reason = self.optional_text(t, "reason_has")
            if clause:
                out.append(TraceExpectation(clause, kind, reason, t.line))
        return tuple(out)

    def _expect_asked(self, m: YMap) -> tuple[ChoiceExpectation, ...]:
        out = []
        for a in self._items(m, "asked", ASKED_KEYS):
            clause = None
            if a.get("clause") is not None:
                clause = self.clause_id(a.get("clause"), "clause", a.line)
            who = None
            if a.get("who") is not None:
                who = self.choice(a.get("who"), "who", a.key_line("who"), PLAYERS)
            options: tuple[str, ...] = ()
            if a.get("options") is not None:
                opts = self.as_seq(a.get("options"), "options", a.key_line("options"))
                options = tuple(o.text for o in (opts.items if opts else ()) if isinstance(o, YScalar))
            out.append(ChoiceExpectation(clause, who, options, a.line))
        return tuple(out)

    def _expect_cards(self, m: YMap, card_lines: Mapping[str, int]) -> tuple[CardExpectation, ...]:
        if m.get("cards") is None:
            return ()
        cm = self.as_map(m.get("cards"), "cards", m.key_line("cards"))
        out = []
        for cid, cline, props_node in cm.items if cm else ():
            if cid not in card_lines:
                self.fail(cline, cid, _no_card(cid, card_lines))
                continue
            pm = self.as_map(props_node, cid, cline)
            if pm is None:
                continue
            self.check_keys(pm, CARD_PROPS, f"expect.cards.{cid}")
            props = tuple((k, plain(v)) for k, _, v in pm.items if k in CARD_PROPS)
            out.append(CardExpectation(cid, props, cline))
        return tuple(out)


def _no_card(cid: str, known: Mapping[str, int]) -> str:
    return f"карты с id «{cid}» в setup.cards нет{suggest(cid, list(known))}"

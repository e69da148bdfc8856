"""The judge's desk as data: a setup, the actions tried on it, and where in them the judge stands.

No Streamlit here and no rules logic: the engine decides, this module only keeps the desk, replays
it through `engine.apply`, and turns it into a shareable text (URL parameter, desk file) and back.
A Desk is immutable; every edit returns a new one, so undo/redo is a cursor over the actions.

Card entries use the scenario format's keys (docs/scenarios.md): id, card, owner, at | host,
controller, closed, hidden, incorporeal, wounds, tokens, incarnated.
"""

from __future__ import annotations

import base64
import binascii
import dataclasses
import json
import re
import zlib
from collections.abc import Mapping, Sequence
from typing import Any

import casebook
import engine
import lexicon

FORMAT = "berserk-desk"
FORMAT_VERSION = 1
MAX_DESK_CHARS = 400_000  # decoded desk text; a full board with 500 actions is far below this
MAX_CARDS = 200
MAX_ACTIONS = 500
MAX_TEXT = 2_000
CARD_ID_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_\-]{0,39}$")
CARD_KEYS = casebook.CARD_KEYS  # a desk card is a scenario card entry
ADHOC_KEYS = ("name", "template", "type", "subtype", "life", "incorporeal", "move", "abilities")
PHASES = ("recruit", "placement", "reveal", "battle")
PLAYERS = ("A", "B")


class DeskError(ValueError):
    """A desk text or an edit is unusable; Russian message saying what and where."""


@dataclasses.dataclass(frozen=True)
class Desk:
    """One judge's desk. `cards` and `actions` hold plain JSON-like data (never mutated)."""

    title: str = ""
    source: str = ""
    phase: str = "battle"
    active: str = "A"
    turn: int = 1
    seed: int = 0
    cards: tuple[Mapping[str, Any], ...] = ()
    actions: tuple[Mapping[str, Mapping[str, Any]], ...] = ()
    cursor: int = 0
    scenario_name: str = ""
    scenario_text: str = ""

    @property
    def started(self) -> bool:
        """Cards are set up only before the first action; afterwards the setup is fixed."""
        return bool(self.actions)

    def setup(self) -> engine.Setup:
        specs = [engine.CardSpec(**{k: v for k, v in c.items() if k in CARD_KEYS}) for c in self.cards]
        return engine.Setup(phase=self.phase, active=self.active, seed=self.seed, turn=self.turn, cards=specs)

    def parsed_actions(self) -> list[engine.Action]:
        out = []
        for i, entry in enumerate(self.actions, 1):
            ((kind, args),) = entry.items()
            try:
                out.append(engine.parse_action(kind, args))
            except engine.ActionError as exc:
                raise DeskError(f"действие {i}: {exc}") from None
        return out

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": FORMAT_VERSION,
            "title": self.title,
            "source": self.source,
            "phase": self.phase,
            "active": self.active,
            "turn": self.turn,
            "seed": self.seed,
            "cards": [dict(c) for c in self.cards],
            "actions": [{k: dict(v) for k, v in a.items()} for a in self.actions],
            "cursor": self.cursor,
            "scenario_name": self.scenario_name,
            "scenario_text": self.scenario_text,
        }

    def key(self) -> str:
        """A stable text identity of the desk (for caching a replay within one session)."""
        return json.dumps(self.to_dict(), ensure_ascii=False, sort_keys=True)


@dataclasses.dataclass(frozen=True)
class Replay:
    """The desk played out: states[i] is the position after i actions; outcomes[i] the (i+1)-th."""

    states: tuple[engine.GameState, ...]
    outcomes: tuple[engine.Outcome, ...]
    actions: tuple[engine.Action, ...]

    @property
    def current(self) -> engine.GameState:
        return self.states[-1]


# -- validation of desk data (from a URL, a file or a form) -------------------------------------


def _text(value: object, where: str, limit: int = MAX_TEXT) -> str:
    if not isinstance(value, str):
        raise DeskError(f"{where}: нужна строка")
    if len(value) > limit:
        raise DeskError(f"{where}: длиннее {limit} символов")
    return value


def _int(value: object, where: str, low: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise DeskError(f"{where}: нужно целое число ≥ {low}")
    return value


def _plain(value: object, where: str, depth: int = 0) -> Any:
    """JSON-like data only (str, int, bool, None, lists, string-keyed mappings), bounded depth."""
    if depth > 6:
        raise DeskError(f"{where}: слишком глубокая вложенность")
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, list | tuple):
        return [_plain(v, where, depth + 1) for v in value]
    if isinstance(value, Mapping):
        out = {}
        for k, v in value.items():
            if not isinstance(k, str):
                raise DeskError(f"{where}: ключи должны быть строками")
            out[k] = _plain(v, f"{where}.{k}", depth + 1)
        return out
    raise DeskError(f"{where}: недопустимое значение {type(value).__name__}")


def check_card(entry: Mapping[str, Any], where: str) -> dict[str, Any]:
    """A card entry with known keys and a safe id; the engine checks the rest when it builds the state."""
    if not isinstance(entry, Mapping):
        raise DeskError(f"{where}: карта записывается словарём")
    unknown = [k for k in entry if k not in CARD_KEYS]
    if unknown:
        raise DeskError(f"{where}: неизвестный ключ «{unknown[0]}»")
    cid = entry.get("id")
    if not isinstance(cid, str) or not CARD_ID_RE.match(cid):
        raise DeskError(
            f"{where}: id «{cid}» — латинские буквы, цифры, «_» и «-», с буквы, до 40 знаков (например vail)"
        )
    card = entry.get("card")
    if isinstance(card, str):
        _text(card, f"{where}, card", 200)
    elif isinstance(card, Mapping):
        bad = [k for k in card if k not in ADHOC_KEYS]
        if bad:
            raise DeskError(f"{where}, card: неизвестное свойство «{bad[0]}»")
    else:
        raise DeskError(f"{where}, card: нужно название карты или её свойства")
    return dict(_plain(dict(entry), where))


def from_dict(data: object) -> Desk:
    """A Desk from its JSON form (a desk file or a URL).

    Raises:
        DeskError: not a desk, or a value of the wrong kind (Russian, naming the key).
    """
    if not isinstance(data, Mapping) or data.get("format") != FORMAT:
        raise DeskError("это не файл стола судьи (нет отметки format: berserk-desk)")
    if data.get("version") != FORMAT_VERSION:
        raise DeskError(
            f"версия файла стола {data.get('version')!r} не поддерживается (ожидается {FORMAT_VERSION})"
        )
    cards = data.get("cards", [])
    actions = data.get("actions", [])
    if not isinstance(cards, list) or len(cards) > MAX_CARDS:
        raise DeskError(f"cards: нужен список не длиннее {MAX_CARDS}")
    if not isinstance(actions, list) or len(actions) > MAX_ACTIONS:
        raise DeskError(f"actions: нужен список не длиннее {MAX_ACTIONS}")
    checked_cards = tuple(check_card(c, f"cards[{i}]") for i, c in enumerate(cards))
    checked_actions = []
    for i, a in enumerate(actions):
        if not isinstance(a, Mapping) or len(a) != 1:
            raise DeskError(f"actions[{i}]: действие записывается как {{вид: {{аргументы}}}}")
        ((kind, args),) = a.items()
        if not isinstance(args, Mapping):
            raise DeskError(f"actions[{i}]: аргументы действия {kind} — словарь")
        checked_actions.append({str(kind): _plain(dict(args), f"actions[{i}]")})
    phase = data.get("phase", "battle")
    active = data.get("active", "A")
    if phase not in PHASES:
        raise DeskError(f"phase: «{phase}» — допустимы {', '.join(PHASES)}")
    if active not in PLAYERS:
        raise DeskError("active: игрок A или B")
    cursor = _int(data.get("cursor", 0), "cursor")
    if cursor > len(checked_actions):
        raise DeskError(f"cursor: {cursor} больше числа действий ({len(checked_actions)})")
    return Desk(
        title=_text(data.get("title", ""), "title"),
        source=_text(data.get("source", ""), "source"),
        phase=str(phase),
        active=str(active),
        turn=_int(data.get("turn", 1), "turn", 1),
        seed=_int(data.get("seed", 0), "seed"),
        cards=checked_cards,
        actions=tuple(checked_actions),
        cursor=cursor,
        scenario_name=_text(data.get("scenario_name", ""), "scenario_name", 300),
        scenario_text=_text(data.get("scenario_text", ""), "scenario_text", MAX_DESK_CHARS),
    )


# -- sharing: a desk file and a URL parameter ------------------------------------------------------


def to_file_text(desk: Desk) -> str:
    return json.dumps(desk.to_dict(), ensure_ascii=False, indent=1) + "\n"


def from_file_text(raw: bytes) -> Desk:
    """A desk file (JSON) back to a Desk.

    Raises:
        DeskError: too large, not UTF-8, not JSON or not a desk.
    """
    if len(raw) > MAX_DESK_CHARS * 4:
        raise DeskError(f"файл стола больше {MAX_DESK_CHARS * 4} байт")
    try:
        text = raw.decode("utf-8-sig")
        data = json.loads(text)
    except UnicodeDecodeError:
        raise DeskError("файл стола не в кодировке UTF-8") from None
    except json.JSONDecodeError as exc:
        raise DeskError(f"файл стола — не JSON: строка {exc.lineno}, {exc.msg}") from None
    return from_dict(data)


def encode(desk: Desk) -> str:
    """The desk as a URL-safe token (compressed JSON). The loaded scenario file is left out of it:
    its setup and actions are already in the desk."""
    data = desk.to_dict()
    data["scenario_text"] = ""
    raw = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    return base64.urlsafe_b64encode(zlib.compress(raw, 9)).decode("ascii").rstrip("=")


def decode(token: str) -> Desk:
    """A URL token back to a Desk; inflation is bounded so a crafted token cannot exhaust memory.

    Raises:
        DeskError: a damaged or foreign token.
    """
    if len(token) > MAX_DESK_CHARS:
        raise DeskError("ссылка на стол слишком длинная")
    try:
        packed = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
        inflater = zlib.decompressobj()
        raw = inflater.decompress(packed, MAX_DESK_CHARS * 4)
        if inflater.unconsumed_tail:
            raise DeskError("ссылка на стол распаковывается в слишком большой текст")
        data = json.loads(raw.decode("utf-8"))
    except (binascii.Error, ValueError, zlib.error) as exc:
        if isinstance(exc, DeskError):
            raise
        raise DeskError("ссылка на стол повреждена (её обрезали при копировании?)") from None
    return from_dict(data)


# -- replay and edits -------------------------------------------------------------------------------


def replay(desk: Desk, library: engine.CardLibrary | None = None) -> Replay:
    """Build the setup and apply the actions up to the cursor.

    Raises:
        engine.SetupError: the setup is not a legal position (Russian, naming card and key).
        DeskError: a stored action is malformed.
    """
    state = engine.build_state(desk.setup(), library)
    actions = desk.parsed_actions()[: desk.cursor]
    states = [state]
    outcomes = []
    for number, action in enumerate(actions, 1):
        try:
            outcome = engine.apply(states[-1], action)
        except Exception as exc:  # an engine fault must not become a traceback on the judge's screen
            raise DeskError(
                f"действие {number} ({action!r}): движок не смог его применить "
                f"({type(exc).__name__}: {exc}); отмените это действие и сообщите разработчикам"
            ) from exc
        outcomes.append(outcome)
        states.append(outcome.state)
    return Replay(states=tuple(states), outcomes=tuple(outcomes), actions=tuple(actions))


def check_setup(desk: Desk, library: engine.CardLibrary | None = None) -> Desk:
    """The desk if its setup builds; raises engine.SetupError otherwise (so an edit never lands broken)."""
    engine.build_state(desk.setup(), library)
    return desk


def with_action(desk: Desk, action: engine.Action) -> Desk:
    """The desk with `action` applied after the cursor; any undone actions beyond it are dropped."""
    if desk.cursor >= MAX_ACTIONS:
        raise DeskError(f"на столе уже {MAX_ACTIONS} действий — начните новый стол")
    kept = desk.actions[: desk.cursor]
    return dataclasses.replace(desk, actions=(*kept, action.to_dict()), cursor=desk.cursor + 1)


def undo(desk: Desk) -> Desk:
    return dataclasses.replace(desk, cursor=max(0, desk.cursor - 1))


def redo(desk: Desk) -> Desk:
    return dataclasses.replace(desk, cursor=min(len(desk.actions), desk.cursor + 1))


def restart(desk: Desk) -> Desk:
    """Back to the setup; the actions stay for redo until a new action replaces them."""
    return dataclasses.replace(desk, cursor=0)


def clear_actions(desk: Desk) -> Desk:
    """Forget the actions so the setup can be edited again."""
    return dataclasses.replace(desk, actions=(), cursor=0)


def new_card_id(desk: Desk, base: str) -> str:
    """A free id from a Latin base («vail», «card»): base, base2, base3 …"""
    stem = re.sub(r"[^A-Za-z0-9_]", "", base)[:30] or "card"
    if not stem[0].isalpha():
        stem = "c" + stem
    taken = {str(c.get("id")) for c in desk.cards}
    if stem not in taken:
        return stem
    n = 2
    while f"{stem}{n}" in taken:
        n += 1
    return f"{stem}{n}"


def put_card(desk: Desk, entry: Mapping[str, Any], library: engine.CardLibrary | None = None) -> Desk:
    """Add or replace (same id) a card before the actions start.

    Raises:
        DeskError: the actions have started, too many cards, or a malformed entry.
        engine.SetupError: the position would be illegal (occupied cell, second symbiote …).
    """
    if desk.started:
        raise DeskError("расклад меняется только до первого действия: отмените действия или начните заново")
    card = check_card(entry, f"карта {entry.get('id')}")
    others = [c for c in desk.cards if c.get("id") != card["id"]]
    if len(others) >= MAX_CARDS:
        raise DeskError(f"на столе уже {MAX_CARDS} карт")
    replaced = [card if c.get("id") == card["id"] else c for c in desk.cards]
    cards = tuple(replaced) if len(others) < len(desk.cards) else (*desk.cards, card)
    return check_setup(dataclasses.replace(desk, cards=cards), library)


def remove_card(desk: Desk, cid: str, library: engine.CardLibrary | None = None) -> Desk:
    """Remove a card (and free its symbiote's host reference check happens in the engine).

    Raises:
        DeskError: the actions have started.
        engine.SetupError: another card still refers to it (its symbiote sits on it).
    """
    if desk.started:
        raise DeskError("расклад меняется только до первого действия: отмените действия или начните заново")
    cards = tuple(c for c in desk.cards if c.get("id") != cid)
    return check_setup(dataclasses.replace(desk, cards=cards), library)


# -- scenarios --------------------------------------------------------------------------------------


def spec_to_entry(spec: engine.CardSpec) -> dict[str, Any]:
    """A CardSpec as a desk card entry (only the keys that differ from their defaults)."""
    out: dict[str, Any] = {
        "id": spec.id,
        "card": spec.card if isinstance(spec.card, str) else dict(spec.card),
    }
    out["owner"] = spec.owner
    defaults = {f.name: f.default for f in dataclasses.fields(engine.CardSpec)}
    for key in CARD_KEYS[3:]:
        value = getattr(spec, key, None)
        if value != defaults.get(key):
            out[key] = value
    return dict(_plain(out, f"карта {spec.id}"))


def from_scenario(sc: casebook.Scenario, text: str, library: engine.CardLibrary | None = None) -> Desk:
    """A desk holding a loaded scenario: its setup, its steps (choices as `choose` actions), cursor
    at the end. The file text is kept so the page can show its expectations."""
    desk = Desk(
        title=sc.title,
        source=sc.source or "",
        phase=sc.setup.phase,
        active=sc.setup.active,
        turn=sc.setup.turn,
        seed=sc.setup.seed,
        cards=tuple(spec_to_entry(s) for s in sc.setup.cards),
        scenario_name=sc.name,
        scenario_text=text,
    )
    state = engine.build_state(desk.setup(), library)
    actions: list[Mapping[str, Mapping[str, Any]]] = []
    for step in sc.steps:
        outcome = engine.apply(state, step.action)
        actions.append(step.action.to_dict())
        state = outcome.state
        for answer in step.choices:
            pending = state.pending
            if pending is None:
                break
            key = lexicon.match_option(answer, ((o.key, o.label) for o in pending.options))
            if key is None:
                break
            choose = engine.parse_action("choose", {"option": key})
            actions.append(choose.to_dict())
            state = engine.apply(state, choose).state
    actions = actions[:MAX_ACTIONS]
    return dataclasses.replace(desk, actions=tuple(actions), cursor=len(actions))


def to_scenario_yaml(desk: Desk, rp: Replay, rules: str | None = None) -> str:
    """The desk (setup and the actions up to the cursor, with the verdicts they got) as scenario YAML."""
    title = desk.title.strip() or "Позиция со стола судьи"
    return casebook.dump_scenario(
        desk.setup(),
        list(rp.actions),
        title,
        desk.source.strip() or None,
        outcomes=list(rp.outcomes),
        rules=rules,
    )


def trace_json(rp: Replay) -> str:
    """The actions up to the cursor with their verdicts and traces, as JSON for the journal."""
    steps = [
        {"action": repr(a), "verdict": o.verdict, "trace": [t.to_dict() for t in o.trace]}
        for a, o in zip(rp.actions, rp.outcomes, strict=True)
    ]
    return json.dumps(steps, ensure_ascii=False, indent=1)


def cited_clauses(rp: Replay) -> list[str]:
    """Clause ids that decided something in the replay (forbidden, undetermined or effect), in order."""
    seen: dict[str, None] = {}
    for outcome in rp.outcomes:
        for step in outcome.steps():
            if step.clause and not step.clause.startswith("A") and step.kind != "not_applied":
                seen.setdefault(step.clause, None)
    return list(seen)


def action_args_summary(args: Mapping[str, object], names: Mapping[str, str]) -> str:
    """«attacker: Вайл (vail), target: Орк (orc)» — ids shown with card names for reading."""
    parts = []
    for k, v in args.items():
        shown = f"{names[v]} ({v})" if isinstance(v, str) and v in names else str(v)
        parts.append(f"{k}: {shown}")
    return ", ".join(parts)


def card_names(state: engine.GameState) -> dict[str, str]:
    return {cid: str(engine.card_props(state, cid).get("name", cid)) for cid in state.card_ids()}


def sequence_texts(values: Sequence[object]) -> list[str]:
    return [str(v) for v in values]

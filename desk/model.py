"""The judge's desk as data: a setup, the actions tried on it, and where in them the judge stands.

No rules logic here: the engine decides, this module keeps the desk and replays it through
`engine.apply`. A Desk is immutable; every edit (desk/edits.py) returns a new one, so undo/redo is
a cursor over the actions.

Card entries use the scenario format's keys (docs/scenarios.md): id, card, owner, at | host,
controller, closed, hidden, incorporeal, wounds, tokens, incarnated, exiled_by, borrowed.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
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
CARD_KEYS = casebook.CARD_KEYS  # a desk card is a scenario card entry
PHASES = lexicon.PHASES
PLAYERS = engine.PLAYERS


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

    @property
    def has_work(self) -> bool:
        """Something a judge would not want to lose: cards, actions or a title."""
        return bool(self.cards or self.actions or self.title.strip())

    def card(self, cid: str) -> Mapping[str, Any] | None:
        """The entry of card `cid`, or None."""
        return next((c for c in self.cards if c.get("id") == cid), None)

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


def replay(desk: Desk, library: engine.CardLibrary | None = None) -> Replay:
    """Build the setup and apply the actions up to the cursor.

    Raises:
        engine.SetupError: the setup is not a legal position (Russian, naming card and key).
        DeskError: a stored action is malformed, or the engine failed on one.
    """
    state = check_setup(desk, library)
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


def check_setup(desk: Desk, library: engine.CardLibrary | None = None) -> engine.GameState:
    """The desk's starting position.

    Raises:
        engine.SetupError: the setup is not a legal position (so an edit never lands broken).
        DeskError: the engine failed on it (a message instead of a traceback).
    """
    try:
        return engine.build_state(desk.setup(), library)
    except engine.SetupError:
        raise
    except Exception as exc:  # a card the engine cannot build must not become a traceback
        raise DeskError(f"позицию нельзя построить ({type(exc).__name__}: {exc})") from exc

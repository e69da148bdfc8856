"""The immutable game state: cards, zones, decks, phase and the pending choice.

Every value here is frozen; `apply` builds a new GameState and never edits one. The `cards`
mapping is a read-only view.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

import lexicon
from engine.model import actions, cards

PHASES = lexicon.PHASES
ZONES = lexicon.ZONES


@dataclasses.dataclass(frozen=True, slots=True)
class CardState:
    """One card in play or in a zone.

    zone is battle (a grid cell; a symbiote on a host has its host's cell), aux, deck, hand,
    graveyard or exile. `marker` is the control marker of 535.1.1.
    """

    id: str
    card: cards.CardDef
    owner: str
    controller: str
    zone: str
    cell: str | None = None
    host: str | None = None
    type: str = "creature"
    subtype: str | None = "ground"
    incorporeal: bool = False
    closed: bool = False
    hidden: bool = False
    wounds: int = 0
    tokens: int = 0
    incarnated: bool = False
    marker: bool = False
    host_changed: bool = False
    used: frozenset[str] = frozenset()
    turn_uses: int = 0
    exiled_by: str | None = None
    borrowed: str | None = None

    @property
    def name(self) -> str:
        return self.card.name

    @property
    def life(self) -> int | None:
        return self.card.life

    @property
    def in_play(self) -> bool:
        """In the battle zone: a grid cell or the auxiliary zone."""
        return self.zone in ("battle", "aux")

    @property
    def is_creature(self) -> bool:
        return self.type == "creature"

    @property
    def is_symbiote(self) -> bool:
        return self.type == "creature" and self.subtype in cards.SYMBIOTE_SUBTYPES

    @property
    def is_ground(self) -> bool:
        return self.type == "creature" and self.subtype == "ground"

    def removed_to(self, zone: str, exiled_by: str | None = None) -> CardState:
        """This card after it leaves its place for its owner's `zone` (A6). Everything it gained
        where it was is gone (cell, host, controller, wounds, state, a changed type, borrowed
        abilities, per-turn uses, a host change), so a new field is reset unless it is kept here;
        kept across zones: once-per-battle uses, a spent incarnation, incarnation tokens and the
        control marker (the state check recomputes it)."""
        return CardState(
            id=self.id,
            card=self.card,
            owner=self.owner,
            controller=self.owner,
            zone=zone,
            type=self.card.type,
            subtype=self.card.subtype,
            incorporeal=self.card.incorporeal,
            tokens=self.tokens,
            incarnated=self.incarnated,
            marker=self.marker,
            used=self.used,
            exiled_by=exiled_by if zone == "exile" else None,
        )

    @property
    def label(self) -> str:
        """The card named for a Russian reason: «Вайл (vail)»."""
        return f"«{self.card.name}» ({self.id})"


@dataclasses.dataclass(frozen=True, slots=True)
class Mark:
    """Cells marked by a card's ability (Бул'Багур's «свет фонаря») until the end of a turn."""

    card: str
    name: str
    cells: tuple[str, ...]
    until_turn: int


@dataclasses.dataclass(frozen=True, slots=True)
class Option:
    key: str
    label: str


@dataclasses.dataclass(frozen=True, slots=True)
class Pending:
    """A choice the rules give a player; the engine stops until `choose` answers it.

    `judge` marks a question the rules text does not answer and no player chooses: a fact the
    judge reads off the table (how many wounds a strike dealt, by the general rules of attack our
    text lacks). `who` is then the player whose action it is."""

    who: str
    clause: str
    question: str
    options: tuple[Option, ...]
    judge: bool = False

    def to_dict(self) -> dict[str, object]:
        return {
            "who": self.who,
            "clause": self.clause,
            "question": self.question,
            "options": [{"key": o.key, "label": o.label} for o in self.options],
            "judge": self.judge,
        }


@dataclasses.dataclass(frozen=True, slots=True)
class PendingAction:
    """The interrupted action and the answers given so far (replayed on `choose`)."""

    pending: Pending
    action: actions.Action
    answers: tuple[str, ...]


@dataclasses.dataclass(frozen=True, slots=True)
class GameState:
    """A position. Build one with engine.build_state (and get a Setup back with engine.to_setup);
    change it only through engine.apply."""

    phase: str
    active: str
    turn: int
    seed: int
    cards: Mapping[str, CardState]
    decks: tuple[tuple[str, ...], tuple[str, ...]]
    started: bool = False
    shuffles: int = 0
    marks: tuple[Mark, ...] = ()
    last_attack: tuple[str, str] | None = None
    waiting: PendingAction | None = None

    @property
    def pending(self) -> Pending | None:
        return self.waiting.pending if self.waiting else None

    def card_ids(self) -> list[str]:
        return list(self.cards)

    def card(self, cid: str) -> CardState | None:
        return self.cards.get(cid)

    def deck(self, player: str) -> tuple[str, ...]:
        return self.decks[0] if player == "A" else self.decks[1]

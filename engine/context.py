"""The working copy of one `apply` call: copy-on-write cards, the tracer and the choices.

A Ctx is created per action and thrown away; it is the only mutable thing in the engine and
nothing outside one call sees it. `finish()` freezes it into a new GameState.
"""

from __future__ import annotations

import contextlib
import dataclasses
import random
import types
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

import lexicon
from engine import assumptions, trace
from engine.model import state
from engine.model.abilities import Ability

if TYPE_CHECKING:
    from engine.rules.registry import Catalogue

Problem = trace.Problem


class NeedChoice(Exception):
    """Raised inside a handler when the rules give a player a choice not yet answered."""

    def __init__(self, pending: state.Pending) -> None:
        super().__init__(pending.question)
        self.pending = pending


class BadChoice(Exception):
    """An answer that is not among the options offered."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class Ctx:
    """Mutable working state of one action (owned by one apply call)."""

    def __init__(
        self, base: state.GameState, rules: Catalogue, answers: Sequence[str] = (), tracing: bool = True
    ) -> None:
        self.base = base
        # What the rule modules declare: action handlers and hooks (engine.rules.CATALOGUE).
        self.rules = rules
        self.cards: dict[str, state.CardState] = dict(base.cards)
        self.decks: dict[str, list[str]] = {"A": list(base.decks[0]), "B": list(base.decks[1])}
        self.phase = base.phase
        self.active = base.active
        self.turn = base.turn
        self.started = base.started
        self.shuffles = base.shuffles
        self.marks: list[state.Mark] = list(base.marks)
        self.last_attack = base.last_attack
        self.tr = trace.Tracer(tracing)
        self.answers = tuple(answers)
        self.asked = 0
        self.illegal = False
        self.undetermined = False
        self.keep_state = False
        # cards whose death is being resolved (their «при гибели» may kill others, who may hit back)
        self.dying: set[str] = set()
        # the problems checks found while this action was applied (Outcome.deciding)
        self.deciding: list[Problem] = []
        self._looking = 0
        self._rested: set[str] = set()

    # ---- cards -------------------------------------------------------------------------
    def c(self, cid: str) -> state.CardState:
        return self.cards[cid]

    def get(self, cid: str | None) -> state.CardState | None:
        return self.cards.get(cid) if cid is not None else None

    def update(self, cid: str, **changes: Any) -> state.CardState:
        card = dataclasses.replace(self.cards[cid], **changes)
        self.cards[cid] = card
        return card

    def abilities(self, card: state.CardState) -> tuple[Ability, ...]:
        """Own abilities plus those taken from another card (Многоликий)."""
        if card.borrowed and card.borrowed in self.cards:
            return card.card.abilities + self.cards[card.borrowed].card.abilities
        return card.card.abilities

    def ability(self, card: state.CardState, kind: str) -> Ability | None:
        for a in self.abilities(card):
            if a.kind == kind:
                return a
        return None

    # ---- hooks -------------------------------------------------------------------------
    def hooks(self, point: str) -> tuple[Callable[..., Any], ...]:
        """The unbound hooks of `point` (engine/rules/registry.HOOK_POINTS)."""
        return self.rules.at(point)

    def card_hooks(
        self, point: str, card: state.CardState
    ) -> Iterator[tuple[Callable[..., Any], Ability, int]]:
        """(hook, ability, index of the ability) for each of `card`'s abilities bound at `point`."""
        for i, ab in enumerate(self.abilities(card)):
            for fn in self.rules.of_ability(point, ab.kind):
                yield fn, ab, i

    def occupant(self, cell: str) -> state.CardState | None:
        """The card standing on `cell` (symbiotes on a host do not occupy a cell)."""
        for c in self.cards.values():
            if c.cell == cell and c.zone == "battle" and c.host is None:
                return c
        return None

    def symbiote_of(self, host_id: str) -> state.CardState | None:
        for c in self.cards.values():
            if c.host == host_id:
                return c
        return None

    def squad(self, player: str) -> list[state.CardState]:
        """Cards the player controls in the battle zone (A13)."""
        return [c for c in self.cards.values() if c.controller == player and c.in_play]

    def is_flyer_like(self, card: state.CardState) -> bool:
        """Goes to the auxiliary zone (535.4, A5): a flyer or «располагается во вспомогательной зоне»."""
        return (card.is_creature and card.subtype == "flyer") or self.ability(card, "aux_zone") is not None

    def shuffle(self, player: str) -> None:
        rng = random.Random(f"{self.base.seed}:{self.shuffles}")
        self.shuffles += 1
        rng.shuffle(self.decks[player])

    # ---- trace -------------------------------------------------------------------------
    def step(self, clause: str, kind: str, reason: str, *changes: str) -> None:
        self.tr.add(clause, kind, reason, changes)

    def allow(self, clause: str, reason: str) -> None:
        self.tr.add(clause, "allowed", reason)

    def forbid(self, clause: str, reason: str) -> None:
        self.illegal = True
        self.tr.add(clause, "forbidden", reason)

    def undet(self, clause: str, reason: str) -> None:
        self.undetermined = True
        self.tr.add(clause, "undetermined", reason)

    def unchecked(self, clause: str, reason: str) -> None:
        """What the text allows but leaves to rules we lack: the verdict stays, the trace says what
        was not checked (211.9 «по общим правилам»)."""
        self.tr.add(clause, "unchecked", reason)

    def assume(self, aid: str, reason: str) -> None:
        self.tr.add(aid, "assumption", reason)

    def change(self, text: str) -> None:
        self.tr.change(text)

    # ---- problems ----------------------------------------------------------------------
    def found(self, problems: list[Problem]) -> list[Problem]:
        """Record what a check found (the clauses that decide this action) and return it. Inside
        `hypothetical()` nothing is recorded: the look decided nothing."""
        if not self._looking:
            self.deciding.extend(problems)
        return problems

    @contextlib.contextmanager
    def quiet(self) -> Iterator[None]:
        """Steps inside are not traced (a look ahead whose answer the action then says itself)."""
        enabled = self.tr.enabled
        self.tr.enabled = False
        try:
            yield
        finally:
            self.tr.enabled = enabled

    @contextlib.contextmanager
    def hypothetical(self) -> Iterator[None]:
        """Checks run here only look (a state check that changes nothing, a retry that waits):
        what they find is not a decision and need not be cited."""
        self._looking += 1
        try:
            yield
        finally:
            self._looking -= 1

    def cite(self, problem: Problem) -> None:
        """The trace step of a problem the action acts on: a refusal, or the point where our text
        stops (the position then stays as it was); the assumptions it rests on are cited once."""
        self._rest_on(problem)
        if problem.forbids:
            self.forbid(problem.clause, problem.reason)
        else:
            self.undet(problem.clause, problem.reason)
            self.keep_state = True

    def note(self, problem: Problem, kind: str = "state_check") -> None:
        """A problem cited as a «why not» of an option that was not offered or not taken (the
        action itself goes on): the step has the problem's clause and words."""
        self._rest_on(problem)
        self.step(problem.clause, kind, problem.reason)

    def _rest_on(self, problem: Problem) -> None:
        """The assumptions a problem's reason rests on, each cited once per action."""
        for aid in problem.rests_on:
            if aid not in self._rested:
                self._rested.add(aid)
                self.assume(aid, assumptions.wordings().get(aid, "").rstrip("."))

    @contextlib.contextmanager
    def group(self, clause: str, kind: str, reason: str) -> Iterator[None]:
        self.tr.open(clause, kind, reason)
        try:
            yield
        finally:
            self.tr.close()

    # ---- choices -----------------------------------------------------------------------
    def ask(
        self, who: str, clause: str, question: str, options: Sequence[tuple[str, str]], *, judge: bool = False
    ) -> str:
        """The answer to a choice: from the answers given so far, else stop with a Pending. A
        choice with a single option is no choice: it is taken without asking (and without using
        an answer), and the trace says so. `judge`: a fact the judge gives (Pending.judge)."""
        opts = tuple(state.Option(k, label) for k, label in options)
        if len(opts) == 1:
            self.step(clause, "effect", f"{question} — единственный вариант: {opts[0].label}")
            return opts[0].key
        if self.asked < len(self.answers):
            answer = self.answers[self.asked]
            self.asked += 1
            if answer not in {o.key for o in opts}:
                offered = "; ".join(f"{o.key} — {o.label}" for o in opts)
                raise BadChoice(f"Варианта «{answer}» нет. {question} Варианты: {offered}")
            label = next(o.label for o in opts if o.key == answer)
            chooser = "Судья указывает" if judge else f"{lexicon.player(who, cap=True)} выбирает"
            self.step(clause, "effect", f"{chooser}: {label}")
            return answer
        raise NeedChoice(state.Pending(who=who, clause=clause, question=question, options=opts, judge=judge))

    def ask_card(self, who: str, clause: str, question: str, cards: Sequence[state.CardState]) -> str:
        """The id of the card `who` chooses among `cards`, each offered by name and cell."""
        return self.ask(who, clause, question, [(c.id, f"{c.label} на {c.cell}") for c in cards])

    # ---- result ------------------------------------------------------------------------
    def finish(self) -> state.GameState:
        return state.GameState(
            phase=self.phase,
            active=self.active,
            turn=self.turn,
            seed=self.base.seed,
            cards=types.MappingProxyType(self.cards),
            decks=(tuple(self.decks["A"]), tuple(self.decks["B"])),
            started=self.started,
            shuffles=self.shuffles,
            marks=tuple(self.marks),
            last_attack=self.last_attack,
            waiting=None,
        )

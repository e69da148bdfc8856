"""A game action on its way through the rules: the event that replacement effects (534), wound
guards and strike values look at and change. Mutable, but owned by one apply call.

It lives apart from the section modules so that every hook can name it without importing the
section that runs the pipeline.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import TYPE_CHECKING

from engine.model import abilities

if TYPE_CHECKING:
    from engine import context


@dataclasses.dataclass
class Event:
    """One game action in the pipeline: what happens (wound, heal, destroy, exile, or none once it
    was replaced by nothing), to whom, how much, from which card, of which kind (A9)."""

    kind: str  # wound | heal | destroy | exile | none
    target: str
    amount: int = 0
    source: str | None = None
    dmg: str = "strike"
    applied: set[str] = dataclasses.field(default_factory=set)
    noted: set[str] = dataclasses.field(default_factory=set)
    base_amount: int = 0
    replaced: bool = False
    generated_by: str | None = None
    counts_as: str = "influence"


@dataclasses.dataclass(frozen=True)
class Effect:
    """A replacement effect that matches an event: whose it is, its label, whether applying it is
    optional («может»), and how it changes the event (returning a generated event, 534.7)."""

    key: str
    card: str
    player: str
    label: str
    optional: bool
    ability: abilities.Ability
    apply: Callable[[context.Ctx, Event, Effect], Event | None]


@dataclasses.dataclass(frozen=True)
class Offer:
    """What a `replacement` hook answers when its ability can replace the event."""

    label: str
    optional: bool
    apply: Callable[[context.Ctx, Event, Effect], Event | None]

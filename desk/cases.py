"""The desk and the scenario casebook: opening a scenario on the desk, saving the desk as one, and
what the journal keeps of a desk (its trace and the clauses it cites)."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import casebook
import engine
import lexicon
from desk.model import MAX_ACTIONS, MAX_CARDS, Desk, DeskError, Replay, check_setup
from desk.schema import plain
from rules_index import ids

OFFICIAL_GROUP = "official"


def short_title(entry: casebook.Entry, width: int = 40) -> str:
    """«211.3.1 · Остаются ли Карлик Унд паразитом…»: the clause from the file name, the question cut."""
    clause = Path(entry.path).stem.split("_", 1)[0]
    question = entry.title.split(": ", 1)[-1]
    cut = question[:width].rstrip()
    return f"{clause} · {cut}{'…' if len(question) > width else ''}"


def long_title(entry: casebook.Entry) -> str:
    """«Официальный пример: Остаётся ли …» for a list of every scenario."""
    return f"{entry.group_label.capitalize()}: {entry.title}"


def official(entries: Sequence[casebook.Entry]) -> list[casebook.Entry]:
    return [e for e in entries if e.group == OFFICIAL_GROUP]


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
        cards=tuple(plain(casebook.card_entry(s), f"карта {s.id}") for s in sc.setup.cards),
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
            if ids.is_clause_id(step.clause) and step.kind != "not_applied":
                seen.setdefault(step.clause, None)
    return list(seen)


def position_text(desk: Desk, library: engine.CardLibrary | None = None) -> str:
    """The desk's position as one line of the notation (casebook/notation/), header included.

    Raises:
        casebook.NotationError: a card the notation cannot write (an own card with abilities).
    """
    return casebook.write_position(desk.setup(), library)


def from_position_text(desk: Desk, text: str, library: engine.CardLibrary | None = None) -> Desk:
    """A desk with the position a text describes (its title kept, its actions dropped).

    Raises:
        casebook.NotationError: the text does not read (the word and its place named).
        engine.SetupError, DeskError: the position it describes is not a legal one.
    """
    pos = casebook.read_position(text, library)
    cards = tuple(plain(casebook.card_entry(s), f"карта {s.id}") for s in pos.cards)
    if len(cards) > MAX_CARDS:
        raise DeskError(f"больше {MAX_CARDS} карт")
    new = dataclasses.replace(
        desk,
        phase=str(pos.header.get("phase", "battle")),
        active=str(pos.header.get("active", "A")),
        turn=int(str(pos.header.get("turn", 1))),
        seed=int(str(pos.header.get("seed", 0))),
        cards=cards,
        actions=(),
        cursor=0,
        scenario_name="",
        scenario_text="",
    )
    check_setup(new, library)
    return new

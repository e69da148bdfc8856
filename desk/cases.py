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


def position_setup(
    state: engine.GameState, library: engine.CardLibrary | None = None
) -> tuple[engine.Setup, dict[str, str]]:
    """The position as it stands as a Setup whose cards carry the ids the notation makes from their
    names (so its text needs no «id …»: ids are for scenario authors), and the old id → new id map."""
    lib = library or engine.load_library()
    setup = engine.to_setup(state, lib)
    named = [
        (str(c.card.get("name", "")) if isinstance(c.card, Mapping) else _library_name(c.card, lib), None)
        for c in setup.cards
    ]
    renamed = dict(zip((c.id for c in setup.cards), casebook.notation.assign_ids(named), strict=True))

    def new(ref: str | None) -> str | None:
        return renamed.get(ref, ref) if ref is not None else None

    cards = [
        dataclasses.replace(
            c,
            id=renamed[c.id],
            host=new(c.host),
            borrowed=new(c.borrowed),
            # A card exiled «by itself» (the exile action allows it, a setup does not): written as exiled.
            exiled_by=None if c.exiled_by == c.id else new(c.exiled_by),
        )
        for c in setup.cards
    ]
    return dataclasses.replace(setup, cards=cards), renamed


def _library_name(name: str, lib: engine.CardLibrary) -> str:
    found = lib.get(name)
    return found.name if found is not None else name


def position_text(state: engine.GameState, library: engine.CardLibrary | None = None) -> str:
    """The position as it stands (after the actions up to the cursor) in one line of the notation
    (casebook/notation/), header included: control, wounds, closed, hidden, zones and tokens as the
    actions left them, so pasting it back gives the same cards in the same places (their ids made
    from their names, as a typed position gets them).

    Raises:
        casebook.NotationError: a card the notation cannot write (an own card with abilities).
    """
    setup, _ = position_setup(state, library)
    return casebook.write_position(setup, library)


def unwritten(state: engine.GameState, names: Mapping[str, str] | None = None) -> list[str]:
    """What of the position its text does not hold, in words (the desk file keeps all of it): a
    card type changed in play, a card that exiled itself, cells marked until a turn, abilities
    already used, a choice waiting for its answer. (That the turn has begun is not said: the
    turn's structure is our assumption A15, and the next action begins it anyway.)"""
    names = names or {cid: c.name for cid, c in state.cards.items()}
    out = []
    for cid, c in state.cards.items():
        if (c.type, c.subtype) != (c.card.type, c.card.subtype):
            now = lexicon.class_of_card(c.type, c.subtype)
            out.append(f"«{names.get(cid, c.name)}» в ходе боя стала: {now}")
    for cid, c in state.cards.items():
        if c.exiled_by == cid:
            out.append(f"что «{names.get(cid, c.name)}» изгнала сама себя")
    if state.marks:
        out.append("отмеченные клетки (" + ", ".join(f"«{m.name}»" for m in state.marks) + ")")
    if any(c.used or c.turn_uses or c.host_changed for c in state.cards.values()):
        out.append("какие особенности уже использованы в этом бою или ходу")
    if state.pending is not None:
        out.append("выбор, который ждёт ответа")
    return out


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

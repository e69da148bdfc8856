"""Writing a position and the actions tried on it back as a scenario file (what the desk saves)."""

from __future__ import annotations

from collections.abc import Sequence

import yaml

import engine


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
    setup_doc["cards"] = [card_entry(c) for c in setup.cards]
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


def card_entry(c: engine.CardSpec) -> dict[str, object]:
    """One card of a setup as the scenario format writes it: only the keys that differ from their
    defaults (the desk keeps its cards in this form too)."""
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

"""Scenario texts and helpers shared by the casebook tests: one copy of each setup.

VAIL is the official example of 211.3.1 (Вайл, host of the parasite Карлик Унд, is taken under
control; its attack on an orc is refused); its line numbers are asserted by the loader and CLI
tests, so edit it only together with them. CHOICE is a companion with two possible hosts (211.7): `CHOICES`
is replaced by the answers a test wants (or removed).
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

import casebook
import engine
import rules_index

ROOT = Path(__file__).resolve().parent.parent
# A library ruling whose step answers the choice «не нашёл (не захотел найти)» by its key.
NOT_FOUND = ROOT / "scenarios" / "rulings" / "535.5.1_not_found.yaml"

VAIL = """\
title: "Может ли Вайл атаковать не Карлика Унда после смены контроля?"
source: "ПРИМЕР к 211.3.1"
setup:
  phase: battle
  active: A
  cards:
    - {id: vail, card: "Вайл", owner: B, at: c4}
    - {id: und, card: "Карлик Унд", owner: A, host: vail}
    - {id: orc, card: {template: "Наземное существо", name: "Орк"}, owner: B, at: d4}
steps:
  - take_control: {card: vail, by: A}
    expect:
      verdict: legal
      fired: ["535.8"]
      cards:
        vail: {controller: A, control_marker: true}
  - attack: {attacker: vail, target: orc}
    expect: {verdict: illegal, forbidden_by: ["211.3.1"]}
"""

CHOICE = """\
title: "Кому достанется компаньон, если хозяев двое?"
rules: "РП 4.1-2"
setup:
  phase: reveal
  active: A
  cards:
    - {id: comp, card: "Компаньон", owner: A, at: c2}
    - {id: g1, card: "Наземное существо", owner: A, at: b2}
    - {id: g2, card: "Вайл", owner: A, at: d2}
steps:
  - end_reveal: {}
    CHOICES
    expect:
      asked: [{clause: "211.7", who: A}]
      cards:
        comp: {host: g2}
  - move: {card: g2, to: d3}
    expect: {verdict: legal, cards: {comp: {cell: d3}}}
"""


def choice(answers: str | None) -> str:
    """CHOICE with `choices: …` written as given, or with no answers at all (None)."""
    return CHOICE.replace("    CHOICES\n", "") if answers is None else CHOICE.replace("CHOICES", answers)


def not_found_answered_without_yo() -> str:
    """NOT_FOUND with the answer written by its label, «ё» typed as «е» (as judges type it)."""
    text = NOT_FOUND.read_text(encoding="utf-8")
    assert text.count("choices: [none]") == 1, "the ruling changed: update this helper"
    return text.replace("choices: [none]", 'choices: ["не нашел (не захотел найти)"]')


def load(
    text: str, index: rules_index.RulesIndex, library: engine.CardLibrary, name: str = "x.yaml"
) -> casebook.Scenario:
    return casebook.load_scenario_text(textwrap.dedent(text), name, index=index, library=library)


def run(text: str, index: rules_index.RulesIndex, library: engine.CardLibrary) -> casebook.ScenarioResult:
    return casebook.run_scenario(load(text, index, library), index, library)


def error_of(text: str, index: rules_index.RulesIndex, library: engine.CardLibrary) -> casebook.ScenarioError:
    with pytest.raises(casebook.ScenarioError) as info:
        load(text, index, library)
    return info.value


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path

"""The scenario format: a disputed position written as YAML, its expected outcomes, and running it.

One job per module, data flowing one way (nodes → loader → runner → expectations):

- `nodes`: safe YAML reading into nodes that keep their lines; size limits; `ScenarioError`.
- `model`: `Scenario`, its steps and expectations, and the results of a run.
- `loader`: nodes → `Scenario`, checking the format; the position itself is judged by
  `engine.build_state`, and its error is located on the card and key it names.
- `expect`: a step's outcome checked against its expectations.
- `runner`: `run_scenario`, answering the file's choices with `lexicon.match_option`.
- `writer`: `dump_scenario`, a position and actions back to a scenario file.
- `notation`: a position in one line (`B Вайл c4; A Карлик Унд на Вайл`), read and written;
  a scenario's `setup.position` is one.
- `catalogue`: the scenario library (`scenarios/official`, `scenarios/rulings`).
- `cli`: `python -m engine run|check|coverage` (also `python -m casebook …`).

The format is documented for judges in docs/scenarios.md. Imports without Streamlit; holds no
module-level mutable state.
"""

from __future__ import annotations

from casebook.catalogue import Entry, library_scenarios, scenario_files
from casebook.loader import CARD_KEYS, load_scenario, load_scenario_text
from casebook.model import (
    CardBaseRef,
    CardBases,
    CardExpectation,
    CardSource,
    ChoiceExpectation,
    Expectation,
    Scenario,
    ScenarioResult,
    ScenarioStep,
    StepExpect,
    StepResult,
    TraceExpectation,
)
from casebook.nodes import MAX_BYTES, Problem, ScenarioError
from casebook.notation import NotationError, Position, read_position, write_position
from casebook.runner import run_scenario
from casebook.writer import card_entry, dump_scenario

__all__ = [
    "CARD_KEYS",
    "MAX_BYTES",
    "CardBaseRef",
    "CardBases",
    "CardExpectation",
    "CardSource",
    "ChoiceExpectation",
    "Entry",
    "Expectation",
    "NotationError",
    "Position",
    "Problem",
    "Scenario",
    "ScenarioError",
    "ScenarioResult",
    "ScenarioStep",
    "StepExpect",
    "StepResult",
    "TraceExpectation",
    "card_entry",
    "dump_scenario",
    "library_scenarios",
    "load_scenario",
    "load_scenario_text",
    "read_position",
    "run_scenario",
    "scenario_files",
    "write_position",
]

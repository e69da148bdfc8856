"""A rules engine for «Берсерк» that explains every decision by clause.

Layout: `engine.model` holds the value types (board, cards and the ability vocabulary, positions,
actions); `engine.rules` the rule modules, which declare their clauses, action kinds and hooks
(engine/rules/registry.py); `apply`, `options` and `trace` run one action and explain it.
Imports without Streamlit and holds no module-level mutable state. This module is the public
surface: the scenario casebook, the card base, the desk and the pages use only these names
(tests/test_architecture.py holds them to it; only `engine/__main__.py` is the engine's own).
"""

from __future__ import annotations

from engine.assumptions import load_assumptions
from engine.core import ACTION_SPECS, apply, parse_action
from engine.errors import ActionError, EngineError, LibraryError, SetupError
from engine.implemented import ClauseStatus, VersionView
from engine.model.abilities import KINDS as ABILITY_KINDS
from engine.model.abilities import Ability, AbilityKind, parse_ability
from engine.model.actions import Action, ActionSpec, ArgSpec
from engine.model.board import CELLS, COLUMNS, PLAYERS, half_of, is_cell, row_rank
from engine.model.cards import CardDef, CardLibrary, load_library
from engine.model.props import PROP_KEYS, card_props
from engine.model.setup import CardSpec, Setup, build_state, to_setup
from engine.model.state import CardState, GameState, Option, Pending
from engine.options import OptionVerdict, legal_options, option_for
from engine.rules import handlers_by_assumption, handlers_by_clause
from engine.trace import Outcome, TraceStep, render_trace

__all__ = [
    "ABILITY_KINDS",
    "ACTION_SPECS",
    "CELLS",
    "COLUMNS",
    "PLAYERS",
    "PROP_KEYS",
    "Ability",
    "AbilityKind",
    "Action",
    "ActionError",
    "ActionSpec",
    "ArgSpec",
    "CardDef",
    "CardLibrary",
    "CardSpec",
    "CardState",
    "ClauseStatus",
    "EngineError",
    "GameState",
    "LibraryError",
    "Option",
    "OptionVerdict",
    "Outcome",
    "Pending",
    "Setup",
    "SetupError",
    "TraceStep",
    "VersionView",
    "apply",
    "build_state",
    "card_props",
    "half_of",
    "handlers_by_assumption",
    "handlers_by_clause",
    "is_cell",
    "legal_options",
    "load_assumptions",
    "load_library",
    "option_for",
    "parse_ability",
    "parse_action",
    "render_trace",
    "row_rank",
    "to_setup",
]

"""A rules engine for «Берсерк» that explains every decision by clause.

Imports without Streamlit; holds no module-level mutable state. See /work/team/CONTRACTS.md
(`engine`) for the public surface.
"""

from __future__ import annotations

from engine.actions import ACTION_SPECS, Action, ActionSpec, ArgSpec, parse_action
from engine.assumptions import load_assumptions
from engine.core import apply
from engine.errors import ActionError, EngineError, LibraryError, SetupError
from engine.library import Ability, CardDef, CardLibrary, load_library
from engine.options import OptionVerdict, legal_options
from engine.props import PROP_KEYS, card_props
from engine.rules import handlers_by_clause
from engine.setup import CardSpec, Setup, build_state
from engine.state import CardState, GameState, Option, Pending
from engine.trace import Outcome, TraceStep, render_trace

__all__ = [
    "ACTION_SPECS",
    "PROP_KEYS",
    "Ability",
    "Action",
    "ActionError",
    "ActionSpec",
    "ArgSpec",
    "CardDef",
    "CardLibrary",
    "CardSpec",
    "CardState",
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
    "apply",
    "build_state",
    "card_props",
    "handlers_by_clause",
    "legal_options",
    "load_assumptions",
    "load_library",
    "parse_action",
    "render_trace",
]

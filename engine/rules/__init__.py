"""The rule modules and the catalogue of what they declare.

One module per part of the rules: zones (shared zone code, no section), the five parts of 211
(s211_hosts, s211_bond, s211_movement, s211_reveal, s211_attach), s534_replacement, s535_squad,
s535_summon, s535_incarnation, card_text (abilities from a card's own text) and procedure (phases,
turns, movement, attacks, wounds). A module declares its clauses with @registry.rule, its action
kinds with @registry.action and its hooks with @registry.hook; a new module is listed in
RULE_MODULES and nowhere else. Sections run in this order at each hook point.
"""

from __future__ import annotations

import types

from engine.rules import (
    card_text,
    procedure,
    registry,
    s211_attach,
    s211_bond,
    s211_hosts,
    s211_movement,
    s211_reveal,
    s534_replacement,
    s535_incarnation,
    s535_squad,
    s535_summon,
    zones,
)
from rules_index import ids

# The order hooks run in at each point, and the order action kinds are listed in.
RULE_MODULES: tuple[types.ModuleType, ...] = (
    procedure,
    s211_hosts,
    s211_bond,
    s211_movement,
    s211_reveal,
    s211_attach,
    s534_replacement,
    s535_squad,
    s535_summon,
    s535_incarnation,
    card_text,
    zones,
)

CATALOGUE = registry.collect(RULE_MODULES)


def handlers_by_clause() -> dict[str, list[str]]:
    """Clause id -> the functions that apply it (module.function), in clause order."""
    found = {cid: list(names) for cid, names in CATALOGUE.citations.items() if ids.is_clause_id(cid)}
    return dict(sorted(found.items(), key=lambda kv: ids.sort_key(kv[0])))


def handlers_by_assumption() -> dict[str, list[str]]:
    """Assumption id -> the functions that rest on it."""
    found = {cid: list(names) for cid, names in CATALOGUE.citations.items() if ids.is_assumption_id(cid)}
    return dict(sorted(found.items(), key=lambda kv: ids.citation_sort_key(kv[0])))

"""Declarations are the engine's extension points: each action and ability kind is declared once,
the catalogue refuses a bad declaration at import, the ability reference is generated from the
declarations, and a desk option's mark always says what applying it gives."""

from __future__ import annotations

import pathlib
import random
import types

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine
from engine.model import abilities
from engine.rules import registry
from tests.engine_cases import full_board, random_action, reveal_board

ROOT = pathlib.Path(__file__).resolve().parent.parent


def test_the_ability_reference_is_generated_from_the_declarations() -> None:
    committed = (ROOT / "docs" / "abilities.md").read_text(encoding="utf-8")
    assert committed == abilities.describe_markdown(), (
        "docs/abilities.md устарел: обновите его командой python -m engine abilities > docs/abilities.md"
    )
    for kind in abilities.KINDS:
        assert f"## `{kind}`" in committed


def test_every_ability_rests_on_clauses_and_assumptions_that_exist(index) -> None:  # type: ignore[no-untyped-def]
    known = engine.load_assumptions()
    for kind in abilities.KINDS.values():
        assert kind.hooks or kind.consulted_by, kind.name
        for cid in kind.cites:
            assert index.has(cid) or cid in known, (kind.name, cid)


def test_a_parameter_is_checked_against_its_declaration() -> None:
    with pytest.raises(engine.LibraryError, match=r"summon\.where: «рядом»"):
        abilities.parse_ability({"kind": "summon", "where": "рядом"}, "карта X")
    with pytest.raises(engine.LibraryError, match=r"не указан параметр «amount»"):
        abilities.parse_ability({"kind": "on_death", "effect": "wound_adjacent_enemies"}, "карта X")
    ab = abilities.parse_ability({"kind": "lantern"}, "карта X")
    assert ab.get("cells") == 3 and ab.to_dict() == {"kind": "lantern"}  # defaults are declared, not written


def _module(name: str, *functions: object) -> types.ModuleType:
    module = types.ModuleType(name)
    for fn in functions:
        fn.__module__ = name  # type: ignore[attr-defined]
        setattr(module, fn.__name__, fn)  # type: ignore[attr-defined]
    return module


def test_the_catalogue_refuses_a_hook_of_an_undeclared_ability() -> None:
    with pytest.raises(ValueError, match=r"не объявлена в engine/model/abilities\.py"):

        @registry.hook("strike", ability="no_such_ability")
        def strike(*args: object) -> None: ...


def test_the_catalogue_refuses_a_declared_hook_without_an_implementation() -> None:
    from engine.rules import RULE_MODULES

    without_card_text = [m for m in RULE_MODULES if not m.__name__.endswith("card_text")]
    with pytest.raises(ValueError, match="объявлена, но не реализована"):
        registry.collect(without_card_text)


def test_the_catalogue_refuses_an_action_declared_twice() -> None:
    def first(ctx: object, act: object) -> None: ...

    def second(ctx: object, act: object) -> None: ...

    registry.action("twice", "дважды")(first)
    registry.action("twice", "дважды")(second)
    from engine.rules import RULE_MODULES

    with pytest.raises(ValueError, match="действие twice уже объявлено"):
        registry.collect([*RULE_MODULES, _module("fake", first, second)])


# -- a mark never misleads ----------------------------------------------------------------------

CHOICE_KINDS = sorted(k for k, s in engine.ACTION_SPECS.items() if s.choice and k != "choose")


def _fixed(gs: engine.GameState, kind: str, rng: random.Random) -> dict[str, object] | None:
    """Values for the required arguments of `kind` that are not board choices."""
    spec = engine.ACTION_SPECS[kind]
    fixed: dict[str, object] = {}
    in_play = sorted(c.id for c in gs.cards.values() if c.in_play)
    for arg in spec.args:
        if not arg.required or arg.name in spec.choice:
            continue
        if arg.type == "card":
            if not in_play:
                return None
            fixed[arg.name] = rng.choice(in_play)
        elif arg.type == "int":
            fixed[arg.name] = rng.randint(1, 3)
        else:
            return None
    return fixed


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), walk=st.integers(0, 12), pick=st.integers(0, 10_000))
def test_every_option_gets_the_verdict_its_mark_says(seed: int, walk: int, pick: int) -> None:
    rng = random.Random(seed)
    gs = (full_board if seed % 3 else reveal_board)(seed % 5)
    for _ in range(walk):
        gs = engine.apply(gs, random_action(gs, rng)).state
    if gs.pending is not None:
        kinds = ["choose"]
    else:
        kinds = [CHOICE_KINDS[pick % len(CHOICE_KINDS)], CHOICE_KINDS[(pick // 7) % len(CHOICE_KINDS)]]
    for kind in kinds:
        fixed = _fixed(gs, kind, rng)
        if fixed is None:
            continue
        for option in engine.legal_options(gs, kind, **fixed):
            try:
                action = engine.parse_action(kind, option.args)
            except engine.ActionError:
                assert option.verdict == "illegal" and option.clause is None
                continue
            outcome = engine.apply(gs, action)
            assert outcome.verdict == option.verdict, (kind, option)
            assert (
                option.mark
                == {"legal": "можно", "illegal": "нельзя", "undetermined": "не определено"}[outcome.verdict]
            )
            decisive = {"illegal": "forbidden", "undetermined": "undetermined"}.get(outcome.verdict)
            if decisive:
                first = next((s for s in outcome.steps() if s.kind == decisive), None)
                assert option.clause == ((first.clause or None) if first else None), (kind, option)
            assert "п. A" not in option.citation

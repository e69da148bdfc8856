"""Every clause the engine declares or cites exists in the rules index; every assumption it
cites exists in the assumptions file; every clause of the issue has a handler one can grep."""

from __future__ import annotations

import pathlib
import random
import re

import engine
import lexicon
from tests import helpers
from tests.engine_cases import full_board, random_action

ISSUE_CLAUSES = helpers.ENGINE_ISSUE_CLAUSES
ENGINE = pathlib.Path(engine.__file__).parent
RULE_SOURCES = sorted((ENGINE / "rules").glob("*.py"))


def test_every_issue_clause_has_a_declared_handler() -> None:
    declared = engine.handlers_by_clause()
    missing = [c for c in ISSUE_CLAUSES if c not in declared]
    assert not missing, missing


def test_every_declared_clause_exists_in_the_rules_index(index) -> None:  # type: ignore[no-untyped-def]
    missing = [c for c in engine.handlers_by_clause() if not index.has(c)]
    assert not missing, missing


def test_grep_finds_the_code_for_each_clause() -> None:
    text = "\n".join(p.read_text(encoding="utf-8") for p in RULE_SOURCES)
    for cid in ISSUE_CLAUSES:
        assert re.search(rf'@rule\([^)]*"{re.escape(cid)}"', text), cid


def _cited(outcomes: list[engine.Outcome]) -> set[str]:
    return {s.clause for o in outcomes for s in o.steps() if s.clause}


def _stream_outcomes(n: int = 1500) -> list[engine.Outcome]:
    out = []
    for seed in range(5):
        rng = random.Random(seed)
        gs = full_board(seed)
        for _ in range(n // 5):
            o = engine.apply(gs, random_action(gs, rng))
            out.append(o)
            gs = o.state
    return out


def test_every_cited_clause_and_assumption_exists(index) -> None:  # type: ignore[no-untyped-def]
    assumptions = engine.load_assumptions()
    cited = _cited(_stream_outcomes())
    bad = [c for c in cited if not (index.has(c) or c in assumptions)]
    assert not bad, bad
    # literal ids in the engine's calls (ctx.step/forbid/allow/undet/assume and ask)
    source = "\n".join(p.read_text(encoding="utf-8") for p in [*RULE_SOURCES, *ENGINE.glob("*.py")])
    for cid in set(re.findall(r'"(\d{3}(?:\.\d+)+)"', source)):
        assert index.has(cid), cid
    for aid in set(re.findall(r'"(A\d+)"', source)):
        assert aid in assumptions, aid


def test_every_assumption_is_cited_by_the_code() -> None:
    assumptions = engine.load_assumptions()
    source = "\n".join(p.read_text(encoding="utf-8") for p in RULE_SOURCES)
    unused = [a for a in assumptions if f'"{a}"' not in source and f"({a})" not in source]
    assert not unused, unused
    assert list(assumptions) == [f"A{i}" for i in range(1, len(assumptions) + 1)]


def test_a_step_resting_on_an_assumption_carries_it_as_kind_assumption() -> None:
    assumptions = engine.load_assumptions()
    for o in _stream_outcomes(500):
        for s in o.steps():
            if s.clause in assumptions and s.kind != "assumption":
                # A decision resting on an assumption says so in the trace itself: a child step
                # of kind «assumption» cites the same id with the assumption's wording.
                notes = [c for c in s.children if c.clause == s.clause and c.kind == "assumption"]
                assert notes and assumptions[s.clause].rstrip(".") in notes[0].reason, s
            assert s.kind in lexicon.STEP_KINDS, s
            assert s.reason, s


def test_undetermined_names_the_missing_text() -> None:
    for o in _stream_outcomes(800):
        for s in o.steps():
            if s.kind == "undetermined":
                assert re.search(r"нет|обрывается|не сказано|не описан", s.reason), s.reason


def test_handlers_by_clause_names_real_functions() -> None:
    import importlib

    for cid, names in engine.handlers_by_clause().items():
        for name in names:
            module, fn = name.split(".")
            assert callable(getattr(importlib.import_module(f"engine.rules.{module}"), fn)), (cid, name)


def test_no_module_level_mutable_state() -> None:
    import importlib
    import pkgutil

    names = ["engine"] + [m.name for m in pkgutil.walk_packages(engine.__path__, "engine.")]
    assert "engine.model.state" in names and "engine.rules.card_text" in names
    for mod_name in names:
        if mod_name in ("engine.__main__", "engine.cli") or mod_name.startswith("engine.scenario"):
            continue
        module = importlib.import_module(mod_name)
        for name, value in vars(module).items():
            if name.startswith("__"):
                continue
            found = _mutable_inside(value)
            assert found is None, f"{mod_name}.{name}: {found} (use tuples and types.MappingProxyType)"


def _mutable_inside(value: object) -> str | None:
    """A mutable container reachable through read-only ones (a dict inside a MappingProxyType)."""
    import types

    if isinstance(value, list | set | bytearray | dict | types.SimpleNamespace):
        return type(value).__name__
    if isinstance(value, types.MappingProxyType):
        for k, v in value.items():
            inner = _mutable_inside(v)
            if inner is not None:
                return f"[{k!r}] {inner}"
    if isinstance(value, tuple | frozenset):
        for v in value:
            inner = _mutable_inside(v)
            if inner is not None:
                return inner
    return None


def test_every_undetermined_step_names_the_clause_or_assumption_it_rests_on() -> None:
    unnamed = sorted(
        {
            s.reason
            for o in _stream_outcomes(800)
            for s in o.steps()
            if s.kind == "undetermined" and not s.clause
        }
    )
    assert not unnamed, unnamed[:5]


def test_adjacency_and_distance_cite_a1_where_they_decide() -> None:
    from tests.engine_cases import ORC, act, position, spec

    caller = {"name": "Зовущий", "type": "creature", "subtype": "ground", "life": 5}
    caller["abilities"] = [{"kind": "summon", "card": "Орк"}]
    gs = position(
        spec("a", ORC, "A", at="c3"), spec("b", ORC, "B", at="d4"), spec("c", caller, "A", at="a1"),
        spec("o", ORC, "A", at="deck"),
    )  # fmt: skip
    for kind, args in (
        ("move", {"card": "a", "to": "b2"}),
        ("attack", {"attacker": "a", "target": "b"}),
        ("summon", {"by": "c", "card": "o", "cell": "b2"}),
    ):
        out = act(gs, kind, **args)
        assert out.verdict == "legal", (kind, out.trace)
        assert "A1" in out.clauses("assumption"), kind


def test_assumptions_are_never_cited_as_clauses() -> None:
    import lexicon

    assert lexicon.cite("A3") == "допущение A3"
    assert lexicon.cite("211.4") == "п. 211.4"
    gs = engine.build_state(
        engine.Setup(
            phase="battle",
            active="A",
            cards=[engine.CardSpec(id="g", card="Наземное существо", owner="A", at="c2", closed=True)],
        )
    )
    out = engine.apply(gs, engine.parse_action("move", {"card": "g", "to": "c3"}))
    assert out.verdict == "illegal" and out.forbidden_by == ["A3"]
    text = engine.render_trace(out.trace)
    assert "[допущение A3] запрещено" in text and "наше допущение, в тексте правил этого нет" in text
    assert "п. A3" not in text


def test_a_death_step_cites_the_rule_or_assumption_that_kills() -> None:
    gs = engine.build_state(
        engine.Setup(
            phase="battle",
            active="A",
            cards=[
                engine.CardSpec(id="vail", card="Вайл", owner="B", at="c4"),
                engine.CardSpec(id="und", card="Карлик Унд", owner="A", host="vail"),
                engine.CardSpec(id="orc", card="Наземное существо", owner="A", at="c3"),
            ],
        )
    )
    # the host is destroyed: its symbiote's death step cites 211.4 itself, not only in words
    out = engine.apply(gs, engine.parse_action("destroy", {"card": "vail"}))
    deaths = [s for s in out.steps() if "погибает" in s.reason and "Карлик Унд" in s.reason]
    assert deaths and all(s.clause == "211.4" for s in deaths), deaths
    # wounds reaching life kill by assumption A2, and the step says it is an assumption
    out = engine.apply(gs, engine.parse_action("wound", {"card": "vail", "amount": 14, "kind": "magic"}))
    death = next(s for s in out.steps() if s.kind == "effect" and "Вайл» (vail) погибает" in s.reason)
    assert death.clause == "A2"
    assert any(c.kind == "assumption" and c.clause == "A2" for c in death.children)

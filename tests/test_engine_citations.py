"""Citations cannot hide: a rule function declares (`@rule`) exactly the clauses its code names, and
every clause a handler decides by is a cited step of the trace.

The static half reads the rule modules with `ast`. A function names a clause wherever its code
writes one: a string passed to a call, an item of a tuple, a part of an f-string's text («… (A4)»),
a module constant it reads (its own module's or another rule module's, `hosts.CUT_211_5`). Its
docstring is not code: a clause only described there is not applied there.

The runtime half runs random positions and actions (hypothesis) and checks what each apply says
against what it did: every Problem a check found outside a hypothetical look (Outcome.deciding)
is cited by a step of the trace, and a clause mentioned in a step's words is a step of its own.
"""

from __future__ import annotations

import ast
import importlib.util
import pathlib
import random
import textwrap

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine
import rules_index
from engine.rules import RULE_MODULES
from rules_index import ids
from tests.engine_cases import full_board, random_action, recruit_board, reveal_board
from tests.engine_fuzz import IN_PROSE as _IN_PROSE
from tests.engine_fuzz import check_citations, random_position


def _ids_in(text: str) -> set[str]:
    """The citation ids a string names: the whole string, or ids written inside its prose."""
    if ids.is_citation_id(text):
        return {text}
    return {m.group(0) for m in _IN_PROSE.finditer(text)}


def _constants(tree: ast.Module) -> dict[str, set[str]]:
    """Module-level names bound to strings (or tuples of strings) → the ids they name."""
    out: dict[str, set[str]] = {}
    for node in tree.body:
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets, value = node.targets, node.value
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            targets, value = [node.target], node.value
        else:
            continue
        found = {i for n in ast.walk(value) if isinstance(n, ast.Constant) and isinstance(n.value, str)
                 for i in _ids_in(n.value)}  # fmt: skip
        for t in targets:
            if isinstance(t, ast.Name) and found:
                out[t.id] = found
    return out


def _aliases(tree: ast.Module) -> dict[str, str]:
    """Local names of imported rule modules: `from engine.rules import s211_hosts as hosts`."""
    out: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "engine.rules":
            for alias in node.names:
                out[alias.asname or alias.name] = alias.name
    return out


def _body(fn: ast.FunctionDef) -> list[ast.stmt]:
    """The function's statements without its docstring."""
    first = fn.body[0] if fn.body else None
    doc = (
        isinstance(first, ast.Expr)
        and isinstance(first.value, ast.Constant)
        and isinstance(first.value.value, str)
    )
    return fn.body[1:] if doc else fn.body


class Reader:
    """The clause ids each top-level function of a set of modules names in its code."""

    def __init__(self, sources: dict[str, str]) -> None:
        self.trees = {name: ast.parse(text) for name, text in sources.items()}
        self.consts = {name: _constants(tree) for name, tree in self.trees.items()}

    def functions(self) -> list[tuple[str, ast.FunctionDef]]:
        return [
            (f"{name}.{node.name}", node)
            for name, tree in self.trees.items()
            for node in tree.body
            if isinstance(node, ast.FunctionDef)
        ]

    def named(self, module: str, fn: ast.FunctionDef) -> set[str]:
        aliases = _aliases(self.trees[module])
        out: set[str] = set()
        for stmt in _body(fn):
            for node in ast.walk(stmt):
                if isinstance(node, ast.Constant) and isinstance(node.value, str):
                    out |= _ids_in(node.value)
                elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
                    out |= self.consts[module].get(node.id, set())
                elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
                    other = aliases.get(node.value.id)
                    if other in self.consts:
                        out |= self.consts[other].get(node.attr, set())
        return out


def declared(fn: ast.FunctionDef) -> set[str]:
    out: set[str] = set()
    for dec in fn.decorator_list:
        if isinstance(dec, ast.Call) and getattr(dec.func, "id", "") == "rule":
            out |= {a.value for a in dec.args if isinstance(a, ast.Constant) and isinstance(a.value, str)}
    return out


def _rule_sources() -> dict[str, str]:
    out = {}
    for module in RULE_MODULES:
        spec = importlib.util.find_spec(module.__name__)
        assert spec is not None and spec.origin is not None
        out[module.__name__.rsplit(".", 1)[-1]] = pathlib.Path(spec.origin).read_text(encoding="utf-8")
    return out


READER = Reader(_rule_sources())
INDEX = rules_index.load_default()


def _applied(ids_: set[str]) -> set[str]:
    """The ids a function applies: a clause absent from our text (403.2, 536) is only named as
    missing, and decides nothing."""
    return {c for c in ids_ if not INDEX.is_absent(c)}


def test_the_reader_sees_ids_wherever_code_names_them_and_never_in_a_docstring() -> None:
    source = textwrap.dedent(
        '''
        CUT = "текст 211.5 обрывается"
        PAIR = ("211.9", "unknown")

        @rule("211.4")
        def f(ctx, h):
            """Applies 211.6 (a docstring is not code)."""
            out = [("211.4", "forbidden", f"{h} — летающее (A5)")]
            ctx.undet("211.5", CUT)
            return out + [PAIR] + [other.GAP]
        '''
    )
    other = 'GAP = "по 535.9"\n'
    reader = Reader({"mod": "from engine.rules import s_other as other\n" + source, "s_other": other})
    [(_name, fn)] = [f for f in reader.functions() if f[0] == "mod.f"]
    assert reader.named("mod", fn) == {"211.4", "A5", "211.5", "211.9", "535.9"}
    assert declared(fn) == {"211.4"}


def test_every_clause_a_function_names_is_declared_by_it() -> None:
    missing = []
    for name, fn in READER.functions():
        module = name.split(".")[0]
        undeclared = _applied(READER.named(module, fn)) - declared(fn)
        if undeclared:
            missing.append(f"{name}: {', '.join(sorted(undeclared, key=ids.citation_sort_key))}")
    assert not missing, "называют, но не объявляют в @rule: " + "; ".join(missing)


def test_every_declared_clause_is_named_in_the_code_of_its_function() -> None:
    idle = []
    for name, fn in READER.functions():
        module = name.split(".")[0]
        unused = declared(fn) - READER.named(module, fn)
        if unused:
            idle.append(f"{name}: {', '.join(sorted(unused, key=ids.citation_sort_key))}")
    assert not idle, "объявлены в @rule, но код их не называет (описание не считается): " + "; ".join(idle)


# -- runtime: what decided is cited --------------------------------------------------------------


START = {"battle": full_board, "reveal": reveal_board, "recruit": recruit_board}


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rng=st.randoms(use_true_random=False), start=st.sampled_from(sorted(START)), seed=st.integers(0, 500))
def test_random_actions_cite_every_clause_that_decides_them(
    rng: random.Random, start: str, seed: int
) -> None:
    gs = START[start](seed)
    for _ in range(40):
        out = engine.apply(gs, random_action(gs, rng))
        check_citations(out)
        gs = out.state


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rng=st.randoms(use_true_random=False))
def test_random_positions_cite_every_clause_that_decides_them(rng: random.Random) -> None:
    gs = random_position(rng)
    if gs is None:
        return
    for _ in range(25):
        out = engine.apply(gs, random_action(gs, rng))
        check_citations(out)
        gs = out.state


def test_a_problem_found_only_in_a_hypothetical_look_is_not_a_decision() -> None:
    from engine import context
    from engine.rules import CATALOGUE

    ctx = context.Ctx(full_board(), CATALOGUE)
    problem = context.Problem("211.6", "forbidden", "занято")
    with ctx.hypothetical():
        ctx.found([problem])
    assert ctx.deciding == []
    ctx.found([problem])
    assert ctx.deciding == [problem]

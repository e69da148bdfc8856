"""Rule modules, one per section. A new section slots in as a new module listed in
RULE_MODULES; its handlers declare their clause ids with @registry.rule."""

from __future__ import annotations

import inspect
import types

from engine.rules import battle, general, registry, replacement, squad, symbiotes

RULE_MODULES: tuple[types.ModuleType, ...] = (symbiotes, replacement, squad, general, battle)


def handlers_by_clause() -> dict[str, list[str]]:
    """Clause id -> names of the handlers that declare it (module.function)."""
    out: dict[str, list[str]] = {}
    for module in RULE_MODULES:
        short = module.__name__.rsplit(".", 1)[-1]
        for name, fn in inspect.getmembers(module, inspect.isfunction):
            if fn.__module__ != module.__name__:
                continue
            for cid in registry.clauses_of(fn):
                out.setdefault(cid, []).append(f"{short}.{name}")
    return dict(sorted(out.items(), key=lambda kv: [int(p) for p in kv[0].split(".")]))

"""rules_index serves many judges from one process: no module may hold mutable state."""

from __future__ import annotations

import importlib
import pkgutil
import types

import rules_index

MUTABLE = (list, dict, set, bytearray, types.SimpleNamespace)


def test_no_module_level_mutable_state() -> None:
    names = ["rules_index"] + [
        f"rules_index.{m.name}" for m in pkgutil.iter_modules(rules_index.__path__) if m.name != "__main__"
    ]
    assert "rules_index.text" in names and "rules_index.search" in names
    for mod_name in names:
        module = importlib.import_module(mod_name)
        for name, value in vars(module).items():
            if name.startswith("__"):
                continue
            assert not isinstance(value, MUTABLE), f"{mod_name}.{name}: use a tuple or MappingProxyType"

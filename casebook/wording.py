"""An action in the judge's words, read from its declaration (engine.ACTION_SPECS): «Объявить
нападение: атакующий — Вайл; цель — Орк». Shared by the desk, the ready answers and the journal's
trace. Plain text only: the pages decide how to escape it for Markdown.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import engine
import lexicon

Props = Mapping[str, Any]


def value_word(value: object, props: Mapping[str, Props] | None = None) -> str:
    """An action argument's value in words: a card by its name, a zone, a damage kind, a list."""
    if isinstance(value, list | tuple):
        return ", ".join(map(str, value))
    shown = str(value)
    if props is not None and shown in props:
        return str(props[shown].get("name", shown))
    if shown in lexicon.ZONES:
        return lexicon.zone(shown)
    return lexicon.enum_word(shown)


def action_words(action: engine.Action, props: Mapping[str, Props] | None = None) -> str:
    """The action in the judge's words: «Объявить нападение: атакующий — Вайл; цель — Орк» (cards by
    name when `props` names them; the scenario line with ids is repr(action), for authors)."""
    data = action.to_dict()
    kind = next(iter(data), "")
    spec = engine.ACTION_SPECS.get(kind)
    if spec is None:
        return repr(action)
    # a label's bracketed part is the form's hint («раны от удара (не указаны — движок спросит …)»)
    labels = {a.name: a.label.split(" (", 1)[0] for a in spec.args}
    args = data.get(kind, {})
    parts = [f"{labels.get(name, name)} — {value_word(value, props)}" for name, value in args.items()]
    return spec.label + (": " + "; ".join(parts) if parts else "")


def action_label(action: engine.Action) -> str:
    """The declared label of the action's kind: «Объявить нападение»."""
    spec = engine.ACTION_SPECS.get(action.kind)
    return spec.label if spec is not None else action.kind

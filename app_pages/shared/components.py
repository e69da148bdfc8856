"""What the app's own components (st.components.v2: the search's lists, the desk's field and its
rows of buttons) share, so that each is written once.

- Their code: a component's JS and CSS are read from the files beside its module, without comments
  and indentation (Streamlit sends a component's code with every run that draws it: issue 24, the
  bytes of a tap), and every script starts with `prelude.js`, the helpers they all use (a script is
  one module string; it cannot import another).
- What a tap sent: the value of a component's trigger, read in the callback it calls (`sent`).
- Their data: the bytes of its JSON. A dict or a string given to a component is first searched for
  data frames by Streamlit, which imports pandas (0.4 s and tens of MB on a process's first
  search), and its Russian letters would go as \\uXXXX, six bytes each; bytes are passed through.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import streamlit as st

_PRELUDE = Path(__file__).resolve().parent / "prelude.js"


def asset(path: Path) -> str:
    """A component's JS or CSS file without its comments and indentation: whole-line `//`
    comments only in JS (a `//` inside a line may be in a string), every `/* … */` in CSS (ours
    hold no string with one)."""
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".css":
        text = re.sub(r"/\*.*?\*/", "", text, flags=re.DOTALL)
    lines = (line.strip() for line in text.splitlines())
    return "\n".join(line for line in lines if line and not line.startswith("//"))


def script(path: Path) -> str:
    """A component's script: the shared prelude, then its own code."""
    return asset(_PRELUDE) + "\n" + asset(path)


def data(value: Any) -> bytes:
    """What a component is given: the UTF-8 bytes of `value`'s JSON (the prelude's `read`)."""
    return json.dumps(value, ensure_ascii=False).encode("utf-8")


def sent(key: str, trigger: str) -> object:
    """What the component drawn under `key` sent by `trigger` in this run (None if nothing): read
    in the callback its tap calls. Untrusted: the browser may send anything."""
    state = st.session_state.get(key)
    return state.get(trigger) if isinstance(state, Mapping) else getattr(state, trigger, None)

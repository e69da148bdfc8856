"""Fuzzing desk links and desk files (issue 15): what a tampered `?desk=` link or an uploaded desk
file may hold, and the property they must keep. Shared by tests/test_desk_fuzz.py (a few hundred
examples in `make test`) and tests/bench/bench_fuzz_desk.py (≥ 10,000 in `make bench`).

The property: reading the text gives a Desk or a DeskError; a Desk read gives a replay or an
engine.SetupError / DeskError; a Desk read is written back to the same Desk. Anything else (a
TypeError, a RecursionError, a ValueError …) would be a traceback on a judge's screen.
"""

from __future__ import annotations

import base64
import functools
import json
import zlib
from collections.abc import Callable
from typing import Any

from hypothesis import strategies as st

import engine
from desk import edits, model, share

KEYS = (
    *("format", "version", "title", "cards", "actions", "cursor", "phase", "active", "turn", "seed"),
    *("id", "card", "owner", "at", "host", "controller", "wounds", "borrowed", "exiled_by", "abilities"),
    *("template", "name", "life", "attack", "attacker", "target", "take_control", "by", "kind"),
)
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**40), max_value=10**40),
    st.integers(min_value=-3, max_value=12),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=30),
    st.sampled_from(
        ("vail", "und", "orc", "c4", "d4", "A", "B", "hand", "Вайл", "vail\n", "x" * 3000, "\x00")
    ),
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.sampled_from(KEYS) | st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=16,
)
DEEP = "__deep__"


def base_desk() -> dict[str, Any]:
    """A real desk: the Карлик Унд position with two actions tried on it (a fresh copy each call)."""
    return dict(json.loads(_base_text()))


@functools.cache
def _base_text() -> str:
    d = model.Desk(title="Карлик Унд")
    for entry in (
        {"id": "vail", "card": "Вайл", "owner": "B", "at": "c4"},
        {"id": "und", "card": "Карлик Унд", "owner": "A", "host": "vail"},
        {
            "id": "orc",
            "card": {"template": "Наземное существо", "name": "Орк", "life": 5},
            "owner": "B",
            "at": "d4",
        },
    ):
        d = edits.put_card(d, entry)
    for kind, args in (
        ("take_control", {"card": "vail", "by": "A"}),
        ("attack", {"attacker": "vail", "target": "orc"}),
    ):
        d = edits.with_action(d, engine.parse_action(kind, args))
    return json.dumps(d.to_dict(), ensure_ascii=False)


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(value, dict):
        for k, v in value.items():
            out.extend(_paths(v, (*prefix, k)))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out.extend(_paths(v, (*prefix, i)))
    return out


def _set(doc: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return doc if value is _DELETE else value
    parent = doc
    for step in path[:-1]:
        parent = parent[step]
    if value is not _DELETE:
        parent[path[-1]] = value
    elif isinstance(parent, dict):
        parent.pop(path[-1], None)
    else:
        del parent[path[-1]]
    return doc


_DELETE = object()


@st.composite
def tampered_json(draw: st.DrawFn) -> bytes:
    """The base desk's JSON with one to three values replaced, removed or deeply nested."""
    doc = base_desk()
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(_paths(doc)))
        value = draw(
            st.one_of(VALUES, st.just(_DELETE), st.just(DEEP), st.sampled_from(([], {}, ["v"], [[]])))
        )
        doc = _set(doc, path, value)
    text = json.dumps(doc, ensure_ascii=draw(st.booleans()))
    depth = draw(st.sampled_from((5, 50, 3000)))
    return text.replace(json.dumps(DEEP), "[" * depth + "]" * depth).encode("utf-8")


def token_of(raw: bytes) -> str:
    return base64.urlsafe_b64encode(zlib.compress(raw)).decode("ascii").rstrip("=")


RAW_TOKENS = st.one_of(
    st.text(max_size=80),
    st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_=", max_size=120),
    st.binary(max_size=200).map(lambda b: base64.urlsafe_b64encode(b).decode("ascii")),
    st.binary(max_size=200).map(token_of),
)


def check(read: Callable[[], model.Desk], library: engine.CardLibrary) -> str:
    """Read, replay and re-encode one input; returns what happened (for counting)."""
    try:
        desk = read()
    except model.DeskError:
        return "отказ с сообщением"
    assert share.decode(share.encode(desk)) == model.Desk(**{**desk.__dict__, "scenario_text": ""})
    try:
        model.replay(desk, library)
    except (engine.SetupError, model.DeskError):
        return "прочитан, позицию отклонил движок"
    return "прочитан и переигран"


def check_json(raw: bytes, library: engine.CardLibrary) -> tuple[str, str]:
    """The same JSON as a link and as an uploaded file."""
    return check(lambda: share.decode(token_of(raw)), library), check(
        lambda: share.from_file_text(raw), library
    )

"""Property tests: the parser never raises on text, ids are well formed, edges point to nodes."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rules_index
from rules_index import ids
from rules_index.ids import is_clause_id
from rules_index.parser import parse_blocks
from rules_index.sources import to_source_lines

# Text biased towards what the parser looks for: numbers, dots, bullets, «ПРИМЕР», citations.
FRAGMENTS = st.sampled_from(
    [
        "211",
        ".",
        "3",
        "10",
        " ",
        "\n",
        "\r\n",
        "ПРИМЕР:",
        "●",
        "•",
        "\t",
        "см. ",
        "п.",
        "в ",
        ";",
        "РП 4.1-2 от 09.11.2024",
        "Симбиот",
        "#",
        "=",
        "-",
        "*",
        "`",
        "0",
        "535.5.1.2",
        "«",
        "’",
    ]
)
TEXT = st.lists(st.one_of(FRAGMENTS, st.text(max_size=8)), max_size=60).map("".join)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=TEXT, suffix=st.sampled_from([".txt", ".md", ".rst"]))
def test_parser_never_raises_and_ids_are_well_formed(text: str, suffix: str) -> None:
    name = "rules" + suffix
    parsed = parse_blocks(name, to_source_lines(name, text))
    for p in parsed.paragraphs:
        assert is_clause_id(p.id)
        # the id grammar decides depth and ancestry («535.5.1.2а» sits under 535.5.1.2, level 5)
        assert p.level == ids.level(p.id)
        assert p.parent is None or p.parent in _ancestors(p.id)


def _ancestors(cid: str) -> list[str]:
    found = []
    up = ids.parent(cid)
    while up is not None:
        found.append(up)
        up = ids.parent(up)
    return found


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=TEXT)
def test_every_edge_points_to_a_node(text: str) -> None:
    try:
        ix = rules_index.load_texts([("r.txt", text.encode("utf-8"))])
    except rules_index.CorpusError as e:
        assert str(e)  # a Russian message, never another exception type
        return
    g = ix.graph
    for s, t, d in g.edges(data=True):
        assert s in g.nodes and t in g.nodes
        assert d["kind"] in {"parent", "cites"}
    for n, d in g.nodes(data=True):
        assert is_clause_id(n)
        assert isinstance(d["absent"], bool) and d["absent"] == (not ix.has(n))


@settings(max_examples=200, deadline=None)
@given(data=st.binary(max_size=200))
def test_arbitrary_bytes_give_an_index_or_a_corpus_error(data: bytes) -> None:
    try:
        rules_index.load_texts([("r.txt", data)])
    except rules_index.CorpusError as e:
        assert "r.txt" in str(e)

"""The citation graph and its queries on the seeds (issue 3, «Graph»)."""

from __future__ import annotations

import networkx as nx
import pytest

import rules_index
from rules_index import RulesIndex
from tests import helpers

SIX = {
    ("534.5", "537"),
    ("534.7", "536"),
    ("534.7.2", "534.4"),
    ("535.3", "403.2"),
    ("535.5.1.2", "207"),
    ("535.5.1.3", "535.5.1.2"),
}


@pytest.fixture(scope="module")
def seeds() -> RulesIndex:
    return rules_index.load_default()


def test_exactly_six_citation_edges_each_with_its_sentence(seeds: RulesIndex) -> None:
    cites = {(s, t): d for s, t, d in seeds.graph.edges(data=True) if d["kind"] == "cites"}
    assert set(cites) == SIX
    assert cites[("534.5", "537")]["sentence"].endswith("(см. 537. История боя.), что и замещенный эффект.")
    assert cites[("534.7", "536")]["sentence"].startswith("Выполнение такой особенности")
    assert cites[("535.3", "403.2")]["sentence"] == "Набор карт в отряд осуществляется согласно п.403.2."
    assert cites[("535.5.1.2", "207")]["sentence"] == (
        "Показанные для вызова карты извлекаются из колоды и помещаются в руку (см. 207. Рука)."
    )
    # The example after 534.7.2 is not part of the sentence that cites 534.4.
    assert "Вожак" not in cites[("534.7.2", "534.4")]["sentence"]


def test_absent_placeholders(seeds: RulesIndex) -> None:
    absent = sorted(n for n, d in seeds.graph.nodes(data=True) if d["absent"])
    assert absent == ["207", "403.2", "536", "537"]
    assert seeds.is_absent("536") and not seeds.has("536")
    assert not seeds.is_absent("534")  # a gap, not cited
    assert seeds.integrity().absent_cited == ("207", "403.2", "536", "537")


def test_parent_edges_and_node_attributes(seeds: RulesIndex) -> None:
    g = seeds.graph
    parents = [(s, t) for s, t, d in g.edges(data=True) if d["kind"] == "parent"]
    # Every paragraph whose parent is present has exactly one parent edge (534.x have none).
    expected = [p for p in seeds.paragraphs if p.parent is not None and seeds.has(p.parent)]
    assert len(parents) == len(expected) == 44 - 2 - 5
    assert g.has_edge("211", "211.10") and not g.has_edge("211.1", "211.10")
    assert g.nodes["211"]["heading"] is True and g.nodes["211"]["level"] == 1
    assert g.nodes["535.5.1.2"]["level"] == 4 and g.nodes["535.5.1.2"]["absent"] is False
    for s, t in g.edges:
        assert s in g.nodes and t in g.nodes


def test_cites_and_cited_by(seeds: RulesIndex) -> None:
    assert [c.target for c in seeds.cites("535.5.1.3")] == ["535.5.1.2"]
    back = seeds.cited_by("535.5.1.2")
    assert [(c.source, c.target_absent) for c in back] == [("535.5.1.3", False)]
    assert "в соответствии с п. 535.5.1.2" in back[0].sentence
    assert [c.source for c in seeds.cited_by("536")] == ["534.7"]
    assert seeds.cites("536")[0:] == []
    assert seeds.cites("535.3")[0].target_absent is True


def test_sections_titles_children(seeds: RulesIndex) -> None:
    assert seeds.sections() == ["211", "534", "535"]
    assert seeds.section_title("211.3.1") == "Симбиоты"
    assert seeds.section_title("535.7") == "Взятие карт в отряд"
    assert seeds.section_title("534.7") == ""
    assert [p.id for p in seeds.section("211.3.1")][:3] == ["211", "211.1", "211.2"]
    assert len(seeds.section("211")) == 14
    assert seeds.section("534.4")[0].id == "534.4"
    assert seeds.children("535.5.1") == ["535.5.1.1", "535.5.1.2", "535.5.1.3"]
    assert seeds.children("534") == ["534.4", "534.5", "534.6", "534.7", "534.8"]
    assert seeds.parent("211.3.1") == "211.3" and seeds.parent("211") is None


def test_neighbourhood_is_a_drawable_copy(seeds: RulesIndex) -> None:
    n = seeds.neighbourhood("534.7")
    assert set(n.nodes) == {"534.7", "534.7.1", "534.7.2", "536"}
    n.add_node("scratch")  # a copy: the shared graph is untouched
    assert "scratch" not in seeds.graph
    two = seeds.neighbourhood("534.7", radius=2)
    assert "534.4" in two.nodes
    assert len(seeds.neighbourhood("999").nodes) == 0
    dot = seeds.to_dot(n)
    assert dot.startswith("digraph") and '"536"' in dot and "нет в тексте" in dot and "dashed" in dot


def test_nearest_ids(seeds: RulesIndex) -> None:
    assert seeds.nearest_ids("211.12", 2) == ["211.11", "211.10"]
    assert seeds.nearest_ids("535.5.3", 3)[0] == "535.5.2"


def test_index_is_immutable_and_shared_safely(seeds: RulesIndex) -> None:
    with pytest.raises(AttributeError):
        seeds.version = "x"  # type: ignore[misc]
    with pytest.raises(nx.NetworkXError):
        seeds.graph.add_node("x")
    with pytest.raises(AttributeError):
        seeds._search._postings = {}  # type: ignore[misc]  # the search index is frozen too
    lst = seeds.paragraphs
    lst.clear()
    assert len(seeds.paragraphs) == 44
    errors: list[BaseException] = []

    def worker() -> None:
        try:
            for _ in range(50):
                assert len(seeds.cited_by("207")) == 1
        except BaseException as e:  # pragma: no cover - reported below
            errors.append(e)

    helpers.run_in_threads(worker)
    assert errors == []


def test_citation_forms() -> None:
    text = (
        "100. Раздел.\n"
        "100.1. См. 200. Рука. Также п. 100.2 и согласно п.300.1. Ещё в 400. Эффекты. "
        "В 3 клетки и 1 раз, версия 4.1-2, дата 09.11.2024 — не ссылки.\n"
        "100.2. Текст."
    )
    ix = rules_index.load_texts([("r.txt", text.encode())])
    assert [c.target for c in ix.cites("100.1")] == ["200", "100.2", "300.1", "400"]
    assert {c.target for c in ix.cites("100.1") if c.target_absent} == {"200", "300.1", "400"}

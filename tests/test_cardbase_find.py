"""Finding a card as a judge types it: typos, «ё», apostrophes, hyphens, part of a name, filters."""

from __future__ import annotations

import pytest

from cardbase import find
from tests import cardbase_cases as cases


def _first(query: str, filters: find.Filters | None = None) -> str:
    hits = cases.loaded().finder.find(query, filters)
    assert hits, query
    return hits[0].record.name


@pytest.mark.parametrize(
    ("query", "name", "how"),
    [
        ("Светлый паладин", "Светлый паладин", "exact"),
        ("светлый паладин", "Светлый паладин", "exact"),
        ("паладн", "Светлый паладин", "typo"),
        ("светлй поладин", "Светлый паладин", "typo"),
        ("ежик-отшельник", "Ёжик-отшельник", "exact"),
        ("ежик", "Ёжик-отшельник", "prefix"),
        ("Ар’Гхан", "Ар'Гхан", "exact"),
        ("аргхан", "Ар'Гхан", "exact"),
        ("ар гхан", "Ар'Гхан", "exact"),
        ("Ар-Гхан", "Ар'Гхан", "exact"),
        ("сторож", "Кладбищенский сторож", "word"),
        ("кладбищ", "Кладбищенский сторож", "prefix"),
        ("ищенский стор", "Кладбищенский сторож", "part"),
        ("кладбищенскй старож", "Кладбищенский сторож", "typo"),
        ("  ГОРНЫЙ   КЛЕЩ ", "Горный клещ", "exact"),
    ],
)
def test_a_name_as_typed(query: str, name: str, how: str) -> None:
    hit = cases.loaded().finder.find(query)[0]
    assert (hit.record.name, hit.how) == (name, how)


def test_exact_beats_part_and_a_nonsense_query_finds_nothing() -> None:
    hits = cases.loaded().finder.find("звонарь")
    assert [h.record.name for h in hits[:2]] == ["Звонарь", "Болотный звонарь"]
    assert cases.loaded().finder.find("щщщщщщщщ") == []
    both = {h.record.name for h in cases.loaded().finder.find("отшельник")}
    assert {"Ёжик-отшельник", "Двуликий отшельник"} <= both


def test_filters() -> None:
    finder = cases.loaded().finder
    dark = {h.record.name for h in finder.find("", find.Filters(element="Тьма"), limit=100)}
    assert "Тёмный шептун" in dark and "Пепельный страж" in dark and "Звонарь" not in dark
    orcs = [h.record.name for h in finder.find("", find.Filters(card_class="орк"))]
    assert orcs == ["Пепельный страж"]
    second = {h.record.name for h in finder.find("", find.Filters(set_id="91"))}
    assert second == {"Степной дозорный", "Страж ворот"}
    cheap = {h.record.cost for h in finder.find("", find.Filters(cost=(1, 2)), limit=100)}
    assert cheap <= {1, 2} and cheap
    flyers = {h.record.name for h in finder.find("", find.Filters(kind="flyer"), limit=100)}
    assert flyers == {"Болотный скат", "Вестник бури", "Призрачный сокол"}
    assert _first("страж", find.Filters(set_id="91")) == "Страж ворот"
    assert finder.find("паладин", find.Filters(element="Тьма")) == []


@pytest.mark.parametrize(
    ("text", "cost"), [("3", (3, 3)), ("3-5", (3, 5)), ("5 – 3", (3, 5)), ("2..4", (2, 4)), ("", None)]
)
def test_parse_cost(text: str, cost: tuple[int, int] | None) -> None:
    assert find.parse_cost(text) == cost


def test_parse_cost_refuses_words() -> None:
    with pytest.raises(ValueError, match="нужно число"):
        find.parse_cost("дорого")


def test_best_is_one_card_or_none() -> None:
    finder = cases.loaded().finder
    assert finder.best("паладн").name == "Светлый паладин"  # type: ignore[union-attr]
    assert finder.best("степной дозорный").id == "91001"  # type: ignore[union-attr]
    assert finder.best("щщщщщщ") is None

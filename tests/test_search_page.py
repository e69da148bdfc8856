"""The search page under AppTest (issue 14): what was understood, the best clause first, the
ready answers after the first hits and ordered by them, «ничего нет» for what the rules lack."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

from app_pages import desk_answers, search
from rulings import store
from tests.test_app_rules import APP, hit_links, link_params

BEST_HITS = "search_hits"


@pytest.fixture(autouse=True)
def empty_journal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(store.ENV_VAR, str(tmp_path / "rulings.sqlite3"))


def run(query: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["q"] = query
    at.run()
    assert not at.exception, at.exception
    return at


def page_links_in_order(at: AppTest) -> list[tuple[str, str]]:
    """(page, clause id or label) of every page link, in the order a reader meets them."""
    return [(x.proto.page, link_params(x).get("p", x.label)) for x in at.page_link]


def test_the_page_says_what_was_understood_and_what_not() -> None:
    at = run("хост улетел абракадабра")
    said = at.get_by_key("search_understood").markdown[0].value.replace("\\", "")
    assert said.startswith("Понято: «хост» → хозяин (жаргон); «улетел» → становится летающим (жаргон)")
    assert "Нет в загруженных правилах слова «абракадабра»" in said
    assert hit_links(at)[0] == "211.4"


@pytest.mark.parametrize("query", ["3 ываыва", "сколько кристаллов в начале игры"])
def test_nothing_in_the_rules_is_said_and_no_clause_is_offered(query: str) -> None:
    at = run(query)
    said = [i.value.replace("\\", "") for i in at.info]
    assert any(line.startswith("В загруженных правилах об этом ничего нет.") for line in said), said
    assert hit_links(at) == []
    assert not [p for p, _ in page_links_in_order(at) if p == ""]  # no clause link at all


def test_the_best_clause_comes_first_and_ready_answers_follow_the_first_hits() -> None:
    at = run("можно ли двигать симбиота")
    links = page_links_in_order(at)
    assert links[0] == ("", "211.10")  # the first thing to follow on the screen is the clause
    first_answer = next(i for i, (page, _) in enumerate(links) if page in ("desk", "journal"))
    best = [link_params(x).get("p", "") for x in at.get_by_key(BEST_HITS).page_link]
    assert [cid for _, cid in links[: len(best)]] == best and first_answer >= len(best)
    # the answer about 211.10 comes before the one about Сугед (it cites the best hit)
    answers = at.get_by_key("search_answers")
    titles = [m.value.replace("\\", "") for m in answers.markdown if m.value.startswith("**")]
    assert "движение" in titles[0], titles
    # the answer in words, as normal text (not a grey caption)
    assert any(m.value.replace("\\", "").startswith("Ответ: Нет") for m in answers.markdown)
    assert not answers.caption


def _answer(**kw: Any) -> desk_answers.Answer:
    base: dict[str, Any] = {
        "kind": "scenario", "title": "t", "detail": "разбор", "verdict": "illegal", "clauses": (),
        "page": desk_answers.DESK_PAGE, "params": (), "score": 1.0,
    }
    return desk_answers.Answer(**{**base, **kw})


def test_answers_are_ordered_by_the_clause_hits_they_cite() -> None:
    from rules_index import load_default

    hits = load_default().search("можно ли двигать симбиота", 5)
    suged = _answer(title="Сугед", clauses=("211.8.1",), score=0.9)
    move = _answer(title="движение", clauses=("211.10",), score=0.6)
    other = _answer(title="другое", clauses=("535.5",), score=0.95)
    assert search.order_answers([other, suged, move], hits)[0].title == "движение"


def test_verdicts_in_plain_words() -> None:
    assert search.verdict_line(_answer(verdict="illegal")) == "Проверено движком: нельзя"
    assert search.verdict_line(_answer(kind="ruling", verdict="legal")) == "Решение судьи: можно"
    steps = search.verdict_line(_answer(steps=("illegal", "legal")))
    assert steps == "Проверено движком по шагам: 1 — нельзя; 2 — можно"
    assert search.verdict_line(_answer(verdict="")) == "Вердикт не записан"


def test_the_menus_search_drops_a_clause_left_in_the_url() -> None:
    # The menu's «Поиск» is `search.search_only` (app.py); the click itself: test_search_browser.
    at = AppTest.from_function(_search_only_page, default_timeout=60)
    at.query_params["p"] = "211.4"
    at.run()
    assert not at.exception, at.exception
    assert [t.value for t in at.title] == ["Поиск по правилам"]
    assert "p" not in at.query_params


def _search_only_page() -> None:
    from app_pages import search as page

    page.search_only()

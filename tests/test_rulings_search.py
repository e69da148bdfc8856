"""The journal's search and the one scoring it shares with the search page's ready answers."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulings import search
from tests.rulings_samples import journal_with_judge
from tests.rulings_samples import ruling as _ruling


def test_search_finds_word_forms_and_clause_numbers(tmp_path: Path) -> None:
    j, by = journal_with_judge(tmp_path / "j.sqlite3", max_writes_per_minute=100)
    vail = j.record(_ruling(), by)
    other = j.record(
        _ruling(
            title="Можно ли посадить Сугеда на летающее существо?", decision="Нет.", clauses=("211.8.1",)
        ),
        by,
    )
    assert [h.ruling.id for h in j.search("Карлику Унду атака")][:1] == [vail]
    assert [h.ruling.id for h in j.search("сугед летающего")] == [other]
    assert [h.ruling.id for h in j.search("211.8")] == [other]
    assert [h.ruling.id for h in j.search("211.3.1")] == [vail]
    assert j.search("   ") == []
    hit = j.search("Вайл атаковать")[0]
    assert hit.ruling.id == vail and hit.score == 1.0 and hit.matched == ("вайл", "атаковать")


def test_search_meets_word_forms_the_stemmer_alone_splits(tmp_path: Path) -> None:
    # Snowball stems «паразит» to «параз» but «паразитом» to «паразит», «инкарнация» and
    # «инкарнировал» apart: the rules index's word-family table joins them here too.
    j, by = journal_with_judge(tmp_path / "j.sqlite3", max_writes_per_minute=100)
    question = "Остаётся ли Унд паразитом после смены контроля?"
    para = j.record(_ruling(title=question, clauses=("211.3.1",)), by)
    inc = j.record(_ruling(title="Когда карта инкарнировала во второй раз?", clauses=("535.7.3",)), by)
    assert [h.ruling.id for h in j.search("паразит")] == [para]
    assert [h.ruling.id for h in j.search("инкарнация")] == [inc]


def _match(query: str, title: str, body: str = "", cited: tuple[str, ...] = ()) -> search.Match:
    words, keys = search.query_terms(query, search.stopwords())
    return search.match(words, keys, set(search.stems(title)), set(search.stems(body)), cited)


def test_title_words_count_double_and_numbers_match_clauses_and_subclauses() -> None:
    title = "Может ли Сугед пересесть на летающее существо?"
    assert _match("сугеда летающее", title) == search.Match(1.0, ("сугеда", "летающее"))
    # «симбиот» only in the body: half of what a title word earns.
    assert _match("сугед симбиот", title, "симбиот не помещается на летающее").score == 0.75
    assert _match("211", title, cited=("211.4",)).score == 1.0  # a section names its clauses
    assert _match("211.4", title, cited=("211.4.1",)).score == 1.0
    assert _match("211.4", title, cited=("211.40",)).score == 0.0  # 211.40 is not inside 211.4
    # A number the question itself holds: «инкарнация 1» answers a query for «инкарнация 1».
    assert _match("инкарнация 1", "Какая действует: «инкарнация 1» или «инкарнация 3»?").score == 1.0
    assert _match("инкарнация 2", "Какая действует: «инкарнация 1» или «инкарнация 3»?").score == 0.5


@pytest.mark.parametrize("query", ["", "   ", "можно ли", "?!"])
def test_a_query_of_question_words_alone_scores_nothing(query: str) -> None:
    assert _match(query, "Можно ли Сугеду пересесть?").score == 0.0
    assert search.search_rulings([], query) == []


def test_ready_answers_score_a_scenario_as_the_journal_scores_a_ruling(tmp_path: Path) -> None:
    """One scoring: the same question, answer and clause rank a scenario and a ruling alike."""
    from casebook import answers as da

    title, answer = "Может ли Сугед пересесть на летающее существо?", "Нет: симбиот не помещается."
    j, by = journal_with_judge(tmp_path / "j.sqlite3", max_writes_per_minute=100)
    j.record(_ruling(title=title, decision=answer, clauses=("211.4",), outcome="", players=""), by)
    text = f"{title} {answer}"
    digest = da.ScenarioDigest(
        path="scenarios/rulings/x.yaml",
        group="разбор",
        title=title,
        text=text,
        verdict="illegal",
        clauses=("211.4",),
        title_stems=frozenset(search.stems(title)),
        body_stems=frozenset(search.stems(text)),
    )
    query = "Сугед симбиот 211.4"
    answers = da.find_answers(query, j.rulings(), [digest], stop=search.stopwords())
    scores = {a.kind: a.score for a in answers}
    assert scores["scenario"] == scores["ruling"] == pytest.approx(5 / 6)
    assert j.search(query)[0].score == pytest.approx(5 / 6)


def test_the_journal_page_leaves_out_the_question_words_ready_answers_leave_out() -> None:
    # desk.answers.find_answers leaves out rulings.search.stopwords() unless told otherwise.
    assert {"можно", "ли", "еще"} <= search.stopwords()

"""Ready answers without Streamlit (casebook/answers.py): scoring, order, the rules version filter,
the words of a verdict per step, clause usage."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import engine
import rules_index
from app_pages import registry
from app_pages.search import ready
from casebook import answers as da
from rulings import model
from rulings import search as ruling_search
from rulings.store import Journal
from tests import fictional_rules as fr
from tests.rulings_samples import journal_with_judge

ROOT = Path(__file__).resolve().parent.parent
SEEDS = rules_index.load_default()


@pytest.fixture(scope="module")
def digests() -> tuple[da.ScenarioDigest, ...]:
    return da.scenario_digests(ROOT, SEEDS, engine.load_library())


def _answer(**kw: object) -> da.Answer:
    base: dict[str, object] = {
        "kind": "scenario",
        "title": "t",
        "detail": "разбор",
        "verdict": "illegal",
        "clauses": (),
        "params": (),
        "score": 1.0,
    }
    return da.Answer(**{**base, **kw})  # type: ignore[arg-type]


def _journal(tmp_path: Path, **fields: object) -> Journal:
    book, by = journal_with_judge(tmp_path / "j.sqlite3")
    book.record(model.RulingInput(**{"title": "t", "decision": "d", **fields}), by)  # type: ignore[arg-type]
    return book


def test_every_official_example_runs_with_its_steps_in_words(digests: tuple[da.ScenarioDigest, ...]) -> None:
    official = [d for d in digests if d.path.startswith("scenarios/official/")]
    assert len(official) == len(list((ROOT / "scenarios" / "official").glob("*.yaml")))
    karlik = next(d for d in digests if d.path.endswith("211.3.1_karlik_und.yaml"))
    assert [s.verdict for s in karlik.steps][:3] == ["legal", "illegal", "illegal"]
    # What each step asked, with the cards' names for their ids.
    assert karlik.steps[1].asked == "Объявить нападение: атакующий — Вайл; цель — Орк"
    assert karlik.steps[0].asked.startswith("Взять под контроль: карта — Вайл")
    assert "vail" not in " ".join(s.asked for s in karlik.steps)


Digests = tuple[da.ScenarioDigest, ...]


def test_a_scenario_answers_its_question_with_its_answer_in_words(digests: Digests) -> None:
    found = da.find_answers("Карлик Унд паразит Вайла контроль", [], digests, index=SEEDS)
    assert found and found[0].kind == "scenario" and "Карлик Унд" in found[0].title
    assert registry.address(ready.opens(found[0]), found[0].params) == (
        "/desk?scn=scenarios/official/211.3.1_karlik_und.yaml"
    )
    assert found[0].summary.startswith("Да.")
    assert da.find_answers("можно ли", [], digests) == []  # question words alone match nothing


def test_the_verdict_per_step_says_what_each_step_asked(digests: tuple[da.ScenarioDigest, ...]) -> None:
    best = da.find_answers("Остаётся ли Карлик Унд паразитом Вайла", [], digests, index=SEEDS)[0]
    assert best.by_steps
    assert da.verdict_line(best) == "Проверено движком по шагам:"
    lines = da.step_lines(best)
    assert lines[0] == "1. Взять под контроль: карта — Вайл; игрок — A → можно"
    assert lines[1] == "2. Объявить нападение: атакующий — Вайл; цель — Орк → нельзя"
    assert len(lines) == len(best.steps)


def test_verdicts_in_plain_words() -> None:
    assert da.verdict_line(_answer(verdict="illegal")) == "Проверено движком: нельзя"
    assert da.verdict_line(_answer(kind="ruling", verdict="legal")) == "Решение судьи: можно"
    assert da.verdict_line(_answer(verdict="")) == "Вердикт не записан"
    assert da.verdict_head(_answer(verdict="illegal")) == "Проверено движком: нельзя (разбор)"
    two = _answer(steps=(da.Step("x", "legal"), da.Step("y", "illegal")), detail="официальный пример")
    assert da.verdict_head(two) == "Проверено движком по шагам (официальный пример):"
    steps = (*(da.Step(f"шаг {i}", "legal") for i in range(10)), da.Step("последний", ""))
    lines = da.step_lines(_answer(steps=steps), limit=3)
    assert lines == [
        "1. шаг 0 → можно",
        "2. шаг 1 → можно",
        "3. шаг 2 → можно",
        "…и ещё 8 шагов на столе судьи",
    ]
    unchecked = da.step_lines(_answer(steps=(da.Step("x", ""), da.Step("y", ""))))
    assert unchecked[0] == "1. x → движок не смог проверить"


def test_rulings_rank_beside_scenarios_by_one_scoring(tmp_path: Path, digests: Digests) -> None:
    steps = [
        {"action": "place_symbiote: {symbiote: suged, host: bird}", "verdict": "illegal", "trace": []},
        {"action": "move: {card: bird, to: c3}", "verdict": "legal", "trace": []},
    ]
    book = _journal(
        tmp_path,
        title="Может ли Сугед пересесть на летающее существо?",
        decision="Нет: симбиот не помещается на летающее (211.4).",
        clauses=("211.4",),
        table_no="5",
        judge_verdict="illegal",
        verdict="legal",
        trace_json=json.dumps(steps),
    )
    found = da.find_answers("Сугед летающее", book.rulings(), digests, index=SEEDS)
    rulings = [a for a in found if a.kind == "ruling"]
    assert rulings and registry.address(ready.opens(rulings[0]), rulings[0].params) == "/journal?r=1"
    assert rulings[0].detail == "решение № 1, стол 5"
    assert [a.score for a in found] == sorted((a.score for a in found), reverse=True)
    # The score is rulings.search.match's, the journal's own.
    assert rulings[0].score == pytest.approx(book.search("Сугед летающее")[0].score)
    # Headed by the judge's answer, not the engine's last step; the engine's steps below it.
    assert da.verdict_head(rulings[0]) == "Решение судьи: нельзя (решение № 1, стол 5)"
    assert da.step_lines(rulings[0]) == [
        "Движок по шагам:",
        "1. place_symbiote: {symbiote: suged, host: bird} → нельзя",
        "2. move: {card: bird, to: c3} → можно",
    ]


def test_a_ruling_kept_with_its_last_step_only_says_so(tmp_path: Path, digests: Digests) -> None:
    book = _journal(tmp_path, title="Сугед на летающее?", decision="Нет.", verdict="illegal")
    ruling = next(a for a in da.find_answers("Сугед летающее", book.rulings(), digests) if a.kind == "ruling")
    assert da.verdict_line(ruling) == "Решение судьи: не указано"
    assert da.step_lines(ruling) == ["Движок (последний шаг): нельзя"]


def test_ties_go_to_the_answer_citing_the_better_clause_hit() -> None:
    title = "Можно ли так?"
    stems = frozenset(ruling_search.stems(title))

    def make(path: str, clauses: tuple[str, ...]) -> da.ScenarioDigest:
        return da.ScenarioDigest(
            path=path,
            group="разбор",
            title=title,
            text=title,
            verdict="illegal",
            clauses=clauses,
            title_stems=stems,
            body_stems=stems,
        )

    suged, move = make("a.yaml", ("211.8.1",)), make("b.yaml", ("211.10",))
    rank = {"211.10": 0, "211.11": 1, "211.8.1": 5}
    found = da.find_answers("так", [], [suged, move], cited_rank=rank, stop=frozenset())
    assert [a.params for a in found] == [(("scn", "b.yaml"),), (("scn", "a.yaml"),)]


def test_the_query_is_matched_as_the_rules_search_understood_it() -> None:
    result = SEEDS.lookup("можно ли двигать симбиота 3")
    assert da.answer_query(result) == "можно ли движение симбиота"
    assert da.answer_query(SEEDS.lookup("хост улетел")) == "хозяин становится летающим"


def test_a_question_in_slang_finds_the_answer_written_in_rules_words(digests: Digests) -> None:
    # «улетел» is «стал летающим» in the scenario's question: the search's understanding carries over.
    result = SEEDS.lookup("хост улетел что с паразитом")
    rank = {h.id: i for i, h in enumerate(result.hits)}
    found = da.find_answers(da.answer_query(result), [], digests, index=SEEDS, cited_rank=rank)
    titles = [a.title for a in found]
    assert titles[0] == "Что будет с компаньоном, если его хозяин стал летающим?", titles


def test_answers_appear_only_for_the_rules_they_were_written_for(
    tmp_path: Path, digests: tuple[da.ScenarioDigest, ...]
) -> None:
    book = _journal(tmp_path, title="Сугед на летающее?", decision="Нет.", clauses=("211.4",))
    query = "Сугед летающее"
    assert da.find_answers(query, book.rulings(), digests, index=SEEDS)
    # Rules that are not the «Берсерк» rules: no ready answers at all.
    other = rules_index.load_texts(
        [("other.txt", "1. Общие положения.\n1.1. Игра для двоих.".encode())], berserk=False
    )
    assert not other.is_berserk_rules
    assert da.find_answers(query, book.rulings(), digests, index=other) == []
    # «Берсерк» rules without 211.4: the ruling citing it and the scenarios deciding by it are left out.
    corpus = ROOT / "rules_index" / "data" / "corpus"
    only_535 = rules_index.load_texts([(f.name, f.read_bytes()) for f in sorted(corpus.glob("534-535*.txt"))])
    assert only_535.is_berserk_rules and not only_535.has("211.4")
    left = da.find_answers(query, book.rulings(), digests, index=only_535)
    assert all(da.fits(only_535, a.clauses) for a in left)
    assert not [a for a in left if a.kind == "ruling"]
    assert da.fits(SEEDS, ("211.4", "A7")) and not da.fits(only_535, ("211.4",))


def test_clause_usage_lists_scenarios_and_handlers(digests: tuple[da.ScenarioDigest, ...]) -> None:
    scenarios, handlers = da.clause_usage("211.3.1", digests)
    assert "scenarios/official/211.3.1_karlik_und.yaml" in [d.path for d in scenarios]
    assert any(h.startswith("s211_") for h in handlers)
    assert da.clause_usage("999.9", digests) == ([], [])
    assert da.clause_usage("211.3.1", digests, handlers={"211.3.1": ["x.y"]})[1] == ["x.y"]


def test_brief_verdicts_fit_a_phone(digests: tuple[da.ScenarioDigest, ...]) -> None:
    karlik = next(d for d in digests if d.path.endswith("211.3.1_karlik_und.yaml"))
    assert da.brief_verdict(karlik) == f"{len(karlik.steps)} шагов"
    one = next(d for d in digests if len(d.steps) == 1)
    assert da.brief_verdict(one) in ("можно", "нельзя", "не определено")


def test_short_cuts_at_a_word() -> None:
    assert da.short("раз два три", 8) == "раз два …"
    assert da.short("  раз  два ") == "раз два"


def test_answers_written_for_another_version_are_left_out(
    tmp_path: Path, digests: tuple[da.ScenarioDigest, ...]
) -> None:
    """The FICTIONAL РП 9.9-1 keeps 211.4, yet a scenario and a ruling written for РП 4.1-2 are
    not its answers; a ruling that names РП 9.9-1, or names no version, is."""
    book, by = journal_with_judge(tmp_path / "j.sqlite3")
    for version in ("РП 4.1-2 от 09.11.2024", "рп 9.9-1", ""):
        fields = {"title": f"Сугед на летающее? ({version})", "decision": "Нет.", "clauses": ("211.4",)}
        book.record(model.RulingInput(**fields, rules_version=version), by)  # type: ignore[arg-type]
    query = "Сугед летающее"
    own = da.find_answers(query, book.rulings(), digests, index=SEEDS, top=10)
    assert {a.kind for a in own} == {"scenario", "ruling"}
    assert not [a for a in own if "9.9-1" in a.title]
    fictional = rules_index.load_texts(fr.as_files(fr.fictional_texts()))
    assert fictional.version_label == "РП 9.9-1" and fictional.has("211.4")
    other = da.find_answers(query, book.rulings(), digests, index=fictional, top=10)
    assert sorted(a.title for a in other) == ["Сугед на летающее? ()", "Сугед на летающее? (рп 9.9-1)"]
    assert all(d.rules == "РП 4.1-2" for d in digests)

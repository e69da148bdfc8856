"""«Готовые ответы» on the search page: matching scenarios and journal rulings beside the clauses."""

from __future__ import annotations

import json
import re
from pathlib import Path
from urllib.parse import parse_qs

import pytest
from streamlit.testing.v1 import AppTest

from app_pages import desk_answers as da
from rulings import model, store
from tests.rulings_samples import journal_with_judge

ROOT = Path(__file__).resolve().parent.parent
HOSTILE = "<script>x</script> Сугед [ссылка](javascript:alert(1)) летающее"


@pytest.fixture()
def journal_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "rulings.sqlite3"
    monkeypatch.setenv(store.ENV_VAR, str(path))
    return path


def test_scenarios_are_ranked_with_verdicts_and_clauses() -> None:
    digests = da.scenario_digests()
    official = [d for d in digests if d.path.startswith("scenarios/official/")]
    assert len(official) == len(list((ROOT / "scenarios" / "official").glob("*.yaml")))
    answers = da.find_answers("Карлик Унд паразит Вайла контроль", [], digests, stop=da.stopwords())
    assert answers, "сценарий о Карлике Унде должен найтись"
    best = answers[0]
    assert best.kind == "scenario" and "Карлик Унд" in best.title
    assert best.link == "/desk?scn=scenarios/official/211.3.1_karlik_und.yaml"
    assert "211.3.1" in best.clauses and best.verdict in ("legal", "illegal", "undetermined")
    assert (
        da.find_answers("можно ли", [], digests, stop=da.stopwords()) == []
    )  # question words alone match nothing


def test_rulings_rank_beside_scenarios(journal_file: Path) -> None:
    book, by = journal_with_judge(journal_file)
    steps = [
        {"action": "a", "verdict": "illegal", "trace": []},
        {"action": "b", "verdict": "legal", "trace": []},
    ]
    rid = book.record(
        model.RulingInput(
            title="Может ли Сугед пересесть на летающее существо?",
            decision="Нет: симбиот не помещается на летающее (211.4).",
            clauses=("211.4",),
            table_no="5",
            judge_verdict="illegal",
            verdict="legal",
            trace_json=json.dumps(steps),
        ),
        by,
    )
    answers = da.find_answers("Сугед летающее", book.rulings(), da.scenario_digests(), stop=da.stopwords())
    rulings = [a for a in answers if a.kind == "ruling"]
    assert (
        rulings
        and rulings[0].link == f"/journal?r={rid}"
        and rulings[0].detail == f"решение № {rid}, стол 5; движок по шагам: 1 — запрещено, 2 — законно"
    )
    # The headline is the judge's answer, not the last step's «законно».
    assert rulings[0].verdict == "illegal"
    assert da.verdict_words(rulings[0].verdict, rulings[0].steps) == "запрещено"
    assert answers[0].score >= answers[-1].score


def test_search_page_shows_answers_safely(journal_file: Path) -> None:
    book, by = journal_with_judge(journal_file)
    book.record(model.RulingInput(title=HOSTILE, decision="Нет.", clauses=("211.4",)), by)
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.query_params["q"] = "Сугед летающее"
    at.run()
    assert not at.exception, at.exception
    assert "Готовые ответы: сценарии и решения судей" in [h.value for h in at.subheader]
    answers = at.get_by_key("search_answers")
    # the judge's title is shown as it was typed, every markup character escaped
    assert any(HOSTILE in m.value.replace("\\", "") for m in answers.markdown)
    assert all("<script>" not in m.value and "](javascript" not in m.value for m in at.markdown)
    # Page links (no reload: a judge's uploaded rules stay), with the verdict in words beside an icon.
    opened = [
        (x.proto.page, parse_qs(x.proto.query_string)) for x in at.page_link if x.label == "Открыть в журнале"
    ]
    assert ("journal", {"r": ["1"]}) in opened, opened
    assert not any(ch in m.value for m in answers.markdown for ch in "✅⛔❓📘")  # no emoji boxes
    assert any(m.value.startswith(":material/") for m in answers.markdown)


def test_corrupt_journal_does_not_break_the_search_page(journal_file: Path) -> None:
    journal_file.write_bytes(b"garbage" * 1000)
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.query_params["q"] = "Карлик Унд паразит"
    at.run()
    assert not at.exception
    assert any(t.value.startswith("Журнал решений недоступен:") for t in at.text)
    assert journal_file.read_bytes() == b"garbage" * 1000


def test_clause_usage_lists_scenarios_and_handlers() -> None:
    scenarios, handlers = da.clause_usage("211.3.1", da.scenario_digests())
    assert "scenarios/official/211.3.1_karlik_und.yaml" in [d.path for d in scenarios]
    assert any(h.startswith("s211_symbiotes.") for h in handlers)
    none, no_handlers = da.clause_usage("999.9", da.scenario_digests())
    assert none == [] and no_handlers == []


def test_clause_usage_renders() -> None:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.query_params["p"] = "211.3.1"
    at.run()
    assert not at.exception, at.exception
    to_desk = [parse_qs(x.proto.query_string) for x in at.page_link if x.proto.page == "desk"]
    assert {"scn": ["scenarios/official/211.3.1_karlik_und.yaml"]} in to_desk, to_desk
    # The verdict comes first in words: a phone cuts a long label's end, never its meaning.
    labels = [x.label for x in at.page_link if x.proto.page == "desk"]
    heads = [label.split(" · ")[0] for label in labels]
    assert heads and all(h in da.VERDICT_RU.values() or re.fullmatch(r"шагов \d+", h) for h in heads), labels
    assert "`s211_symbiotes.host_lock`" in "\n".join(m.value for m in at.markdown)


def test_a_multi_step_scenario_is_not_headlined_by_one_verdict() -> None:
    # The Карлик Унд example answers «да» to its question though two of its steps are refused:
    # the answer block shows the judge's answer in words (readable text, not a grey caption) and
    # the verdict of each step in plain words, under no single headline icon.
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.query_params["q"] = "Остаётся ли Карлик Унд паразитом Вайла"
    at.run()
    assert not at.exception, at.exception
    answers = at.get_by_key("search_answers")
    lines = [m.value.replace("\\", "") for m in answers.markdown]
    assert any(line.startswith("Ответ: Да.") for line in lines), lines
    assert not answers.caption
    heads = [line for line in lines if line.startswith(":material/")]
    assert heads[0].startswith(":material/checklist: Проверено движком по шагам: 1 — "), heads
    assert "нельзя" in heads[0] and "можно" in heads[0] and "шагов" not in heads[0], heads

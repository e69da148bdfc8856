"""«Готовые ответы» on the search page: matching scenarios and journal rulings beside the clauses."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from rulings import model, store
from tests.apptest import shown, shown_links
from tests.rulings_samples import journal_with_judge

ROOT = Path(__file__).resolve().parent.parent
HOSTILE = "<script>x</script> Сугед [ссылка](javascript:alert(1)) летающее"


@pytest.fixture()
def journal_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "rulings.sqlite3"
    monkeypatch.setenv(store.ENV_VAR, str(path))
    return path


def test_search_page_shows_answers_safely(journal_file: Path) -> None:
    book, by = journal_with_judge(journal_file)
    book.record(model.RulingInput(title=HOSTILE, decision="Нет.", clauses=("211.4",)), by)
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.query_params["q"] = "Сугед летающее"
    at.run()
    assert not at.exception, at.exception
    assert "Готовые ответы: сценарии и решения судей" in [h.value for h in at.subheader]
    answers = at.get_by_key("search_answers")
    # the judge's title is shown as it was typed: as text (the list sets it with textContent;
    # test_browser_linklist shows it in a browser), never as Markdown or HTML
    assert any(p.text == HOSTILE and p.bold for p in shown(answers))
    assert all("<script>" not in m.value and "](javascript" not in m.value for m in at.markdown)
    # App links (no reload: a judge's uploaded rules stay), with the verdict in words beside an icon.
    opened = [(x.page, x.params) for x in shown_links(at) if x.label == "Открыть в журнале"]
    assert ("journal", {"r": "1"}) in opened, opened
    assert not any(ch in p.text for p in shown(answers) for ch in "✅⛔❓📘")  # no emoji boxes
    assert any(p.icon and p.text for p in shown(answers))


def test_corrupt_journal_does_not_break_the_search_page(journal_file: Path) -> None:
    journal_file.write_bytes(b"garbage" * 1000)
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.query_params["q"] = "Карлик Унд паразит"
    at.run()
    assert not at.exception
    assert any(t.value.startswith("Журнал решений недоступен:") for t in at.text)
    assert journal_file.read_bytes() == b"garbage" * 1000


def test_clause_usage_renders() -> None:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.query_params["p"] = "211.3.1"
    at.run()
    assert not at.exception, at.exception
    to_desk = [x.params for x in shown_links(at) if x.page == "desk"]
    assert {"scn": "scenarios/official/211.3.1_karlik_und.yaml"} in to_desk, to_desk
    # The verdict comes first in words: a phone may cut or wrap a long label, never lose its meaning.
    labels = [x.label for x in shown_links(at) if x.page == "desk"]
    heads = [label.split(" · ")[0] for label in labels]
    words = ("можно", "нельзя", "не определено")
    assert heads and all(h in words or re.fullmatch(r"\d+ шаг(а|ов)?", h) for h in heads), labels
    assert "`s211_bond.host_lock`" in "\n".join(m.value for m in at.markdown)


def test_a_multi_step_scenario_is_not_headlined_by_one_verdict() -> None:
    # The Карлик Унд example answers «да» to its question though two of its steps are refused:
    # the answer block shows the judge's answer in words (readable text, not a grey caption) and,
    # under no single headline icon, what each step asked and its verdict in plain words.
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.query_params["q"] = "Остаётся ли Карлик Унд паразитом Вайла"
    at.run()
    assert not at.exception, at.exception
    answers = at.get_by_key("search_answers")
    lines = shown(answers)
    assert any(p.text.startswith("Ответ: Да.") and not p.muted for p in lines), lines
    heads = [p for p in lines if p.icon]
    assert (heads[0].icon, heads[0].text) == (
        "checklist",
        "Проверено движком по шагам (официальный пример):",
    ), heads
    steps = next(p.text for p in lines if p.text.startswith("1. "))
    assert steps.startswith("1. Взять под контроль: карта — Вайл; игрок — A → можно"), steps
    assert "2. Объявить нападение: атакующий — Вайл; цель — Орк → нельзя" in steps, steps


def test_the_library_is_run_on_the_rules_this_process_reads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The scenarios run once per process and base rules: a process started with `--corpus` has
    its own digests, and the embedded rules' digests are not those (a cached run on other rules
    once hid the Карлик Унд example from 211.3.1's page)."""
    from app_pages.search import ready
    from tests import fictional_rules as fr

    for name, data in fr.as_files(fr.fictional_texts()):
        (tmp_path / name).write_bytes(data)
    monkeypatch.setattr("sys.argv", ["app.py", "--corpus", str(tmp_path)])
    other = ready.scenario_digests()
    monkeypatch.setattr("sys.argv", ["app.py"])
    embedded = ready.scenario_digests()
    assert other is not embedded
    karlik = next(d for d in embedded if d.path == "scenarios/official/211.3.1_karlik_und.yaml")
    assert "211.3.1" in karlik.clauses

"""The «Журнал решений» page (AppTest): record a ruling, find it again, amend it, survive a bad file."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import parse_qs

import pytest
from streamlit.testing.v1 import AppTest

from rulings import model, store

ROOT = Path(__file__).resolve().parent.parent
APP = str(ROOT / "app.py")
PAGE = "app_pages/journal.py"
HOSTILE_TITLE = "<b>Вайл</b> '); DROP TABLE rulings;-- [x](javascript:alert(1)) ../../etc/passwd"
SUBMIT_NEW = "journal_new_submit"


def plain(markdown: str) -> str:
    """What Markdown shows for text escaped with common.escape_md."""
    return re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", markdown)


@pytest.fixture()
def journal_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "data" / "rulings.sqlite3"
    monkeypatch.setenv(store.ENV_VAR, str(path))
    monkeypatch.syspath_prepend(str(ROOT))
    return path


def _page(**params: str) -> AppTest:
    """The journal page inside the app (its clause links need the app's navigation)."""
    at = AppTest.from_file(APP, default_timeout=30).run()
    at.query_params.clear()
    at.query_params.update(params)
    return at.switch_page(PAGE).run()


def _record(at: AppTest, title: str, decision: str, clauses: str, judge: str = "Сидорова") -> AppTest:
    at.text_input(key="journal_new_title").input(title)
    at.text_area(key="journal_new_decision").input(decision)
    at.text_input(key="journal_new_clauses").input(clauses)
    at.text_input(key="journal_new_judge").input(judge)
    at.text_input(key="journal_new_table_no").input("12")
    return at.button(key=SUBMIT_NEW).click().run()


def test_record_a_ruling_and_find_it_again(journal_file: Path) -> None:
    at = _page()
    assert not at.exception
    assert str(journal_file) in plain(at.caption[0].value)
    at = _record(at, HOSTILE_TITLE, "Нет: атаковать можно только Карлика Унда.", "п. 211.3.1, 535.8")
    assert not at.exception and not at.error
    assert at.success[0].value == "Решение записано в журнал под № 1."
    at = _record(at, "Можно ли посадить Сугеда на летающее существо?", "Нет.", "211.8.1", judge="Орлов")
    assert at.success[0].value == "Решение записано в журнал под № 2."
    # A fresh session (another judge) searches by a word form and opens the first ruling.
    other = _page()
    other.text_input(key="journal_query").input("карлика унда").run()
    assert other.caption[1].value == "Найдено: 1 из 2."
    assert other.selectbox(key="journal_pick").value == 1
    shown = [t.value for t in other.text]
    assert HOSTILE_TITLE in shown  # shown as plain text, verbatim
    assert all("<b>" not in m.value for m in other.markdown)
    assert any(m.value.startswith("**Пункты правил**") for m in other.markdown)
    # Page links into the rules browser (no reload: the judge's uploaded rules stay loaded).
    links = [(x.proto.page, parse_qs(x.proto.query_string).get("p")) for x in other.page_link]
    assert ("", ["211.3.1"]) in links and ("", ["535.8"]) in links, links
    other.text_input(key="journal_query").input("211.8.1").run()
    assert other.selectbox(key="journal_pick").value == 2
    assert "Можно ли посадить Сугеда на летающее существо?" in [t.value for t in other.text]
    # The database holds exactly what was typed.
    stored = store.Journal(journal_file).get(1)
    assert stored is not None and stored.current.title == HOSTILE_TITLE
    assert stored.current.clauses == ("211.3.1", "535.8") and stored.current.table_no == "12"


def test_amend_keeps_history(journal_file: Path) -> None:
    first = model.RulingInput(title="Спор о Сугеде", decision="Первое решение")
    rid = store.Journal(journal_file).record(first)
    at = _page()
    prefix = f"journal_amend_{rid}_1"
    submit = f"{prefix}_submit"
    at.text_area(key=f"{prefix}_decision").input("Второе решение")
    at = at.button(key=submit).click().run()
    assert [plain(e.value) for e in at.error] == [
        "Укажите причину правки: прежняя редакция сохранится, а причина останется в истории."
    ]
    at.text_input(key=f"{prefix}_note").input("нашёл пункт 211.8.1")
    at = at.button(key=submit).click().run()
    assert at.success[0].value == f"Правка сохранена: решение № {rid}, редакция 2."
    ruling = store.Journal(journal_file).get(rid)
    assert ruling is not None
    assert [r.data.decision for r in ruling.revisions] == ["Первое решение", "Второе решение"]
    again = _page()
    texts = [t.value for t in again.text]
    assert (
        "Второе решение" in texts
        and "Первое решение" in texts
        and "Причина правки: нашёл пункт 211.8.1" in texts
    )


def test_corrupt_file_is_reported_and_the_form_is_kept(journal_file: Path) -> None:
    journal_file.parent.mkdir(parents=True)
    garbage = b"not a database " * 500
    journal_file.write_bytes(garbage)
    at = _page()
    assert not at.exception
    assert any("повреждён" in plain(e.value) and str(journal_file) in plain(e.value) for e in at.error)
    at = _record(at, "Спор", "Решение", "211.3")
    assert not at.exception
    assert any("повреждён" in plain(e.value) for e in at.error)
    assert at.text_input(key="journal_new_title").value == "Спор"  # the judge's text is still there
    assert any(
        getattr(b, "label", None) == "Скачать несохранённое решение (Markdown)"
        for b in at.get("download_button")
    )
    assert journal_file.read_bytes() == garbage


def test_bad_clause_id_is_refused_with_a_message(journal_file: Path) -> None:
    at = _record(_page(), "Спор", "Решение", "211.3, DROP")
    assert [plain(e.value) for e in at.error] == [
        "«DROP» не похоже на номер пункта правил (ожидается вида 211.3.1) или допущения (A1)."
    ]
    assert not journal_file.exists()


def test_link_opens_a_ruling_once(journal_file: Path) -> None:
    book = store.Journal(journal_file)
    first = book.record(model.RulingInput(title="Первый спор", decision="Да."))
    book.record(model.RulingInput(title="Второй спор", decision="Нет."))
    at = _page(r=str(first))
    assert at.selectbox(key="journal_pick").value == first
    at.selectbox(key="journal_pick").set_value(first + 1).run()
    assert at.selectbox(key="journal_pick").value == first + 1  # the link does not pin the choice
    assert "Второй спор" in [t.value for t in at.text]

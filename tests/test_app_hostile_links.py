"""Numbers in links that are not ASCII numbers (issue 26): `/?p=211.3²`, `/clause?p=⑦` and
`/journal?r=` with 26 digits were tracebacks (`isdigit()` accepts «²» and «⑦», which `int()`
refuses; SQLite's integers overflow). Each now gets a Russian message and no exception."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from app_pages import registry
from rulings import model
from tests.apptest import APP
from tests.rulings_samples import PASSWORD, judges_journal


def _open(page: str, **params: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=30).run()
    at.query_params.clear()
    at.query_params.update(params)
    at.switch_page(page).run()
    assert not at.exception, [e.message for e in at.exception]
    return at


def _said(at: AppTest) -> str:
    return " ".join(m.value.replace("\\", "") for m in [*at.error, *at.warning, *at.info])


@pytest.mark.parametrize(
    ("page", "params", "shown"),
    [
        (registry.ROOT.script, {"p": "211.3²"}, "пункта «211.3²» нет в загруженных правилах"),
        (registry.CLAUSE.script, {"p": "⑦"}, "пункта «⑦» нет в загруженных правилах"),
        (registry.ROOT.script, {"p": "٢١١"}, "нет в загруженных правилах"),
    ],
)
def test_a_clause_number_in_other_digits_is_not_found_in_russian(
    page: str, params: dict[str, str], shown: str
) -> None:
    assert shown in _said(_open(page, **params))


@pytest.mark.parametrize("n", ["²", "⑦", "9" * 30, "-1", "0"])
def test_an_occurrence_number_that_is_no_number_opens_the_first(n: str) -> None:
    at = _open(registry.ROOT.script, p="211.3", n=n)
    assert next(t.value for t in at.title).replace("\\", "") == "п. 211.3"


@pytest.mark.parametrize("r", ["1" * 26, "²", "⑦", "3.0", "-3"])
def test_a_ruling_number_that_is_no_number_says_so(
    r: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    book = judges_journal(tmp_path / "rulings.sqlite3", monkeypatch)
    book.record(model.RulingInput(title="Спор о Сугеде", decision="Нет."), book.sign_in("Сидорова", PASSWORD))
    at = _open(registry.JOURNAL.script, r=r)
    assert "не номер решения журнала: нужно целое число" in _said(at)


def test_a_real_ruling_number_still_opens_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    book = judges_journal(tmp_path / "rulings.sqlite3", monkeypatch)
    rid = book.record(
        model.RulingInput(title="Спор о Сугеде", decision="Нет."), book.sign_in("Сидорова", PASSWORD)
    )
    at = _open(registry.JOURNAL.script, r=str(rid))
    assert "не номер" not in _said(at)
    assert at.selectbox(key="journal_pick").value == rid

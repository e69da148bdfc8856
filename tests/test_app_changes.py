"""«Что изменилось» and the notices on the clause page and in the journal (AppTest), with a
FICTIONAL next version (tests/fictional_rules.py) as this window's uploaded rules."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

import rules_index
from app_pages import registry
from rules_index import versions
from rulings import model, store
from tests import fictional_rules as fr
from tests import rulings_samples
from tests.apptest import link_params, plain

ROOT = Path(__file__).resolve().parent.parent
APP = str(ROOT / "app.py")
PAGE = registry.CHANGES.script
ROOT_PAGE = registry.ROOT.script


@pytest.fixture(scope="module")
def fictional() -> rules_index.RulesIndex:
    return rules_index.load_texts(fr.as_files(fr.fictional_texts()))


@pytest.fixture(scope="module")
def vid(fictional: rules_index.RulesIndex) -> str:
    """The fictional version stored (unshared) in the tests' temporary store (tests/conftest.py)."""
    return versions.default_store().save(fr.as_files(fr.fictional_texts()), fictional, berserk=True).id


def texts(at: AppTest) -> str:
    parts = [m.value for m in at.markdown] + [c.value for c in at.caption] + [t.value for t in at.title]
    parts += [s.value for s in at.subheader] + [t.value for t in at.text]
    parts += [e.value for e in at.info] + [w.value for w in at.warning] + [s.value for s in at.success]
    return plain("\n".join(parts))


def sections(at: AppTest) -> list[str]:
    """The section headings of the changes (the page's other headings aside)."""
    return [s.value for s in at.subheader if s.value.startswith("Раздел ")]


def _app(version: str | None, page: str = PAGE, **params: str) -> AppTest:
    """The app in a window that uploaded `version` on «Что изменилось» and compares it with the
    built-in rules (None: nothing uploaded)."""
    at = AppTest.from_file(APP, default_timeout=30)
    if version is not None:
        at.session_state["changes_my_versions"] = [version]
        at.session_state["changes_pair"] = ("builtin", version)
    at.run()
    at.query_params.clear()
    at.query_params.update(params)
    return at.switch_page(page).run()


def test_without_a_second_version_the_page_says_what_to_do(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # An empty store of its own: versions other tests stored in the session's store do not count.
    monkeypatch.setenv(versions.ENV_VAR, str(tmp_path / "rules"))
    at = _app(None)
    assert not at.exception
    assert "Для сравнения нужна вторая версия правил" in texts(at)


def test_changes_grouped_by_section_with_marked_words(vid: str) -> None:
    at = _app(vid)
    assert not at.exception, at.exception
    shown = texts(at)
    assert "РП 4.1-2 → РП 9.9-1:" in shown
    assert "изменён: 3, перенумерован: 17, добавлен: 1, удалён: 1, разделён: 1; без изменений: 22" in shown
    assert sections(at)[:3] == [
        "Раздел 211 «Симбиоты»",
        "Раздел 534",
        "Раздел 535 «Взятие карт в отряд»",
    ]
    # Inserted words bold in [+…+], deleted ones struck through in [−…−]: readable without colour.
    # (the marks outside the bold: inside a word «**» beside a bracket would show as two stars)
    assert "\\[−~~можно применять~~−\\] \\[\\+**может быть применён и**\\+\\]" in "\n".join(
        m.value for m in at.markdown
    )
    assert "_пример_:" in shown
    assert "ссылка на 535.5.1.2 теперь ведёт на 535.6.1.2" in shown
    # Unchanged clauses are not drawn while «Только изменения» is on.
    assert "Без изменений:" not in " ".join(e.label for e in at.expander)
    # Runs of clauses that only got new numbers fold into one block each.
    moved = [plain(m.value) for m in at.markdown if "перенумерованы" in m.value]
    assert moved == [
        "**→ 535.4–535.5.1.2 → 535.5–535.6.1.2 — перенумерованы (5), текст тот же**",
        "**→ 535.5.2–535.9 → 535.6.2–535.10 — перенумерованы (10), текст тот же**",
    ]
    assert at.get_by_key("change_535-5-1-3") is not None  # its citation moved: a card of its own
    card = at.get_by_key("change_534-6")  # the reworded clause
    links = [link_params(link) for link in card.page_link]  # type: ignore[attr-defined]
    assert links == [{"p": "534.6", "v": "РП 4.1-2"}, {"p": "534.6", "v": vid}]


def test_filter_and_section(vid: str) -> None:
    at = _app(vid)
    at = at.toggle(key="changes_only").set_value(False).run()
    labels = [e.label for e in at.expander]
    assert "Без изменений: 13" in labels  # section 211: all 14 but 211.5
    at = at.selectbox(key="changes_section").set_value("534").run()
    assert sections(at) == ["Раздел 534"]
    assert "Без изменений: 6" in [e.label for e in at.expander]
    at = at.toggle(key="changes_only").set_value(True).run()
    headlines = [plain(m.value) for m in at.markdown if m.value.startswith("**") and " — " in m.value]
    assert headlines[:3] == [
        "**~ 534.5 — изменён (пример)**",
        "**~ 534.6 — изменён (текст)**",
        "**− 534.8 — удалён**",
    ]


def test_same_version_twice_is_refused(vid: str) -> None:
    at = _app(vid)
    at = at.selectbox(key="changes_new").set_value("builtin").run()
    assert "Выберите две разные версии" in texts(at)


def test_clause_page_says_what_became_of_the_clause(vid: str) -> None:
    # The new side: the window's (fictional) rules.
    at = _app(vid, ROOT_PAGE, p="535.6.1.2", v=vid)
    assert not at.exception
    box = at.get_by_key("clause_other_version")
    said = plain(box.markdown[0].value)  # type: ignore[attr-defined]
    assert said.endswith("В РП 4.1-2 — п. 535.5.1.2, другой номер, текст тот же.")
    assert link_params(box.page_link[0]) == {"p": "535.5.1.2", "v": "РП 4.1-2"}  # type: ignore[attr-defined]
    # The old side, opened by that link in the same window: the built-in text, no version warning.
    at = _app(vid, ROOT_PAGE, p="534.8", v="РП 4.1-2")
    assert "На шаге проверки защит эффект замещения" in texts(at)
    assert not at.warning
    box = at.get_by_key("clause_other_version")
    assert plain(box.markdown[0].value).endswith("В РП 9.9-1 этого пункта нет.")  # type: ignore[attr-defined]
    # A clause the engine applies whose text changed says that the engine applies the old text.
    at = _app(vid, ROOT_PAGE, p="534.6", v=vid)
    box = at.get_by_key("clause_other_version")
    assert plain(box.markdown[0].value).endswith("В РП 4.1-2 — п. 534.6, текст изменён.")  # type: ignore[attr-defined]
    assert plain(box.caption[0].value).endswith(  # type: ignore[attr-defined]
        "Движок (п. 534.6 в РП 4.1-2; s534_replacement.run): "
        "пункт изменился: движок применяет текст РП 4.1-2."
    )
    at = _app(vid, ROOT_PAGE, p="535.2", v=vid)
    assert "В РП 4.1-2 этого пункта не было: он новый." in texts(at)


def test_journal_shows_that_the_rules_of_a_ruling_changed(
    vid: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "rulings.sqlite3"
    monkeypatch.setenv(store.ENV_VAR, str(path))
    journal, judge = rulings_samples.journal_with_judge(path)
    rid = journal.record(
        model.RulingInput(
            title="Вызов не удался: куда деваются показанные карты?",
            decision="Возвращаются в колоду, колода перемешивается.",
            clauses=("535.5.1.2", "534.6", "211.4", "A8"),
            rules_version="РП 4.1-2",
        ),
        judge,
    )
    before = journal.get(rid)
    at = _app(vid, registry.JOURNAL.script, r=str(rid), v=vid)
    assert not at.exception, at.exception
    warning = plain("\n".join(w.value for w in at.warning))
    assert (
        "Правила изменились: решение записано по РП 4.1-2, а сейчас открыты РП 9.9-1. "
        "Само решение не изменено." in warning
    )
    assert "п. 535.5.1.2 → в РП 9.9-1 п. 535.6.1.2 (перенумерован); цитировать: п. 535.6.1.2" in warning
    assert "п. 534.6 — в РП 9.9-1 изменён: текст; цитировать: п. 534.6" in warning
    assert "211.4" not in warning
    assert journal.get(rid) == before  # the ruling itself is untouched
    # Read under the rules it was written for, the ruling has no notice.
    at = _app(None, registry.JOURNAL.script, r=str(rid))
    assert not any("Правила изменились" in w.value for w in at.warning)


def test_a_player_compares_in_the_window_and_a_judge_signs_in_here_to_store(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from rulings import store as journal

    monkeypatch.setenv(versions.ENV_VAR, str(tmp_path / "rules"))
    path = tmp_path / "rulings.sqlite3"
    monkeypatch.setenv(journal.ENV_VAR, str(path))
    journal.Journal(path, hasher=rulings_samples.cheap_hasher()).add_account(
        "Сидорова", "judge", rulings_samples.PASSWORD
    )
    name, text = fr.fictional_texts()[0]
    at = _app(None)
    at.file_uploader(key="changes_upload").set_value([(name, text.encode(), "text/plain")]).run()
    assert not at.exception, at.exception
    assert "только в этом окне" in texts(at) + " ".join(e.value for e in at.success)
    assert versions.default_store().versions() == []  # a player's upload is not stored
    at.text_input(key="changes_signin_signin_name").input("Сидорова")
    at.text_input(key="changes_signin_signin_password").input(rulings_samples.PASSWORD)
    at = at.button(key="changes_signin_signin_submit").click().run()
    assert "Вы вошли: Сидорова" in texts(at)
    at.file_uploader(key="changes_upload").set_value([(name, text.encode(), "text/plain")]).run()
    assert not at.exception, at.exception
    assert [v.label for v in versions.default_store().versions()] == ["РП 9.9-1"]

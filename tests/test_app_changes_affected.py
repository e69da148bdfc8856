"""«Что это затрагивает» on «Что изменилось» (AppTest): the journal's rulings and the library's
scenarios that cite clauses the FICTIONAL next version (tests/fictional_rules.py, stored in the
tests' own rules store, never shipped as rules) changed, each with the citation to use now and a
link that opens it under the new rules. Read-only: no ruling changes."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

import rules_index
from app_pages import registry
from app_pages.changes.affected import scenario_key
from rules_index import versions
from rulings import store
from tests import fictional_rules as fr
from tests import helpers, rulings_samples
from tests.apptest import link_params, plain

ROOT = Path(__file__).resolve().parent.parent
APP = str(ROOT / "app.py")
PAGE = registry.CHANGES.script
RECRUIT_535_2 = "scenarios/rulings/535.2_recruit_during_battle.yaml"


@pytest.fixture(scope="module")
def vid(rules_store: Path) -> str:
    files = fr.as_files(fr.fictional_texts())
    info = versions.VersionStore(rules_store).save(files, rules_index.load_texts(files), berserk=True)
    return info.id


@pytest.fixture
def journal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[store.Journal, dict[str, int]]:
    """A journal of РП 4.1-2 rulings: one on 535.2 (renumbered), one on 534.8 (removed), one on
    clauses the fictional version left alone."""
    path = tmp_path / "rulings.sqlite3"
    monkeypatch.setenv(store.ENV_VAR, str(path))
    return rulings_samples.journal_for_affected(path)


def _page(old: str, new: str) -> AppTest:
    """A window (nobody signed in: what a player sees) that compares `old` with `new`."""
    at = AppTest.from_file(APP, default_timeout=30)
    at.session_state["changes_my_versions"] = [v for v in (old, new) if v != "builtin"]
    at.session_state["changes_pair"] = (old, new)
    at.run()
    at.query_params.clear()
    at = at.switch_page(PAGE).run()
    assert not at.exception, at.exception
    return at


def _keyed(at: AppTest, key: str) -> object | None:
    try:
        return at.get_by_key(key)
    except KeyError:
        return None


def _texts(node: object) -> str:
    parts = [m.value for m in node.markdown] + [c.value for c in node.caption]  # type: ignore[attr-defined]
    text = plain("\n".join(parts)).replace("**", "")
    return re.sub(r":material/\w+: ", "", text)


def test_rulings_and_scenarios_citing_changed_clauses(
    vid: str, journal: tuple[store.Journal, dict[str, int]]
) -> None:
    book, ids = journal
    before = {key: book.get(rid) for key, rid in ids.items()}
    at = _page("builtin", vid)
    section = at.get_by_key("changes_affected")
    assert section.subheader[0].value == "Что это затрагивает"  # type: ignore[attr-defined]
    counts = re.search(
        rf"Решений в журнале: 2 из 3; сценариев: (\d+) из {helpers.library_size()}", _texts(section)
    )
    assert counts, _texts(section)
    # Placed after the summary of changes, before the changes themselves.
    order = [plain(m.value) for m in at.markdown]
    summary = next(k for k, m in enumerate(order) if m.startswith("**РП 4.1-2 → РП 9.9-1:**"))
    first_change = next(k for k, m in enumerate(order) if m.startswith("**~ 211.5"))
    assert summary < order.index(f"**{counts.group(0)}**") < first_change

    moved = at.get_by_key(f"affected_ruling_{ids['moved']}")
    assert "535.2 → 535.3 — перенумерован" in _texts(moved)
    assert [link_params(link) for link in moved.page_link] == [{"r": str(ids["moved"]), "v": vid}]  # type: ignore[attr-defined]
    assert f"№ {ids['moved']} · Можно ли добрать карту в отряд посреди боя?" in _texts(moved)
    gone = at.get_by_key(f"affected_ruling_{ids['gone']}")
    assert "534.8 — удалён: в РП 9.9-1 этого пункта нет, ссылаться не на что" in _texts(gone)
    assert _keyed(at, f"affected_ruling_{ids['same']}") is None
    assert "Вопрос о неизменных пунктах" not in _texts(at)

    # The scenarios whose clauses' text changed come first; the renumbered ones behind «Показать ещё».
    label = at.get_by_key("changes_affected_scenarios").proto.label  # type: ignore[attr-defined]
    assert label.startswith(f"Сценарии библиотеки: {counts.group(1)} (у ")
    for _ in range(10):
        if _keyed(at, scenario_key(RECRUIT_535_2)) is not None:
            break
        at = at.button(key="changes_affected_more_scenarios").click().run()
    card = at.get_by_key(scenario_key(RECRUIT_535_2))
    assert card is not None
    assert "535.2 → 535.3 — перенумерован" in _texts(card)
    assert "Можно ли «добрать» карту в отряд посреди боя" in _texts(card)
    assert [link_params(link) for link in card.page_link] == [{"scn": RECRUIT_535_2, "v": vid}]  # type: ignore[attr-defined]
    split = at.get_by_key(scenario_key("scenarios/rulings/535.2_recruit_in_recruit_phase.yaml"))
    assert "535.3 → 535.4 и 535.4.1 — разделён на части" in _texts(split)

    # Read-only: nothing but «Показать ещё» to press, and the journal is as it was.
    assert {b.key for b in at.button} <= {  # the section's own, and the judges' sign-in by the upload
        "changes_affected_more_scenarios",
        "changes_affected_more_rulings",
        "changes_signin_signin_submit",
    }
    assert {key: book.get(rid) for key, rid in ids.items()} == before


def test_empty_journal_and_a_comparison_the_library_does_not_speak(
    vid: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(store.ENV_VAR, str(tmp_path / "empty.sqlite3"))
    at = _page("builtin", vid)
    assert "Решения журнала. В журнале пока нет решений." in _texts(at.get_by_key("changes_affected_rulings"))
    # From the fictional version back to the built-in one: the library cites РП 4.1-2 numbers.
    at = _page(vid, "builtin")
    section = _texts(at.get_by_key("changes_affected"))
    assert (
        "Решений в журнале: 0 из 0; сценариев: не проверялись (библиотека написана для РП 4.1-2)" in section
    )
    assert "Сценарии библиотеки ссылаются на пункты РП 4.1-2" in section
    assert not (tmp_path / "empty.sqlite3").exists()


def test_rulings_of_the_new_version_are_not_listed(
    vid: str, journal: tuple[store.Journal, dict[str, int]]
) -> None:
    # Compared the other way (РП 9.9-1 → РП 4.1-2), rulings written for РП 4.1-2 are not affected.
    at = _page(vid, "builtin")
    shown = _texts(at.get_by_key("changes_affected_rulings"))
    assert (
        "Решения журнала. Ни одно решение журнала не ссылается на пункты, которые изменились в РП 4.1-2."
        in shown
    )

"""«Стол судьи» under another rules version (AppTest): the trace and the selected card's action marks
name the engine's clauses in the loaded version's numbering and link them there, flag a clause whose
text changed on its step and under the verdict, and the ruling form keeps its state (its expander
stays open) across reruns.

The other version is the FICTIONAL «next version» of tests/fictional_rules.py, stored in the tests'
own rules store; it is never shipped as rules."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import parse_qs

import pytest
from streamlit.testing.v1 import AppTest

import rules_index
from app_pages import registry
from rules_index import versions
from rulings import store
from tests import fictional_rules as fr
from tests import helpers
from tests.apptest import plain, tap, targets
from tests.rulings_samples import PASSWORD, cheap_hasher

ROOT = Path(__file__).resolve().parent.parent
APP = str(ROOT / "app.py")
DESK = registry.DESK.script
CUT_OFF_211_5 = "scenarios/rulings/211.5_nonincorporeal_on_incorporeal.yaml"
RECRUIT_535_2 = "scenarios/rulings/535.2_recruit_during_battle.yaml"


@pytest.fixture(autouse=True)
def journal_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "rulings.sqlite3"
    monkeypatch.setenv(store.ENV_VAR, str(path))
    store.Journal(path, hasher=cheap_hasher()).add_account("Сидорова", "judge", PASSWORD)
    return path


@pytest.fixture(scope="module")
def fictional(rules_store: Path) -> str:
    files = fr.as_files(fr.fictional_texts())
    info = versions.VersionStore(rules_store).save(files, rules_index.load_texts(files), berserk=True)
    return info.id


def _desk(**params: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60).run()
    at.query_params.clear()
    at.query_params.update(params)
    helpers.unfold(at).switch_page(DESK).run()
    assert not at.exception, at.exception
    return at


def _body(at: AppTest) -> str:
    parts = [m.value for m in at.markdown] + [c.value for c in at.caption] + [t.value for t in at.text]
    parts += [w.value for w in at.warning] + [e.value for e in at.error] + [s.value for s in at.success]
    return plain("\n".join(parts))


def _links(at: AppTest) -> list[tuple[str, str, str]]:
    out = []
    for link in at.page_link:
        q = {k: v[0] for k, v in parse_qs(link.proto.query_string).items()}
        if "p" in q:
            out.append((q["p"], q.get("v", ""), plain(link.proto.label)))
    return out


def test_an_edited_clause_is_flagged_on_its_step_and_under_the_verdict(fictional: str) -> None:
    at = _desk(scn=CUT_OFF_211_5, v=fictional)
    body = _body(at)
    assert "**Запрещено** — запрещает п. 211.5" in body
    assert "Вердикт опирается на пункты, текст которых в РП 9.9-1 изменился" in body
    assert "п. 211.5: пункт изменился: движок применяет текст РП 4.1-2" in body
    assert "Открыты правила РП 9.9-1" in body
    # the link opens 211.5 in the loaded version, and the desk's address keeps that version
    assert ("211.5", fictional) in [(p, v) for p, v, _ in _links(at)]
    assert at.query_params.get("v") == fictional and at.query_params.get("desk")


def test_a_renumbered_clause_is_named_and_linked_in_the_loaded_numbering(fictional: str) -> None:
    at = _desk(scn=RECRUIT_535_2, v=fictional)
    body = _body(at)
    assert "п. 535.3 (в РП 4.1-2 — 535.2)" in body
    assert "535.3" in [p for p, _, _ in _links(at)]
    assert "535.2" not in [p for p, _, label in _links(at) if "535.2" in label.split(" (")[0]]


def test_under_the_engines_own_rules_nothing_is_flagged() -> None:
    at = _desk(scn=CUT_OFF_211_5)
    body = _body(at)
    assert "**Запрещено** — запрещает п. 211.5" in body
    assert "изменился" not in body and "Открыты правила" not in body
    assert "v" not in at.query_params


def test_the_ruling_form_stays_open_and_cites_the_loaded_numbering(fictional: str) -> None:
    at = _desk(scn=RECRUIT_535_2, v=fictional)
    box = at.get_by_key("desk_ruling_box")
    assert box.proto.label == "Записать решение в журнал"  # type: ignore[attr-defined]
    at.session_state["desk_ruling_box"] = True  # the judge opens it
    at.text_input(key="desk_ruling_auth_signin_name").input("Сидорова")
    at.text_input(key="desk_ruling_auth_signin_password").input(PASSWORD)
    at = at.button(key="desk_ruling_auth_signin_submit").click().run()
    assert at.session_state["desk_ruling_box"] is True  # still open after the sign-in's rerun
    assert "535.3" in at.text_input(key="desk_ruling_clauses").value.split(", ")
    assert at.text_input(key="desk_ruling_rules_version").value == "РП 9.9-1"
    at.text_input(key="desk_ruling_title").input("")
    at = at.button(key="desk_ruling_submit").click().run()  # an empty question: refused in place
    assert at.session_state["desk_ruling_box"] is True and at.error
    assert at.get_by_key("desk_ruling_box").proto.expanded  # type: ignore[attr-defined]


def test_the_selected_cards_marks_cite_the_loaded_numbering(fictional: str) -> None:
    at = _desk(scn=CUT_OFF_211_5, v=fictional)
    at = tap(at, "c3")  # the judge selects the Призрак
    assert at.session_state["desk_sel"] == "ghost"
    labels = list(targets(at, "take_control"))
    assert any("п. 535.9 (в РП 4.1-2 — 535.8)" in label for label in labels), labels
    assert not any(label.endswith("п. 535.8") for label in labels)

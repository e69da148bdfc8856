"""Real cards on «Стол судьи» (AppTest): the card page's «Поставить на стол» link opens the card form
with that card of that base, one click places it with its real life and class; a desk with actions
asks first; the selected card shows what the engine does not model and what it does."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import parse_qs

import pytest
from streamlit.testing.v1 import AppTest

import cardbase
import cardbase.explain
from app_pages import registry
from cardbase import store
from desk import edits, model, share
from rulings import store as journal
from tests import cardbase_cases as cases
from tests import helpers
from tests.apptest import form_key, plain, tap

ROOT = Path(__file__).resolve().parent.parent
APP = str(ROOT / "app.py")
DESK = registry.DESK.script
CARDS = registry.CARDS.script


@pytest.fixture(autouse=True)
def own_folders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(store.ENV_VAR, str(tmp_path / "cards"))
    monkeypatch.setenv(journal.ENV_VAR, str(tmp_path / "rulings.sqlite3"))
    return tmp_path / "cards"


@pytest.fixture()
def base_id(own_folders: Path) -> str:
    return store.CardStore(own_folders).save(cases.json_base(), cases.files()).id


def _params(link: object) -> dict[str, str]:
    return {k: v[0] for k, v in parse_qs(link.proto.query_string).items()}  # type: ignore[attr-defined]


def _page(page: str, at: AppTest | None = None, **params: str) -> AppTest:
    at = at or AppTest.from_file(APP, default_timeout=60).run()
    at.query_params.clear()
    at.query_params.update(params)
    (helpers.unfold(at) if page == DESK else at).switch_page(page).run()
    assert not at.exception, at.exception
    return at


def _texts(at: AppTest) -> str:
    parts = [m.value for m in at.markdown] + [c.value for c in at.caption] + [t.value for t in at.text]
    parts += [w.value for w in at.warning] + [i.value for i in at.info] + [e.value for e in at.error]
    return plain("\n".join(parts))


def test_the_card_page_link_places_the_real_card_in_one_click(base_id: str) -> None:
    at = _page(CARDS, card="90002", base=base_id)  # Горный клещ: a parasite with an unmodelled sentence
    put = next(link for link in at.page_link if link.proto.label == "Поставить на стол")  # type: ignore[attr-defined]
    assert put.proto.page == "desk" and _params(put) == {"put": "Горный клещ", "base": base_id}  # type: ignore[attr-defined]
    at = _page(DESK, at, **_params(put))  # the one tap: the card is on the desk
    assert not at.exception, at.exception
    said = " ".join(plain(s.value) for s in at.success)
    # a symbiote with no host on the desk yet: on the free middle of A's first row, and said so
    assert "«Горный клещ» — симбиот, а наземного существа без симбиота на столе нет" in said, said
    assert "клетку c3" in said and "базы «base.json»" in said
    (card,) = at.session_state["desk"].cards
    assert card["card"] == "Горный клещ" and card["at"] == "c3" and card["owner"] == "A"
    mite = cases.by_name(cases.json_base(), "Горный клещ")
    rp = model.replay(at.session_state["desk"], cardbase.Loaded.of(cases.json_base()).library)
    placed = rp.current.cards[card["id"]]
    assert placed.life == mite.life and placed.subtype == "parasite"
    # selected now: its unmodelled sentence is said first, its text and model folded, its page linked
    body = _texts(at)
    assert "Не смоделировано: решайте по тексту карты" in body
    assert mite.unmodelled[0] in body
    assert cardbase.explain.explain(mite.modelled[0]).title in body
    page = next(link for link in at.page_link if link.proto.label == "Страница карты")  # type: ignore[attr-defined]
    assert _params(page) == {"card": mite.id, "base": base_id}


def test_a_name_with_brackets_and_commas_is_placed_and_written_as_text(base_id: str) -> None:
    name = "Степной дозорный (Пробный выпуск, №1)"
    at = _page(DESK, put=name, base=base_id)
    assert [c["card"] for c in at.session_state["desk"].cards] == [name]
    text_area = next(t for t in at.text_area if t.key and t.key.startswith("desk_text_"))
    assert f"«{name}»" in text_area.value  # quoted, so it reads back as the same card


def test_a_desk_with_actions_asks_before_forgetting_them(base_id: str) -> None:
    desk = edits.put_card(model.Desk(), {"id": "vail", "card": "Вайл", "owner": "A", "at": "c3"})
    import engine

    desk = edits.with_action(desk, engine.parse_action("end_turn", {}))
    at = AppTest.from_file(APP, default_timeout=60).run()
    at.session_state["desk"] = desk
    at = _page(DESK, at, put="Каменный голем", base=base_id)
    assert at.session_state["desk"] == desk  # nothing changed yet: asked
    assert any("действия будут забыты" in plain(m.value) for m in at.markdown)
    at = at.button(key="desk_put_no").click().run()
    assert at.session_state["desk"] == desk and any("Стол оставлен как был" in i.value for i in at.info)
    at = _page(DESK, at, put="Каменный голем", base=base_id)
    at = at.button(key="desk_put_yes").click().run()
    assert not at.session_state["desk"].actions
    assert [c["card"] for c in at.session_state["desk"].cards] == ["Вайл", "Каменный голем"]
    assert at.session_state["desk"].cards[1]["at"] == "b3"  # c3 is taken by Вайл


def test_unknown_cards_and_bases_in_a_link_leave_the_desk_as_it_was(base_id: str) -> None:
    at = _page(DESK, put="Нет такой карты", base=base_id)
    assert any("Карты «Нет такой карты» нет в базе «base.json»" in plain(e.value) for e in at.error)
    assert at.session_state["desk"] == model.Desk()
    # a base card on the desk, then a link to the embedded library's card without that base
    at = _page(DESK, at, put="Каменный голем", base=base_id)
    before = at.session_state["desk"]
    assert [c["card"] for c in before.cards] == ["Каменный голем"]
    at = _page(DESK, at, put="Вайл", base="0123456789abcdef")  # a base this server does not have
    assert any("а её на сервере нет" in plain(w.value) for w in at.warning)
    # the window stays on its base: the base's card still builds, and Вайл (embedded) goes beside it
    assert at.session_state["cards_base_id"] == base_id
    assert at.session_state["desk"].cards[0] == before.cards[0]
    assert [c["card"] for c in at.session_state["desk"].cards] == ["Каменный голем", "Вайл"]
    assert share.decode(share.encode(before)) == before


def test_a_link_to_another_base_never_breaks_the_desk(base_id: str) -> None:
    at = _page(DESK, put="Каменный голем", base=base_id)
    before = at.session_state["desk"]
    at = _page(DESK, at, put="Вайл", base=cardbase.BUILTIN)  # the embedded library has no Каменный голем
    assert at.session_state["desk"].cards[0] == before.cards[0]  # the base's card still stands
    assert at.session_state["cards_base_id"] == base_id
    assert any("Окно осталось на прежней базе" in plain(e.value) for e in at.error)


def test_uploads_per_tab_are_bounded_with_a_russian_message(monkeypatch: pytest.MonkeyPatch) -> None:
    """The tab's upload budget (rulings.limits) counts files on every page; over it, a Russian
    message says what is wrong and nothing changes."""
    from rulings import limits

    monkeypatch.setattr(limits, "UPLOADS_PER_MINUTE", 2)
    at = AppTest.from_file(APP, default_timeout=60).run()
    at = _page(registry.RULES_PAGE.script, at)
    from app_pages import rules

    at.radio(key="rules_upload_berserk").set_value(rules.BERSERK_YES)
    rules_text = "900. Раздел.\n900.1. Пункт.".encode()
    at.file_uploader(key=rules.upload_key(at.session_state)).set_value(("r.txt", rules_text, "text/plain"))
    at = at.run()
    assert at.success and not at.error
    at = _page(CARDS, at)
    at.file_uploader(key="cards_upload").set_value(("base.json", cases.BASE_JSON.read_bytes(), "text/json"))
    at = at.run()
    assert not at.error and "base.json" in _texts(at)
    before = at.session_state["desk"] if "desk" in at.session_state else model.Desk()
    at = _page(DESK, at)
    key = next(u.key for u in at.file_uploader if u.key and u.key.startswith("desk_upload_"))
    at.file_uploader(key=key).set_value(("stol.json", share.to_file_text(before).encode(), "text/json"))
    at = at.run()
    errors = [plain(e.value) for e in at.error]
    assert any("не больше 2 файлов в минуту" in e and "Стол не изменился" in e for e in errors), errors
    # the whole session's size is bounded as well
    monkeypatch.setattr(limits, "UPLOADS_PER_MINUTE", 100)
    monkeypatch.setattr(limits, "SESSION_UPLOAD_MB", 0)
    at = _page(CARDS, at)
    del at.session_state["cards_upload_done"]  # AppTest reuses file ids; a browser gives each file its own
    at.file_uploader(key="cards_upload").set_value(("base.yaml", cases.BASE_YAML.read_bytes(), "text/yaml"))
    at = at.run()
    assert not at.exception, at.exception
    assert any("за один сеанс можно не больше 0 МБ" in plain(e.value) for e in at.error), _texts(at)
    assert "Осталась прежняя база: base.json" in plain(at.error[0].value)


def test_the_budget_counts_a_minute_and_a_session() -> None:
    from rulings.limits import UploadBudget

    budget = UploadBudget()
    for i in range(8):
        assert budget.refusal(["a.txt"], 10, now=100.0 + i) is None
        budget = budget.spend(1, 10, now=100.0 + i)
    refused = budget.refusal(["a.txt"], 10, now=120.0)
    assert refused is not None and "«a.txt»" in refused and "Подождите 40 с" in refused
    assert budget.refusal(["a.txt"], 10, now=161.0) is None  # the first upload is a minute old
    assert budget.spend(1, 10, now=161.0).times[0] == 102.0  # those a minute old are dropped
    assert "150 МБ" in (budget.refusal(["big.pdf"], 150 * 1024 * 1024, now=1000.0) or "")


def test_the_readme_states_the_limits_the_code_applies() -> None:
    from rulings import limits

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert f"**{limits.UPLOADS_PER_MINUTE} файлов в минуту**" in readme
    assert f"**{limits.SESSION_UPLOAD_MB} МБ за сеанс**" in readme and "rulings/limits.py" in readme


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("Призрачный сокол", "летающее существо ставится во вспомогательную зону (п. 535.4, допущение A5)"),
        ("Туманный дух", "карта «располагается во вспомогательной зоне» (п. 535.4, допущение A5)"),
    ],
)
def test_a_card_of_the_auxiliary_zone_goes_there_in_one_tap(base_id: str, name: str, why: str) -> None:
    at = _page(DESK, put=name, base=base_id)
    assert not at.exception and not at.error, [e.value for e in at.error]
    (card,) = at.session_state["desk"].cards
    assert card["at"] == "aux" and card["card"] == name
    said = " ".join(plain(s.value) for s in at.success)
    assert f"«{name}»: {why}." in said, said
    assert "at: aux" not in said and "(A5)" not in said  # the judge's words, not the scenario keys


def test_a_symbiote_from_the_card_page_asks_for_its_host_with_one_tap_each(base_id: str) -> None:
    desk = edits.put_card(model.Desk(), {"id": "vail", "card": "Вайл", "owner": "B", "at": "c4"})
    desk = edits.put_card(desk, {"id": "own", "card": "Вайл", "owner": "A", "at": "b2"})
    at = AppTest.from_file(APP, default_timeout=60).run()
    at.session_state["desk"] = desk
    at = _page(DESK, at, put="Горный клещ", base=base_id)
    assert at.session_state["desk"] == desk  # not placed yet: which host?
    hosts = [b for b in at.button if b.key and b.key.startswith("desk_put_host_") and b.key[-1].isdigit()]
    assert [plain(b.label) for b in hosts] == ["На «Вайл (c4)» (c4)", "На «Вайл (b2)» (b2)"]
    at = hosts[0].click().run()
    placed = at.session_state["desk"].cards[-1]
    assert placed["host"] == "vail" and placed["owner"] == "A"  # a parasite: the host's opponent
    assert any("«Горный клещ» (игрок A) — на карте «Вайл (c4)»" in plain(s.value) for s in at.success)


def test_the_card_form_puts_a_flyer_in_the_auxiliary_zone_and_says_why_not_on_a_cell() -> None:
    at = _page(DESK)
    at = tap(at, "c3")
    key = form_key(at, "desk_new_")
    at.text_input(key=f"{key}_name").input("Летающее существо").run()
    assert at.selectbox(key=f"{key}_at_aux").value == "aux"  # the form moves it there by itself
    at.selectbox(key=f"{key}_at_aux").set_value("c3")
    at = at.button(key=f"{key}_put").click().run()
    shown = [plain(e.value) for e in at.error]
    assert any("«Летающее существо» — летающее существо ставится во вспомогательную зону" in e for e in shown)
    assert not at.session_state["desk"].cards
    at.selectbox(key=f"{key}_at_aux").set_value("aux")
    at = at.button(key=f"{key}_put").click().run()
    assert [c["at"] for c in at.session_state["desk"].cards] == ["aux"]

"""The «Карты» page under AppTest: load a base, find a card with a typo, read its page."""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import parse_qs

import pytest
from streamlit.testing.v1 import AppTest

import cardbase
import rules_index
from app_pages import registry
from cardbase import store
from rules_index import versions
from tests import cardbase_cases as cases
from tests import fictional_rules as fr
from tests.apptest import ShownLink, entries, list_links, shown_links
from tests.apptest import shown as list_paras
from tests.rulings_samples import PASSWORD, judges_journal

APP = str(Path(__file__).resolve().parent.parent / "app.py")
PAGE = registry.CARDS.script


@pytest.fixture(autouse=True)
def own_folders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(store.ENV_VAR, str(tmp_path / "cards"))
    judges_journal(tmp_path / "journal.sqlite3", monkeypatch)
    return tmp_path / "cards"


def open_cards(**params: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=30).run()
    at.query_params.clear()
    at.query_params.update(params)
    return at.switch_page(PAGE).run()


def texts(at: AppTest) -> str:
    parts = [m.value for m in at.markdown] + [c.value for c in at.caption] + [t.value for t in at.text]
    parts += [e.value for e in at.error] + [w.value for w in at.warning] + [s.value for s in at.success]
    parts += [h.value for h in at.header] + [i.value for i in at.info]
    return "\n".join(parts).replace("\\", "").replace("**", "")


def params(link: object) -> dict[str, str]:
    if isinstance(link, ShownLink):
        return dict(link.params)
    return {k: v[0] for k, v in parse_qs(link.proto.query_string).items()}  # type: ignore[attr-defined]


def follow(at: AppTest, link: object) -> AppTest:
    at.query_params.clear()
    at.query_params.update(params(link))
    return at.switch_page(PAGE).run()


def upload(at: AppTest, name: str, data: bytes, constants: tuple[str, bytes] | None = None) -> AppTest:
    """Choose the base (and its codes file) in one go, as a judge picks two files in the dialog."""
    files = [(name, data, "application/json")]
    if constants:
        files.append((constants[0], constants[1], "application/json"))
    return at.file_uploader(key="cards_upload").set_value(files).run()


def hits(at: AppTest) -> list[ShownLink]:
    """The found cards' links (one list element: app_pages/shared/linklist)."""
    return list_links(at.get_by_key("cards_hits"))


def test_the_embedded_library_before_any_base() -> None:
    at = open_cards()
    assert not at.exception
    assert "База карт: встроенная библиотека движка (карт: 7" in texts(at)
    at.text_input(key="cards_query").input("карлик").run()
    found = hits(at)
    assert found and "Карлик Унд" in found[0].label
    at = follow(at, found[0])
    shown = texts(at)
    assert "Карлик Унд" in shown and "Вид: симбиот-паразит" in shown and "Удар: 1-2-2" in shown
    assert "описаны вручную в библиотеке движка" in shown
    assert "хозяин не может заявлять никаких действий" in shown
    chips = {params(link).get("p") for link in at.page_link}
    assert {"211", "211.1"} <= chips
    desk = [link for link in shown_links(at) if link.page == "desk"]
    assert {"scn": "scenarios/official/211.3.1_karlik_und.yaml"} in [params(link) for link in desk]
    assert {"put": "Карлик Унд"} in [params(link) for link in desk]


def test_import_find_with_a_typo_and_open_the_card(own_folders: Path) -> None:
    at = sign_in(open_cards())
    at = upload(
        at, "base.json", cases.BASE_JSON.read_bytes(), (cases.CONST_JSON.name, cases.CONST_JSON.read_bytes())
    )
    assert not at.exception
    shown = texts(at)
    assert "записей 28, карт 26" in shown and "База сохранена на сервере" in shown
    assert "База карт: «base.json» (карт: 26, выпусков: 2)" in shown
    bid = cases.json_base().id
    assert [b.id for b in store.CardStore(own_folders).bases()] == [bid]
    at.text_input(key="cards_query").input("паладн").run()
    first = hits(at)[0]
    assert first.label == "Светлый паладин"
    assert entries(at.get_by_key("cards_hits"))[0]["head"]["label"] == [["Светлый паладин", True]]  # bold
    under = [p.text for p in list_paras(at.get_by_key("cards_hits")) if p.muted]
    assert (
        under[0] == "наземное существо · Степи · стоимость 7 · жизнь 10 · Пробный выпуск, № 8"
        " · найдено: похожее написание"
    )
    assert params(first) == {"card": "90008", "base": bid}
    at = follow(at, first)
    shown = texts(at)
    for part in (
        "Светлый паладин",
        "Вид: наземное существо",
        "Стоимость: 7",
        "Жизнь: 10",
        "Удар: 2-3-3",
        "Выпуск: Пробный выпуск, № 8",
        "Другие печати: 90008pf",
        "[закрыть]: вызвать «Степной дозорный» рядом с собой.",
        "вызов: берёт карту из колоды в зону битвы",
        "«Степной дозорный»",
        "условие места (по умолчанию: рядом с вызывающей, 535.5): рядом с собой",
        "не смоделировано: цена «[закрыть]» не смоделирована",
    ):
        assert part in shown, part
    chips = [params(link).get("p") for link in at.page_link if link.proto.page == ""]
    assert "535.5" in chips and "535.4" in chips
    desk = next(link for link in at.page_link if link.label == "Поставить на стол")
    assert desk.proto.page == "desk"
    assert params(desk) == {"put": "Светлый паладин", "base": bid}


def test_unmodelled_text_is_marked() -> None:
    at = open_cards()
    at = upload(at, "base.json", cases.BASE_JSON.read_bytes())
    at.query_params.update({"card": "90019"})
    at = at.switch_page(PAGE).run()
    assert "Не смоделировано: решайте по тексту карты" in [w.value for w in at.warning]
    assert "Защита от слабых ударов." in [t.value for t in at.text]
    assert "Ни одной особенности этой карты движок не моделирует." in texts(at)


def test_a_file_with_bad_records_waits_for_the_judge(own_folders: Path) -> None:
    recs = cases.records()
    recs[2]["type"] = 7
    at = sign_in(open_cards())
    at = upload(at, "bad.json", cases.dump(recs))
    shown = texts(at)
    assert "пропущено записей с ошибками: 1" in shown and "База пока не загружена" in shown
    assert "запись 3 (id 90003, «Лесной спутник»): неизвестный код типа «7»" in shown
    assert "База карт: встроенная библиотека движка" in shown
    assert store.CardStore(own_folders).bases() == []
    at.button(key="cards_accept_skipped").click().run()
    shown = texts(at)
    assert "База карт: «bad.json» (карт: 25" in shown and "База сохранена на сервере" in shown
    assert len(store.CardStore(own_folders).bases()) == 1


def test_a_bad_file_keeps_the_loaded_base() -> None:
    at = open_cards()
    at = upload(at, "base.json", cases.BASE_JSON.read_bytes())
    at = upload(at, "broken.json", b'[{"name": "A",}]')
    shown = texts(at)
    assert (
        "База не загружена" in shown and "строка 1" in shown and "Осталась прежняя база: base.json" in shown
    )
    assert "База карт: «base.json» (карт: 26" in shown
    assert not at.exception


def test_a_card_text_is_shown_as_text_not_markup() -> None:
    hostile = "[ссылка](http://evil.example/) <b>жирный</b> :red[красный] $x$"
    data = json.dumps([{"id": "h1", "name": "Ловушка", "type": 0, "life": 2, "text": hostile}]).encode()
    at = open_cards()
    at = upload(at, "hostile.json", data)
    at.query_params.update({"card": "h1"})
    at = at.switch_page(PAGE).run()
    assert any("<b>жирный</b>" in t.value for t in at.text)
    assert not any("evil" in m.value for m in at.markdown)  # only st.text carries the card's text


def test_links_to_a_missing_card_or_base_say_so() -> None:
    at = open_cards(card="нет-такой")
    assert "Такой карты («нет-такой») нет в базе" in texts(at)
    at = open_cards(base="0123456789abcdef")
    assert "Ссылка сделана по базе карт «0123456789abcdef», а её на сервере нет" in texts(at)


def test_a_players_upload_opens_in_their_window_only_and_a_judges_is_stored(own_folders: Path) -> None:
    at = open_cards()
    at = upload(at, "base.json", cases.BASE_JSON.read_bytes())
    assert not at.exception
    shown = texts(at)
    assert "База открыта только в этом окне; сохранить на сервере может судья" in shown
    assert not own_folders.exists() or list(own_folders.iterdir()) == []  # nothing on the server
    assert "База карт: «base.json» (карт: 26" in shown
    at.text_input(key="cards_query").input("паладн").run()  # the window reads the upload
    assert hits(at) and hits(at)[0].label == "Светлый паладин"
    bid = cardbase.import_base(cases.BASE_JSON.read_bytes(), "base.json").id
    chooser = next(b for b in at.selectbox if b.label == "Открыть базу")
    assert chooser.value == bid and "только в этом окне" in chooser.format_func(bid)
    # the desk in the same window puts the upload's cards on the table
    at.query_params.clear()
    at.query_params.update({"put": "Светлый паладин"})
    at.switch_page(registry.DESK.script).run()
    assert not at.exception and "Светлый паладин" in texts(at)
    assert not own_folders.exists() or list(own_folders.iterdir()) == []
    other = open_cards()  # another window: the embedded library
    assert "База карт: встроенная библиотека движка" in texts(other)
    # signed in, the same upload is stored on the server
    judge = sign_in(open_cards())
    judge = upload(judge, "base.json", cases.BASE_JSON.read_bytes())
    assert "База сохранена на сервере" in texts(judge)
    assert [b.id for b in store.CardStore(own_folders).bases()] == [bid]


def test_a_link_opens_the_base_it_was_made_on(own_folders: Path) -> None:
    info = store.CardStore(own_folders).save(cases.json_base(), cases.files())
    at = open_cards(card="90004", base=info.id)
    assert "Болотный скат" in [h.value for h in at.header]
    assert "База карт: «base.json»" in texts(at)


def sign_in(at: AppTest, password: str = PASSWORD) -> AppTest:
    at.text_input(key="cards_signin_signin_name").input("Сидорова")
    at.text_input(key="cards_signin_signin_password").input(password)
    return at.button(key="cards_signin_signin_submit").click().run()


def test_make_a_base_everyones_default(own_folders: Path) -> None:
    at = open_cards()
    at = upload(at, "base.json", cases.BASE_JSON.read_bytes())
    # nobody signed in: the base opens in this window only, and everyone's default is a judge's act
    with pytest.raises(KeyError):
        at.button(key="cards_make_default")
    assert "вошедший под своим именем" in texts(at)
    at = sign_in(at, password="неверный")
    assert at.error
    at = sign_in(at)
    with pytest.raises(KeyError):  # a base open in one window alone cannot be everyone's default
        at.button(key="cards_make_default")
    at = upload(at, "base.json", cases.BASE_JSON.read_bytes())  # the judge's upload is stored
    at.button(key="cards_make_default").click().run()
    assert (
        store.CardStore(own_folders).default_id()
        == cardbase.import_base(cases.BASE_JSON.read_bytes(), "base.json").id
    )
    fresh = open_cards()  # another judge's window opens with it
    assert "База карт: «base.json»" in texts(fresh)
    with pytest.raises(KeyError):  # a player cannot remove it
        fresh.button(key="cards_remove")
    fresh = sign_in(fresh)
    fresh.button(key="cards_remove").click().run()
    assert any("Удалить базу «base.json»" in w.value.replace("\\", "") for w in fresh.warning)
    fresh.button(key="cards_remove_no").click().run()  # asked first: «Отмена» keeps it
    assert len(store.CardStore(own_folders).bases()) == 1
    fresh.button(key="cards_remove").click().run()
    fresh.button(key="cards_remove_yes").click().run()
    assert store.CardStore(own_folders).bases() == []
    assert "База карт: встроенная библиотека движка" in texts(fresh)


def test_the_card_guard_checks_the_sign_in_before_the_store(own_folders: Path, tmp_path: Path) -> None:
    from rulings import guard, model
    from rulings import store as journal

    cards = store.CardStore(own_folders)
    info = cards.save(cases.json_base(), cases.files())
    book = journal.Journal(tmp_path / "journal.sqlite3")
    called: list[str] = []
    with pytest.raises(model.NotSignedInError):
        guard.change_card_base(None, lambda: called.append("x"), journal=book)
    assert called == [] and cards.default_id() == cardbase.BUILTIN
    judge = book.sign_in("Сидорова", PASSWORD)
    who, _ = guard.change_card_base(judge, lambda: store.make_default(cards, info.id), journal=book)
    assert who.name == "Сидорова" and cards.default_id() == info.id
    with pytest.raises(cardbase.CardBaseError):  # the store's own refusal comes through as it is
        guard.change_card_base(judge, lambda: store.remove_base(cards, cardbase.BUILTIN), journal=book)


def test_the_rules_of_a_kind_are_named_in_the_open_rules_numbering(rules_store: Path) -> None:
    """Under the FICTIONAL next version (534.8 removed, 534.5 and 534.4 kept) the card page says the
    table is РП 4.1-2's and names each clause as the open rules have it; under its own rules, no note."""
    files = fr.as_files(fr.fictional_texts())
    vid = versions.VersionStore(rules_store).save(files, rules_index.load_texts(files), berserk=True).id
    at = open_cards(card="builtin-6", v=vid)  # Бул'Багур: защита (534.8), изменение числа ран
    shown = texts(at)
    assert "Таблица составлена по РП 4.1-2; пункты названы по открытым правилам (РП 9.9-1)" in shown
    assert "п. 534.8 РП 4.1-2 (в РП 9.9-1 этого пункта нет)" in shown
    chips = [params(link) for link in at.page_link if params(link).get("p")]
    assert {"p": "534.5", "v": vid} in chips and not any(c["p"] == "534.8" for c in chips)
    own = texts(open_cards(card="builtin-6"))
    assert "Таблица составлена" not in own and "этого пункта нет" not in own


def test_a_bad_value_in_a_record_is_named_and_the_loaded_base_stays(own_folders: Path) -> None:
    at = sign_in(open_cards())  # a judge's upload is stored (a player's stays in the window)
    at = upload(at, "base.json", cases.BASE_JSON.read_bytes())
    recs = cases.records()
    recs[1]["type"] = True
    recs[2]["hit"] = "9" * 400 + "-1-1"
    at = upload(at, "values.json", cases.dump(recs))
    assert not at.exception
    shown = texts(at)
    assert "запись 2 (id 90002, «Горный клещ»): type (тип): нужен код типа или слово, а не «true»" in shown
    assert "запись 3 (id 90003, «Лесной спутник»): hit (удар): нужно целое число от 0 до 99" in shown
    assert "База пока не загружена" in shown and "Осталась прежняя база: base.json" in shown
    assert "База карт: «base.json» (карт: 26" in shown
    at = upload(at, "long.json", b'[{"name": "A", "type": 0, "life": ' + b"1" * 5000 + b"}]")
    assert not at.exception
    shown = texts(at)
    assert "База не загружена. Файл «long.json», строка 1, позиция 35: число из 5000 цифр" in shown
    assert "Осталась прежняя база: base.json" in shown and "База карт: «base.json» (карт: 26" in shown
    assert len(store.CardStore(own_folders).bases()) == 1


def test_a_card_named_like_an_embedded_one_says_what_comes_from_where(own_folders: Path) -> None:
    und = {"id": "u1", "name": "Карлик Унд", "type": 3, "life": 4, "class": "Гном"}
    und["text"] = "Защита от магии."
    data = json.dumps([und]).encode()
    at = upload(sign_in(open_cards()), "real.json", data)
    bid = cardbase.import_base(data, "real.json").id
    at = open_cards(base=bid, card="u1")
    assert not at.exception
    shown = texts(at)
    assert "На столе «Карлик Унд» — карта этой базы: жизнь, класс, удар, стихия, стоимость и текст" in shown
    assert "откуда: описано вручную в библиотеке движка (пример правил)" in shown
    assert "из текста этой карты добавлено: защита" in shown, shown


@pytest.mark.parametrize("order", ["base_first", "codes_first"])
def test_the_codes_file_is_used_whichever_is_chosen_first(own_folders: Path, order: str) -> None:
    """A judge picks the base and then its const.json, or the other way round: the report reads the
    set names from the codes file either way (the base alone knows only «выпуск 90»)."""
    base = ("base.json", cases.BASE_JSON.read_bytes(), "application/json")
    codes = (cases.CONST_JSON.name, cases.CONST_JSON.read_bytes(), "application/json")
    at = open_cards()
    first, second = (base, codes) if order == "base_first" else (codes, base)
    at = at.file_uploader(key="cards_upload").set_value([first]).run()
    assert not at.exception
    if order == "codes_first":
        assert "Файл кодов «const.json» получен: выберите файл базы" in texts(at)
    else:
        assert "«выпуск 90» — 24" in texts(at)
    at = at.file_uploader(key="cards_upload").set_value([first, second]).run()
    shown = texts(at)
    assert "«Пробный выпуск» — 24" in shown and "выпуск 90" not in shown, shown
    assert "Коды — из «const.json»" in shown

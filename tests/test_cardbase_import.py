"""Importing a card base: what the report says, how codes decode, which abilities are recognised,
and how bad files and bad records are refused (in Russian, naming the record)."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import cardbase
import lexicon
from cardbase import importer, readers, recognise
from engine.model.abilities import KINDS, parse_ability
from tests import cardbase_cases as cases
from tests.cardbase_cases import by_name


def test_the_report_says_what_was_read() -> None:
    report = cases.json_base().report
    assert report is not None
    assert (report.records, report.cards, report.alternates) == (28, 26, 2)
    assert dict(report.sets) == {"Пробный выпуск": 24, "Второй пробный выпуск": 2}
    assert report.banned == 1
    assert report.ok and not report.errors
    modelled = [r for r in cases.json_base().records if r.modelled]
    assert report.modelled == len(modelled) == 23
    assert report.fully_modelled == sum(1 for r in modelled if not r.unmodelled) == 17
    summary = report.summary()
    for part in (
        "записей 28",
        "карт 26",
        "альтернативных печатей",
        "«Пробный выпуск» — 24",
        "запрещённые: 1",
    ):
        assert part in summary, summary
    assert report.to_dict()["cards"] == 26


def test_every_type_and_element_code_decodes() -> None:
    base = cases.json_base()
    kinds = {(r.type, r.subtype) for r in base.records}
    assert kinds == {
        ("creature", "ground"),
        ("creature", "flyer"),
        ("creature", "companion"),
        ("creature", "parasite"),
        ("artifact", None),
        ("terrain", None),
    }
    assert set(base.elements()) == {"Степи", "Горы", "Леса", "Болота", "Тьма", "Нейтралы"}
    assert by_name(base, "Пепельный страж").elements == ("Степи", "Тьма")  # 17 = 1 + 16
    assert by_name(base, "Громовой шаман").elements == ("Горы", "Нейтралы")  # 34 = 2 + 32
    assert by_name(base, "Светлый паладин").rarity == "Ультраредкая"
    assert by_name(base, "Пепельный страж").classes == ("Орк", "Горец")
    assert by_name(base, "Степной дозорный (Пробный выпуск, №1)").classes == ()  # class [""]
    assert by_name(base, "Болотный скат").move is None
    assert by_name(base, "Лесной спутник").strike == (1, 1, 1)
    assert by_name(base, "Подземный резонатор").life is None


def test_alternate_printings_fold_onto_their_base_card() -> None:
    base = cases.json_base()
    assert base.get("90007alt") is None and base.get("90008pf") is None
    assert base.get("90007") is not None and base.get("90007").alts == ("90007alt",)  # type: ignore[union-attr]
    assert base.get("90008").alts == ("90008pf",)  # type: ignore[union-attr]


def test_text_nan_placeholders_and_the_banned_flag() -> None:
    base = cases.json_base()
    plain = base.get("90001")
    assert plain is not None and plain.text == "" and not plain.unmodelled and not plain.modelled
    tick = by_name(base, "Горный клещ")
    assert tick.text == "Бестелесное. [закрыть]: ранить хозяина на 1."
    assert "{" not in by_name(base, "Каменный голем").text
    assert by_name(base, "Каменный голем").text.startswith("Защита от отравления.")  # «{zoo}.» capitalised
    assert by_name(base, "Забытый идол").banned and not tick.banned
    notes = [str(n) for n in base.report.notes]  # type: ignore[union-attr]
    assert any("id 90023" in n and "{zzz}" in n for n in notes), notes


def test_two_cards_with_one_name_get_distinct_names_on_the_desk() -> None:
    base = cases.json_base()
    newer, older = base.get("91001"), base.get("90001")
    assert newer is not None and older is not None
    assert newer.library_name == "Степной дозорный"
    assert older.library_name == "Степной дозорный (Пробный выпуск, №1)"
    assert any("id 90001" in str(n) and "на столе «Степной дозорный»" in str(n) for n in base.report.notes)  # type: ignore[union-attr]


RECOGNISED = [
    ("90003", {"kind": "incarnation", "x": 2, "places_on": "own_creature"}),
    ("90004", {"kind": "protection", "from": ["poison", "magic"]}),
    ("90005", {"kind": "incarnation", "x": 3}),
    ("90006", {"kind": "cannot_join_with", "cards": ["Светлый паладин", "Пепельный страж"]}),
    ("90007", {"kind": "cannot_join_with", "cards": ["Лесной спутник", "Горный клещ"]}),
    ("90008", {"kind": "summon", "card": "Степной дозорный", "where": "adjacent"}),
    ("90009", {"kind": "summon", "card": "Болотный скат", "once_per_battle": True, "trigger": True}),
    ("90010", {"kind": "summon", "search": "top_creature", "where": "own_half"}),
    ("90011", {"kind": "summon", "search": "top_card", "where": "own_first_row"}),
    ("90012", {"kind": "resurrect", "where": "own_third_row"}),
    (
        "90013",
        {"kind": "resurrect", "card": "Горный клещ", "places_on": "own_creature", "once_per_battle": True},
    ),
    ("90014", {"kind": "protection", "from": ["flyers", "spells", "influence"]}),
    ("90015", {"kind": "aux_zone"}),
    ("90017", {"kind": "protection", "from": ["poison"]}),
    ("90020", {"kind": "cannot_join_with_element", "elements": ["Тьма"], "creatures_only": True}),
    ("90021", {"kind": "summon", "card": "Звонарь", "where": "adjacent"}),
    ("90023", {"kind": "protection", "from": ["spells"]}),
    ("91001", {"kind": "protection", "from": ["influence"]}),
]


@pytest.mark.parametrize(("card_id", "ability"), RECOGNISED, ids=[c for c, _ in RECOGNISED])
def test_a_phrasing_becomes_its_declared_ability(card_id: str, ability: dict[str, object]) -> None:
    r = cases.json_base().get(card_id)
    assert r is not None
    assert ability in [a.to_dict() for a in r.abilities]
    for a in r.abilities:  # what recognition gives is what the declaration accepts
        assert a.kind in KINDS
        assert parse_ability(a.to_dict(), "проверка") == a


def test_costs_and_triggers_are_read_but_said_to_be_unmodelled() -> None:
    base = cases.json_base()
    summon = next(m for m in base.get("90008").modelled if m.ability)  # type: ignore[union-attr]
    assert "цена «[закрыть]» не смоделирована" in summon.caveat
    trigger = next(m for m in base.get("90009").modelled if m.ability)  # type: ignore[union-attr]
    assert "при гибели" in trigger.caveat and "решает судья" in trigger.caveat


def test_properties_and_icons() -> None:
    base = cases.json_base()
    assert by_name(base, "Горный клещ").incorporeal  # «Бестелесное.»
    assert by_name(base, "Призрачный сокол").incorporeal  # «Бестелесное существо.»
    assert by_name(base, "Туманный дух").incorporeal  # «Бестелесный.» and the icon: once
    assert sum(1 for m in by_name(base, "Туманный дух").modelled if m.prop) == 1
    stranger = by_name(base, "Серый странник")
    assert stranger.incorporeal and any(m.source == "значок «бестелесный»" for m in stranger.modelled)
    skate = [a.to_dict() for a in by_name(base, "Болотный скат").abilities]
    assert {"kind": "protection", "from": ["flyers"]} in skate  # the zoal icon
    golem = by_name(base, "Каменный голем")
    assert [a.to_dict() for a in golem.abilities] == [{"kind": "protection", "from": ["poison"]}]
    assert "регенерация 1" in golem.icon_names and "броня 2" in golem.icon_names
    assert len(by_name(base, "Двуликий отшельник").abilities) == 2  # 535.7.4 picks between them


@pytest.mark.parametrize(
    ("card_id", "sentence"),
    [
        ("90019", "Защита от слабых ударов."),
        ("90016", "Существа на этой местности получают -1 к [простой удар]."),
        ("90005", "При атаке получает +1 к [простой удар]."),
        ("90002", "[закрыть]: ранить хозяина на 1."),
    ],
)
def test_a_sentence_no_phrasing_matches_whole_stays_text(card_id: str, sentence: str) -> None:
    r = cases.json_base().get(card_id)
    assert r is not None and sentence in r.unmodelled


def test_recognition_is_whole_sentence_only() -> None:
    assert recognise.recognise_sentence("Инкарнация 2.") is not None
    assert recognise.recognise_sentence("Инкарнация 2, если рядом враг.") is None
    assert recognise.recognise_sentence("Защита от отравления и чего-то ещё.") is None
    assert recognise.recognise_sentence("Вызвать карту.") is None
    assert recognise.recognise_sentence("Не может быть взята в отряд с Кем-то.") is None
    got = recognise.recognise_sentence("не может быть взята в отряд с Кем-то", {"кем-то": "Кем-то"})
    assert got is not None and got.ability is not None and got.ability.get("cards") == ("Кем-то",)


def test_without_the_constants_file_our_table_decodes_and_names_sets_by_number() -> None:
    (name, data), _ = cases.files()
    base = cardbase.import_base(data, name)
    assert base.report is not None and base.report.cards == 26 and base.report.ok
    assert {r.set_name for r in base.records} == {"выпуск 90", "выпуск 91"}
    set_notes = [n for n in base.report.notes if "выпуска" in n.what]
    assert len(set_notes) == 2  # once per set, not once per card
    assert base.id != cases.json_base().id  # the constants file is part of the content address


def test_csv_with_a_header() -> None:
    base = cardbase.import_base(cases.BASE_CSV.read_bytes(), "base.csv")
    report = base.report
    assert report is not None and report.ok and (report.cards, report.alternates, report.banned) == (4, 1, 1)
    guard = base.get("80001")
    assert guard is not None
    assert guard.classes == ("Орк", "Горец") and guard.strike == (1, 2, 3)
    assert guard.icons == (("zoo", 0), ("regen", 1))
    assert {a.to_dict()["kind"] for a in guard.abilities} == {"protection"}
    assert base.get("80003").subtype == "flyer" and base.get("80003").alts == ("80003a",)  # type: ignore[union-attr]
    assert base.get("80003").elements == ("Леса", "Болота")  # type: ignore[union-attr]
    assert base.get("80004").type == "artifact"  # type: ignore[union-attr]


def test_csv_from_excel_in_windows_1251_with_commas() -> None:
    text = "name,type,life,color,text\nКамышовый кот,0,4,8,Инкарнация 1.\n"
    base = cardbase.import_base(text.encode("cp1251"), "excel.csv")
    r = base.records[0]
    assert (r.name, r.life, r.elements) == ("Камышовый кот", 4, ("Болота",))
    assert [a.to_dict() for a in r.abilities] == [{"kind": "incarnation", "x": 1}]
    assert r.id == "n1"  # no id column: the position names it


def test_our_yaml() -> None:
    base = cardbase.import_base(cases.BASE_YAML.read_bytes(), "base.yaml")
    basilisk, shade = base.get("y1"), base.get("y2")
    assert basilisk is not None and shade is not None
    kinds = [a.kind for a in basilisk.abilities]
    assert kinds == ["on_death", "protection"]  # written in the file, then read from the text
    assert basilisk.modelled[0].source == "задано в файле базы"
    assert basilisk.alts == ("y3",) and basilisk.set_name == "Пробный выпуск"
    assert (shade.subtype, shade.elements, shade.incorporeal) == ("companion", ("Тьма",), True)


# Bad files -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "data", "says"),
    [
        (
            "base.json",
            b'[{"id": "1", "name": "A" "type": 0}]',
            ["строка 1", "позиция", "ошибка JSON", "пропущена запятая"],
        ),
        ("base.json", b'{"name": "A"}', ["ожидался список карт"]),
        ("base.json", b"", ["пуст"]),
        ("base.json", b"\x00\x01\x02\x03" * 10, ["двоичные данные"]),
        ("base.csv", b'name;type\n"A;0\n', ["строка 2", "ошибка CSV", "кавычка не закрыта"]),
        ("base.csv", b"title;type\nA;0\n", ["строка 1", "нет столбца name"]),
        (
            "base.yaml",
            b"cards: [\n  {name: A\n",
            ["строка 3, позиция 1: ошибка YAML (в словаре {…} пропущена запятая или «}»)"],
        ),
        ("base.yaml", b"cards:\n\t- name: A\n", ["строка 2, позиция 1: ошибка YAML (символ"]),
        ("base.json", b'[{"id": "1"}, {"id": "2", "name": ""}]', ["нет ни одной карты", "нет названия"]),
    ],
)
def test_a_file_unreadable_as_a_whole_is_refused(name: str, data: bytes, says: list[str]) -> None:
    with pytest.raises(cardbase.CardBaseError) as exc:
        cardbase.import_base(data, name)
    for part in says:
        assert part in str(exc.value), str(exc.value)
    assert name in str(exc.value)


def test_the_stated_size_and_record_limits(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(readers, "MAX_FILE_BYTES", 1000)
    with pytest.raises(cardbase.CardBaseError, match="больше 0 МБ"):
        cardbase.import_base(cases.BASE_JSON.read_bytes(), "big.json")
    monkeypatch.setattr(readers, "MAX_FILE_BYTES", 20 * 1024 * 1024)
    monkeypatch.setattr(readers, "MAX_RECORDS", 10)
    with pytest.raises(cardbase.CardBaseError, match="записей 28, больше предела 10"):
        cardbase.import_base(cases.BASE_JSON.read_bytes(), "many.json")
    rows = "name;type;life\n" + "".join(f"К{i};0;3\n" for i in range(12))
    with pytest.raises(cardbase.CardBaseError, match="больше предела 10"):
        cardbase.import_base(rows.encode(), "many.csv")


def _broken(change: dict[int, dict[str, object]], extra: list[dict[str, object]] = ()) -> cardbase.CardBase:  # type: ignore[assignment]
    recs = cases.records()
    for i, fields in change.items():
        recs[i].update(fields)
    recs.extend(extra)
    return cardbase.import_base(cases.dump(recs), "broken.json", constants=cases.files()[1])


@pytest.mark.parametrize(
    ("change", "record", "says"),
    [
        ({2: {"type": 7}}, "запись 3 (id 90003, «Лесной спутник»)", "неизвестный код типа «7»"),
        ({3: {"color": 64}}, "запись 4 (id 90004, «Болотный скат»)", "неизвестный код стихии 64"),
        ({4: {"name": ""}}, "запись 5 (id 90005)", "нет названия карты"),
        ({4: {"name": None}}, "запись 5 (id 90005)", "нет названия карты"),
        ({5: {"id": "90001"}}, "запись 6 (id 90001, «Серый странник»)", "повтор id 90001 (первый — запись 1"),
        ({11: {"life": None}}, "запись 12 (id 90010, «Кладбищенский сторож»)", "жизнь (life)"),
        ({0: {"hit": [1, 2]}}, "запись 1 (id 90001", "три числа"),
        ({0: {"cost": "дорого"}}, "запись 1 (id 90001", "cost (стоимость): нужно целое число"),
        ({0: {"elite": "может быть"}}, "запись 1 (id 90001", "elite: нужно да или нет"),
    ],
)
def test_a_bad_record_is_skipped_and_named(
    change: dict[int, dict[str, object]], record: str, says: str
) -> None:
    base = _broken(change)
    report = base.report
    assert report is not None and not report.ok
    assert len(report.errors) == 1, report.errors
    problem = str(report.errors[0])
    assert problem.startswith(record), problem
    assert says in problem and problem.endswith("запись пропущена"), problem
    assert report.cards >= 24  # the other records are all there


def test_an_alternate_of_a_missing_card_and_a_record_that_is_not_an_object() -> None:
    base = _broken({}, [{"id": "99alt", "name": "Сирота", "type": 0, "life": 3, "altto": "99"}, "строка"])  # type: ignore[list-item]
    errors = [str(e) for e in base.report.errors]  # type: ignore[union-attr]
    assert any(e.startswith("запись 29 (id 99alt, «Сирота»)") and "карты с id 99" in e for e in errors), (
        errors
    )
    assert any(e.startswith("запись 30") and "ожидался объект JSON" in e for e in errors), errors


def test_unknown_icons_are_noted_once_and_the_card_kept() -> None:
    base = _broken({0: {"icons": {"xyz": 1}}, 1: {"icons": {"xyz": 0}}})
    assert base.report is not None and base.report.ok
    notes = [str(n) for n in base.report.notes if "xyz" in n.what]
    assert len(notes) == 1 and notes[0].startswith("запись 1 (id 90001"), notes
    assert base.get("90001").icons == ()  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("data", "says"),
    [
        (json.dumps({"creature_types": {"0": "Дракон"}}), "creature_types.0: тип «Дракон» неизвестен"),
        (json.dumps({"colors": {"3": "Смесь"}}), "colors.3: код стихии — один бит"),
        ("{", "строка 1, позиция 2: ошибка JSON (ожидалось имя поля в двойных кавычках)"),
        ('{"sets": {"1": "Начало}}', "строка 1, позиция 16: ошибка JSON (строка не закрыта кавычкой)"),
        ('{"sets": {"1": 1}\n "x": 2}', "строка 2, позиция 2: ошибка JSON (пропущена запятая)"),
        ('{"sets": ' + "1" * 5000 + "}", "строка 1, позиция 10: число из 5000 цифр"),
        (json.dumps([1, 2]), "ожидался словарь таблиц"),
    ],
)
def test_a_bad_constants_file_is_refused(data: str, says: str) -> None:
    with pytest.raises(cardbase.CardBaseError, match=r"const\.json") as exc:
        cardbase.import_base(
            cases.BASE_JSON.read_bytes(), "base.json", constants=("const.json", data.encode())
        )
    assert says in str(exc.value)


@pytest.mark.parametrize(
    ("data", "says"),
    [
        ("sets: [1\n", "строка 2, позиция 1: ошибка YAML (в списке […] пропущена запятая или «]»)"),
        ('sets:\n  1: "Начало\n', "ошибка YAML (файл оборвался: не закрыта кавычка или скобка)"),
        ("sets:\n  1: a: b\n", "строка 2, позиция 7: ошибка YAML (двоеточие там, где его не ждали"),
    ],
)
def test_a_constants_file_in_yaml_says_where_and_what_in_russian(data: str, says: str) -> None:
    with pytest.raises(cardbase.CardBaseError) as exc:
        cardbase.import_base(
            cases.BASE_JSON.read_bytes(), "base.json", constants=("const.yaml", data.encode())
        )
    assert str(exc.value).startswith("Файл кодов «const.yaml»") and says in str(exc.value), str(exc.value)
    assert not re.search("[A-Za-z]{4}", str(exc.value).replace("const.yaml", "").replace("YAML", ""))


def test_a_constants_file_renames_codes() -> None:
    data = json.dumps({"creature_types": {"0": "Летающее"}, "sets": {"90": "Иначе"}}).encode()
    base = cardbase.import_base(cases.BASE_JSON.read_bytes(), "base.json", constants=("c.json", data))
    r = base.get("90005")
    assert r is not None and r.subtype == "flyer" and r.set_name == "Иначе"


def test_the_content_address_is_the_files() -> None:
    files = cases.files()
    assert importer.base_id(files) == importer.base_id(list(files)) == cases.json_base().id
    assert importer.base_id([files[0]]) != importer.base_id(files)
    assert importer.base_id([(files[0][0], files[0][1] + b" ")]) != importer.base_id([files[0]])


def test_names_for_the_rules_search() -> None:
    names = cases.json_base().names()
    assert names.count("Степной дозорный") == 1 and "Ар'Гхан" in names
    assert all(lexicon.fold(n) for n in names)


# Bad values inside a record: each one skips its record with a Russian problem naming the record and
# the field; nothing else escapes the importer. -----------------------------------------------------

LONG_DIGITS = "9" * 400


@pytest.mark.parametrize(
    ("field", "value", "says"),
    [
        ("type", True, "type (тип): нужен код типа или слово, а не «true»"),
        ("type", float("nan"), "не указан тип карты (type)"),  # NaN is an empty cell
        ("type", float("inf"), "type (тип): нужен код типа или слово, а не бесконечность"),
        ("type", [0], "type (тип): нужен код типа или слово, а не список"),
        ("type", 10**400, "неизвестный код типа (слишком большое число)"),
        ("hit", f"{LONG_DIGITS}-1-1", "hit (удар): нужно целое число от 0 до 99, а не «9999"),
        ("hit", [1, 2, float("inf")], "hit (удар): нужно целое число от 0 до 99, а не бесконечность"),
        ("hit", [1, 2, 100], "hit (удар): нужно целое число от 0 до 99, а не 100"),
        ("hit", {"weak": 1}, "hit (удар): нужны три числа"),
        ("life", 10**400, "life (жизнь): нужно целое число от 0 до 99, а не слишком большое число"),
        ("life", 1.5e308, "life (жизнь): нужно целое число от 0 до 99"),
        ("life", 100, "life (жизнь): нужно целое число от 0 до 99, а не 100"),
        ("life", True, "life (жизнь): нужно целое число от 0 до 99, а не «true»"),
        ("cost", -1, "cost (стоимость): нужно целое число от 0 до 99, а не -1"),
        ("cost", "1e400", "cost (стоимость): нужно целое число от 0 до 99, а не «1e400»"),
        ("move", 2.5, "move (движение): нужно целое число от 0 до 99, а не 2.5"),
        ("number", 100_000, "number (номер): нужно целое число от 0 до 99 999, а не 100000"),
        ("set_id", 10**6, "set_id (выпуск): нужно целое число от 0 до 99 999"),
        ("set_id", {"id": 1}, "set_id (выпуск): нужна строка или целое число, а не словарь"),
        ("color", True, "color (стихии): нужно целое число от 1 до 99 999, а не «true»"),
        ("color", 10**400, "color (стихии): нужно целое число от 1 до 99 999"),
        ("text", "а" * 5001, "text (текст): длиннее 5 000 знаков (5 001)"),
        ("text", {"ru": "текст"}, "text (текст): нужна строка, а не словарь"),
        ("name", "Б" * 201, "name (название): длиннее 200 знаков (201)"),
        ("name", ["Гоблин"], "name (название): нужна строка, а не список"),
        ("class", {"a": []}, "class (класс): нужна строка или целое число, а не словарь"),
        ("class", "к" * 101, "class (класс): длиннее 100 знаков"),
        ("id", [1], "id: нужна строка или целое число, а не список"),
        ("rarity", [[]], "rarity (редкость): нужна строка или целое число, а не список"),
        ("icons", {"regen": 1000}, "icons (значок regen): нужно целое число от 0 до 99, а не 1000"),
        ("icons", 5, "icons (значки): нужен словарь, список или строка, а не 5"),
        ("elite", float("inf"), "elite: нужно да или нет (true/false, 1/0), а не бесконечность"),
        ("uniq", 2, "uniq: нужно да или нет (true/false, 1/0), а не 2"),
        ("altto", {"id": "90001"}, "altto (основная карта): нужна строка или целое число, а не словарь"),
        ("abilities", "zoo", "abilities (особенности): нужен список, а не «zoo»"),
    ],
)
def test_a_bad_value_skips_its_record_naming_the_field(field: str, value: object, says: str) -> None:
    recs = cases.records()
    recs[1][field] = value  # запись 2: id 90002, «Горный клещ»
    base = cardbase.import_base(cases.dump(recs), "values.json", constants=cases.files()[1])
    report = base.report
    assert report is not None
    mine = [str(p) for p in report.errors if p.where == "запись 2" or p.where.startswith("запись 2 (")]
    assert len(mine) == 1, report.errors
    assert says in mine[0] and mine[0].endswith("запись пропущена"), mine[0]
    assert len(mine[0]) < 400, mine[0]  # a long value is quoted cut short
    assert base.get("90002") is None and report.cards == 25  # the other 25 cards are all there


def test_a_base_names_a_record_with_an_odd_id_or_name_briefly() -> None:
    recs = cases.records()
    recs[1]["id"] = "7" * 300
    recs[3]["name"] = "Скат " * 100
    base = cardbase.import_base(cases.dump(recs), "odd.json", constants=cases.files()[1])
    errors = {p.where: p.what for p in base.report.errors}  # type: ignore[union-attr]
    assert errors["запись 2 (id " + "7" * 40 + "…, «Горный клещ»)"].startswith("id: длиннее 100 знаков")
    assert any(w.startswith("запись 4 (id 90004, «Скат Скат") and w.endswith("…»)") for w in errors), errors


def test_nan_is_an_empty_field_and_whole_floats_are_numbers() -> None:
    recs = cases.records()
    recs[1].update({"elite": float("nan"), "text": float("nan"), "cost": 3.0, "life": "3.0", "set_id": 90.0})
    base = cardbase.import_base(cases.dump(recs), "nan.json", constants=cases.files()[1])
    r = base.get("90002")
    assert r is not None and base.report is not None and base.report.ok, base.report
    assert (r.elite, r.text, r.cost, r.life) == (False, "", 3, 3)
    assert (r.set_id, r.set_name) == ("90", "Пробный выпуск")


@pytest.mark.parametrize(
    ("name", "data", "says"),
    [
        ("long.json", b'[\n  {"name": "A", "life": ' + b"1" * 5000 + b"}]", "строка 2, позиция 25"),
        ("long.yaml", b"cards:\n- {name: A, life: " + b"1" * 5000 + b"}\n", "строка 2, позиция 19"),
    ],
)
def test_a_number_too_long_for_python_refuses_the_file(name: str, data: bytes, says: str) -> None:
    with pytest.raises(cardbase.CardBaseError) as exc:
        cardbase.import_base(data, name)
    assert f"Файл «{name}», {says}: число из 5000 цифр" in str(exc.value), str(exc.value)


def _csv(**fields: str) -> bytes:
    row = {"id": "1", "name": "Гоблин", "type": "0", "life": "3", **fields}
    return (";".join(row) + "\n" + ";".join(row.values()) + "\n").encode()


def test_a_strike_in_a_csv_cell_may_be_written_as_a_list() -> None:
    base = cardbase.import_base(_csv(hit="[1,2,3]"), "list.csv")
    assert base.records[0].strike == (1, 2, 3)


@pytest.mark.parametrize(
    ("fields", "says"),
    [
        ({"hit": f"{LONG_DIGITS}-1-1"}, "hit (удар): нужно целое число от 0 до 99"),
        ({"life": "1" * 5000}, "life (жизнь): нужно целое число от 0 до 99"),
        ({"type": "True"}, "тип «True» неизвестен"),
        ({"set_id": "²"}, ""),  # a digit Python cannot make an int of: a set's name, not a crash
    ],
)
def test_bad_values_in_csv_are_named_too(fields: dict[str, str], says: str) -> None:
    base_or_error: object
    try:
        base_or_error = cardbase.import_base(_csv(**fields), "bad.csv")
    except cardbase.CardBaseError as exc:  # the one card skipped: the file has none to load
        base_or_error = str(exc)
    if not says:
        assert isinstance(base_or_error, cardbase.CardBase) and base_or_error.records[0].set_id == "²"
        return
    assert isinstance(base_or_error, str) and "нет ни одной карты" in base_or_error
    assert "строка 2 (id 1, «Гоблин»): " + says in base_or_error, base_or_error


# Any JSON value in any field of a record: imported, or a Russian problem naming the record and the
# field; never another exception.

_SCALARS = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.sampled_from([10**400, -(10**400), 99, 100, 99_999, 100_000, 2**63])
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=12)
    | st.sampled_from(["nan", "True", "1-2-3", "1.0", f"{LONG_DIGITS}-1-1", "{tap}", "\x00", "²", " "])
    | st.integers(4_990, 5_200).map(lambda n: "ж" * n)
)
_JSON = st.recursive(
    _SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=8,
)
_FIELDS = sorted(
    {k for r in cases.records() for k in r}
    | {"abilities", "incorporeal", "subtype", "strike", "element", "elements", "classes", "unique", "set"}
)
# How a problem names each field (a field named in the problem, or the Russian for it).
_NAMED = {
    "type": ("type", "тип"),
    "subtype": ("subtype", "тип"),
    "name": ("name", "назван"),
    "id": ("id",),
    "altto": ("altto", "альтернативная печать"),
    "abilities": ("abilities", "особенность"),
    "color": ("color", "стихи"),
    "element": ("стихи",),
    "elements": ("стихи",),
    "strike": ("hit (удар)",),
    "classes": ("class",),
    "unique": ("uniq",),
    "set": ("set_id",),
    "icons": ("icons",),
}


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(index=st.integers(0, 27), field=st.sampled_from(_FIELDS), value=_JSON, constants=st.booleans())
@example(index=1, field="type", value=True, constants=False)
@example(index=1, field="type", value=float("nan"), constants=True)
@example(index=1, field="type", value=float("inf"), constants=False)
@example(index=1, field="hit", value=f"{LONG_DIGITS}-1-1", constants=False)
@example(index=1, field="life", value=10**400, constants=False)
@example(index=7, field="id", value=None, constants=False)  # a printing without its id (found by a run)
def test_any_value_in_any_field_imports_or_is_named(
    index: int, field: str, value: object, constants: bool
) -> None:
    recs = cases.records()
    recs[index][field] = value
    data = json.dumps(recs, ensure_ascii=False).encode()  # NaN and Infinity as JSON's extensions
    try:
        base = cardbase.import_base(data, "any.json", constants=cases.files()[1] if constants else None)
    except cardbase.CardBaseError as exc:  # only for a file without a single card: not this one
        pytest.fail(f"the whole file was refused: {exc}")
    report = base.report
    assert report is not None
    where = f"запись {index + 1}"
    mine = [p for p in report.errors if p.where == where or p.where.startswith(where + " (")]
    kept = [r for r in base.records if r.where == where or r.where.startswith(where + " (")]
    # another printing of a card (altto) is folded into that card: under its id, or, with its id
    # gone, under one the importer makes (set-number); either way the card keeps all its printings
    whole = {
        r.id: len(r.alts)
        for r in cardbase.import_base(json.dumps(cases.records()).encode(), "any.json").records
    }
    folded = [
        r
        for r in base.records
        if recs[index].get("id") in r.alts
        or (field == "id" and r.id == str(recs[index].get("altto")) and len(r.alts) == whole[r.id])
    ]
    assert len(mine) + len(kept) + len(folded) >= 1, (field, value, report.errors)
    for p in mine:
        text = str(p)
        assert text.endswith("запись пропущена") and re.search("[а-я]{4}", p.what), text
        if "повтор id" not in text and "альтернативная печать карты" not in text:
            assert any(n in text for n in _NAMED.get(field, (field,))), (field, text)
        assert len(text) < 1000 and not re.search(r"Error|Traceback|could not|invalid", text), text

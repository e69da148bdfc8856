"""What the engine understands of a community card file, by rules section (issue 21 item 4), and
scenarios run on real cards (`python -m engine run --cards`, `card_base`, issue 21 item 3).

The base is scenarios/cards/border.json (with border_const.json): invented cards in the community
format, written by scenarios/cards/make_border.py. Its texts use the wordings of 211, 534 and 535
that the engine models, some it leaves to the judge, valued icons, an erratum and a reprint of an
embedded card with other numbers.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

import cardbase
import engine
from cardbase import cli as cards_cli
from cardbase import coverage, recognise, sources, store
from engine import __main__ as engine_main

ROOT = Path(__file__).resolve().parent.parent
CARDS = ROOT / "scenarios" / "cards"
BORDER, CONST = CARDS / "border.json", CARDS / "border_const.json"


@pytest.fixture(scope="module")
def base() -> cardbase.CardBase:
    return sources.open_named(str(BORDER), str(CONST))


def _record(base: cardbase.CardBase, name: str) -> cardbase.CardRecord:
    [r] = [r for r in base.records if r.name == name]
    return r


def _kinds(r: cardbase.CardRecord) -> list[str]:
    return [m.ability.kind if m.ability else m.prop for m in r.modelled]


def test_the_file_is_what_its_script_writes(tmp_path: Path) -> None:
    import runpy

    script = runpy.run_path(str(CARDS / "make_border.py"))
    cards = [script["record"](*c) for c in script["CARDS"]]
    assert json.loads(BORDER.read_text(encoding="utf-8")) == cards
    assert json.loads(CONST.read_text(encoding="utf-8")) == script["CONSTANTS"]


def test_every_phrase_of_our_sections_is_modelled_or_listed(base: cardbase.CardBase) -> None:
    report = base.report
    assert report is not None and report.ok and report.cards == 20
    expect = {
        "Туманный прыгун": ["incorporeal"],  # «Бестелесный: …»: the keyword, its explanation listed
        "Лесная совушка": ["place_on_own_creature"],
        "Болотный присосок": ["host_cannot_move"],  # «Хозяин Болотного присоска …»: its own name
        "Ржавый падальщик": ["become_parasite"],
        "Каменный домовой": ["cannot_be_relocated"],
        "Призрачный плут": ["incorporeal"],  # from the icon
        "Кровавый жрец": ["replace_destroy_with_exile"],
        "Полуночный страж": ["wound_modifier"],  # «если должен получить раны …, вместо этого …»
        "Глашатай границы": ["summon"],
        "Курганный шаман": ["resurrect"],
        "Пепельный феникс": ["incarnation"],
        "Стяжатель воли": ["take_control"],
        "Отшельник курганов": ["cannot_join_with"],
        "Сторожевой огонёк": ["aux_zone"],
        "Светлый пустынник": ["cannot_join_with_element"],  # «… с существами Тьмы»
    }
    for name, kinds in expect.items():
        assert _kinds(_record(base, name)) == kinds, name
    shaman = _record(base, "Курганный шаман").abilities[0]
    assert shaman.get("where") == "own_third_row" and shaman.get("closed") is True
    guard = _record(base, "Полуночный страж").abilities[0]
    assert (guard.get("delta"), guard.get("damage_kinds"), guard.get("source_flying")) == (
        -1,
        ("strike",),
        True,
    )
    taker = _record(base, "Стяжатель воли").abilities[0]
    assert taker.get("adjacent") is True and taker.get("once_per_battle") is True
    jumper = _record(base, "Туманный прыгун")
    assert jumper.unmodelled == ("Бестелесный: все немагические атаки по нему наносят на 1 рану меньше.",)
    assert "движок не моделирует" in jumper.modelled[0].caveat
    # «Без особенностей» says nothing to model and leaves nothing to the judge
    assert _record(base, "Вайл").unmodelled == () and _record(base, "Вайл").modelled == ()


def test_what_is_left_to_the_judge_is_listed_whole(base: cardbase.CardBase) -> None:
    golem = _record(base, "Торфяной голем")
    assert golem.unmodelled == (
        "Защита от выстрелов и метания.",
        "значок «броня 2»",
        "значок «регенерация 1»",
        "значок «опыт в атаке 1»",
    )
    whirl = _record(base, "Вихрь пустошей")
    assert whirl.unmodelled == (
        "Направленный удар.",
        "[Эррата 2024.05.12: «удар через ряд» заменён на «направленный удар».]",
    )
    assert _record(base, "Зовущий рог").unmodelled == (
        "[закрыть]: вызвать 2 существа из своей колоды рядом с собой.",
    )


def test_coverage_by_section(base: cardbase.CardBase) -> None:
    report = coverage.coverage(base)
    counts = {s.code: (len(s.modelled), len(s.unmodelled)) for s in report.sections}
    assert counts == {"211": (6, 1), "534": (2, 0), "535": (7, 1), coverage.OTHER: (0, 8)}
    s211 = report.section("211").cards()
    assert s211["partly"] == ["Туманный прыгун"] and s211["none"] == []
    assert {"Каменный домовой", "Болотный присосок"} <= set(s211["full"])
    assert report.section("534").cards() == {
        "full": ["Полуночный страж", "Кровавый жрец"],
        "partly": [],
        "none": [],
    }
    assert [p.name for p in report.section("535").unmodelled] == ["Зовущий рог"]
    # every piece of every card is in the report, once per section it belongs to
    pieces = sum(len(s.pieces) for s in report.sections)
    assert pieces == sum(len(r.modelled) + len(r.unmodelled) for r in base.records)


def _cards(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = cards_cli.main(list(args), out, err)
    return code, out.getvalue(), err.getvalue()


def test_the_coverage_command_prints_the_table_and_json() -> None:
    code, out, _ = _cards("coverage", str(BORDER), "--constants", str(CONST))
    assert code == 0
    lines = out.splitlines()
    assert any(line.split()[:4] == ["211", "Симбиоты", "6", "1"] for line in lines), out
    assert "Туманный прыгун: Бестелесный: все немагические атаки по нему наносят на 1 рану меньше." in out
    code, out, _ = _cards("coverage", str(BORDER), "--constants", str(CONST), "--json")
    data = json.loads(out)
    assert [s["section"] for s in data["sections"]] == ["211", "534", "535", coverage.OTHER]
    assert data["sections"][2]["cards"]["none"] == ["Зовущий рог"]
    code, _, err = _cards("coverage", "нет-такой-базы")
    assert code == 2 and "не файл карт и не база, сохранённая на сервере" in err


def test_a_wound_change_it_cannot_read_in_full_stays_text() -> None:
    # «немагические атаки» names no kind of game action the engine has: the judge decides
    assert (
        recognise.recognise_sentence(
            "Если должен получить раны от немагических атак, вместо этого получает на 1 рану меньше."
        )
        is None
    )
    assert (
        recognise.recognise_sentence("Если должен получить раны от удара, вместо этого получает меньше.")
        is None
    )


@pytest.mark.parametrize(
    ("sentence", "cards"),
    [
        ("Не может быть взят в отряд с Курганным шаманом.", ("Курганный шаман",)),
        ("Не может быть взята в отряд с Гоблином-вором или Вайлом.", ("Гоблин-вор", "Вайл")),
        ("Не может быть взята в отряд с Гоблином.", ("Гоблин",)),
        ("Не может быть взята в отряд с Горным троллем.", None),  # no such card in the base
    ],
)
def test_a_name_declined_in_the_text_is_the_base_card(sentence: str, cards: tuple[str, ...] | None) -> None:
    names = {n.lower(): n for n in ("Курганный шаман", "Гоблин", "Гоблин-вор", "Вайл", "Горный клещ")}
    got = recognise.recognise_sentence(sentence, names)
    assert (got.ability.get("cards") if got and got.ability else None) == cards


def test_an_element_the_base_names_otherwise_stays_text() -> None:
    # the same sentence, modelled where the base calls the element «Тьма», listed where it does not
    text = "Не может быть взят в отряд с существами Тьмы."
    card = json.dumps(
        [{"name": "Светлячок", "type": 0, "life": 3, "color": 1, "text": text}], ensure_ascii=False
    )
    for dark, modelled in (("Тьма", True), ("Тёмные", False)):
        consts = json.loads(CONST.read_text(encoding="utf-8"))
        consts["colors"]["16"] = dark
        base = cardbase.import_base(
            card.encode(), "x.json", constants=("c.json", json.dumps(consts, ensure_ascii=False).encode())
        )
        r = base.records[0]
        assert bool(r.abilities) is modelled, dark
        assert (r.unmodelled == ()) is modelled, dark


def test_a_text_about_the_host_names_the_card_itself() -> None:
    sentence = "Хозяин Болотного присоска не может двигаться."
    got = recognise.recognise_sentence(sentence, own="Болотный присосок")
    assert got is not None and got.ability is not None and got.ability.kind == "host_cannot_move"
    assert recognise.recognise_sentence(sentence, own="Вайл") is None  # another card's host: text
    assert recognise.recognise_sentence("Хозяин этого паразита не может двигаться.") is not None


def test_a_quoted_name_keeps_its_letters_when_the_base_lacks_it() -> None:
    got = recognise.recognise_sentence("Может вызвать «Ёжик Лесной» рядом с собой.")
    assert got is not None and got.ability is not None and got.ability.get("card") == "Ёжик Лесной"


def test_sentences_keep_brackets_and_errata_whole() -> None:
    text = "Броня. [Эррата 2023.04.08: текст изменён. Было: «a. b».] Дальше (см. п. 1.2. тут)."
    assert recognise.sentences(text) == [
        "Броня.",
        "[Эррата 2023.04.08: текст изменён. Было: «a. b».]",
        "Дальше (см. п. 1.2. тут).",
    ]


@pytest.mark.parametrize(
    ("sentence", "kind"),
    [
        ("Бестелесен.", "incorporeal"),
        ("Существо бестелесно.", "incorporeal"),
        ("Не может быть перемещена другими картами.", "cannot_be_relocated"),
        ("Может взять под контроль существо противника рядом с собой.", "take_control"),
        ("Может вызвать «Гоблин» рядом с собой в закрытом виде.", "summon"),
        ("Получая раны от ударов и воздействий, вместо этого получает на 2 раны больше.", "wound_modifier"),
    ],
)
def test_more_wordings_of_our_sections(sentence: str, kind: str) -> None:
    got = recognise.recognise_sentence(sentence)
    assert got is not None and (got.prop or (got.ability.kind if got.ability else "")) == kind


# -- real cards in scenarios ----------------------------------------------------------------

SCENARIO = """\
title: "Кто сильнее: карта базы или карта движка?"
setup:
  phase: battle
  active: A
  cards:
    - {id: vail, card: "Вайл", owner: A, at: c2}
    - {id: und, card: "Карлик Унд", owner: B, host: vail}
    - {id: wolf, card: "Пограничный волк", owner: B, at: c3}
steps:
  - wound: {card: wolf, amount: 1}
    expect:
      verdict: legal
      cards:
        vail: {life: LIFE}
        wolf: {wounds: 1}
"""


def _engine(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = engine_main.main(list(args), out, err)
    return code, out.getvalue(), err.getvalue()


def test_run_with_cards_reads_names_from_the_base_first(tmp_path: Path) -> None:
    f = tmp_path / "s.yaml"
    f.write_text(SCENARIO.replace("LIFE", "15"), encoding="utf-8")
    code, out, _ = _engine("run", str(f), "--cards", str(BORDER), "--constants", str(CONST))
    assert code == 0, out  # «Вайл» is the base's record (life 15), «Карлик Унд» the embedded card
    # without the base, «Пограничный волк» is nowhere
    code, out, _ = _engine("run", str(f))
    assert code == 2 and "карты «Пограничный волк» нет в библиотеке" in out
    missing = tmp_path / "m.yaml"
    missing.write_text(
        SCENARIO.replace("LIFE", "15").replace("Пограничный волк", "Пограничный вол"), encoding="utf-8"
    )
    code, out, _ = _engine("run", str(missing), "--cards", str(BORDER), "--constants", str(CONST))
    assert code == 2
    assert "карты «Пограничный вол» нет ни в базе «border.json», ни во встроенной библиотеке движка" in out
    assert "«Пограничный волк»" in out  # the nearest names, the base's among them
    code, _, err = _engine("run", str(f), "--cards", str(tmp_path / "нет.json"))
    assert code == 2 and "база карт" in err and "нет.json" in err


def test_check_with_cards_runs_a_folder_on_the_base(tmp_path: Path) -> None:
    (tmp_path / "a.yaml").write_text(SCENARIO.replace("LIFE", "15"), encoding="utf-8")
    code, out, _ = _engine("check", str(tmp_path), "--cards", str(BORDER), "--constants", str(CONST))
    assert code == 0 and "выполнены: 1" in out
    code, _, err = _engine("check", str(tmp_path), "--constants", str(CONST))
    assert code == 2 and "--constants" in err


def test_a_scenario_names_a_base_stored_on_the_server(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(store.ENV_VAR, str(tmp_path / "cards"))
    shelf = store.default_store()
    files = [(BORDER.name, BORDER.read_bytes()), (CONST.name, CONST.read_bytes())]
    stored = shelf.save(cardbase.import_base(files[0][1], files[0][0], constants=files[1]), files)
    for key in (stored.id, "border.json"):
        f = tmp_path / "s.yaml"
        f.write_text(f'card_base: "{key}"\n' + SCENARIO.replace("LIFE", "15"), encoding="utf-8")
        code, out, _ = _engine("run", str(f))
        assert code == 0, out
    f.write_text('card_base: "0123456789abcdef"\n' + SCENARIO.replace("LIFE", "15"), encoding="utf-8")
    code, out, _ = _engine("run", str(f))
    assert code == 2 and "card_base" in out and "0123456789abcdef" in out


def test_a_scenario_that_names_a_base_is_refused_where_no_base_opens(tmp_path: Path) -> None:
    import casebook

    f = tmp_path / "s.yaml"
    f.write_text(
        f"card_base: {{file: {BORDER}, constants: {CONST}}}\n" + SCENARIO.replace("LIFE", "15"),
        encoding="utf-8",
    )
    with pytest.raises(casebook.ScenarioError, match="здесь базы карт не открываются"):
        casebook.load_scenario(f)
    sc = casebook.load_scenario(f, cards=sources.scenario_cards())
    assert sc.library is not None and sc.library.label == "border.json"
    result = casebook.run_scenario(sc)
    assert result.ok
    assert engine.card_props(engine.build_state(sc.setup, sc.library), "vail")["life"] == 15

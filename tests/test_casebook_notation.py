"""The position notation (casebook/notation/): reading, writing back, errors that name the word and
its place, the same name tolerance as scenario files, and `setup.position` in a scenario file."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import casebook
import engine
import lexicon
from casebook import notation

KARLIK = "B Вайл c4; A Карлик Унд на Вайл; B Орк (Наземное существо) d4 раны 2"


def _specs(text: str, library: engine.CardLibrary) -> list[tuple[object, ...]]:
    return [
        (c.id, c.card, c.owner, c.at, c.host, c.wounds, c.controller, c.closed, c.hidden)
        for c in notation.read_position(text, library).cards
    ]


def test_the_karlik_und_position_in_one_line(library: engine.CardLibrary) -> None:
    assert _specs(KARLIK, library) == [
        ("vail", "Вайл", "B", "c4", None, 0, None, False, False),
        ("karlik_und", "Карлик Унд", "A", None, "vail", 0, None, False, False),
        ("ork", {"template": "Наземное существо", "name": "Орк"}, "B", "d4", None, 2, None, False, False),
    ]
    state = engine.build_state(
        engine.Setup("battle", "A", cards=list(notation.read_position(KARLIK, library).cards))
    )
    assert engine.card_props(state, "karlik_und")["host"] == "vail"


def test_a_judge_types_it_loosely(library: engine.CardLibrary) -> None:
    # Russian-keyboard «с4» and «А», lower case, an inflected host, commas, new lines, any order.
    loose = (
        "B вайл с4,\nА карлик унд на Вайла\n"
        "B Орк (наземное существо, жизнь 6) закрыта d4 контроль A раны 2 скрыта"
    )
    specs = _specs(loose, library)
    assert specs[0][:4] == ("vail", "Вайл", "B", "c4")
    assert specs[1][:5] == ("karlik_und", "Карлик Унд", "A", None, "vail")
    assert specs[2] == (
        "ork",
        {"template": "Наземное существо", "name": "Орк", "life": 6},
        "B",
        "d4",
        None,
        2,
        "A",
        True,
        True,
    )
    zones = _specs(
        "A Бул’Багур в руке; B Вайл на кладбище жетоны 2; B Сугед в колоде; A Вайл во вспомогательной зоне",
        library,
    )
    assert [(s[0], s[1], s[3]) for s in zones] == [
        ("bulbagur", "Бул'Багур", "hand"),
        ("vail", "Вайл", "graveyard"),
        ("suged", "Сугед", "deck"),
        ("vail2", "Вайл", "aux"),
    ]


def test_the_header_and_written_ids(library: engine.CardLibrary) -> None:
    pos = notation.read_position(
        "фаза вскрытие, ход 2, активный B; B Вайл c4 id v; A Карлик Унд на v", library
    )
    assert dict(pos.header) == {"phase": "reveal", "turn": 2, "active": "B"}
    assert [(c.id, c.host) for c in pos.cards] == [("v", None), ("karlik_und", "v")]
    # a written id is never taken by a made one, whatever the order
    pos = notation.read_position("B Вайл c4; B Вайл c5 id vail", library)
    assert [c.id for c in pos.cards] == ["vail2", "vail"]


@pytest.mark.parametrize(
    ("text", "where", "token", "detail"),
    [
        ("B Вайлл c4", "знак 3", "Вайлл", "нет в библиотеке; похожие: «Вайл»"),
        ("C Вайл c4", "знак 1", "C", "владельца: A или B"),
        ("B Вайл", "знак 3", "Вайл", "не сказано, где карта"),
        ("B Вайл c4 c5", "знак 11", "c5", "место карты уже указано («c4»)"),
        ("B Вайл c4 раны x", "знак 16", "x", "после «раны» — целое число"),
        ("B Вайл c4 раны 5000", "знак 16", "5000", "число от 0 до 999"),
        ("B Вайл c4 летает", "знак 11", "летает", "ожидается клетка"),
        (
            "B Вайл c4; A Карлик Унд на Орка",
            "знак 28",
            "Орка",
            "такой карты в позиции нет; есть: «Вайл», «Карлик Унд»",
        ),
        (
            "B Вайл c4; B Вайл c5; A Карлик Унд на Вайл",
            "знак 39",
            "Вайл",
            "несколько таких карт: укажите id (vail, vail2)",
        ),
        ("A Карлик Унд на Карлик Унд", "знак 17", "Карлик Унд", "на саму себя"),
        ("B Орк (Шаблон) d4", "знак 7", "(Шаблон)", "сначала шаблон своей карты: Наземное существо"),
        ("B Орк (Наземное существо, жизнь) d4", "знак 7", "жизнь", "после «жизнь» — целое число"),
        ("B Вайл c4 (", "знак 11", "(", "скобка «(» не закрыта"),
        ("B Вайл c4 id 9x", "знак 14", "9x", "id — латинские буквы"),
        ("B Вайл c4\nB Вайл c5 id vail\nB Вайл e5 id vail", "строка 3, знак 14", "vail", "такой id уже есть"),
        ("фаза ночь; B Вайл c4", "знак 6", "ночь", "фаза: набор, рассадка, вскрытие или бой"),
    ],
)
def test_errors_name_the_word_and_its_place(
    library: engine.CardLibrary, text: str, where: str, token: str, detail: str
) -> None:
    with pytest.raises(notation.NotationError) as err:
        notation.read_position(text, library)
    message = str(err.value)
    assert message.startswith(f"{where}, «{token}»: "), message
    assert detail in message, message


def test_writing_gives_back_the_same_cards(library: engine.CardLibrary) -> None:
    text = (
        "фаза вскрытие, активный B; B Вайл c4; A Карлик Унд на Вайл; "
        "B «Орк на c5» (Наземное существо, жизнь 6) d4 раны 2"
    )
    pos = notation.read_position(text, library)
    setup = engine.Setup(phase="reveal", active="B", cards=list(pos.cards))
    written = notation.write_position(setup, library)
    assert written == text
    assert notation.read_position(written, library).cards == pos.cards
    # the Карлик Унд scenario's own ids are kept by writing them
    sc = casebook.load_scenario(Path("scenarios/official/211.3.1_karlik_und.yaml"))
    line = notation.write_position(sc.setup, library)
    assert line == "B Вайл c4; A Карлик Унд на Вайл id und; B Орк (Наземное существо, жизнь 5) d4 id orc"
    assert list(notation.read_position(line, library).cards) == sc.setup.cards


def test_an_own_card_with_abilities_is_refused_in_words(library: engine.CardLibrary) -> None:
    spec = engine.CardSpec(
        id="x",
        card={"name": "Колдун", "type": "creature", "life": 3, "abilities": [{"kind": "aux_zone"}]},
        owner="A",
        at="aux",
    )
    with pytest.raises(notation.NotationError, match="сохраните стол файлом"):
        notation.write_position(engine.Setup("battle", "A", cards=[spec]), library)


_NAMES = ("Вайл", "Карлик Унд", "Сугед", "Бул'Багур", "Вожак сатиров", "Многоликий")


@st.composite
def _setups(draw: st.DrawFn) -> engine.Setup:
    cells = draw(st.lists(st.sampled_from(engine.CELLS), unique=True, max_size=8))
    cards = []
    for i, cell in enumerate(cells):
        own = draw(st.booleans())
        name = (
            draw(st.sampled_from(_NAMES))
            if not own
            else draw(st.sampled_from(("Орк", "Клещ на c4", "A", "Гоблин (злой)")))
        )
        card: str | dict[str, object] = (
            name
            if not own
            else {"template": "Наземное существо", "name": name, "life": draw(st.integers(1, 9))}
        )
        at = draw(st.sampled_from((cell, cell, "hand", "graveyard", "deck", "exile")))
        cards.append(
            engine.CardSpec(
                id=draw(st.sampled_from((f"c{i}", notation.latin_id(name)))) + ("" if i == 0 else str(i)),
                card=card,
                owner=draw(st.sampled_from(engine.PLAYERS)),
                at=at,
                controller=draw(st.sampled_from((None, "A", "B"))),
                closed=draw(st.booleans()),
                hidden=draw(st.booleans()),
                wounds=draw(st.integers(0, 3)),
                tokens=draw(st.integers(0, 2)) if at == "graveyard" else 0,
                incorporeal=draw(st.sampled_from((None, True, False))),
            )
        )
    if len(cards) >= 2 and draw(st.booleans()):  # a symbiote on the first card
        cards[1] = engine.CardSpec(id=cards[1].id, card="Карлик Унд", owner=cards[1].owner, host=cards[0].id)
    return engine.Setup(
        phase=draw(st.sampled_from(("battle", "reveal", "recruit"))),
        active=draw(st.sampled_from(engine.PLAYERS)),
        turn=draw(st.integers(1, 5)),
        cards=cards,
    )


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(setup=_setups())
def test_any_position_reads_back_as_written(library: engine.CardLibrary, setup: engine.Setup) -> None:
    text = notation.write_position(setup, library)
    pos = notation.read_position(text, library)
    expected = [
        engine.CardSpec(**{**c.__dict__, "controller": None if c.controller == c.owner else c.controller})
        for c in setup.cards
    ]
    assert list(pos.cards) == expected, text
    assert pos.header.get("phase", "battle") == setup.phase and pos.header.get("turn", 1) == setup.turn


def _scenario(setup: str) -> str:
    steps = "steps:\n  - take_control: {card: vail, by: A}\n    expect: {verdict: legal}\n"
    return f'title: "Позиция строкой"\nsetup:\n{setup}{steps}'


def test_a_scenario_setup_may_be_a_position(library: engine.CardLibrary, index: object) -> None:
    one_line = _scenario('  position: "B Вайл c4; A Карлик Унд на Вайл; B Орк (Наземное существо) d4"\n')
    sc = casebook.load_scenario_text(one_line, "stroka.yaml", library=library, index=index)  # type: ignore[arg-type]
    assert [c.id for c in sc.setup.cards] == ["vail", "karlik_und", "ork"]
    assert casebook.run_scenario(sc).ok
    assert dict(sc.card_lines) == {"vail": 3, "karlik_und": 3, "ork": 3}


@pytest.mark.parametrize(
    ("setup", "line", "key", "detail"),
    [
        (
            "  position: |\n    B Вайл c4\n    A Карлик Унд на Сугеда\n",
            5,
            "position",
            "строка 2, знак 17, «Сугеда»: такой карты в позиции нет",
        ),
        (
            "  position: |\n    B Вайл c4\n    B Вайл c4\n",
            5,
            "position",
            "карта vail2: клетка c4 уже занята картой vail",
        ),
        ('  position: "B Вайл c4"\n  cards: []\n', 4, "cards", "либо cards, либо position"),
        ('  position: "ход 2; B Вайл c4"\n', 3, "position", "setup.turn"),
    ],
)
def test_position_errors_are_located_in_the_file(
    library: engine.CardLibrary, index: object, setup: str, line: int, key: str, detail: str
) -> None:
    with pytest.raises(casebook.ScenarioError) as err:
        casebook.load_scenario_text(_scenario(setup), "stroka.yaml", library=library, index=index)  # type: ignore[arg-type]
    problem = err.value.problems[0]
    assert (problem.line, problem.key) == (line, key), str(err.value)
    assert detail in problem.message, str(err.value)


def test_names_with_brackets_commas_and_quotes_round_trip() -> None:
    """A base's cards whose names hold brackets, commas, a word that ends a name, or quotes: written
    in quotes, read back as the same cards; the unquoted bracket name of a base card reads too."""
    import types

    from tests import cardbase_cases

    base = cardbase_cases.loaded().library
    names = {
        "Степной дозорный (Пробный выпуск, №1)": "c3",
        "Гном, сын гор": "b3",
        "Страж на стене": "d3",
        "Бутыль «Джинн»": "a3",
        'Свиток "Мира", том 2': "e3",
    }
    extra = {
        lexicon.fold(n): engine.CardDef(name=n, type="creature", subtype="ground", life=3)
        for n in list(names)[1:]
    }
    lib = engine.CardLibrary(
        cards=types.MappingProxyType({**base.cards, **extra}), template_defs=base.template_defs
    )
    setup = engine.Setup(
        "battle",
        "A",
        cards=[
            engine.CardSpec(id=f"c{i}", card=n, owner="A", at=cell)
            for i, (n, cell) in enumerate(names.items(), 1)
        ]
        + [engine.CardSpec(id="h", card="Горный клещ", owner="B", host="c1")],
    )
    text = notation.write_position(setup, lib)
    assert "A «Степной дозорный (Пробный выпуск, №1)» c3" in text
    assert "«Гном, сын гор»" in text and "«Страж на стене»" in text
    assert '"Бутыль «Джинн»"' in text and '«Свиток "Мира", том 2»' in text  # the quote it does not hold
    assert "на «c1»" in text  # an id that reads as a cell is quoted too
    back = notation.read_position(text, lib)
    assert [(c.card, c.at, c.host) for c in back.cards] == [(c.card, c.at, c.host) for c in setup.cards]
    # typed without quotes, the base's bracket name still means its card, not an own card
    (card,) = notation.read_position("A Степной дозорный (Пробный выпуск, №1) c3", lib).cards
    assert card.card == "Степной дозорный (Пробный выпуск, №1)"
    with pytest.raises(notation.NotationError, match="кавычками обоих видов"):
        notation.quoted('«Стрела» и "Лук"')

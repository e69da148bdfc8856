"""The scenario loader: every bad file gets a Russian message naming file, line and key."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import casebook
import engine
import rules_index
from casebook import ScenarioError
from tests.casebook_cases import VAIL, error_of, load


def test_good_file_loads_with_lines(index: rules_index.RulesIndex, library: engine.CardLibrary) -> None:
    s = load(VAIL, index, library)
    assert s.title.startswith("Может ли Вайл")
    assert [c.id for c in s.setup.cards] == ["vail", "und", "orc"]
    assert s.setup.cards[1].host == "vail"
    assert [st.action.kind for st in s.steps] == ["take_control", "attack"]
    assert [st.line for st in s.steps] == [11, 17]
    first = s.steps[0].expect
    assert first is not None and first.fired == ("535.8",)
    assert first.cards[0].props == (("controller", "A"), ("control_marker", True))


def test_unquoted_clause_id_is_refused_with_the_quoting_advice(
    index: rules_index.RulesIndex, library: engine.CardLibrary
) -> None:
    text = VAIL.replace('forbidden_by: ["211.3.1"]', "forbidden_by: [211.10]")
    err = error_of(text, index, library)
    msg = str(err)
    assert "пишите '211.10' в кавычках" in msg
    assert "x.yaml, строка 18" in msg
    assert "«forbidden_by»" in msg


def test_unquoted_two_part_id_is_refused_too(
    index: rules_index.RulesIndex, library: engine.CardLibrary
) -> None:
    err = error_of(VAIL.replace('fired: ["535.8"]', "fired: [535.8]"), index, library)
    assert "пишите '535.8' в кавычках" in str(err)
    assert err.line == 14 and err.key == "fired"


def test_unknown_clause_id_is_an_error_with_nearest(
    index: rules_index.RulesIndex, library: engine.CardLibrary
) -> None:
    err = error_of(VAIL.replace('fired: ["535.8"]', 'fired: ["535.88"]'), index, library)
    msg = str(err)
    assert "пункта 535.88 нет в загруженных правилах" in msg
    assert "535.8" in msg.split("ближайшие:")[1]
    assert err.line == 14


def test_absent_but_cited_clause_is_accepted(
    index: rules_index.RulesIndex, library: engine.CardLibrary
) -> None:
    s = load(VAIL.replace('fired: ["535.8"]', 'fired: ["537"]'), index, library)
    assert s.steps[0].expect is not None and s.steps[0].expect.fired == ("537",)


def test_unknown_assumption_id_is_an_error(
    index: rules_index.RulesIndex, library: engine.CardLibrary
) -> None:
    err = error_of(VAIL.replace('fired: ["535.8"]', 'assumptions: ["A999"]'), index, library)
    assert "допущения A999 нет" in str(err)


def test_unknown_card_suggests_nearest_names(
    index: rules_index.RulesIndex, library: engine.CardLibrary
) -> None:
    err = error_of(VAIL.replace('card: "Вайл"', 'card: "Вайлл"'), index, library)
    msg = str(err)
    assert "карты «Вайлл» нет в библиотеке" in msg
    assert "«Вайл»" in msg
    assert err.line == 7 and err.key == "card"


def test_card_name_matching_folds_apostrophe_and_case(
    index: rules_index.RulesIndex, library: engine.CardLibrary
) -> None:
    s = load(VAIL.replace('card: "Вайл"', 'card: "бул’багур"'), index, library)
    assert s.setup.cards[0].card == "бул’багур"


def test_bad_yaml_names_file_and_line(index: rules_index.RulesIndex, library: engine.CardLibrary) -> None:
    err = error_of("title: x\nsetup: {cards: [\nsteps: []\n", index, library)
    assert str(err).startswith(
        "x.yaml, строка 2, ключ «setup»: это не корректный YAML: в списке […] пропущена запятая или «]»"
    )
    err = error_of("title: x\nsource: Вопрос: почему?\n", index, library)
    assert err.line == 2 and err.key == "source" and "возьмите текст в кавычки" in str(err)
    err = error_of("title: x\nsetup:\n\tphase: battle\n", index, library)
    assert err.line == 3 and "табуляция" in str(err)


@pytest.mark.parametrize(
    "text",
    [
        "title: x\nsetup: {cards: [\nsteps: []\n",
        "title: x\nsteps: [a, , b]\n",
        "title: 'x\n",
        "a: b\n---\nc: d\n",
        "title: x\n  bad: indent\n",
        "title: @x\n",
    ],
)
def test_broken_yaml_is_explained_in_russian_only(
    text: str, index: rules_index.RulesIndex, library: engine.CardLibrary
) -> None:
    # PyYAML's own messages are English; a judge gets the line, the key and a Russian hint.
    message = str(error_of(text, index, library))
    assert "строка" in message and "YAML" in message
    # the keys in «» are the file's own words
    own_words = re.sub(r"«[^»]*»", "", message).replace("YAML", "").replace("x.yaml", "")
    assert not re.search(r"[A-Za-z]{3,}", own_words), message


def test_python_tag_is_refused(index: rules_index.RulesIndex, library: engine.CardLibrary) -> None:
    text = VAIL.replace('source: "ПРИМЕР к 211.3.1"', "source: !!python/object/apply:os.system ['echo hi']")
    err = error_of(text, index, library)
    assert "недопустимый тег YAML" in str(err)
    assert err.line == 2 and err.key == "source"


def test_custom_tag_is_refused(index: rules_index.RulesIndex, library: engine.CardLibrary) -> None:
    err = error_of(VAIL.replace("active: A", "active: !player A"), index, library)
    assert "недопустимый тег" in str(err) and err.line == 5


def test_aliases_are_refused(index: rules_index.RulesIndex, library: engine.CardLibrary) -> None:
    text = VAIL.replace('title: "Может', 'title: &t "Может').replace(
        'source: "ПРИМЕР к 211.3.1"', "source: *t"
    )
    err = error_of(text, index, library)
    assert "ссылки YAML" in str(err)


def test_oversized_file_is_refused(
    index: rules_index.RulesIndex, library: engine.CardLibrary, tmp_path: Path
) -> None:
    big = VAIL + "#" + "x" * casebook.MAX_BYTES + "\n"
    err = error_of(big, index, library)
    assert "файл слишком большой" in str(err) and "x.yaml" in str(err)
    path = tmp_path / "big.yaml"
    path.write_text(big, encoding="utf-8")
    with pytest.raises(ScenarioError, match="файл слишком большой"):
        casebook.load_scenario(path, index=index, library=library)


def test_unknown_key_names_line_key_and_suggestion(
    index: rules_index.RulesIndex, library: engine.CardLibrary
) -> None:
    err = error_of(
        VAIL.replace("    expect: {verdict: illegal", "    expcet: {verdict: illegal"), index, library
    )
    # A misspelt `expect` looks like a second action in the step.
    assert err.line == 17
    err = error_of(VAIL.replace("      fired:", "      fird:"), index, library)
    msg = str(err)
    assert "x.yaml, строка 14, ключ «fird»" in msg
    assert "fired" in msg and "неизвестный ключ" in msg
    err = error_of(VAIL.replace("source:", "sourse:"), index, library)
    assert err.line == 2 and err.key == "sourse" and "source" in str(err)


def test_unknown_card_property_in_expect(index: rules_index.RulesIndex, library: engine.CardLibrary) -> None:
    err = error_of(VAIL.replace("control_marker: true", "marker: true"), index, library)
    assert err.line == 16 and err.key == "marker"
    assert "control_marker" in str(err)


def test_duplicate_key_is_refused(index: rules_index.RulesIndex, library: engine.CardLibrary) -> None:
    err = error_of(VAIL.replace('source: "ПРИМЕР к 211.3.1"', 'title: "ещё раз"'), index, library)
    assert err.line == 2 and err.key == "title" and "повторяется" in str(err)


def test_unknown_action_suggests(index: rules_index.RulesIndex, library: engine.CardLibrary) -> None:
    err = error_of(VAIL.replace("  - attack:", "  - atack:"), index, library)
    msg = str(err)
    assert err.line == 17 and err.key == "atack"
    assert "неизвестное действие" in msg and "attack" in msg


def test_bad_action_argument_names_it(index: rules_index.RulesIndex, library: engine.CardLibrary) -> None:
    err = error_of(VAIL.replace("{card: vail, by: A}", "{card: vail, by: C}"), index, library)
    assert err.line == 11 and "by" in str(err)


def test_unknown_card_id_in_action_suggests(
    index: rules_index.RulesIndex, library: engine.CardLibrary
) -> None:
    err = error_of(VAIL.replace("attacker: vail", "attacker: vial"), index, library)
    assert err.line == 17 and err.key == "attacker"
    assert "«vial»" in str(err) and "vail" in str(err)


def test_bad_cell_and_missing_place(index: rules_index.RulesIndex, library: engine.CardLibrary) -> None:
    err = error_of(VAIL.replace("at: c4", "at: f9"), index, library)
    assert err.line == 7 and err.key == "at"
    err = error_of(VAIL.replace(", at: d4", ""), index, library)
    assert err.line == 9 and err.key == "at"


def test_engine_setup_error_is_located_on_its_card(
    index: rules_index.RulesIndex, library: engine.CardLibrary
) -> None:
    # Two cards on one cell: the engine refuses the position; the loader points at the card.
    err = error_of(VAIL.replace("at: d4", "at: c4"), index, library)
    assert err.line == 9 and "c4" in str(err)


def test_several_problems_are_all_reported(
    index: rules_index.RulesIndex, library: engine.CardLibrary
) -> None:
    text = VAIL.replace("sourse", "source").replace("source:", "sorce:").replace("owner: A", "owner: C")
    err = error_of(text, index, library)
    assert len(err.problems) >= 2
    assert {p.line for p in err.problems} >= {2, 8}


def test_missing_required_keys(index: rules_index.RulesIndex, library: engine.CardLibrary) -> None:
    err = error_of("title: 'Вопрос?'\n", index, library)
    assert {p.key for p in err.problems} == {"setup", "steps"}
    err = error_of("- a\n- b\n", index, library)
    assert "словарь" in str(err)
    err = error_of("", index, library)
    assert "файл пуст" in str(err)


def test_missing_file_and_bad_encoding(
    index: rules_index.RulesIndex, library: engine.CardLibrary, tmp_path: Path
) -> None:
    with pytest.raises(ScenarioError, match="файл не найден"):
        casebook.load_scenario(tmp_path / "nope.yaml", index=index, library=library)
    bad = tmp_path / "bad.yaml"
    bad.write_bytes("title: 'Вопрос'\n".encode("cp1251"))
    with pytest.raises(ScenarioError, match="UTF-8"):
        casebook.load_scenario(bad, index=index, library=library)


def test_xfail_needs_a_reason(index: rules_index.RulesIndex, library: engine.CardLibrary) -> None:
    err = error_of(VAIL.replace("  - attack:", "  - xfail: ''\n    attack:"), index, library)
    assert err.key == "xfail"


# A position written in block style, one key per line, so that a key's line differs from its card's.
BLOCK = """\
title: "Где стоит Орк?"
seed: 3
setup:
  phase: battle
  turn: 2
  cards:
    - id: vail
      card: "Вайл"
      owner: B
      at: c4
    - id: orc
      card: {template: "Наземное существо", name: "Орк"}
      owner: B
      wounds: 0
      at: d4
steps:
  - end_turn: {}
"""


@pytest.mark.parametrize(
    ("old", "new", "line", "key", "words"),
    [
        # The engine judges the position; the loader puts its complaint on the key that wrote it.
        ("      at: d4", "      at: c4", 15, "at", ("карта orc", "c4", "занята")),
        ("      at: d4", "      at: e9", 15, "at", ("карта orc", "«e9»")),
        ("      wounds: 0", "      wounds: 9", 14, "wounds", ("карта orc", "погибло")),
        ("      wounds: 0", "      controller: A", 14, "controller", ("карта orc",)),
        ('name: "Орк"}', 'name: "Орк", life: много}', 12, "card", ("карта orc",)),
        ("  phase: battle", "  phase: batle", 4, "phase", ("«batle»", "battle")),
        ("  turn: 2", "  turn: 0", 5, "turn", ("≥ 1",)),
    ],
)
def test_setup_error_is_located_by_its_card_and_key(
    old: str,
    new: str,
    line: int,
    key: str,
    words: tuple[str, ...],
    index: rules_index.RulesIndex,
    library: engine.CardLibrary,
) -> None:
    text = BLOCK.replace(old, new)
    assert text != BLOCK
    if key == "controller":  # off the battlefield the owner controls a card (A6)
        text = text.replace("      at: d4", "      at: hand")
    err = error_of(text, index, library)
    assert len(err.problems) == 1, str(err)
    assert (err.file, err.line, err.key) == ("x.yaml", line, key), str(err)
    for word in words:
        assert word in str(err)
    assert str(err).startswith(f"x.yaml, строка {line}, ключ «{key}»: ")


def test_block_position_loads(index: rules_index.RulesIndex, library: engine.CardLibrary) -> None:
    s = load(BLOCK, index, library)
    assert (s.setup.phase, s.setup.turn, s.setup.seed) == ("battle", 2, 3)
    assert dict(s.card_lines) == {"vail": 7, "orc": 11}


@pytest.mark.parametrize(
    ("refusal", "line", "key", "shown"),
    [
        # The message names another card and another key; only the fields say where the fault is.
        (
            engine.SetupError("карта vail, ключ card: так нельзя", card="orc", key="at"),
            15,
            "at",
            "карта orc: карта vail, ключ card: так нельзя",
        ),
        (engine.SetupError("карта orc: целое", key="seed"), 2, "seed", "карта orc: целое"),
        # A key the entry leaves to its default: the card's own line.
        (engine.SetupError("нельзя", card="vail", key="tokens"), 7, "tokens", "карта vail: нельзя"),
        # No card and no key: the setup as a whole.
        (engine.SetupError("карта orc, ключ at: не так"), 3, "setup", "карта orc, ключ at: не так"),
    ],
)
def test_setup_error_is_located_from_its_fields_not_its_words(
    refusal: engine.SetupError,
    line: int,
    key: str,
    shown: str,
    index: rules_index.RulesIndex,
    library: engine.CardLibrary,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def refuse(setup: engine.Setup, lib: engine.CardLibrary | None = None) -> engine.GameState:
        raise refusal

    monkeypatch.setattr(engine, "build_state", refuse)
    err = error_of(BLOCK, index, library)
    assert (err.line, err.key) == (line, key)
    assert str(err) == f"x.yaml, строка {line}, ключ «{key}»: {shown}"


def test_the_position_is_judged_only_once_it_is_written_correctly(
    index: rules_index.RulesIndex, library: engine.CardLibrary, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A card entry with a format problem is not half-built and handed to the engine.
    calls: list[engine.Setup] = []
    real = engine.build_state

    def spy(setup: engine.Setup, lib: engine.CardLibrary | None = None) -> engine.GameState:
        calls.append(setup)
        return real(setup, lib)

    monkeypatch.setattr(engine, "build_state", spy)
    err = error_of(BLOCK.replace("      wounds: 0", "      wounds: два"), index, library)
    assert (err.line, err.key) == (14, "wounds") and "целое число" in str(err)
    assert calls == []
    load(BLOCK, index, library)
    assert len(calls) == 1


def test_the_c_reader_gives_the_same_nodes_as_the_pure_python_one(monkeypatch: pytest.MonkeyPatch) -> None:
    # nodes.read_yaml reads with libyaml when PyYAML has it (15x faster on the library); every
    # scenario of the library must read to the same nodes, lines and plain/quoted marks as with
    # the pure-Python parser it falls back to.
    import yaml

    from casebook import nodes
    from rules_index import yamlread

    assert yamlread.LOADER is not yaml.SafeLoader, "PyYAML without libyaml: nothing to compare"
    files = sorted((Path(__file__).resolve().parent.parent / "scenarios").rglob("*.yaml"))
    fast = {f: nodes.read_yaml(f.read_text(encoding="utf-8"), f.name) for f in files}
    monkeypatch.setattr(yamlread, "LOADER", yaml.SafeLoader)
    slow = {f: nodes.read_yaml(f.read_text(encoding="utf-8"), f.name) for f in files}
    assert len(files) > 100 and fast == slow

"""The one table of Russian words: complete, read-only, and the helpers every layer shares."""

from __future__ import annotations

from pathlib import Path

import pytest

import lexicon


def test_every_code_has_its_words() -> None:
    for code in lexicon.VERDICTS:
        assert lexicon.verdict(code) and lexicon.verdict_icon(code).startswith(":material/")
    assert [lexicon.verdict(v) for v in lexicon.VERDICTS] == ["законно", "запрещено", "не определено"]
    assert lexicon.step_kind("forbidden") == "запрещено"
    assert lexicon.phase_ended("placement") == "Шаг рассадки окончен"
    assert lexicon.zone_where("aux") == "во вспомогательной зоне"
    assert lexicon.class_of_card("creature", "parasite") == "симбиот-паразит"
    assert lexicon.kind_of_card("creature", "ground") == "существо (наземное)"
    assert lexicon.kind_of_card("artifact", None) == "артефакт"
    assert lexicon.damage_gen("ranged") == "дальней атаки"
    assert lexicon.enum_word("bottom") == "под низ колоды"


def test_unknown_code_reads_as_itself() -> None:
    assert lexicon.verdict("maybe") == "maybe"
    assert lexicon.zone("table") == "table"


def test_tables_are_read_only() -> None:
    with pytest.raises(TypeError):
        lexicon.words()["verdicts"]["legal"] = "ok"  # type: ignore[index]


def test_cite_never_calls_an_assumption_a_clause() -> None:
    assert lexicon.cite("211.4") == "п. 211.4"
    assert lexicon.cite("A7") == "допущение A7"
    assert lexicon.cite("") == ""


def test_player_and_plural() -> None:
    assert lexicon.player("B", "gen") == "игрока B"
    assert lexicon.player("A", cap=True) == "Игрок A"
    assert [lexicon.plural(n, "шаг", "шага", "шагов") for n in (1, 2, 5, 11, 21, 112)] == [
        "1 шаг",
        "2 шага",
        "5 шагов",
        "11 шагов",
        "21 шаг",
        "112 шагов",
    ]


def test_match_option_folds_case_yo_and_apostrophes() -> None:
    options = [("found", "нашёл"), ("none", "не нашёл (не захотел найти)"), ("1", "Бул’Багур")]
    assert lexicon.match_option("не нашел (не захотел найти)", options) == "none"
    assert lexicon.match_option("  НАШЁЛ ", options) == "found"
    assert lexicon.match_option("бул'багур", options) == "1"
    assert lexicon.match_option("none", options) == "none"
    assert lexicon.match_option("может быть", options) is None


def test_an_exact_key_wins_over_a_label() -> None:
    assert lexicon.match_option("1", [("2", "1"), ("1", "первый")]) == "1"


def test_a_broken_words_file_is_named(tmp_path: Path) -> None:
    bad = tmp_path / "words.yaml"
    bad.write_text("verdicts:\n  legal: {word: законно}\n", encoding="utf-8")
    with pytest.raises(lexicon.LexiconError, match=r"verdicts\.legal"):
        lexicon.load_words(bad)

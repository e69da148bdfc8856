"""English gamer words players mix into Russian («summon на занятую клетку», «rez с чужого
кладбища») and chat slang («юзать», «абилка»): jargon (jargon.yaml), each with its query below.
"""

from __future__ import annotations

import pytest

import rules_index
from rules_index import RulesIndex


@pytest.fixture(scope="module")
def ix() -> RulesIndex:
    return rules_index.load_default()


# English gamer words and chat slang (jargon.yaml) ----------------------------------------------


@pytest.mark.parametrize(
    ("q", "word", "means", "clause"),
    [
        ("summon на занятую клетку", "summon", "вызов", ("535.5",)),
        ("rez с чужого кладбища", "rez", "возрождение", ("535.6",)),
        ("res по умолчанию откуда", "res", "возрождение", ("535.6",)),
        ("replacement на одно игродействие дважды", "replacement", "эффект замещения", ("534.4",)),
        ("trigger вызова можно пропустить", "trigger", "срабатывающая особенность", ("535.5.2",)),
        ("shuffle после вызова", "shuffle", "перемешивается колода", ("535.5.1.3",)),
        ("Bul'Bagur lantern клетки", "lantern", "фонарь", ("534.5",)),
        ("host погиб симбиот тоже", "host", "хозяин", ("211.4",)),
        ("parasite на летающее", "parasite", "паразит", ("211.4",)),
        ("companion на существо противника", "companion", "компаньон", ("211.1",)),
        ("симбиот на flying существо", "flying", "летающее существо", ("211.4",)),
        ("flyer вызов в какую клетку", "flyer", "летающее существо", ("535.4",)),
        ("потерял control над картой", "control", "контроль", ("535.8", "535.8.1")),
        ("steal карту кто контролирует", "steal", "взять под контроль", ("535.8",)),
        ("возрождение из graveyard противника", "graveyard", "кладбище", ("535.6",)),
        ("смотреть deck при вызове", "deck", "колода", ("535.5.1", "535.5.1.1")),
        ("инкарнировавшая карта exile если погибает", "exile", "изгоняется", ("535.7.3",)),
        ("вызов в занятую cell", "cell", "клетка", ("535.5",)),
        ("вызов на свободный slot", "slot", "клетка", ("535.5",)),
        ("incarnation в какой ряд", "incarnation", "инкарнация", ("535.7",)),
        ("symbiote на летающее", "symbiote", "симбиот", ("211.4",)),
        ("кто owner карты", "owner", "владелец", ("535.1",)),
        ("кто controller карты", "controller", "игрок контролирующий карту", ("535.1",)),
        ("ability симбиота после смены хозяина", "ability", "особенность", ("211.3", "211.3.1")),
        ("token инкарнации", "token", "жетон", ("535.7.1",)),
        ("маркер контроля использует stack", "stack", "стек", ("535.1.1",)),
        ("heal заместить ранением", "heal", "лечение", ("534.7.2",)),
        ("паразит на существо opponent", "opponent", "противник", ("211.1", "211.2")),
        ("squad нелегальный при наборе", "squad", "отряд", ("535.9",)),
        ("вызов по default", "default", "по умолчанию", ("535.5",)),
        ("вызов в battlefield", "battlefield", "зона битвы", ("535.5",)),
        ("вызванное существо tapped", "tapped", "закрыть", ("535.5",)),
        # chat slang
        ("абилки симбиота при смене хозяина", "абилки", "особенность", ("211.3", "211.3.1")),
        ("абилку симбиота при смене хозяина", "абилку", "особенность", ("211.3", "211.3.1")),
        ("абилок у симбиота после смены хозяина", "абилок", "особенность", ("211.3", "211.3.1")),
        ("скилл симбиота при смене хозяина", "скилл", "особенность", ("211.3", "211.3.1")),
        ("юзать абилку", "юзать", "использовать", ("535.7.3",)),
        ("юзаю инкарнацию 1 раз за бой", "юзаю", "использовать", ("535.7.3",)),
        ("сколько раз можно заюзать инкарнацию", "заюзать", "использовать", ("535.7.3",)),
    ],
)
def test_each_english_word_and_chat_slang_reads_as_its_rules_words(
    ix: RulesIndex, q: str, word: str, means: str, clause: tuple[str, ...]
) -> None:
    result = ix.lookup(q)
    words = {w.word: w for w in result.words}
    assert words[word].how == "jargon" and means in words[word].found, words[word]
    assert result.hits and result.hits[0].id in clause, [h.id for h in result.hits]

"""Players who type in Latin letters or mix English gamer words into Russian: «karlik und
poluchaet rany ot kogo krome hozyaina esli vaila zabrali», «summon на занятую клетку».

A Latin word the jargon table does not list is read as Russian typed in Latin letters (the
letters' readings are data: rules_index/data/translit.yaml) and said so («транслит»); English
gamer words are jargon (jargon.yaml), each with its query below.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import rules_index
from rules_index import CorpusError, RulesIndex, understood
from rules_index.search import query, translit
from rules_index.tables import DATA_DIR, load_tables


@pytest.fixture(scope="module")
def ix() -> RulesIndex:
    return rules_index.load_default()


def read(ix: RulesIndex, word: str) -> str:
    corpus = ix._search.corpus
    return translit.reading(corpus, word, corpus.analyzer.stemmer())


# The first examples ------------------------------------------------------------------


def test_a_question_typed_in_latin_letters_reaches_its_clause(ix: RulesIndex) -> None:
    q = "karlik und poluchaet rany ot kogo krome hozyaina esli vaila zabrali"
    result = ix.lookup(q)
    assert result.answer.answered and result.hits[0].id == "211.3.1", [h.id for h in result.hits]
    words = {w.word: w for w in result.words}
    assert words["karlik und"].how == "translit" and words["karlik und"].found == ("Карлик Унд",)
    assert words["vaila"].how == "translit" and words["vaila"].found == ("Вайл",)
    assert words["hozyaina"].how == "translit" and words["hozyaina"].like == "хозяина"
    # said in Russian, with how it was read
    assert "«vaila» → Вайл (транслит «вайла»)" in understood.understood(result.words)
    assert "(транслит" in " ".join(understood.answer_lines(result.answer))
    assert any(m.how == "translit" for m in result.hits[0].matched)
    assert "(транслит)" in understood.hit_notes(result.hits[0].matched)


def test_a_card_in_latin_letters_with_an_english_word_reaches_the_example(ix: RulesIndex) -> None:
    result = ix.lookup("Bul'Bagur lantern клетки")
    assert result.hits and result.hits[0].id == "534.5", [h.id for h in result.hits]
    words = {w.word: w for w in result.words}
    assert words["Bul'Bagur"].how == "translit" and words["Bul'Bagur"].found == ("Бул'Багур",)
    assert words["lantern"].how == "jargon" and words["lantern"].found == ("фонарь",)
    assert not understood.not_found(result.words)
    # Asked «сколько», every word is read and the decision rests on 534.5; whether its example
    # states the number for a card is the decision's (answerability), not the reading's.
    result = ix.lookup("Bul'Bagur lantern сколько клеток")
    assert not understood.not_found(result.words) and result.answer.clause == "534.5"


# Reading Latin letters -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("word", "spelt"),
    [
        ("shchit", "щит"),  # shch → щ
        ("schit", "щит"),  # sch → щ
        ("zhe", "же"),  # zh → ж
        ("khod", "ход"),  # kh → х
        ("hod", "ход"),  # h → х
        ("chto", "что"),  # ch → ч
        ("shag", "шаг"),  # sh → ш
        ("tsel", "цел"),  # ts → ц
        ("yad", "яд"),  # ya → я
        ("jad", "яд"),  # ja → я
        ("yug", "юг"),  # yu → ю
        ("jug", "юг"),  # ju → ю
        ("yolka", "елка"),  # yo → ё, read «е» as everywhere in the search
        ("jest", "ест"),  # je → е
        ("rany", "раны"),  # y after a consonant → ы
        ("moy", "мой"),  # y after a vowel → й
        ("bol'", "боль"),  # ' → ь
        ("wrag", "враг"),  # w → в
        ("effekt", "эффект"),  # e at the start → э
        ("ob'yavit", "объявит"),  # ' → ъ
        ("vojak", "вожак"),  # shorter groups too: «j», «a» rather than «ja»
        ("kompanion", "компаньон"),  # io → ьо
        ("statya", "статья"),  # ya → ья
    ],
)
def test_each_group_of_latin_letters_has_its_russian_reading(word: str, spelt: str) -> None:
    assert spelt in translit.spellings(word, load_tables().translit)


@pytest.mark.parametrize(
    ("word", "reading"),
    [
        ("hozyaina", "хозяина"),  # a word of the rules
        ("vaila", "вайла"),  # a card («Вайл»): «ai» is «ай», not «аи»
        ("bul'bagur", "бульбагур"),  # a card's alias
        ("krome", "кроме"),  # a word of the dictionary
        ("ot", "от"),  # a little word
        ("poluchaet", "получает"),
        ("peremeshivaetsya", "перемешивается"),  # «ts» is «тс» here
        ("simbiod", "симбиод"),  # a slip from «симбиот»: read so, then as a typo
        ("skolko", "сколько"),  # the soft sign left out
        ("ispolzuet", "использует"),
        ("smotret", "смотреть"),  # a word of the dictionary
        ("byt", "быть"),  # a little word
        ("kompanionom", "компаньоном"),
        ("chujogo", "чужого"),  # «j», «o» rather than «jo»
        ("summon", ""),  # jargon as it is
        ("hearthstone", ""),  # no Russian spelling the search knows
        ("lorem", ""),
    ],
)
def test_a_latin_word_reads_as_the_spelling_the_search_knows_best(
    ix: RulesIndex, word: str, reading: str
) -> None:
    assert read(ix, word) == reading


@pytest.mark.parametrize("word", ["a13", "211", "'ok", "xост", ""])
def test_only_words_of_latin_letters_are_read_as_russian(word: str) -> None:
    assert not translit.is_latin(word)


def test_a_soft_sign_left_out_is_put_back(ix: RulesIndex) -> None:
    result = ix.lookup("skolko simbiotov mozhno na odno sushchestvo")
    assert result.hits and result.hits[0].id == "211.6", [h.id for h in result.hits]
    assert not understood.not_found(result.words)


def test_a_slip_in_latin_letters_is_still_a_typo_of_the_rules_word(ix: RulesIndex) -> None:
    result = ix.lookup("simbiod na letayushchee")
    assert result.hits and result.hits[0].id == "211.4", [h.id for h in result.hits]
    words = {w.word: w for w in result.words}
    assert words["simbiod"].how == "translit" and words["simbiod"].found == ("симбиот",)


@pytest.mark.parametrize(
    "q",
    [
        "lorem ipsum dolor sit amet",
        "hello world",
        "commander banlist sol ring",
        "mtg stack priority rules",
        "gg wp",
        "asdkjh qwe zzz",
    ],
)
def test_english_and_noise_in_latin_letters_still_find_nothing(ix: RulesIndex, q: str) -> None:
    assert ix.search(q) == []


@pytest.mark.parametrize(
    "word",
    # short English words that are short Russian ones too («in» «ин», «game» «гаме», «rule»
    # «руле»), English words one slip from a word of the rules or of the jargon («wait» from
    # «Вайла», «plaer» from «флаер», «cost» from «host», «round» from «wound»)
    ["in", "game", "rule", "wait", "plaer", "cost", "most", "round", "imba", "haste", "neck", "well"],
)
def test_an_english_word_is_not_misread_as_a_word_of_the_rules(ix: RulesIndex, word: str) -> None:
    result = ix.lookup(f"симбиот {word}")
    assert all(not w.how for w in result.words if w.word == word), result.words


def test_a_question_in_cyrillic_is_read_as_before(ix: RulesIndex) -> None:
    result = ix.lookup("хост погиб симб тоже умирает?")
    assert all(w.how != "translit" for w in result.words)
    assert not query.read(ix._search.corpus, "хост погиб").latin


# The table is data -----------------------------------------------------------------------------


def test_the_letters_readings_are_a_table_a_judge_may_extend(tmp_path: Path) -> None:
    data = tmp_path / "data"
    shutil.copytree(DATA_DIR, data, ignore=shutil.ignore_patterns("corpus"))
    text = (data / "translit.yaml").read_text(encoding="utf-8")
    (data / "translit.yaml").write_text(text.replace("  q: [к]", "  q: [я]"), encoding="utf-8")
    assert load_tables().translit.letters["q"] == ("к",)
    assert load_tables(data).translit.letters["q"] == ("я",)
    assert "qd" not in translit.spellings("qd", load_tables().translit)
    assert "яд" in translit.spellings("qd", load_tables(data).translit)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("letters: [a]\n", "«letters» — латинские буквы"),
        ("letters:\n  ж: [ж]\n", "«letters» — латинские буквы"),
        ("letters:\n  a: [a]\n", "«letters» — латинские буквы"),
        ("letters:\n  a: []\n", "«letters» — латинские буквы"),
        ("- a\n", "ожидаются ключи"),
        ("letters:\n  a: [а]\nleft_out: [ьъ]\n", "«left_out» — список русских букв"),
    ],
)
def test_a_bad_translit_table_fails_clearly(tmp_path: Path, text: str, message: str) -> None:
    data = tmp_path / "data"
    shutil.copytree(DATA_DIR, data, ignore=shutil.ignore_patterns("corpus"))
    (data / "translit.yaml").write_text(text, encoding="utf-8")
    with pytest.raises(CorpusError, match=message):
        load_tables(data)


def test_the_new_kind_is_named_for_the_page() -> None:
    from app_pages.shared import common

    assert understood.HOW["translit"] == "транслит"
    assert common.HOW_LABELS["translit"] == "транслит"


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
        ("active player выбирает какой эффект замещения", "player", "игрок", ("534.4.2",)),
        ("active player выбирает какой эффект замещения", "active", "активный", ("534.4.2",)),
        ("в начале своего turn карта на кладбище получает жетон", "turn", "ход", ("535.7.1",)),
        ("на step рассадки компаньон куда", "step", "шаг", ("211.1",)),
        ("замещение с выбором target", "target", "цель", ("534.7",)),
        ("симбиот на flying creature", "creature", "существо", ("211.4",)),
        ("кто owner card", "card", "карта", ("535.1",)),
        ("паразит на artifact", "artifact", "артефакт", ("211.4",)),
        ("карты для вызова в hand", "hand", "рука", ("535.5.1.2",)),
        ("симбиот до reveal на отдельной клетке", "reveal", "вскрытие", ("211.2",)),
        ("компаньон на setup", "setup", "шаг рассадки", ("211.1",)),
        ("небестелесный симбиот на ethereal существо", "ethereal", "бестелесное существо", ("211.5",)),
        ("инкарнация в третий row", "row", "ряд", ("535.7",)),
        ("mnogolikiy + suged legal ili net", "legal", "легально", ("211.8.1",)),
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


@pytest.mark.parametrize(
    "q",
    [
        "кто шарит, паразита можно посадить на летающее существо?",
        "паразита можно посадить на летающее существо? кто шарит",
    ],
)
def test_who_knows_in_chat_says_who_asks_not_what(ix: RulesIndex, q: str) -> None:
    # «кто шарит» (who knows this) is a light verb (asks.yaml): not a question of who does it
    result = ix.lookup(q)
    assert result.answer.answered and result.hits[0].id == "211.4", understood.answer_lines(result.answer)


@pytest.mark.parametrize(
    "q",
    [
        "bro паразит на летающее можно?",
        "imho симбиот погибает если хост умер",
        "btw паразит на летающее можно? thx",
        "по rules паразит на летающее можно?",
    ],
)
def test_english_chat_fillers_say_nothing(ix: RulesIndex, q: str) -> None:
    result = ix.lookup(q)
    assert result.hits and result.hits[0].id == "211.4", [h.id for h in result.hits]
    assert understood.not_found(result.words) == ""

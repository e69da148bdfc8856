"""Word linking of the second tuning pass (issue 14): typos in forms the rules do not use,
terms that share their words, prepositions, and jargon grown from the fifth tuning set."""

from __future__ import annotations

from pathlib import Path

import pytest
import Stemmer

import rules_index
from rules_index import CorpusError, RulesIndex, morph, understood
from rules_index.search import typos
from rules_index.tables import load_tables
from rules_index.text import Analyzer


@pytest.fixture(scope="module")
def ix() -> RulesIndex:
    return rules_index.load_default()


def test_a_typo_in_a_form_the_rules_lack_is_found_by_its_stem(ix: RulesIndex) -> None:
    # The rules write «замещения», never «замещение»: three letters off as typed, two in the stem.
    result = ix.lookup("замишение дважды")
    word = next(w for w in result.words if w.word == "замишение")
    assert word.how == "typo"
    assert result.hits[0].id == "534.4"


def test_a_stem_typo_does_not_turn_nonsense_or_short_words_into_rules_words(ix: RulesIndex) -> None:
    assert ix.lookup("ываываыва").hits == ()
    # «регенирация» is three letters off «регенерация», which the rules never mention.
    assert ix.lookup("регенирация").hits == ()


@pytest.mark.parametrize(
    ("query", "first"),
    [
        ("что такое взятие в отряд", "535.2"),  # the short wording, not «не может быть взята в отряд»
        ("не может быть взята в отряд с", "535.9"),  # every little word of the long one typed
    ],
)
def test_of_two_terms_with_the_same_words_the_one_typed_whole_wins(
    ix: RulesIndex, query: str, first: str
) -> None:
    assert ix.search(query, 3)[0].id == first


def test_a_preposition_is_no_word_form_of_an_adverb(ix: RulesIndex) -> None:
    # Snowball stems «вместе» and «вместо» alike; «вместо» is a preposition, not a search word.
    result = ix.lookup("симбиот двигается вместе с хозяином")
    assert next(w for w in result.words if w.word == "вместе").how == ""
    assert result.hits[0].id == "211.11"


@pytest.mark.parametrize(
    ("query", "first", "word", "means"),
    [
        ("хост помер, симб жив?", "211.4", "помер", "погибает"),
        ("кто хозяин если симба переложили", "211.3", "переложили", "помещается на другую карту"),
        ("потерял контроль, кто теперь управляет", "535.8", "управляет", "контролирует"),
    ],
)
def test_table_talk_verbs_are_jargon(ix: RulesIndex, query: str, first: str, word: str, means: str) -> None:
    result = ix.lookup(query)
    assert result.hits[0].id == first
    got = next(w for w in result.words if w.word == word)
    assert got.how == "jargon" and means in got.found


def test_action_also_finds_game_actions(ix: RulesIndex) -> None:
    # «действие» is a rules word (211.3.1) and the narrower «игродействие» of 534.4 is searched too.
    hits = [h.id for h in ix.search("одна замена дважды на одно действие", 3)]
    assert "534.4" in hits


@pytest.mark.parametrize("query", ["симб на симба", "симбиота на симбиота"])
def test_a_word_typed_twice_finds_the_clause_about_another_of_its_kind(ix: RulesIndex, query: str) -> None:
    # 211.4: «нельзя помещать симбиота … на другого симбиота».
    assert ix.search(query, 3)[0].id == "211.4"


def test_a_word_and_a_jargon_meaning_sharing_a_key_are_not_one_word_twice(ix: RulesIndex) -> None:
    # «замена» is «эффект замещения», «эффект» is typed once: no two of a kind, so 534.4.1's
    # «несколько эффектов» is not favoured over 534.4.2's «оба игрока»
    assert ix.search("у меня и у соперника замена на один эффект чья применяется", 3)[0].id == "534.4.2"


@pytest.mark.parametrize(
    "query", ["два моих замещения на один удар", "у меня две замены на одну рану, какую применить"]
)
def test_a_count_of_two_finds_the_clause_about_several_of_its_kind(ix: RulesIndex, query: str) -> None:
    # «два замещения» is two of a kind, as «замена замены» is: 534.4.1's «несколько эффектов
    # замещения к одному и тому же игродействию» (asks.yaml «pair»).
    assert ix.search(query, 3)[0].id == "534.4.1"


def test_an_opposite_answers_the_question_and_says_so(ix: RulesIndex) -> None:
    # The rules say how a resurrected card comes: «в открытом виде».
    result = ix.lookup("возрождённая карта приходит закрытой?")
    assert result.hits[0].id == "535.6"
    assert any(
        m.word == "закрытой" and m.how == "opposite" and m.found == "открытом" for m in result.hits[0].matched
    )
    assert (
        understood.match_note(next(m for m in result.hits[0].matched if m.how == "opposite"))
        == "«закрытой» → «открытом» (противоположное слово)"
    )


def test_a_word_near_in_meaning(ix: RulesIndex) -> None:
    result = ix.lookup("нельзя симбу на клетку, а носителю можно?")
    assert result.hits[0].id == "211.11"
    assert any(m.how == "near" for m in result.hits[0].matched)


def test_a_bad_relation_is_a_russian_error(tmp_path: Path) -> None:
    bad = tmp_path / "my.yaml"
    bad.write_text("- slang: [закрыт]\n  means: открыт\n  keep: true\n  relation: antonym\n", "utf-8")
    with pytest.raises(CorpusError, match=r"my\.yaml.*запись 1.*relation"):
        load_tables(extra_jargon=[bad])


# Phone typos --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "first"),
    [
        ("тиггер на вызов можно пропустить", "535.5.2"),  # a jargon word mistyped («триггер»)
        ("отжал карту кто теперьь контролирует", "535.8"),  # a little word mistyped says nothing
        ("может ли симбиот ааковать своего хозяина", "211.9"),  # a dictionary word one key away
        ("кто контролит вызванную кату", "535.5"),  # a real word («кату») typed for «карту»
        ("симб на сисба", "211.4"),
    ],
)
def test_phone_typos_in_any_word_still_find_the_clause(ix: RulesIndex, query: str, first: str) -> None:
    assert ix.search(query, 3)[0].id == first


def test_a_mistyped_jargon_word_is_reported_as_a_typo_of_its_meaning(ix: RulesIndex) -> None:
    word = next(w for w in ix.lookup("тиггер на вызов").words if w.word == "тиггер")
    assert word.how == "typo" and word.found == ("срабатывающая особенность",)


def test_a_mistyped_stopword_is_not_reported_as_missing(ix: RulesIndex) -> None:
    assert "теперьь" not in ix.lookup("отжал карту кто теперьь контролирует").unmatched


@pytest.mark.parametrize(
    ("query", "first", "slip"),
    [
        ("рес отккуда и куда", "535.6", "отккуда"),  # «откуда», not the rules' «оттуда» (two edits)
        ("что згачит взять карту под контроль", "535.8", "згачит"),  # «значит», not «защит»
        ("инкарнация 2 и инкарнация 3, какая рбаотает", "535.7.4", "рбаотает"),  # a light verb
    ],
)
def test_a_little_word_one_edit_away_says_nothing_before_a_rules_word_two_away(
    ix: RulesIndex, query: str, first: str, slip: str
) -> None:
    result = ix.lookup(query)
    assert slip not in [w.word for w in result.words]
    assert result.answer.answered and result.hits[0].id == first


def test_a_dictionary_word_one_keystroke_away_comes_before_a_rules_word_two_away(ix: RulesIndex) -> None:
    # «меняестя» is «меняется» (the rules' «меняет»), not «меня» two edits away
    result = ix.lookup("овнер карты меняестя?")
    word = next(w for w in result.words if w.word == "меняестя")
    assert word.how == "typo" and word.found == ("меняет",)
    assert result.answer.answered and result.hits[0].id == "535.1"


def test_a_rules_word_mistyped_is_not_a_jargon_word_sharing_its_stem(ix: RulesIndex) -> None:
    # «замешающая» stems as the jargon «замешать» (перемешивается колода) does, but no dictionary
    # knows it and 534.7 writes «замещающая», one key away
    result = ix.lookup("замешающая особеность в стек")
    word = next(w for w in result.words if w.word == "замешающая")
    assert word.how == "typo" and word.found[0].startswith("замещающ")
    assert result.answer.answered and result.hits[0].id == "534.7"
    shuffled = next(w for w in ix.lookup("замешать колоду").words if w.word == "замешать")
    assert shuffled.how == "jargon" and shuffled.found == ("перемешивается колода",)


def test_a_mistyped_rules_word_keeps_its_broader_word(ix: RulesIndex) -> None:
    # «параазита» is «паразита» mistyped, and a parasite is a symbiote (jargon.yaml «keep») as
    # when typed right: 211.9 says a host may attack its symbiote
    result = ix.lookup("можно атаковать своего параазита")
    assert result.answer.answered and result.hits[0].id == "211.9"
    assert any(m.word == "параазита" and m.how == "broader" for m in result.hits[0].matched)


@pytest.mark.parametrize(
    ("query", "plain"),
    [
        # a jargon word mistyped: «нсоителя» is «носителя», a host, the creature a symbiote sits on
        ("нсоителя убили, симбионт живой?", "носителя убили, симбионт живой?"),
        # a jargon word by its form: «хостик» is like «хост»
        ("хостик стал симбиотом, что с его симбом", "хост стал симбиотом, что с его симбом"),
        # a rules word read by a derivation of its root: «паразта» is a parasite, and a symbiote
        ("можно паразта на летуна", "можно паразита на летуна"),
    ],
)
def test_a_keep_word_read_by_any_link_keeps_its_broader_word(ix: RulesIndex, query: str, plain: str) -> None:
    # 211.4 (a host that dies or becomes a symbiote or a flyer) speaks of «существо»
    assert ix.search(plain, 1)[0].id == "211.4"
    assert ix.search(query, 1)[0].id == "211.4"


@pytest.mark.parametrize(
    ("query", "plain"),
    [
        # «перввый» is «первый», an ordinal (it says which one), not an unknown noun
        ("замены у обоих, кто перввый выбирает", "замены у обоих, кто первый выбирает"),
        # «заонно» is «законно», a question whether one may
        (
            "сугед хочет перепрыгнуть на многоликого, это заонно?",
            "сугед хочет перепрыгнуть на многоликого, это законно?",
        ),
    ],
)
def test_a_word_mistyped_weighs_as_the_word_meant(ix: RulesIndex, query: str, plain: str) -> None:
    typed, meant = ix.lookup(query), ix.lookup(plain)
    assert meant.answer.answered and typed.answer.answered
    assert typed.hits[0].id == meant.hits[0].id


def test_a_jargon_phrase_typed_with_a_slip_is_still_the_phrase(ix: RulesIndex) -> None:
    # «не получился» is the jargon phrase for «не удалось» (535.5.1.2); «полуяился» is one key off
    typed = ix.lookup("а если вызов не полуяился, карту обратно в колоду?")
    plain = ix.lookup("а если вызов не получился, карту обратно в колоду?")
    assert any(w.how == "jargon" and "не удалось" in w.found for w in typed.words)
    assert typed.answer.answered and typed.hits[0].id == plain.hits[0].id


def test_the_typo_index_says_whether_a_rules_word_is_one_edit_away() -> None:
    index = typos.TypoIndex(
        {"правила": "прав", "оттуда": "оттуд"}, Stemmer.Stemmer("russian"), [], ["правила"]
    )
    assert index.rules_word_near("правиа") == ["прав"]
    assert not index.rules_word_near("правиа", frozenset({"правила"}))  # a little word in a question
    assert not index.rules_word_near("отккуда")  # two edits
    assert not index.rules_word_near("тут")  # too short to be typed wrong


def test_a_real_word_is_a_slip_only_for_a_common_rules_word(ix: RulesIndex) -> None:
    # «приходит» is no «приводит» (one clause has it); «кату» is «карту» (most clauses have it).
    assert all(m.found != "приводит" for h in ix.search("инка приходит закрытой?") for m in h.matched)


def test_corrections_are_dictionary_words_one_keystroke_away() -> None:
    assert morph.corrections("ааковать")[:2] == ["паковать", "атаковать"]
    assert morph.corrections("теперьь") == ["теперь"]
    assert morph.corrections("выхожит")[0] == "выходит"  # a neighbouring key
    assert morph.corrections("кот") == []  # too short to guess
    assert morph.corrections("ываываыва") == []
    # The dictionary walk finds what one look-up per candidate finds.
    for word in ("свобоной", "работтает", "клпдут", "ултел"):
        assert morph.corrections(word) == morph._corrections_slow(word, 3)


def test_a_lexeme_read_from_the_paradigms_is_the_parses_lexeme() -> None:
    # «стоит» is a form of «стоить» and of «стоять»; «карты» three cases of one lexeme.
    assert {"стоящими", "стоила"} <= morph.lexeme("стоит")
    assert "стоит" not in morph.lexeme("стоит")
    for word in ("стоит", "карты", "симбиотом", "поле", "ходит", "ёж", "ежа", "того", "хазяен"):
        assert morph.lexeme(word) == morph._lexeme_slow(word), word
    assert morph.lexeme("ываываыва") == frozenset()


def test_a_word_the_dictionary_lacks_is_unknown_without_a_guess() -> None:
    info = morph.analyse("хазяен")
    assert (info.known, info.lemma, info.noun) == (False, "хазяен", True)
    info = morph.analyse("сдвинули")
    assert (info.known, info.lemma, info.verb) == (True, "сдвинуть", True)


def test_families_by_prefix_take_the_longest_prefix() -> None:
    analyzer = Analyzer(load_tables())
    stemmer = analyzer.stemmer()
    # «небестелесный» is its own family, not «бестелесный»'s; «компаньоны» is «компаньон».
    assert analyzer.key("небестелесным", stemmer) == "небестелес"
    assert analyzer.key("бестелесным", stemmer) == "бестелес"
    assert analyzer.key("компаньонами", stemmer) == "компаньон"
    assert analyzer.key("существо", stemmer) == str(stemmer.stemWord("существо"))


def test_a_word_that_only_begins_like_a_family_keeps_its_own_stem(ix: RulesIndex) -> None:
    # «защитник» (a defender) is no «защита» (534.8's «шаг проверки защит»): families.yaml's `unless`
    analyzer = Analyzer(load_tables())
    stemmer = analyzer.stemmer()
    assert analyzer.key("защиты", stemmer) == analyzer.key("защищен", stemmer) == "защит"
    assert analyzer.key("защищаться", stemmer) == str(stemmer.stemWord("защищаться"))
    assert analyzer.key("защитником", stemmer) == str(stemmer.stemWord("защитником"))
    result = ix.lookup("кто может быть защитником летуна")
    assert not result.answer.answered
    assert any(e.word == "защитником" and not e.found for e in result.answer.evidence)


def test_carrying_out_is_one_family(ix: RulesIndex) -> None:
    analyzer = Analyzer(load_tables())
    stemmer = analyzer.stemmer()
    assert {analyzer.key(w, stemmer) for w in ("выполняется", "выполнения", "выполнена")} == {"выполн"}
    # 534.7.1: «…но может, когда это игродействие применяет эффект в результате выполнения»
    result = ix.lookup("когда замещающая особенность выполняется ее эффект уже можно заместить")
    assert result.answer.answered and result.hits[0].id == "534.7.1", [h.id for h in result.hits]


def test_changing_is_one_family_but_the_pronoun_is_not_in_it(ix: RulesIndex) -> None:
    analyzer = Analyzer(load_tables())
    stemmer = analyzer.stemmer()
    keys = {
        analyzer.key(w, stemmer) for w in ("сменил", "поменявшим", "меняет", "изменить", "смены", "меняется")
    }
    assert keys == {"смен"}
    assert analyzer.key("меня", stemmer) != "смен"
    # «симб сменил хозяина»: 211.3.1 «меняет хозяина … особенности не деактивируются», not
    # 211.8.1's «сменит подтип»; «владелец может смениться» — 535.1 «не могут этого изменить»
    top = [h.id for h in ix.search("симб сменил хозяина, абилки работают?", 2)]
    assert "211.3.1" in top and "211.8.1" not in top, top
    assert ix.search("можно ли сменить владельца карты", 1)[0].id == "535.1"


@pytest.mark.parametrize(
    ("words", "query", "clause"),
    [
        # «Объявляя вызов» (535.5.1) is the act «объявлять» names; the stemmer splits them
        (
            ("объявить", "объявлять", "объявляя", "объявление"),
            "в каком порядке объявлять вызов: кто вызывает, какую карту, какую клетку",
            "535.5.1",
        ),
        # «потеряли контроль» (535.8.1) is the loss «теряю» names
        (
            ("теряет", "теряя", "потеряли", "теряю"),
            "контроль над картой теряю а ей нельзя в отряд врага она остаётся у меня?",
            "535.8.1",
        ),
    ],
)
def test_a_verb_the_stemmer_splits_is_one_family(
    ix: RulesIndex, words: tuple[str, ...], query: str, clause: str
) -> None:
    analyzer = Analyzer(load_tables())
    stemmer = analyzer.stemmer()
    assert len({analyzer.key(w, stemmer) for w in words}) == 1
    hits = ix.search(query, 3)
    assert hits and hits[0].id == clause, [h.id for h in hits]


def test_the_typo_index_is_read_only(ix: RulesIndex) -> None:
    index = typos.TypoIndex({"симбиот": "симбиот"}, Stemmer.Stemmer("russian"), ["триггер"], ["теперь"])
    assert index.table_word("тиггер") == ("триггер", False, 1)
    assert index.table_word("теперьь") == ("теперь", True, 1)
    with pytest.raises(AttributeError):
        index._table = {}


# Names the caller knows (a card base's cards) ----------------------------------------------


def test_a_named_card_finds_the_rules_for_its_kind_and_says_it_is_a_base_card(ix: RulesIndex) -> None:
    named = [rules_index.Named("горный клещ", "Горный клещ", "паразит бестелесное")]
    result = ix.lookup("горного клеща хозяин погиб", 5, named)
    assert {h.id for h in result.hits[:3]} & {"211.4", "211.5"}
    assert understood.understood(result.words).startswith(
        "Понято: «горного клеща» → Горный клещ — карта базы"
    )
    assert "«горного клеща» → Горный клещ — карта базы" in understood.hit_notes(result.hits[0].matched)
    assert "горного" not in result.unmatched
    # Without the caller's names the same words are unknown to the rules.
    assert "горного" in ix.lookup("горного клеща хозяин погиб").unmatched


def test_a_named_flyer_is_summoned_into_the_auxiliary_zone(ix: RulesIndex) -> None:
    named = [rules_index.Named("каменный дракон", "Каменный дракон", "летающее существо")]
    assert ix.search("вызов каменного дракона", 3, named)[0].id == "535.4"


def test_a_named_card_of_no_known_kind_is_understood_but_answers_nothing(ix: RulesIndex) -> None:
    result = ix.lookup("горный клещ", 5, [rules_index.Named("горный клещ", "Горный клещ", "")])
    assert result.hits == ()
    assert result.unmatched == ()
    assert [w.how for w in result.words] == ["named"]


def test_the_rules_own_card_names_come_before_the_callers(ix: RulesIndex) -> None:
    named = [rules_index.Named("карлик унд", "Карлик Унд", "паразит")]
    result = ix.lookup("карлик унд", 3, named)
    assert result.hits[0].id == "211.3.1"
    assert [w.how for w in result.words] == ["card"]


# Numbers and phrases as typed at a table -------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "want"),
    [
        ("пп. 211.3–5", ["211.3", "211.3.1", "211.4", "211.5"]),  # a range's end shortened
        ("535.5.1.1-3", ["535.5.1.1", "535.5.1.2", "535.5.1.3"]),
        ("211-10", ["211.10"]),  # a dash for the dot
    ],
)
def test_short_ranges_and_dashes_find_their_clauses(ix: RulesIndex, query: str, want: list[str]) -> None:
    assert [h.id for h in ix.search(query, len(want))] == want


def test_a_version_or_a_count_with_a_dash_is_no_clause() -> None:
    from rules_index import ids

    assert ids.typed_refs("РП 4.1-2 от 09.11.2024") == []
    assert ids.typed_refs("1-2 раза") == []
    assert ids.typed_refs("3-5 клеток") == []


@pytest.mark.parametrize(
    ("query", "first", "phrase"),
    [
        ("чья карта если её отжали", "535.1", "чья карта"),  # «чья» alone is a question word
        ("замены у меня и у соперника, кто первый", "534.4.2", "у меня и у соперника"),
        ("симбиот остался без хозяина", "211.7", "без хозяина"),
    ],
)
def test_jargon_phrases_with_little_words_match_only_whole(
    ix: RulesIndex, query: str, first: str, phrase: str
) -> None:
    result = ix.lookup(query)
    assert first in [h.id for h in result.hits[:2]]
    assert any(w.word == phrase and w.how == "jargon" for w in result.words), result.words


def test_a_word_of_a_phrase_alone_is_not_the_phrase(ix: RulesIndex) -> None:
    # «карта» alone is no «чья карта»; «ход» alone is no «чей ход».
    assert all(w.how != "jargon" for w in ix.lookup("карта в руке").words)
    assert all(w.how != "jargon" for w in ix.lookup("в начале своего хода").words)


# A subclause in its parent's context -----------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "parent", "child"),
    [
        ("некуда инкарнировать, нет свободной клетки", "535.7", "535.7.2"),
        ("инка не может выйти, клетки заняты", "535.7", "535.7.2"),
    ],
)
def test_a_subclause_that_says_what_then_comes_before_its_parent(
    ix: RulesIndex, query: str, parent: str, child: str
) -> None:
    # 535.7 says where an incarnation goes («на свободную клетку»); what happens when it cannot
    # is only in 535.7.2 (issue 23: the detail a subclause alone states outranks its parent).
    hits = [h.id for h in ix.search(query, 5)]
    assert hits[0] == child and parent in hits[:3], hits


def test_an_inherited_share_never_lifts_a_subclause_above_its_parent() -> None:
    text = (
        "100. Драконы.\n100.1. Дракон летает над полем боя и дышит огнём.\n"
        "100.1.1. Если это нарушает порядок хода, он ждёт.\n100.2. Гоблин бежит под драконом."
    )
    small = rules_index.load_texts([("d.txt", text.encode())], berserk=False)
    hits = small.search("дракон летает", 5)
    ids_ = [h.id for h in hits]
    assert ids_[:2] == ["100.1", "100.1.1"], ids_  # the family first, the parent on top
    assert hits[1].score < hits[0].score
    # A clause whose parent the query does not match inherits nothing.
    assert "100.1.1" not in [h.id for h in small.search("гоблин бежит", 5)]


def test_a_subclause_that_came_only_with_its_parent_says_so() -> None:
    text = "100. Драконы.\n100.1. Дракон летает над полем боя.\n100.1.1. Если это нарушает порядок, он ждёт."
    small = rules_index.load_texts([("d.txt", text.encode())], berserk=False)
    child = next(h for h in small.search("дракон летает", 5) if h.id == "100.1.1")
    assert understood.hit_notes(child.matched) == "Как нашлось: подпункт п. 100.1, найденного по запросу"


def test_a_card_named_with_rules_words_only_leaves_them_rules_words(ix: RulesIndex) -> None:
    named = [rules_index.Named("вызов", "Вызов", "летающее существо")]
    result = ix.lookup("вызов", 3, named)
    assert [w.how for w in result.words] == ["exact"]
    assert result.hits[0].id == "535.5"


@pytest.mark.parametrize(
    ("query", "spaced"),
    [
        ("носительпогиб", "носитель погиб"),  # two jargon words
        ("светфонаря", "свет фонаря"),  # an example's quoted name
        ("трипаразита на хосте", "три паразита на хосте"),  # a number word and a rules word
    ],
)
def test_two_words_typed_without_the_space_are_read_apart(ix: RulesIndex, query: str, spaced: str) -> None:
    glued, apart = ix.lookup(query), ix.lookup(spaced)
    assert [w.word for w in glued.words] == [w.word for w in apart.words]
    assert glued.hits and [h.id for h in glued.hits] == [h.id for h in apart.hits]
    assert glued.query == query  # the result still says what was typed


@pytest.mark.parametrize(
    "query",
    [
        "симбиод на хосте",
        "замещющая особенность",
        "сущесво",
        "ываываываыва",
        "толкули хоста, симб за ним",  # «толкнули», not «толку» + «ли»
        "перввый ряд",  # «первый», not «перв» + «вый»
        "сопенику отдали карту",  # «сопернику»
    ],
)
def test_a_mistyped_or_unknown_word_is_not_cut_in_two(ix: RulesIndex, query: str) -> None:
    # «симбиод» is «симбиот» mistyped (not «симб» + «иод»), «толкули» a word the dictionary knows
    # one keystroke away; nonsense has no two known halves
    first = query.split()[0]
    assert first in [w.word for w in ix.lookup(query).words]


def test_a_verb_the_rules_have_also_finds_its_other_aspect() -> None:
    # «обновил» is in the rules as «обновит» (100.1), and as «обновляется» (100.2): both say it,
    # the second with the rest of the question. («сменил» was the example until «сменить»,
    # «менять» became one family in families.yaml.)
    text = (
        "100. Драконы.\n100.1. Если дракон обновит логово, он спит.\n"
        "100.2. Когда у дракона обновляется хозяин, его пламя не гаснет."
    )
    small = rules_index.load_texts([("d.txt", text.encode())], berserk=False)
    hits = small.search("дракон обновил хозяина", 5)
    assert [h.id for h in hits][:2] == ["100.2", "100.1"], hits
    assert any(m.word == "обновил" and m.how == "derived" for m in hits[0].matched), hits[0].matched


def test_applying_is_one_family(ix: RulesIndex) -> None:
    # 534.4.2's «будет применён» and a player's «применяется» stem apart (примен / применя)
    result = ix.lookup("у меня и у оппа есть замещение на один и тот же удар, кто решает какое применяется")
    assert result.answer.answered and result.hits[0].id == "534.4.2", [h.id for h in result.hits]

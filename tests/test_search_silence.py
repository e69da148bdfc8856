"""Issue 23, third pass: covered questions that came back «ничего нет», questions the rules do
not answer that still got hits, and a subclause against its parent."""

from __future__ import annotations

import pytest

import rules_index
from rules_index import RulesIndex


@pytest.fixture(scope="module")
def ix() -> RulesIndex:
    return rules_index.load_default()


def test_another_form_of_the_same_dictionary_word_is_that_word(ix: RulesIndex) -> None:
    # The stemmer cuts «стоит» to «сто» and «стоящими» to «стоя»; the dictionary knows both as
    # forms of «стоять», and 211.9 says where a symbiote stands.
    result = ix.lookup("на какой клетке стоит симбик")
    word = next(w for w in result.words if w.word == "стоит")
    assert word.how in ("form", "exact") and word.found[0].startswith("стоящ")
    assert result.answer.answered and result.hits[0].id == "211.9"


@pytest.mark.parametrize(
    ("query", "first", "word", "means"),
    [
        # face down is what «во вскрытом виде» rules out
        ("вызванный сущ приходит рубашкой вверх?", "535.5", "рубашкой вверх", "скрытый"),
        # a knight is a creature
        ("а можно мне моего паразитика на моего же рыцаря посадить", "211.1", "рыцаря", "существо"),
        # a terrain is a card that is not a creature
        ("можно сажать симбиота на местность", "211.4", "местность", "карты не являющиеся существами"),
        ("а если вызов не получился, карту обратно в колоду?", "535.5.1.2", "не получился", "не удалось"),
    ],
)
def test_table_words_that_kept_covered_questions_silent(
    ix: RulesIndex, query: str, first: str, word: str, means: str
) -> None:
    result = ix.lookup(query)
    typed = next(w for w in result.words if w.word == word)
    # a terrain is read as its broader words beside a symbiote (jargon.yaml «only_with»)
    assert typed.how in ("jargon", "broader") and means in typed.found
    assert result.answer.answered and result.hits[0].id == first


@pytest.mark.parametrize(
    ("query", "doing"),
    [
        ("можно ли атаковать летающее существо", "атаковать"),  # 211.4 speaks of flyers, not attacks
        ("артефакт можно атаковать?", "атаковать"),
        ("можно ли сбросить карту с руки", "сбросить"),  # 535.5.1.2: cards shown go to the hand
    ],
)
def test_a_may_question_is_not_answered_by_a_clause_silent_on_the_doing(
    ix: RulesIndex, query: str, doing: str
) -> None:
    result = ix.lookup(query)
    assert result.hits == ()
    assert "можно ли" in result.answer.reason and f"«{doing}»" in result.answer.reason


@pytest.mark.parametrize(
    ("query", "first"),
    [
        ("можно ли помещать симбиота на летающее существо", "211.4"),  # the clause says the doing
        ("почему паразиту нельзя заявить движение", "211.10"),  # «объявить», and most of the rest
    ],
)
def test_a_may_question_is_answered_by_a_clause_that_says_the_doing_or_nearly_all(
    ix: RulesIndex, query: str, first: str
) -> None:
    result = ix.lookup(query)
    assert result.answer.answered and result.hits[0].id == first


def test_a_derivation_does_not_run_far_past_the_shared_root(ix: RulesIndex) -> None:
    # «конч» alternates to «конк»/«конт», which begin «конкретный» and «контролем»: no kin of
    # «кончилась»; the rules never say what happens when the deck runs out.
    result = ix.lookup("что будет если колода кончилась")
    assert next(w for w in result.words if w.word == "кончилась").how == ""
    assert result.hits == ()
    # a real derivation stays: «двигать» → «движение»
    assert ix.search("можно ли двигать симбиота", 1)[0].id == "211.10"


def test_a_jargon_word_that_only_points_is_no_topic(ix: RulesIndex) -> None:
    # «обоих» reads as the rules' «оба» (534.4.2's «оба игрока»), but, like «двоих», it points at
    # the topic: the question is about summoning two onto one cell (535.5).
    result = ix.lookup("суммоню двоих, можно обоих на одну клетку")
    assert result.answer.answered and result.hits[0].id == "535.5"


def test_a_real_word_read_only_as_a_slip_answers_nothing(ix: RulesIndex) -> None:
    # «тест» is one letter from the rules' «тексте»: a guess about what was meant, no answer.
    result = ix.lookup("тест")
    assert result.hits == () and "похожими" in result.answer.reason
    # a slip beside words the rules have still answers: «кату» for «карту»
    assert ix.lookup("вернуть кату в колоду после вызова").answer.answered


def test_a_cited_clause_title_in_a_parenthesis_is_a_reference_not_the_rule(ix: RulesIndex) -> None:
    # 534.5 only points to «(см. 537. История боя.)»; the loaded rules lack 537 itself.
    result = ix.lookup("что записывается в историю боя")
    assert result.hits == ()
    # a word of the rule itself beside the reference still counts («руку» in 535.5.1.2)
    assert ix.search("показанные карты помещаются в руку", 1)[0].id == "535.5.1.2"


def test_two_words_the_rules_write_as_one_thing_weigh_as_one_and_a_half(ix: RulesIndex) -> None:
    # «наземное существо» is one thing in the rules (211.2, 211.4): with «летающее» it no longer
    # outweighs «ударить», which 211.4 never says.
    result = ix.lookup("может ли наземное существо ударить летающее")
    assert result.hits == ()
    # a question that says little beside a phrase of the rules still gets its answer
    result = ix.lookup("жетоны инкарнации копятся когда и где")
    assert result.answer.answered and result.hits[0].id == "535.7.1"


def test_a_time_again_is_what_the_rules_call_repeated(ix: RulesIndex) -> None:
    # «второй раз» is 534.7.2's «не могут быть повторно применены» (jargon.yaml: раз, near
    # «повторно»); «раз» stays a rules word for 534.4's «только 1 раз».
    result = ix.lookup("замещение уже сработало на оригинал, второй раз на порожденный эффект?")
    assert result.answer.answered and result.hits[0].id == "534.7.2", [h.id for h in result.hits]
    assert first_of(ix, "реплейс второй раз на то же действие") == "534.4"


def first_of(ix: RulesIndex, query: str) -> str:
    hits = ix.search(query, 3)
    return hits[0].id if hits else ""


@pytest.mark.parametrize(
    ("query", "first", "typo"),
    [
        ("вызвал симбиота способностью, кто хощяин", "211.8", "хощяин"),
        ("жеьоны инкарнации копятся когда и где", "535.7.1", "жеьоны"),
        ("у нас обоих есть заиены на один и тот же удар, кто решает", "534.4.2", "заиены"),
    ],
)
def test_a_non_word_one_edit_from_a_rules_word_counts_whole_for_the_answer(
    ix: RulesIndex, query: str, first: str, typo: str
) -> None:
    # The same questions typed right are answered; a slip of one key in the word the question is
    # about must not turn the answer into «ничего нет».
    result = ix.lookup(query)
    assert next(w for w in result.words if w.word == typo).how == "typo"
    assert result.answer.answered and result.hits[0].id == first


@pytest.mark.parametrize(
    "query",
    ["регенерация у бул'багура", "броня вайла", "жизни многоликого", "карлик унд может быть защитником?"],
)
def test_a_clause_with_only_the_card_does_not_answer_what_is_asked_about_it(
    ix: RulesIndex, query: str
) -> None:
    # the card's example names it; regeneration, armour, life, defenders it does not
    result = ix.lookup(query)
    assert result.hits == ()
    assert "называет только карту" in result.answer.reason


def test_a_card_with_the_doing_its_example_tells_is_still_answered(ix: RulesIndex) -> None:
    # «перепрыгнул» is Сугед's ability (211.8.1's example: «может быть помещён на существо»)
    result = ix.lookup("сугед перепрыгнул на другого")
    assert result.answer.answered and result.hits[0].id in ("211.3", "211.8.1")

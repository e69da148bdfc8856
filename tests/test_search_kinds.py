"""What a kind of question asks for (asks.yaml): «где определено X» asks for a definition; «чем X
отличается от Y» and «разница» compare two things, and the words of comparing are no topic."""

from __future__ import annotations

import pytest

import rules_index
from rules_index import RulesIndex, understood
from rules_index.search import statements


@pytest.fixture(scope="module")
def ix() -> RulesIndex:
    return rules_index.load_default()


def test_where_a_word_is_defined_is_not_answered_by_a_clause_that_only_names_it(ix: RulesIndex) -> None:
    # 211.11 sets «перемещение» against «(но не с передвижением)» and defines neither («передвижение»,
    # only in that parenthesis, is a word in passing: tests/test_search_in_passing.py)
    result = ix.lookup("где определено перемещение")
    assert not result.hits and "не определяет «перемещение»" in result.answer.reason
    assert not ix.lookup("где определено передвижение").hits


@pytest.mark.parametrize(
    ("query", "first"),
    [
        ("чем владелец карты отличается от контролирующего игрока", "535.1"),
        ("передвижение и перемещение симбиота разница", "211.11"),
    ],
)
def test_the_words_of_a_comparison_are_not_what_is_asked(ix: RulesIndex, query: str, first: str) -> None:
    result = ix.lookup(query)
    assert result.answer.answered and result.hits[0].id == first
    assert not result.answer.missing  # «отличается», «разница» are not words the rules lack


@pytest.mark.parametrize(
    "query",
    [
        "передвижение чем отличается от перемещения",
        "чем передвижение отличается от перемещения",
        "передвижение и перемещение это одно и то же или нет",
        "передвижение и перемещение одно ли и то же?",
        # the thing asked about right after «чем»: the story's «симбиотов» and «правилах» do not
        # make 211.11 say what it is
        "чем передвижение отличается от перемещения, в правилах про симбиотов это слово есть "
        "а нигде не объяснено",
    ],
)
def test_a_difference_of_a_thing_a_clause_names_only_in_passing_is_not_answered(
    ix: RulesIndex, query: str
) -> None:
    # 211.11: «все особенности, связанные с перемещением (но не с передвижением)» defines neither
    result = ix.lookup(query)
    assert not result.hits and result.answer.clause == "211.11"
    assert result.answer.reason == "вопрос о разнице, а п. 211.11 упоминает «передвижение» только к слову"


def test_the_same_thing_after_a_preposition_is_no_comparison(ix: RulesIndex) -> None:
    # «на одно и то же» says what two replacements apply to, not that two things are compared
    result = ix.lookup("у меня замещение и у соперника замещение на одно и то же кто решает какое будет")
    assert result.answer.answered and "разнице" not in result.answer.reason
    assert "534.4.2" in [h.id for h in result.hits[:3]]


def test_a_thing_named_in_quotes_in_a_parenthesis_is_mentioned_not_stated(ix: RulesIndex) -> None:
    # 535.7.3 says an incarnated card is exiled «(после срабатывания особенностей “при гибели”)»:
    # the order in which those abilities trigger is stated nowhere in these fragments
    result = ix.lookup("в каком порядке срабатывают особенности при гибели")
    assert not result.hits
    said = ix.lookup("когда срабатывают особенности при гибели")
    notes = " ".join(understood.answer_lines(said.answer))
    assert "«срабатывают» → срабатывания (родственное слово, только в скобках, к слову)" in notes


@pytest.mark.parametrize("query", ["как выставлять местность на поле боя", "местность куда кладётся"])
def test_a_word_read_so_only_beside_another_is_a_word_the_rules_lack_without_it(
    ix: RulesIndex, query: str
) -> None:
    # jargon.yaml: a terrain is a card that is no creature (211.4) only when a symbiote is to go on it
    result = ix.lookup(query)
    assert not result.hits and "местность" in result.answer.missing
    on_it = ix.lookup("паразита на местность можно?")
    assert on_it.answer.answered and on_it.hits[0].id == "211.4"


@pytest.mark.parametrize(
    "query",
    [
        "что происходит на шаге проверки защит по порядку",  # 534.8: what counts as what, no order
        "в каком порядке разрешается стек если оба игрока добавили особенности",  # 534.7 points to 536
        # who goes first: 211.7 has the uncovering, not who does it first
        "вскрытие карт кто первый",
        "стек порядок выполнения",  # keywords: 534.7's «в порядке, описанном в 536» points elsewhere
        "кто первый выбирает клетку при рассадке",
        # a doing right before «первым» asks which comes first
        "как работает стек, последнее положенное выполняется первым?",
    ],
)
def test_a_question_of_order_needs_a_clause_that_states_one(ix: RulesIndex, query: str) -> None:
    result = ix.lookup(query)
    assert not result.hits and "вопрос «в каком порядке»" in result.answer.reason


def test_a_clause_that_states_the_order_answers_it(ix: RulesIndex) -> None:
    # 535.5.1: «Объявляя вызов … Затем … После этого игрок должен объявить название … и клетку»
    result = ix.lookup("в каком порядке объявлять вызов: кто вызывает, какую карту, какую клетку")
    assert result.answer.answered and result.hits[0].id == "535.5.1"


def test_naming_the_active_player_states_who_of_the_two_goes_first(ix: RulesIndex) -> None:
    # 534.4.2: «Активный игрок выбирает, какой именно эффект будет применён»
    result = ix.lookup("замены у обоих, кто первый выбирает")
    assert result.answer.answered and result.hits[0].id == "534.4.2", [h.id for h in result.hits]


def test_a_count_stated_in_an_example_about_the_card_asked_answers_it(ix: RulesIndex) -> None:
    # 534.5's example: Бул'Багур «выберите до 3 клеток подряд»; the card is what the example is
    # about, not a word its sentence must have
    result = ix.lookup("сколько клеток выбирает бул багур для света фонаря")
    assert result.answer.answered and result.hits[0].id == "534.5"


@pytest.mark.parametrize("query", ["максимум карт в руке", "вспомогательная зона сколько карт вмещает"])
def test_a_limit_asks_a_count_and_an_idiom_states_none(ix: RulesIndex, query: str) -> None:
    # «максимум» asks how many as «сколько» does; 535.4's «все равно сразу помещаются» is «anyway»
    result = ix.lookup(query)
    assert not result.hits and "вопрос «сколько»" in result.answer.reason


def test_a_limit_the_rules_state_answers_it(ix: RulesIndex) -> None:
    result = ix.lookup("максимум симбиотов на одном существе")
    assert result.answer.answered and result.hits[0].id == "211.6"  # «только одного симбиота»


def test_a_closed_creature_is_not_a_card_put_into_play_face_down(ix: RulesIndex) -> None:
    # 535.5–535.7 say how a card comes into play («в закрытом виде»); how a closed creature opens
    # these fragments never say
    assert not ix.lookup("как открыть закрытое существо").hits
    result = ix.lookup("вызванное существо приходит закрытым?")
    assert result.answer.answered and result.hits[0].id == "535.5"


@pytest.mark.parametrize(
    ("query", "first"),
    [
        # «количество» that a verb changes is no question of how many (534.5 names no number)
        ("замещение меняет только количество ран, тип способности остается прежний?", "534.5"),
        # «кто» after the story («… оказалось на моей половине …»): only what follows it is asked
        (
            "у противника одно существо оказалось на моей половине поля можно ли посадить моего "
            "паразита на это существо или паразит садится только на тех кто в первом ряду",
            "211.2",
        ),
    ],
)
def test_a_question_word_inside_a_story_asks_only_what_it_says(
    ix: RulesIndex, query: str, first: str
) -> None:
    result = ix.lookup(query)
    assert result.answer.answered and result.hits[0].id == first, [h.id for h in result.hits]


def test_a_noun_of_quantity_still_asks_how_many_where_no_verb_does_it(ix: RulesIndex) -> None:
    result = ix.lookup("количество симбиотов на одном существе")
    assert result.answer.answered and result.hits[0].id == "211.6"
    result = ix.lookup("количество карт в колоде")
    assert not result.hits


def test_a_count_asked_in_one_part_of_a_longer_question_is_read_in_that_part(ix: RulesIndex) -> None:
    # 535.7.3: «Каждое существо может использовать инкарнацию 1 раз за бой.» — the second part,
    # «что будет если оно снова погибнет», is another sentence's (and another question)
    result = ix.lookup(
        "я совсем запутался с инкарнацией: сколько раз за бой одно и то же существо может "
        "инкарнировать, и что будет если оно потом снова погибнет"
    )
    assert result.answer.answered and result.hits[0].id == "535.7.3", result.answer.reason
    # the whole question still counts where its part alone does not (535.7.1: «инкарнация Х»)
    result = ix.lookup("инкарнация 3 — через сколько моих ходов карта вернется")
    assert result.answer.answered and result.hits[0].id == "535.7.1"


def test_this_is_which_asks_what_a_thing_is(ix: RulesIndex) -> None:
    # «X это какой» asks what X is: 211.2's «стоящее в первом ряду» uses the row, never says which
    result = ix.lookup("первый ряд это какой")
    assert not result.hits and "вопрос «что такое»" in result.answer.reason
    result = ix.lookup("взятие карт в отряд это какой раздел рп")
    assert result.answer.answered and result.hits[0].id in ("535", "535.2")


def test_a_verb_and_a_noun_of_one_stem_are_two_topics(ix: RulesIndex) -> None:
    # «в подфазу вскрытия» is when; «кто первым вскрывает» asks who reveals first, which 211.2's
    # «До вскрытия» and 211.7's «обязан вскрыть всех своих скрытых симбиотов» never say
    result = ix.lookup("как проходит подфаза вскрытия, кто первым вскрывает свои карты")
    assert not result.hits, [h.id for h in result.hits]


@pytest.mark.parametrize(
    "query",
    [
        # «защищаться» (to defend) is no «защита» (534.8's protections): families.yaml's «unless»
        "закрытое существо может защищаться?",
        "могут ли летающие существа защищать наземных",
        # a doing the rules never name: 535.5.1.2 has the hand, never drawing cards into it
        "можно ли добирать карты в руку каждый ход как в магии",
        # closing a creature happens; 535.5's «в закрытом виде» says how a called card comes in
        "атака всегда закрывает существо? тапать обязательно",
        # «корректно ли», «правомерно ли» ask whether one may, as «можно ли» does
        "корректно ли атаковать летающее существо наземным",
        "возможно ли атаковать летающее существо наземным",  # … and «возможно»
        # «как» before a doing asks how one may do it; 211.4 never says attacking
        "как атаковать летающее существо наземным",
        "а как вообще атаковать летающее существо",
    ],
)
def test_a_question_whether_one_may_do_what_the_rules_never_name_is_not_answered(
    ix: RulesIndex, query: str
) -> None:
    result = ix.lookup(query)
    assert not result.hits, [h.id for h in result.hits]


@pytest.mark.parametrize(
    "query",
    ["можно оставить симба скрытым после рассадки", "игрок Б говорит что может оставить паразита без хоста"],
)
def test_leaving_a_thing_as_it_is_asks_about_its_state(ix: RulesIndex, query: str) -> None:
    # «оставить», «держать» are light verbs: 211.7 («обязан вскрыть», «не имеет хозяина, погибает»)
    # answers whether a symbiote may stay hidden or without a host, though it never says «оставить»
    result = ix.lookup(query)
    assert result.answer.answered and result.hits[0].id == "211.7", [h.id for h in result.hits]


def test_a_verb_that_asks_or_frames_leaves_a_noun_of_quantity_asking(ix: RulesIndex) -> None:
    # «подскажите», «есть» do nothing to the count: «количество карт в колоде» is still asked
    for query in ("подскажите количество карт в колоде", "скажите количество карт в колоде"):
        assert not ix.lookup(query).hits, query


@pytest.mark.parametrize(
    ("query", "first"),
    [
        # 535.1 defines the owner («никакие эффекты … не могут этого изменить»); 535.8.1 only names
        # «сменить владельца»: the same words, and the clause that states the term answers
        ("может ли эффект сменить владельца карты", "535.1"),
        ("чья карта если её отжали", "535.1"),
        # 535.9 has «считается», a light verb; 535.2 defines taking into the squad
        ("инкарнация считается взятием в отряд?", "535.2"),
        # … but not over its own subclause's detail: 535.7.2 (the rules broken), not 535.7
        ("инка не может выйти, клетки заняты", "535.7.2"),
    ],
)
def test_of_two_clauses_on_the_same_words_the_one_defining_the_term_comes_first(
    ix: RulesIndex, query: str, first: str
) -> None:
    result = ix.lookup(query)
    assert result.hits[0].id == first, [h.id for h in result.hits]


@pytest.mark.parametrize(
    "query",
    [
        "соперник сделал передвижение своим сущ и сказал что это не движение, а я так и не понял что такое "
        "передвижение и чем оно отличается по правилам",
        "игрок А говорит что передвижение это то же самое что движение, Б считает что это любое перемещение, "
        "что такое передвижение по правилам",
    ],
)
def test_what_a_thing_is_asked_in_a_story_needs_a_clause_that_states_it(ix: RulesIndex, query: str) -> None:
    # the story's words (a move, the opponent, a creature) are 211.1's and 211.11's; the question
    # is what «передвижение» is, which 211.11 names only in a parenthesis and 211.1 not at all
    result = ix.lookup(query)
    assert not result.hits and not result.answer.answered, [h.id for h in result.hits]
    # «что это не движение» is no question of what a thing is: the phrase with a topic after it is
    # (a question of what it is, or, with «чем оно отличается», of its difference)
    assert result.answer.reason.endswith("а п. 211.11 упоминает «передвижение» только к слову"), result.answer


def test_how_long_is_answered_only_where_a_time_is_bounded(ix: RulesIndex) -> None:
    # 211.8.1's example says when Многоликий takes the abilities, not how long he keeps them
    result = ix.lookup(
        "многоликий в начале хода противника берет особенности изгнанного существа, спор до какого "
        "момента они у него остаются"
    )
    assert not result.hits
    assert result.answer.reason.startswith("вопрос «как долго», а п. 211.8.1 не называет срока для"), (
        result.answer.reason
    )
    # little words may stand inside the phrase («сколько это действует», «как долго это действует»)
    for said in ("сколько это действует у многоликого", "как долго это действует у многоликого"):
        assert ix.lookup(said).answer.reason.startswith("вопрос «как долго», а п. 211.8.1"), said
    # 534.5's example bounds the lantern's light: «до конца вашего следующего хода»
    lit = ix.lookup("свет фонаря бул багура до какого момента действует")
    assert lit.answer.answered and lit.hits[0].id == "534.5", [h.id for h in lit.hits]


@pytest.mark.parametrize(
    ("query", "term"),
    [
        ("что значит вызвать карту, откуда она берётся", "535.5"),
        ("что такое инкарнация, ребят куда ставится карта", "535.7"),
    ],
)
def test_a_question_of_what_a_term_is_is_answered_by_its_definition(
    ix: RulesIndex, query: str, term: str
) -> None:
    # what else it asks of the term («откуда она берётся») is the definition's to tell: 535.5 says
    # where a called card comes from, whatever clauses that only use the word rank above it
    result = ix.lookup(query)
    assert result.answer.answered and result.answer.defines and result.answer.clause == term
    assert result.hits[0].id == term, [h.id for h in result.hits]


@pytest.mark.parametrize(
    "query",
    [
        # a happening told after the word: what it means, not what a symbiote is
        "что значит симбиот поменял хозяина",
        # a thing the rules never name: not the summoning 535.5 defines
        "что такое вызов у заклинаний, откуда берется",
    ],
)
def test_a_question_of_what_a_happening_means_is_no_term_asked(ix: RulesIndex, query: str) -> None:
    assert not ix.lookup(query).answer.defines


def test_an_order_told_over_a_rules_sentences_answers_in_what_order(ix: RulesIndex) -> None:
    # 535.5.1 orders the summoning over three sentences («Объявляя вызов … Затем как часть заявки
    # вызова … После этого …»): no one sentence has every word of the question
    result = ix.lookup("в каком порядке при заявке вызова объявлять карту и смотреть колоду")
    assert result.answer.answered and result.hits[0].id == "535.5.1", [h.id for h in result.hits]
    # an example's «перед применением» orders nothing the question asks (534.7 points to 536)
    assert (
        ix.lookup("в каком порядке выполняются порождённые игродействия от замещающей особенности").hits == ()
    )


def test_who_or_what_counts_as_a_thing_asks_for_its_definition(ix: RulesIndex) -> None:
    # «это кто», «кто считается» ask what a thing is: 534.4.2 only names the active player, while
    # 211.2 says who becomes a symbiote's host
    result = ix.lookup("активный игрок это кто")
    assert result.hits == () and "не определяет" in result.answer.reason
    result = ix.lookup("кто считается хозяином симбиота")
    assert result.answer.answered and result.hits[0].id == "211.2", [h.id for h in result.hits]


def test_what_stands_in_a_things_place_says_what_it_is(ix: RulesIndex) -> None:
    # 211.1: «вместо символа запаса движения ставится символ для компаньонов или для паразитов»
    result = ix.lookup("у симба вместо цифры движения какой то значок, это что")
    assert result.answer.answered and result.hits[0].id == "211.1", [h.id for h in result.hits]
    # «вместо неё» points back at the movement's number
    result = ix.lookup("у некоторых карт нет цифры движения, а вместо неё какой то значок, это что")
    assert result.answer.answered and result.hits[0].id == "211.1", [h.id for h in result.hits]
    # without «вместо» the question asks what a symbol is, which no clause says; and what 211.1
    # puts a symbol in place of is the movement's, not a companion's symbol
    assert ix.lookup("что такое символ").hits == ()
    assert ix.lookup("у паразита вместо символа компаньона что то другое, это что").hits == ()


@pytest.mark.parametrize(
    "query",
    [
        # a term of another section: the summoning 535.5 defines says nothing of elite cards
        "что значит вызвать элитную карту",
        # another kind of question besides: whether it may attack is not what 211 says
        "что такое симбиот, может ли он атаковать летающих",
        # a thing the definition does not name
        "что такое инкарнация у артефактов",
    ],
)
def test_a_definition_does_not_answer_what_it_does_not_say(ix: RulesIndex, query: str) -> None:
    result = ix.lookup(query)
    assert not result.answer.defines and result.hits == (), [h.id for h in result.hits]


def test_a_count_of_the_thing_counted_answers_how_many_of_it(ix: RulesIndex) -> None:
    # 211.11: «считается, что произошло перемещение двух существ»; the host and companion are in
    # the clause's other sentences
    result = ix.lookup("сколько существ считается переместившимися когда двигают хоста с компаньоном")
    assert result.answer.answered and result.hits[0].id == "211.11", [h.id for h in result.hits]


@pytest.mark.parametrize(
    "query",
    [
        "сколько существ можно контролировать одновременно",  # 211.11's «двух существ» moved together
        "сколько рядов на половине поля",  # «в третьем ряду» says which row, it counts none
    ],
)
def test_a_count_of_the_thing_in_another_matter_does_not_answer(ix: RulesIndex, query: str) -> None:
    result = ix.lookup(query)
    assert not result.answer.answered and not result.hits, [h.id for h in result.hits]


def test_a_count_is_two_or_more_in_few_digits_or_a_number_word_not_an_ordinal(ix: RulesIndex) -> None:
    c = ix._search.corpus
    assert statements._many(c, "двух") and statements._many(c, "3")
    assert not statements._many(c, "третьем")  # which row, not how many
    assert not statements._many(c, "1")  # one is no count of a thing
    assert not statements._many(c, "536")  # «в 536. Эффекты, порождающие…» cites a section


@pytest.mark.parametrize(
    "query",
    [
        # 534.7 cites «536. Эффекты, порождающие игродействия»: a section number, no count of effects
        "сколько эффектов порождает выполнение замещающей особенности",
        # an order not of the players: 534.4.2 names the active player, it orders no effects
        "что раньше применяется: эффект замещения или другой эффект",
    ],
)
def test_a_reference_or_the_active_player_is_no_count_or_order_of_things(ix: RulesIndex, query: str) -> None:
    result = ix.lookup(query)
    assert not result.answer.answered and not result.hits, [h.id for h in result.hits]


def test_the_thing_counted_is_the_first_noun_after_how_many(ix: RulesIndex) -> None:
    result = ix.lookup("сколько всего существ считается переместившимися когда двигают хоста с компаньоном")
    assert result.answer.answered and result.hits[0].id == "211.11", [h.id for h in result.hits]


def test_whether_a_thing_is_possible_asks_whether_one_may(ix: RulesIndex) -> None:
    # «возможен» asks as «можно» does and names no topic: 535.5's «из своей колоды» answers it
    result = ix.lookup("вызов из колоды соперника возможен вообще или только из своей колоды")
    assert result.answer.answered and result.hits[0].id == "535.5", [h.id for h in result.hits]


def test_how_to_do_what_a_clause_never_says_says_so() -> None:
    result = rules_index.load_default().lookup("как же атаковать летающее существо")
    assert result.answer.reason == "вопрос «как», а п. 211.4 не говорит о том, чтобы «атаковать»", (
        result.answer
    )


@pytest.mark.parametrize(
    ("query", "clause"),
    [
        (
            "в 211.11 в скобках написано про передвижение, я так и не понял чем передвижение "
            "отличается от движения",
            "211.11",
        ),
        (
            "в п. 211.5 фраза обрывается на «если бестелесный симбиот» — так можно бестелесного "
            "паразита на обычное существо?",
            "211.5",
        ),
    ],
)
def test_a_clause_typed_with_a_question_its_words_say_it_does_not_answer_is_no_answer(
    ix: RulesIndex, query: str, clause: str
) -> None:
    # the number finds the clause; what the question asks of it, the clause does not say
    result = ix.lookup(query)
    assert not result.answer.answered and result.answer.clause == clause and result.answer.reason, (
        result.answer
    )


@pytest.mark.parametrize(
    ("query", "first"),
    [
        ("п. 211.10 можно ли двигать симбиота", "211.10"),
        # a look-up: the clause's number and what it is about, no question asked
        ("211.5 бестелесный симбиот", "211.5"),
        ("534.5 бул багур защита от летающих", "534.5"),
    ],
)
def test_a_clause_typed_with_a_question_it_answers_or_with_no_question_is_answered(
    ix: RulesIndex, query: str, first: str
) -> None:
    result = ix.lookup(query)
    assert result.answer.answered and result.hits[0].id == first, [h.id for h in result.hits]


@pytest.mark.parametrize(
    "query", ["кто стал первым хозяином симбиота", "какой эффект замещения применяется первым"]
)
def test_first_of_a_thing_or_of_which_one_asks_no_order(ix: RulesIndex, query: str) -> None:
    assert "порядке" not in ix.lookup(query).answer.reason

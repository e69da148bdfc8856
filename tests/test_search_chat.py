"""Questions as players type them in a tournament's chat: words that address the chat («кто
шарит», «подскажите», «мы поспорили») say nothing about the rules, and a «кто» that asks the chat
is not a question of who does something in the game."""

from __future__ import annotations

import pytest

import rules_index
from rules_index import RulesIndex


@pytest.fixture(scope="module")
def ix() -> RulesIndex:
    return rules_index.load_default()


@pytest.mark.parametrize(
    ("query", "clauses"),
    [
        ("кто шарит компаньона можно на вражеского чела посадить при рассадке?", ("211.1", "211.2")),
        ("кто знает симбиот без хозяина после вскрытия что с ним", ("211.7",)),
        ("подскажите можно ли вызвать летающее существо сразу во вспомогательную зону", ("535.4",)),
        # «по рп», the rules' own abbreviation, and «где почитать» say where to read, not what
        ("что такое возрождение карты по рп", ("535.6",)),
        ("раздел симбиоты какой номер в РП", ("211",)),
        ("где почитать все правила по симбам целиком", ("211",)),
        ("кто шарит где в правилах вообще раздел про симбиотов, номер скиньте", ("211",)),
        # «vs», a chat's English filler
        ("владелец vs контролирующий игрок в чем разница", ("535.1",)),
        # a request for a reference and the general rules of a section («киньте ссылку», «общие
        # правила», «где смотреть», «все пункты разом»): the section
        ("киньте ссылку на общие правила по симбам, все пункты разом", ("211",)),
        ("общие правила про симбиотов где смотреть", ("211",)),
        # who asks the chat to confirm («кто шарит подтвердите»), whom a message is addressed to
        # («@саня»), a judgement of a claim («бред же») and the game's name («в берсерке»)
        (
            "@саня ты не прав, на рассадке компов кладут тока на своих а паразитов тока на сущ опп, "
            "кто шарит подтвердите",
            ("211.1", "211.2"),
        ),
        ("типа рука в берсерке есть карты для вызова в руку идут", ("535.5.1.2",)),
        ("owner vs controller в берсерке в чем разница", ("535.1",)),
    ],
)
def test_words_that_address_the_chat_do_not_silence_the_answer(
    ix: RulesIndex, query: str, clauses: tuple[str, ...]
) -> None:
    result = ix.lookup(query)
    assert result.answer.answered and result.hits[0].id in clauses, [h.id for h in result.hits]


def test_a_question_of_who_does_something_the_rules_never_say_is_still_refused(ix: RulesIndex) -> None:
    # «кто» before a game's doing still asks the doer, which these fragments never name (issue 23)
    result = ix.lookup("кто шарит, кто ходит первым в бою?")
    assert not result.hits and not result.answer.answered


def test_a_long_story_is_answered_by_the_clause_on_what_it_asks(ix: RulesIndex) -> None:
    # the story's words the rules have elsewhere («свободные», «рядом», «захотел» of 535.5.1) no
    # longer outweigh the clause on the host a symbiote must be given (211.7)
    result = ix.lookup(
        "соперник не захотел сажать своего компаньона ни на кого хотя его свободные существа были "
        "рядом говорит ему выгоднее так обязан ли он выбрать хозяина"
    )
    assert result.answer.answered and result.hits[0].id == "211.7"


def test_a_long_story_about_what_the_rules_lack_is_still_refused(ix: RulesIndex) -> None:
    # the crystals a squad is bought with: the fragments speak of the recruiting phase, never of its price
    result = ix.lookup(
        "набираю отряд в подфазу набора и не понимаю сколько у меня кристаллов золотых и серебряных "
        "на все существа и можно ли часть сэкономить на следующий бой"
    )
    assert not result.hits


@pytest.mark.parametrize(
    "query",
    [
        "раздел про симбиотов какой номер",
        "в каком разделе правил все про симбиотов",
        "где в правилах про симбиотов",
    ],
)
def test_a_question_for_the_section_gets_its_heading(ix: RulesIndex, query: str) -> None:
    # «правил», «номер» say where to look, not what: 535.1.1's «эффектом правил игры» is no answer
    result = ix.lookup(query)
    assert result.answer.answered and result.hits[0].id == "211"


@pytest.mark.parametrize(
    ("query", "word"),
    [
        # «брат» is cut to the stem of the rules' «брать»: who asks is no topic
        ("брат уверяет что инкарнация это не взятие в отряд", "брат"),
        # «на нём», «в самом деле»: a pronoun and a filler, not a noun the rules lack
        ("моё существо изгнали а на нём сидел паразит, что с ним на самом деле", "деле"),
    ],
)
def test_the_people_and_fillers_of_a_story_are_not_its_topic(ix: RulesIndex, query: str, word: str) -> None:
    result = ix.lookup(query)
    assert word not in {w.word for w in result.words}
    assert word not in result.answer.missing


def test_a_slang_phrase_in_the_rules_own_words_is_still_read_whole(ix: RulesIndex) -> None:
    # «первым ходит» has the keys of «первый ход» (jargon.yaml), which the rules never write whole:
    # read as one meaning, it is what the text lacks, not «первом ряду» and «хода» apart
    result = ix.lookup("в начале боя первым ходит тот у кого отряд дешевле")
    assert not result.hits and "первым ходит" in result.answer.missing
    typed = ix.lookup("первый ход")
    assert not typed.hits and typed.answer.missing == ("первый ход",)


@pytest.mark.parametrize(
    "query",
    [
        "Здравствуйте, можно ли поместить небестелесного симбиота на бестелесное существо?",
        "Добрый день, можно ли поместить небестелесного симбиота на бестелесное существо?",
        "можно ли поместить небестелесного симбиота на бестелесное существо? заранее спасибо",
    ],
)
def test_a_greeting_or_thanks_is_no_word_of_the_question(ix: RulesIndex, query: str) -> None:
    # «день» of «добрый день» alone is a word a question may ask about; typed in the greeting it frames it
    result = ix.lookup(query)
    assert result.answer.answered and result.hits[0].id == "211.5", [h.id for h in result.hits]
    assert "день" not in {w.word for w in result.words}


@pytest.mark.parametrize(
    "query",
    ["серёга говорит инкарнация это именная особенность", "@дима инкарнация это именная особенность?"],
)
def test_a_name_in_the_story_is_who_is_in_it_not_what_is_asked(ix: RulesIndex, query: str) -> None:
    # «серёга» and «дима» are people at the table: the rules lack them, and the question is not
    # about them (as a noun the rules lack, either outweighed the three words 535.7.4 has)
    result = ix.lookup(query)
    assert result.answer.answered and result.hits[0].id == "535.7.4", [h.id for h in result.hits]


@pytest.mark.parametrize(
    ("query", "first"),
    [
        ("раздел взятие карт в отряд скиньте", "535"),
        ("взятие карт в отряд это какой раздел", "535"),
        # without a word asking for a section, the term's definition stays first
        ("взятие карт в отряд", "535.2"),
    ],
)
def test_a_section_asked_for_by_its_name_comes_before_its_terms_definition(
    ix: RulesIndex, query: str, first: str
) -> None:
    result = ix.lookup(query)
    assert result.answer.answered and result.hits[0].id == first, [h.id for h in result.hits]


@pytest.mark.parametrize(
    ("query", "section"),
    [
        (
            "Привет, я только начал играть с друзьями в клубе, в каком разделе правил описаны "
            "симбиоты? хочу прочитать целиком перед турниром",
            "211",
        ),
        ("сорян за нубский вопрос, глава про взятие карт в отряд какой номер, бро не знает", "535"),
    ],
)
def test_a_section_asked_for_in_a_story_is_its_heading(ix: RulesIndex, query: str, section: str) -> None:
    # the story around it («начал играть», «клубе», «турниром») is not what is asked: the section is
    result = ix.lookup(query)
    assert result.answer.answered and result.hits[0].id == section, [h.id for h in result.hits]


def test_a_section_named_where_the_story_is_told_is_not_what_is_asked(ix: RulesIndex) -> None:
    # the section is where the judge read something; the sentence that asks is about that thing
    result = ix.lookup("В разделе про симбиотов упоминается передвижение. Что это значит?")
    assert not result.hits or result.hits[0].id != "211", [h.id for h in result.hits]


def test_a_section_asked_for_that_the_rules_lack_is_not_answered(ix: RulesIndex) -> None:
    # no heading names the defenders: the word for a section does not make an answer of its own
    assert ix.lookup("в каком разделе правил написано про защитников и их удары").hits == ()


@pytest.mark.parametrize("query", ["лев может быть хозяином симбиота?", "роза может быть хозяином симбиота?"])
def test_a_word_that_is_a_name_only_sometimes_is_still_a_word(ix: RulesIndex, query: str) -> None:
    # «лев», «роза» are a lion and a rose as often as a person: a word the rules lack, as «тигр» is
    assert ix.lookup(query).hits == () and ix.lookup("тигр может быть хозяином симбиота?").hits == ()


def test_an_abbreviation_does_not_end_the_sentence_that_asks(ix: RulesIndex) -> None:
    # «сущ.» is cut short, not a sentence told around the question
    c = ix._search.corpus
    from rules_index.search import query, relation

    q = query.read(c, "Можно ли поместить паразита на бестелесное сущ. в начале хода?")
    assert relation.told_around(c, q) == frozenset()
    q = query.read(c, "Добрый вечер. Купил набор. Можно ли поместить паразита на бестелесное существо?")
    assert {q.words[wi].word for wi in relation.told_around(c, q)} == {"Купил", "набор"}


def test_a_likeness_is_not_what_is_asked(ix: RulesIndex) -> None:
    # «типа башенка» likens a symbiote on a symbiote to a tower: 211.4 forbids it, and the rules
    # lacking the tower says nothing
    for query in (
        "симбиот на симбиота так можно? типа башенка",
        "симба на другого симба можно положить, вроде пирамидка",
    ):
        result = ix.lookup(query)
        assert result.answer.answered and result.hits[0].id == "211.4", [h.id for h in result.hits]
    assert ix.lookup("можно ли построить башенка").hits == ()


@pytest.mark.parametrize(
    "query",
    [
        # the part that asks for a section names a thing the rules lack
        "в каком разделе про броню симбиотов",
        # the section named is in the story; the one asked for is of the defenders
        "Я прочитал раздел про симбиотов. А в каком разделе про защитников?",
        # «вроде», «типа» inside a sentence are fillers: the word after them is what is asked
        "симбиот может стать типа защитником?",
        "вроде броня не работает у паразита?",
        "паразит типа заклинание, его можно атаковать?",
        # 211.1's «запас движения» is a symbiote's, answering no question of a creature's speed
        "какая скорость у летающего существа",
    ],
)
def test_a_section_word_or_a_filler_does_not_answer_what_the_rules_lack(ix: RulesIndex, query: str) -> None:
    assert ix.lookup(query).hits == ()


def test_a_section_named_in_a_statement_is_no_section_asked_for(ix: RulesIndex) -> None:
    result = ix.lookup("в разделе про симбиотов написано что паразит погибает вместе с хозяином")
    assert result.hits and result.hits[0].id != "211", [h.id for h in result.hits]


@pytest.mark.parametrize(
    ("query", "first", "framing"),
    [
        ("слушай что значит возродить карту", "535.6", "слушай"),
        ("извините за глупый вопрос а что вообще такое симбиоты в этой игре", "211", "игре"),
        # «в самом начале» says when, as «сначала» does: not 535.7.1's «в начале своего хода»
        ("кто контролирует карты которые я набрал в отряд в самом начале", "535.3", "начале"),
    ],
)
def test_what_frames_a_spoken_question_is_no_word_of_it(
    ix: RulesIndex, query: str, first: str, framing: str
) -> None:
    # «слушай», «глупый вопрос», «в этой игре» address the one asked; counted as words the rules
    # lack, they left the question unanswered
    result = ix.lookup(query)
    assert result.answer.answered and result.hits[0].id == first, [h.id for h in result.hits]
    assert framing not in {w.word for w in result.words}

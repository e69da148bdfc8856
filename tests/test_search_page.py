"""The search page under AppTest (issue 14): what was understood, the best clause first, the
ready answers after the first hits and ordered by them, «ничего нет» for what the rules lack."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

import rules_index
from cardbase import store as card_store
from rules_index import versions
from rulings import store
from tests import cardbase_cases as card_cases
from tests.apptest import APP, hit_links, list_links, shown, shown_links

BEST_HITS = "search_hits"


@pytest.fixture(autouse=True)
def empty_journal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(store.ENV_VAR, str(tmp_path / "rulings.sqlite3"))


def run(query: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["q"] = query
    at.run()
    assert not at.exception, at.exception
    return at


def page_links_in_order(at: AppTest) -> list[tuple[str, str]]:
    """(page, clause id or label) of every page link, in the order a reader meets them."""
    return [(x.page, x.params.get("p", x.label)) for x in shown_links(at)]


def test_the_page_says_what_was_understood_and_what_not() -> None:
    at = run("хост улетел абракадабра")
    said = at.get_by_key("search_understood").markdown[0].value.replace("\\", "")
    assert said.startswith("Понято: «хост» → хозяин (жаргон); «улетел» → становится летающим (жаргон)")
    assert "Не нашлось в тексте: «абракадабра»" in said
    assert hit_links(at)[0] == "211.4"


def test_the_page_says_which_words_it_read_from_latin_letters() -> None:
    at = run("karlik und poluchaet rany ot kogo krome hozyaina esli vaila zabrali")
    said = at.get_by_key("search_understood").markdown[0].value.replace("\\", "")
    assert said.startswith("Понято: «karlik und» → Карлик Унд (транслит «карлик унд»)"), said
    assert "«vaila» → Вайл (транслит «вайла»)" in said
    assert hit_links(at)[0] == "211.3.1"


@pytest.mark.parametrize("query", ["3 ываыва", "сколько кристаллов в начале игры"])
def test_nothing_in_the_rules_is_said_and_no_clause_is_offered(query: str) -> None:
    at = run(query)
    said = [i.value.replace("\\", "") for i in at.info]
    assert any(line.startswith("В загруженных правилах об этом ничего нет.") for line in said), said
    assert hit_links(at) == []
    assert not [p for p, _ in page_links_in_order(at) if p == ""]  # no clause link at all


def test_the_page_says_on_what_evidence_the_rules_answer() -> None:
    at = run("хост умер")
    said = at.get_by_key("search_evidence").caption[0].value.replace("\\", "")
    assert said.startswith("Ответ есть: п. 211.4 — «хост» → существо (более общее слово)"), said
    assert hit_links(at)[0] == "211.4"


def test_who_goes_first_gets_nothing_no_ready_answers_and_the_words_the_text_lacks() -> None:
    # issue 23: «ходит» of a turn is no «движение»; the library's scenarios about «ход» in
    # another sense are no answer when the rules are silent
    at = run("кто ходит первым")
    assert any(
        i.value.replace("\\", "").startswith("В загруженных правилах об этом ничего нет.") for i in at.info
    )
    said = at.get_by_key("search_understood").markdown[0].value.replace("\\", "")
    assert "Не нашлось в тексте: «ходит первым»" in said, said
    assert hit_links(at) == []
    assert not [k for k in ("search_answers", "search_hits") if _has_key(at, k)]


def test_how_many_without_a_number_in_the_rules_says_why() -> None:
    at = run("сколько карт в колоде")
    why = at.get_by_key("search_evidence").caption[0].value.replace("\\", "")
    assert why.startswith("Почему: вопрос «сколько»"), why
    assert hit_links(at) == []


def _has_key(at: AppTest, key: str) -> bool:
    try:
        at.get_by_key(key)
    except KeyError:
        return False
    return True


def test_the_best_clause_comes_first_and_ready_answers_follow_the_first_hits() -> None:
    at = run("можно ли двигать симбиота")
    links = page_links_in_order(at)
    assert links[0] == ("", "211.10")  # the first thing to follow on the screen is the clause
    first_answer = next(i for i, (page, _) in enumerate(links) if page in ("desk", "journal"))
    best = [x.params.get("p", "") for x in list_links(at.get_by_key(BEST_HITS))]
    assert [cid for _, cid in links[: len(best)]] == best and first_answer >= len(best)
    # the answer about 211.10 comes before the one about Сугед (it cites the best hit)
    answers = at.get_by_key("search_answers")
    titles = [p.text for p in shown(answers) if p.bold]
    assert "движение" in titles[0], titles
    # the answer in words, as normal text (not a small grey note)
    assert any(p.text.startswith("Ответ: Нет") and not p.muted for p in shown(answers))


def test_the_menus_search_drops_a_clause_left_in_the_url() -> None:
    # The menu's «Поиск» is `search.search_only` (app.py); the click itself: test_search_browser.
    at = AppTest.from_function(_search_only_page, default_timeout=60)
    at.query_params["p"] = "211.4"
    at.run()
    assert not at.exception, at.exception
    assert [t.value for t in at.title] == ["Поиск по правилам"]
    assert "p" not in at.query_params


def test_back_to_the_menus_search_from_a_link_it_opened_shows_that_search_again() -> None:
    # Back lands on «/search?p=211.7&v=…» (Streamlit wrote the link's parameters into the address
    # it left: test_browser_linklist); the tab remembers which query that link was followed from.
    at = AppTest.from_function(_search_only_page, default_timeout=60)
    at.session_state["search_left_from"] = {(("p", "211.7"), ("v", "РП 4.1-2")): "хост умер"}
    at.query_params.update({"p": "211.7", "v": "РП 4.1-2"})
    at.run()
    assert not at.exception, at.exception
    assert (at.query_params.get("q"), at.query_params.get("p")) == ("хост умер", None)
    assert at.text_input(key="search_box").value == "хост умер" and "211.7" in hit_links(at)


def _search_only_page() -> None:
    from app_pages.search import page

    page.search_only()


# Card names of the loaded card base (issue 16 item 2) ----------------------------------------


def test_a_card_of_the_loaded_base_finds_the_rules_for_its_kind(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cards = tmp_path / "cards"
    monkeypatch.setenv(card_store.ENV_VAR, str(cards))
    info = card_store.CardStore(cards).save(card_cases.json_base(), card_cases.files())
    card_store.make_default(card_store.CardStore(cards), info.id)
    at = run("горного клеща хозяин погиб")
    said = at.get_by_key("search_understood").markdown[0].value.replace("\\", "")
    assert said.startswith("Понято: «горного клеща» → Горный клещ — карта базы"), said
    assert "Не нашлось в тексте" not in said
    assert hit_links(at)[0] in ("211.4", "211.5")  # a parasite (incorporeal): the symbiote rules
    notes = [p.text for p in shown(at.get_by_key(BEST_HITS)) if p.muted and p.text.startswith("Как нашлось")]
    assert any("«горного клеща» → Горный клещ — карта базы" in n for n in notes), notes


def test_without_the_base_the_same_card_name_is_unknown() -> None:
    at = run("горного клеща хозяин погиб")
    said = at.get_by_key("search_understood").markdown[0].value.replace("\\", "")
    assert "карта базы" not in said and "«горного»" in said


# Ready answers only for the rules they were written for ---------------------------------------


def _version(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, files: list[tuple[str, bytes]], berserk: bool
) -> str:
    root = tmp_path / "rules"
    monkeypatch.setenv(versions.ENV_VAR, str(root))
    vs = versions.VersionStore(root)
    return vs.save(files, rules_index.load_texts(files, berserk=berserk), berserk=berserk).id


def run_on(query: str, vid: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["q"] = query
    at.query_params["v"] = vid
    at.run()
    assert not at.exception, at.exception
    return at


def test_other_rules_get_no_ready_answers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    text = "100. Симбиоты других правил.\n100.1. Симбиота нельзя двигать, и хозяин его не защищает."
    vid = _version(tmp_path, monkeypatch, [("other.txt", text.encode())], berserk=False)
    at = run_on("можно ли двигать симбиота", vid)
    assert hit_links(at)[0] == "100.1"
    assert "Готовые ответы: сценарии и решения судей" not in [h.value for h in at.subheader]
    assert not [p for p, _ in page_links_in_order(at) if p in ("desk", "journal")]
    # The same question on the embedded rules has them.
    here = run("можно ли двигать симбиота")
    assert "Готовые ответы: сценарии и решения судей" in [h.value for h in here.subheader]


def test_answers_citing_clauses_the_loaded_rules_lack_are_left_out(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def answer_titles(at: AppTest) -> list[str]:
        block = at.get_by_key("search_answers")
        return [p.text for p in shown(block) if p.bold]

    query = "Сугед и летающее существо"
    assert any("Сугед" in t for t in answer_titles(run(query)))  # the embedded rules have 211
    corpus = Path(rules_index.__file__).parent / "data" / "corpus"
    files = [(f.name, f.read_bytes()) for f in sorted(corpus.glob("534-535*.txt"))]
    at = run_on(query, _version(tmp_path, monkeypatch, files, berserk=True))
    titles = answer_titles(at)
    assert titles, "answers about 534-535 still show"
    assert not [t for t in titles if "Сугед" in t], titles  # the Сугед answers cite 211.x
    chips = [x.params.get("p", "") for x in list_links(at.get_by_key("search_answers"))]
    assert chips and not [c for c in chips if c.startswith("211")], chips


@pytest.mark.parametrize(
    ("query", "why", "listed"),
    [
        # 534.5 cites «537. История боя», which the loaded rules lack: the page says so first, and
        # offers 534.5 as what points there, not as an answer
        (
            "что написано в 537 история боя",
            "пункта 537 нет в загруженных правилах, на него ссылается п. 534.5",
            "534.5",
        ),
        # the clause typed names «передвижение» only in passing: nothing, with the clause to read
        (
            "в 211.11 в скобках написано про передвижение, чем передвижение отличается от перемещения",
            "вопрос о разнице, а п. 211.11 упоминает «передвижение» только к слову",
            "211.11",
        ),
    ],
)
def test_an_unanswered_clause_number_is_nothing_over_the_clauses_it_finds(
    query: str, why: str, listed: str
) -> None:
    at = run(query)
    said = [i.value.replace("\\", "") for i in at.info]
    assert any(line.startswith("В загруженных правилах об этом ничего нет.") for line in said), said
    caption = at.get_by_key("search_evidence").caption[0].value.replace("\\", "")
    assert f"Почему: {why}." in caption, caption
    assert caption.endswith("Пункты по номеру из запроса (как нашёлся каждый — под ним):"), caption
    assert hit_links(at) == []
    assert [link.params.get("p") for link in list_links(at.get_by_key("search_pointers"))] == [listed]


def test_a_clause_typed_where_its_text_breaks_off_shows_the_cut() -> None:
    # the number does not hide what the same question without it shows: the sentence 211.5 breaks
    # off in, marked as cut
    at = run(
        "в п. 211.5 фраза обрывается на «если бестелесный симбиот» — так можно бестелесного паразита "
        "на обычное существо?"
    )
    assert any(
        i.value.replace("\\", "").startswith("В загруженных правилах об этом ничего нет.") for i in at.info
    )
    cut = at.get_by_key("search_cut_off")
    assert [link.params.get("p") for link in list_links(cut)] == ["211.5"]
    assert not _has_key(at, "search_pointers")


def test_a_clause_number_misremembered_beside_words_lets_the_words_answer() -> None:
    # 534.4.3 does not exist and nothing cites it: the words name 534.4.2
    at = run("активный игрок выбирает эффект замещения - это вроде пункт 534.4.3?")
    said = at.get_by_key("search_understood").markdown[0].value.replace("\\", "")
    assert "«пункт 534.4.3» — такого пункта нет в загруженных правилах, ближайшие номера" in said, said
    assert not [i for i in at.info if "ничего нет" in i.value]
    why = at.get_by_key("search_evidence").caption[0].value.replace("\\", "")
    assert why.startswith("Ответ есть: п. 534.4.2"), why
    assert hit_links(at)[0] == "534.4.2"
    assert not _has_key(at, "search_pointers")


@pytest.mark.parametrize("query", ["что написано в 211.12", "текст пункта 534.4.3", "534.4.3 полностью"])
def test_a_clause_number_the_rules_lack_asked_for_its_text_is_nothing(query: str) -> None:
    # the words only ask for the clause's text: no answer from elsewhere («написано» → 211.8's
    # «указано»), the clauses nearest the number under «ничего нет»
    at = run(query)
    assert any(
        i.value.replace("\\", "").startswith("В загруженных правилах об этом ничего нет.") for i in at.info
    )
    assert hit_links(at) == []
    number = query.split()[-1] if query[0].isalpha() else query.split()[0]
    first = next(link.params.get("p", "") for link in list_links(at.get_by_key("search_pointers")))
    assert first.rsplit(".", 1)[0] == number.rsplit(".", 1)[0], first


def test_a_question_where_the_text_breaks_off_links_the_clause_and_says_so() -> None:
    # 211.5 of РП 4.1-2 breaks off at «Если бестелесный симбиот»: no answer, the reason, and the
    # clause itself to read what is there
    at = run("бестелесный симб небестелесный хост")
    assert hit_links(at) == []
    said = at.get_by_key("search_evidence").caption[0].value.replace("\\", "")
    assert "текст п. 211.5 обрывается на полуслове" in said, said
    cut = at.get_by_key("search_cut_off")
    assert [link.params.get("p") for link in list_links(cut)] == ["211.5"]
    paras = [s.text for s in shown(cut)]
    assert paras[0] == "… Если бестелесный симбиот" and "обрывается на полуслове" in paras[1], paras

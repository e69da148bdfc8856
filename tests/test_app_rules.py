"""The rules browser pages under AppTest: what a judge sees and follows, page by page."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from app_pages import registry
from tests.apptest import (
    APP,
    GOOD_RULES,
    ROOT_PAGE,
    ShownLink,
    clause_links,
    entries,
    hit_links,
    link_params,
    loaded_version,
    open_page,
    shown,
    shown_links,
    stored_versions,
)

VERSION = "РП 4.1-2"


def run_app(**params: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=30)
    at.query_params.update(params)
    return at.run()


def follow(at: AppTest, link: object) -> AppTest:
    """What the browser does on a click: rerun the link's page with the link's parameters (a page
    link, or a link of a list drawn as one element)."""
    if isinstance(link, ShownLink):
        page, params = link.page, link.params
    else:
        page, params = link.proto.page, link_params(link)  # type: ignore[attr-defined]
    assert page == "", f"the link leads to /{page}, not to the app's root"
    at.query_params.clear()
    at.query_params.update(params)
    return at.switch_page(ROOT_PAGE).run()


def texts(at: AppTest) -> str:
    parts = [m.value for m in at.markdown] + [c.value for c in at.caption] + [t.value for t in at.title]
    parts += [t.value for t in at.text]
    parts += [e.value for e in at.error] + [w.value for w in at.warning] + [s.value for s in at.success]
    return "\n".join(parts).replace("\\", "")


# Every page renders ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("page", "params", "title"),
    [
        (ROOT_PAGE, {}, "Поиск по правилам"),
        (ROOT_PAGE, {"p": "211.3.1"}, "п. 211.3.1"),
        (registry.CLAUSE.script, {}, "Пункт правил"),
        (registry.GRAPH.script, {}, "Граф ссылок"),
        (registry.RULES_PAGE.script, {}, "Правила"),
    ],
)
def test_every_page_renders_without_exception(page: str, params: dict[str, str], title: str) -> None:
    at = open_page(page, **params)
    assert not at.exception, at.exception
    assert any(title in t.value.replace("\\", "") for t in at.title), [t.value for t in at.title]


@pytest.mark.parametrize(
    ("page", "title"), [(registry.DESK.script, "Стол судьи"), (registry.JOURNAL.script, "Журнал решений")]
)
def test_judge_pages_render_without_exception(
    page: str, title: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from rulings import store

    monkeypatch.setenv(store.ENV_VAR, str(tmp_path / "rulings.sqlite3"))  # never the real journal
    at = open_page(page)
    assert not at.exception, at.exception
    assert [t.value for t in at.title] == [title]
    assert not at.error, [e.value for e in at.error]


def test_clause_link_on_root_opens_the_clause_with_its_example_and_parent() -> None:
    at = run_app(p="211.3.1")
    assert not at.exception
    body = texts(at)
    assert "Если симбиот меняет хозяина" in body
    assert "Пример" in body and "Карлик Унд является паразитом Вайла" in body
    # the section path leads up to 211.3 and the section heading, each a link on the root
    assert {"211", "211.3"} <= set(clause_links(at))
    assert [c.value for c in at.code] == [f"п. 211.3.1 ({VERSION})"]


def test_following_a_citation_from_534_7_lands_on_536_shown_as_absent() -> None:
    at = run_app(p="534.7")
    assert not at.exception
    to_536 = [link for link in shown_links(at) if link.params.get("p") == "536"]
    assert len(to_536) == 1
    assert "нет в загруженном тексте" in to_536[0].label  # said in words before the click
    assert to_536[0].params.get("v") == VERSION
    at = follow(at, to_536[0])
    assert not at.exception
    assert len(at.error) == 1 and "Нет в тексте" in at.error[0].value
    assert at.error[0].icon == ":material/block:"
    # the clause that cites it is offered to go back to
    assert "534.7" in clause_links(at)


def test_unknown_clause_offers_the_nearest_numbers() -> None:
    at = run_app(p="211.12")
    assert not at.exception
    assert "Не найдено" in at.warning[0].value
    assert "211.11" in clause_links(at)


def test_link_made_on_other_rules_says_so() -> None:
    at = run_app(p="211.4", v="РП 3.0")
    assert not at.exception
    warnings = [w.value.replace("\\", "") for w in at.warning]
    assert any("РП 3.0" in w and VERSION in w for w in warnings), warnings
    same = run_app(p="211.4", v=VERSION)
    assert not same.warning


# Search -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("211.3.1", "211.3.1"),
        ("Карлик Унд", "211.3.1"),
        ("маркер контроля", "535.1.1"),
    ],
)
def test_search_returns_the_expected_clause_first(query: str, expected: str) -> None:
    at = run_app()
    at.text_input(key="search_box").input(query).run()
    assert not at.exception, at.exception
    assert hit_links(at)[0] == expected
    # the query went into the URL, so the search is a link another judge can open
    assert at.query_params.get("q") == query


def test_search_link_on_root_fills_the_box_and_marks_matched_words() -> None:
    at = run_app(q="паразит")
    assert not at.exception
    assert at.text_input(key="search_box").value == "паразит"
    assert hit_links(at), "no hits for «паразит»"
    hits = entries(at.get_by_key("search_hits"))
    assert any(bold for e in hits for t, bold in e["paras"][0]["spans"]), "matched words are not marked"
    assert any(p.muted and p.text.startswith("Как нашлось") for p in shown(at.get_by_key("search_hits")))


def test_bad_query_gets_a_russian_message() -> None:
    at = run_app(q="!!!")
    assert not at.exception
    assert at.warning or at.info


# Rules page: uploads ----------------------------------------------------------------------------


def upload(at: AppTest, name: str, data: bytes, berserk: bool = True) -> AppTest:
    from app_pages import rules

    at.radio(key="rules_upload_berserk").set_value(rules.BERSERK_YES if berserk else rules.BERSERK_NO)
    at.file_uploader(key=rules.upload_key(at.session_state)).set_value((name, data, "text/plain"))
    return at.run()


@pytest.mark.parametrize(
    ("name", "data", "reason"),
    [
        ("rules.txt", b"\x00\x01\x02binary" * 10, "не похож на текст"),
        ("rules.txt", "Просто текст без номеров пунктов.".encode(), "rules.txt"),
        ("rules.txt", b"", "пуст"),
    ],
)
def test_bad_upload_keeps_the_previous_rules(name: str, data: bytes, reason: str) -> None:
    at = open_page(registry.RULES_PAGE.script)
    before = loaded_version(at)
    at = upload(at, name, data)
    assert not at.exception, at.exception
    assert len(at.error) == 1
    message = at.error[0].value.replace("\\", "")
    assert reason in message and "Остались прежние правила" in message
    assert loaded_version(at) == before
    # the other pages still read the embedded rules
    at.query_params.update({"p": "211.3.1"})
    at.switch_page(ROOT_PAGE).run()
    assert "Если симбиот меняет хозяина" in texts(at)


def test_a_players_upload_opens_in_their_window_only_and_stores_nothing(judge_account: Path) -> None:
    at = open_page(registry.RULES_PAGE.script)
    at = upload(at, "my_rules.txt", GOOD_RULES.encode())
    assert not at.exception, at.exception
    said = at.success[0].value.replace("\\", "")
    assert "открыты только в этом окне" in said and "сохранить на сервере может судья" in said
    assert "РП 9.9" in loaded_version(at) and not at.query_params.get("v")
    assert stored_versions(judge_account) == []  # players only read: the server's store stays empty
    # the player's own clause view and search read the upload …
    at.query_params.clear()
    at.query_params.update({"p": "900.2"})
    at.switch_page(ROOT_PAGE).run()
    assert not at.exception and "Второй пункт" in texts(at)
    # … and the desk opens in the same window over it (its address names no stored version)
    at.query_params.clear()
    at.switch_page(registry.DESK.script).run()
    assert not at.exception and "v" not in at.query_params
    # another window still has the embedded rules
    other = run_app(p="900.2")
    assert "Не найдено" in other.warning[0].value


def test_a_players_upload_labelled_like_the_embedded_rules_stays_in_their_window(judge_account: Path) -> None:
    # A PDF of the current rules carries the embedded rules' label: the links made in the window
    # name that label, and following them must not swap the upload for the embedded text.
    same = GOOD_RULES.replace("РП 9.9", VERSION).encode()
    at = upload(open_page(registry.RULES_PAGE.script), "same_label.txt", same)
    assert not at.exception and VERSION in loaded_version(at) and not at.query_params.get("v")
    at.query_params.clear()
    at.query_params.update({"q": "второй пункт"})
    at.switch_page(ROOT_PAGE).run()
    assert not at.exception and "900.2" in " ".join(hit_links(at)), hit_links(at)
    link = next(x for x in shown_links(at) if x.params.get("p") == "900.2")
    assert link.params.get("v") == VERSION  # the label: the window's upload has no id
    at = follow(at, link)
    assert not at.exception and "Второй пункт" in texts(at)
    assert stored_versions(judge_account) == []
    # a new window with that link opens the embedded rules of that label, where 900.2 does not exist
    other = run_app(p="900.2", v=VERSION)
    assert "Не найдено" in other.warning[0].value


def test_a_judges_upload_is_stored_and_a_bad_one_after_it_keeps_it(judge_account: Path) -> None:
    from tests.rulings_samples import PASSWORD

    at = open_page(registry.RULES_PAGE.script)
    at.text_input(key="rules_signin_signin_name").input("Сидорова")
    at.text_input(key="rules_signin_signin_password").input(PASSWORD)
    at = at.button(key="rules_signin_signin_submit").click().run()
    at = upload(at, "my_rules.txt", GOOD_RULES.encode())
    assert not at.exception, at.exception
    assert at.success and "сохранены на сервере" in at.success[0].value and "РП 9.9" in loaded_version(at)
    stored = at.query_params.get("v")  # the window's address names the stored upload
    assert stored and stored != VERSION and stored_versions(judge_account) == [stored]
    at = upload(at, "broken.txt", b"\x00\x00")
    assert at.error and "РП 9.9" in loaded_version(at)
    # this judge's clause view reads the upload, and its links carry the upload's version
    at.query_params.clear()
    at.query_params.update({"p": "900.2"})
    at.switch_page(ROOT_PAGE).run()
    assert not at.exception
    assert "Второй пункт" in texts(at)
    assert {link_params(x).get("v") for x in at.page_link if link_params(x).get("p")} == {stored}
    # a link made on the seeds opens the seeds, where 900.2 does not exist
    at.query_params.clear()
    at.query_params.update({"p": "900.2", "v": VERSION})
    at.switch_page(ROOT_PAGE).run()
    assert "Не найдено" in at.warning[0].value
    # another judge (another session) still has the embedded rules …
    other = run_app(p="900.2")
    assert "Не найдено" in other.warning[0].value
    assert "РП 9.9" not in texts(other)
    # … unless they follow this judge's link: it opens the same stored version
    shared_link = run_app(p="900.2", v=stored)
    assert "Второй пункт" in texts(shared_link)


def test_uploaded_text_is_shown_as_text_not_markup() -> None:
    at = open_page(registry.RULES_PAGE.script)
    upload(at, "my_rules.txt", GOOD_RULES.encode())
    at.query_params.clear()
    at.query_params.update({"p": "900.2"})
    at.switch_page(ROOT_PAGE).run()
    assert not at.exception, at.exception
    # the clause text is a plain-text element: nothing in it is parsed
    assert any("[ссылка](http://evil.example/)" in t.value for t in at.text)
    assert not any("evil" in m.value for m in at.markdown)
    assert not any(m.proto.allow_html for m in at.markdown)
    # a search snippet is text (matched words in bold, set by the list's script as text, never
    # parsed: test_browser_linklist), so the uploaded link is shown as typed, and no Markdown
    # element carries it
    at.query_params.clear()
    at.query_params.update({"q": "жирный"})
    at.switch_page(ROOT_PAGE).run()
    snippets = [p.text for p in shown(at.get_by_key("search_hits")) if not p.muted]
    assert any("[ссылка](http://evil.example/)" in s for s in snippets), snippets
    assert not any("evil" in m.value for m in at.markdown)


def test_upload_size_limit_is_checked() -> None:
    from rules_index import uploads

    big = ("900.1. " + "слово " * 2_000_000).encode()
    assert "больше" in (uploads.check_upload([("big.txt", big)]) or "")
    assert uploads.check_upload([("ok.txt", b"900.1. text")]) is None


# Graph page --------------------------------------------------------------------------------------


def test_graph_page_draws_a_section_with_absent_clauses_named() -> None:
    at = open_page(registry.GRAPH.script, s="534")
    assert not at.exception
    assert at.selectbox(key="graph_section").value == "534"
    charts = at.get("graphviz_chart")
    assert len(charts) == 1
    dot = charts[0].proto.spec
    assert '"536"' in dot and "нет в тексте" in dot
    assert '"211.3"' not in dot  # one section at a time
    assert "536" in clause_links(at)
    at.selectbox(key="graph_section").set_value("211").run()
    assert at.query_params.get("s") == "211"
    assert at.query_params.get("v") == VERSION  # a graph link carries the rules version too
    assert '"211.3"' in at.get("graphviz_chart")[0].proto.spec


# The «Пункт» page and the --corpus option ----------------------------------------------------------


def test_number_typed_on_the_clause_page_opens_that_clause_on_the_root() -> None:
    at = open_page(registry.CLAUSE.script)
    assert {"211", "535"} <= set(clause_links(at))  # the sections, each a link
    at.text_input(key="clause_number").input("п. 211.4").run()
    assert not at.exception, at.exception
    assert at.query_params.get("p") == "211.4"
    assert any(t.value.replace("\\", "") == "п. 211.4" for t in at.title)
    assert "Симбиота можно помещать только на наземное существо" in texts(at)


def test_corpus_option_after_the_double_dash() -> None:
    from app_pages.shared import common

    assert common.corpus_argument(["--corpus", "/rules/dir"]) == "/rules/dir"
    assert common.corpus_argument([]) is None
    seeds = common.shared_rules(
        str(Path(__file__).resolve().parent.parent / "rules_index" / "data" / "corpus")
    )
    assert seeds.problem is None and seeds.index.has("211.3.1")
    missing = common.shared_rules("/nonexistent/rules.txt")
    assert missing.problem is not None and "/nonexistent/rules.txt" in missing.problem
    assert "встроенные правила" in missing.problem and missing.index.has("211.3.1")


def big_rules(sections: int = 30, per_section: int = 100) -> bytes:
    """A generated rules text of sections × clauses, each clause citing the next one."""
    lines = []
    for s in range(100, 100 + sections):
        lines.append(f"{s}. Раздел номер {s}.")
        for k in range(1, per_section + 1):
            lines.append(
                f"{s}.{k}. Существо с особенностью {k} может переместиться на соседнюю клетку поля боя, "
                f"если это не запрещено другими пунктами раздела (см. {s}.{k % per_section + 1})."
            )
    lines.append("РП 7.7 от 01.01.2030")
    return "\n\n".join(lines).encode()


def test_large_upload_is_parsed_with_progress_and_every_page_still_renders() -> None:
    from app_pages import rules

    data = big_rules()
    assert len(data) > rules._PROGRESS_FROM_BYTES  # the progress bar path
    at = open_page(registry.RULES_PAGE.script)
    at = upload(at, "big_rules.txt", data)
    assert not at.exception, at.exception
    assert at.success and "пунктов 3030" in at.success[0].value.replace("\\", "")
    at.query_params.clear()
    at.query_params.update({"s": "115"})
    at.switch_page(registry.GRAPH.script).run()
    assert not at.exception, at.exception
    dot = at.get("graphviz_chart")[0].proto.spec
    assert '"115.100"' in dot and '"116.1"' not in dot
    at.query_params.clear()
    at.query_params.update({"p": "115.7"})
    at.switch_page(ROOT_PAGE).run()
    assert not at.exception, at.exception
    assert {"115", "115.8", "115.6"} <= set(clause_links(at))


@pytest.mark.parametrize(
    "cid", ["  ", "211..3", "<b>x</b>", "[a](http://evil.example)", "9" * 400, "211.3.1.", "п.211.4"]
)
def test_odd_clause_links_get_a_message_not_a_traceback(cid: str) -> None:
    at = run_app(p=cid)
    assert not at.exception, at.exception
    assert at.warning or at.title


@pytest.mark.parametrize(
    ("raw", "cid"), [("211.3.1.", "211.3.1"), ("п.211.4", "211.4"), (" п. 535.8 ", "535.8")]
)
def test_clause_links_accept_the_ways_judges_write_numbers(raw: str, cid: str) -> None:
    at = run_app(p=raw)
    assert [t.value.replace("\\", "") for t in at.title] == [f"п. {cid}"]


def test_clause_page_lists_the_scenarios_and_engine_handlers_of_the_clause() -> None:
    at = run_app(p="211.3.1")
    assert not at.exception
    assert "Сценарии и движок" in [h.value for h in at.subheader]
    body = "\n".join(m.value for m in at.markdown)
    # the official ПРИМЕР to 211.3.1 is one click away, opening on the desk (an app link: no reload)
    to_desk = [x.params for x in shown_links(at) if x.page == "desk"]
    assert {"scn": "scenarios/official/211.3.1_karlik_und.yaml"} in to_desk, to_desk
    assert "`s211_bond.host_lock`" in body
    # a clause the engine does not apply says so instead of an empty list
    heading = run_app(p="535")
    assert "Движок этот пункт не применяет." in [c.value for c in heading.caption]

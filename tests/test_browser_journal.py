"""The journal on a tournament LAN, in real browsers (Debian chromium via playwright): a player reads
but cannot write; a judge signs in and records; a double press records once; a draft survives a
visit to another page; two judges amending at once see a conflict, and nothing is lost.

Screenshots at 1280 and 390 px land in tests/artifacts/ (and in $SHOTS_DIR when it is set).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Locator

from rulings import model, store
from tests import helpers
from tests.browser import DESKTOP, PHONE, Visit, nav, unfold
from tests.rulings_samples import PASSWORD, cheap_hasher

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def journal_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("lan") / "rulings.sqlite3"
    book = store.Journal(path, hasher=cheap_hasher())
    book.add_account("Сидорова", "judge", PASSWORD)
    book.add_account("Орлов", "head", PASSWORD)
    judge = book.sign_in("Сидорова", PASSWORD)
    book.record(
        model.RulingInput(
            title="Может ли Вайл атаковать Орка, если на нём Карлик Унд?",
            decision="Нет: Вайл может атаковать только Карлика Унда (211.3.1).",
            clauses=("211.3.1",),
            judge_verdict="illegal",
            table_no="7",
        ),
        judge,
    )
    return path


@pytest.fixture(scope="module")
def server(journal_path: Path) -> Iterator[str]:
    """The app as `make run` starts it, on its own journal file."""
    old = os.environ.get(store.ENV_VAR)
    os.environ[store.ENV_VAR] = str(journal_path)
    try:
        with helpers.running_app(ROOT) as url:
            yield url
    finally:
        if old is None:
            os.environ.pop(store.ENV_VAR, None)
        else:
            os.environ[store.ENV_VAR] = old


class Tab(Visit):
    """One person's browser (a context of its own: its own Streamlit session) on the journal."""

    def __init__(self, browser: Browser, viewport: dict[str, int], base: str) -> None:
        super().__init__(browser, viewport, base, prefix="journal")

    def open(self, path: str = "/journal") -> None:
        self.page.goto(self.base + path)
        self.page.get_by_role("heading", name="Журнал решений", exact=True).first.wait_for()
        self.settle()

    def panel(self, name: str = "Записать решение") -> Locator:
        return self.page.get_by_role("tabpanel", name=name)

    def sign_in(self, name: str, password: str = PASSWORD, where: str = "journal_new_auth") -> None:
        self.page.locator(f".st-key-{where}_signin_name input").fill(name)
        self.page.locator(f".st-key-{where}_signin_password input").fill(password)
        self.page.locator(f".st-key-{where}_signin_submit button").click()
        self.settle()

    def nav(self, name: str) -> None:
        """Go to another page through the app's own navigation (same tab, same session)."""
        nav(self.page, name)

    def tab(self, name: str) -> None:
        self.page.get_by_role("tab", name=name).click()
        self.settle()


def test_player_reads_and_cannot_write(browser: Browser, server: str, journal_path: Path) -> None:
    player = Tab(browser, PHONE, server)
    try:
        player.open("/journal?r=1")
        main = player.main()
        main.get_by_text("Нет: Вайл может атаковать только Карлика Унда (211.3.1).").wait_for()
        main.get_by_text("Ответ судьи: запрещено").first.wait_for()
        assert str(journal_path) not in player.page.content()
        assert main.get_by_role("button", name="Сохранить правку").count() == 0
        player.fits_width()
        player.shot("player_reads")
        player.tab("Записать решение")
        new = player.panel()
        new.get_by_text("только судьи, вошедшие под своим именем").wait_for()
        assert main.get_by_role("button", name="Записать решение").count() == 0
        player.sign_in("Сидорова", "неверный пароль")
        new.get_by_text("Неверное имя или пароль.").wait_for()
        player.fits_width()
        player.shot("player_wrong_password")
        assert store.Journal(journal_path).count() == 1
    finally:
        player.close()


def test_judge_records_once_and_the_draft_survives_another_page(
    browser: Browser, server: str, journal_path: Path
) -> None:
    for viewport in (DESKTOP, PHONE):
        judge = Tab(browser, viewport, server)
        try:
            judge.open()
            judge.tab("Записать решение")
            judge.sign_in("Сидорова")
            main = judge.panel()
            main.get_by_text("Записываете как: Сидорова (судья).").wait_for()
            title = f"Остаётся ли Унд паразитом после смены контроля? ({viewport['width']})"
            main.get_by_label("Вопрос (о чём спор)").fill(title)
            main.get_by_label("Вопрос (о чём спор)").press("Tab")
            judge.settle()
            # Visit the rules page and come back: the typed question is still there.
            judge.nav("Правила")
            judge.page.get_by_role("heading", name="Журнал решений").wait_for(state="detached")
            judge.nav("Журнал решений")
            judge.tab("Записать решение")
            assert main.get_by_label("Вопрос (о чём спор)").input_value() == title
            main.get_by_label("Решение судьи (своими словами)").fill("Да, остаётся (211.3.1).")
            main.get_by_role("textbox", name="Пункты правил через запятую").fill("211.3.1")
            main.get_by_text("законно", exact=True).click()
            judge.settle()
            before = store.Journal(journal_path).count()
            button = main.get_by_role("button", name="Записать решение")
            button.dblclick()
            judge.settle()
            done = main.get_by_text("Решение записано в журнал под №").or_(
                main.get_by_text("уже записано под №")
            )
            done.first.wait_for()
            button.click()  # and once more, after the success
            judge.settle()
            main.get_by_text("повторное нажатие ничего не добавило").wait_for()
            assert store.Journal(journal_path).count() == before + 1
            judge.fits_width()
            judge.shot("judge_recorded")
        finally:
            judge.close()


def test_two_judges_amending_at_once_see_the_conflict(
    browser: Browser, server: str, journal_path: Path
) -> None:
    a, b = Tab(browser, DESKTOP, server), Tab(browser, PHONE, server)
    try:
        for tab, name in ((a, "Сидорова"), (b, "Орлов")):
            tab.open("/journal?r=1")
            tab.page.get_by_text("Править решение").first.click()
            tab.settle()
            tab.sign_in(name, where="journal_amend_1_auth")  # the amend section asks for the sign-in
        for tab, text in ((a, "Нет, и Орка атаковать нельзя."), (b, "Нет. Уточнение Орлова.")):
            tab.page.locator(".st-key-journal_amend_1_decision textarea").fill(text)
            tab.page.locator(".st-key-journal_amend_1_note input").fill("уточнил")
            tab.page.locator(".st-key-journal_amend_1_note input").press("Tab")
            tab.settle()
        a.page.locator(".st-key-journal_amend_1_submit button").click()
        a.settle()
        a.main().get_by_text("Правка сохранена: решение № 1, редакция 2.").wait_for()
        b.page.locator(".st-key-journal_amend_1_submit button").click()
        b.settle()
        main = b.main()
        mine, theirs = (
            b.page.locator(".st-key-journal_amend_1_mine"),
            b.page.locator(".st-key-journal_amend_1_theirs"),
        )
        mine.get_by_text("Ваша правка").wait_for()
        theirs.get_by_text("Правка коллеги").wait_for()
        mine.get_by_text("стало: Нет. Уточнение Орлова.").wait_for()
        theirs.get_by_text("стало: Нет, и Орка атаковать нельзя.").wait_for()
        typed = b.page.locator(".st-key-journal_amend_1_decision textarea").input_value()
        assert typed == "Нет. Уточнение Орлова."  # the typed text is kept
        b.fits_width()
        b.shot("conflict")
        a.shot("after_amend")
        main.get_by_role("button", name="Сохранить мою правку поверх").click()
        b.settle()
        main.get_by_text("Правка сохранена: решение № 1, редакция 3.").wait_for()
        ruling = store.Journal(journal_path).get(1)
        assert ruling is not None
        assert [r.author for r in ruling.revisions][-2:] == ["Сидорова", "Орлов"]
        assert ruling.current.decision == "Нет. Уточнение Орлова."
    finally:
        a.close()
        b.close()


def test_the_desks_ruling_form_stays_open_through_sign_in_and_an_error(
    browser: Browser, server: str, journal_path: Path
) -> None:
    """On «Стол судьи», «Записать решение в журнал» keeps its state across reruns: signing in inside
    it and a refused write leave it open with the message beside the button (nothing folded away)."""
    for viewport in (DESKTOP, PHONE):
        judge = Tab(browser, viewport, server)
        try:
            judge.page.goto(server + "/desk?scn=scenarios/official/211.3.1_karlik_und.yaml")
            judge.page.get_by_role("heading", name="Стол судьи", exact=True).first.wait_for()
            judge.settle()
            box = unfold(judge.page, "desk_ruling_box")
            judge.sign_in("Сидорова", where="desk_ruling_auth")
            box.get_by_text("Записываете как: Сидорова (судья).").wait_for()
            box.get_by_label("Решение судьи (своими словами)").fill("")
            box.get_by_role("button", name="Записать решение").click()
            judge.settle()
            box.get_by_text("Не заполнено «Решение судьи».").wait_for()
            assert box.get_by_label("Решение судьи (своими словами)").is_visible()  # still open
            judge.fits_width()
            judge.shot("desk_ruling_error")
        finally:
            judge.close()


def test_a_sign_in_survives_a_reload_and_a_new_tab_and_users_passwd_ends_it(
    browser: Browser, server: str, journal_path: Path
) -> None:
    """A judge signs in once for the day (a cookie of the device, no token in the URL); a password
    change from the command line ends that sign-in on every tab."""
    import io

    from rulings import cli

    judge = Tab(browser, PHONE, server)
    try:
        judge.open()
        judge.tab("Записать решение")
        judge.sign_in("Орлов")
        main = judge.panel()
        main.get_by_text("Записываете как: Орлов (главный судья).").first.wait_for()
        judge.settle()
        judge.page.reload()
        judge.page.get_by_role("heading", name="Журнал решений", exact=True).first.wait_for()
        judge.settle()
        judge.tab("Записать решение")
        main.get_by_text("Записываете как: Орлов (главный судья).").first.wait_for()
        assert "token" not in judge.page.url and "=" not in judge.page.url.split("/journal", 1)[1]
        second = judge.page.context.new_page()  # a new tab of the same browser
        second.goto(server + "/journal")
        second.get_by_role("heading", name="Журнал решений", exact=True).first.wait_for()
        second.get_by_role("tab", name="Записать решение").click()
        panel = second.get_by_role("tabpanel", name="Записать решение")
        panel.get_by_text("Записываете как: Орлов (главный судья).").first.wait_for()
        second.close()
        judge.shot("signed_in_after_reload")
        out, err = io.StringIO(), io.StringIO()
        stdin = io.StringIO("другой-пароль-99\n")
        assert (
            cli.main(["users", "passwd", "Орлов", "--file", str(journal_path)], out=out, err=err, stdin=stdin)
            == 0
        )
        judge.page.reload()
        judge.page.get_by_role("heading", name="Журнал решений", exact=True).first.wait_for()
        judge.settle()
        judge.tab("Записать решение")
        judge.panel().get_by_text("только судьи, вошедшие под своим именем").wait_for()
        assert main.get_by_text("Записываете как: Орлов").count() == 0
    finally:
        judge.close()
        store.Journal(journal_path, hasher=cheap_hasher()).set_password("Орлов", PASSWORD)


def test_an_unsaved_ruling_and_amendment_survive_a_reload(
    browser: Browser, server: str, journal_path: Path
) -> None:
    """What a judge typed is kept in the journal under their account (not in the server's memory):
    a reload of the page, or a new tab, gives the form back; recording it deletes the draft."""
    judge = Tab(browser, PHONE, server)
    try:
        judge.open()
        judge.tab("Записать решение")
        judge.sign_in("Сидорова")
        main = judge.panel()
        main.get_by_text("Записываете как: Сидорова (судья).").wait_for()
        title = "Черновик: кто хозяин Унда после отката хода?"
        main.get_by_label("Вопрос (о чём спор)").fill(title)
        main.get_by_label("Вопрос (о чём спор)").press("Tab")
        judge.settle()
        main.get_by_label("Решение судьи (своими словами)").fill("Хозяин прежний (211.4).")
        main.get_by_label("Вопрос (о чём спор)").click()  # leaving the text area commits it
        judge.settle()
        judge.page.reload()
        judge.page.get_by_role("heading", name="Журнал решений", exact=True).first.wait_for()
        judge.settle()
        judge.tab("Записать решение")
        main = judge.panel()
        main.get_by_text("Восстановлен несохранённый черновик").wait_for()
        assert main.get_by_label("Вопрос (о чём спор)").input_value() == title
        assert main.get_by_label("Решение судьи (своими словами)").input_value() == "Хозяин прежний (211.4)."
        judge.fits_width()
        judge.shot("draft_after_reload")
        before = store.Journal(journal_path).count()
        main.get_by_role("button", name="Записать решение").click()
        judge.settle()
        main.get_by_text("Решение записано в журнал под №").wait_for()
        assert store.Journal(journal_path).count() == before + 1
        judge.page.reload()
        judge.page.get_by_role("heading", name="Журнал решений", exact=True).first.wait_for()
        judge.settle()
        judge.tab("Записать решение")
        main = judge.panel()
        main.get_by_text("Записываете как: Сидорова (судья).").wait_for()
        assert main.get_by_label("Вопрос (о чём спор)").input_value() == ""
        assert main.get_by_text("Восстановлен несохранённый черновик").count() == 0
    finally:
        judge.close()

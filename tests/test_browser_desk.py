"""«Стол судьи» in a real browser (Debian chromium via playwright).

The Карлик Унд dispute from scratch, counting every interaction (a click or a filled field), the
position notation there and back, the three-state marks on the official example, uploads that act
on one click and ask before replacing work, the 390 px board, and Russian where Streamlit speaks
English. Screenshots land in tests/artifacts/ (ignored by git) for a human to review.
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.browser import (
    DESKTOP,
    KARLIK,
    PHONE,
    banner,
    close,
    desk_page,
    open_desk,
    settle,
    shot,
    tile,
    tile_selector,
    unfold,
    waited,
)

pytestmark = pytest.mark.browser

SETUP_BUDGET = 10  # issue 22: the Карлик Унд position from scratch in ≤ 10 interactions
ACTIONS_BUDGET = 8  # … and its actions in ≤ 8
TWO_SCREENS = 2 * DESKTOP["height"]  # issue 22: the desk with a card selected fits about two screens


# The page brings the answer into view once its run is drawn (app_pages/desk/field.js keepInView,
# a few frames after the run ends): the test waits for that condition, up to this bound, instead of
# reading the box at the first moment the element exists (the previous verdict may still be there).
IN_VIEW_WAIT_MS = 5000
_IN_VIEW = """([el, top]) => {
  const box = el.getBoundingClientRect();
  return box.height > 0 && box.top >= top - 1 && box.bottom <= window.innerHeight + 1;
}"""


def in_view(pg: Any, locator: Any, what: str) -> None:
    """The element that answers a tap is on the screen: wholly inside the viewport and below
    Streamlit's fixed header bar (which would hide it)."""
    waited(pg, locator)
    head = pg.locator('[data-testid="stHeader"]').bounding_box()
    top = head["y"] + head["height"] if head else 0
    with contextlib.suppress(PlaywrightTimeout):
        pg.wait_for_function(
            _IN_VIEW, arg=[locator.element_handle(), top], timeout=IN_VIEW_WAIT_MS, polling=50
        )
    box = locator.bounding_box()
    height = pg.viewport_size["height"]
    assert box is not None and box["y"] >= top - 1 and box["y"] + box["height"] <= height + 1, (
        f"{what}: {box} is not inside the screen ({top}–{height} px)"
    )


class Judge:
    """Drives the page as a judge does and counts what they do: each click and each filled field;
    after each tap the element that answers it must be on the screen (`answer`)."""

    def __init__(self, pg: Any) -> None:
        self.pg = pg
        self.count = 0

    def click(self, locator: Any, answer: Any = None, what: str = "") -> None:
        locator.click()
        self.count += 1
        settle(self.pg)
        if answer is not None:
            in_view(self.pg, answer, what or str(locator))

    def fill(self, locator: Any, text: str) -> None:
        locator.fill(text)
        self.count += 1

    def cell(self, cell: str, answer: Any = None) -> None:
        self.click(tile(self.pg, cell), answer, f"щелчок по {cell}")

    def button(self, name: str, within: Any = None, answer: Any = None) -> None:
        self.click((within or self.pg).get_by_role("button", name=name, exact=True), answer, name)

    def target(self, name: str, answer: Any = None) -> None:
        """An action's target: a button of the action's row."""
        self.click(self.pg.get_by_role("button", name=name, exact=True), answer, name)


def position_text(pg: Any) -> str:
    return str(unfold(pg, "desk_text").locator("textarea").input_value())


def said(pg: Any, text: str) -> Any:
    """A message in the panel's answer box."""
    return pg.locator('.st-key-desk_answer [data-testid="stAlert"]').filter(has_text=text).first


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone390", "desktop1280"])
def test_karlik_und_every_tap_answered_on_screen_in_ten_and_eight_interactions(
    browser: Browser, app_server: str, viewport: dict[str, int]
) -> None:
    pg = desk_page(browser, app_server, viewport)
    try:
        open_desk(pg)
        judge = Judge(pg)
        form = pg.get_by_role("dialog")
        # Вайл of B on c4: a tap on the cell opens the card form there; the owner is the half's.
        judge.cell("c4", form.get_by_text("Клетка c4: новая карта"))
        judge.fill(form.get_by_label("Карта", exact=True), "Вайл")
        judge.button("Положить", form, said(pg, "«Вайл» (игрок B) — на c4."))
        # Карлик Унд of A as its parasite: the field under the selected host (owner: the host's opponent).
        judge.fill(pg.get_by_label("Симбиот", exact=True), "Карлик Унд")
        judge.button("Положить на «Вайл»", answer=said(pg, "«Карлик Унд» (игрок A) — на карте «Вайл»."))
        # Орк of B on d4: not in the library, so the form says so and offers an own card by template.
        judge.cell("d4", form.get_by_text("Клетка d4: новая карта"))
        judge.fill(form.get_by_label("Карта", exact=True), "Орк")
        judge.button("Положить", form, form.get_by_text("«Орк» нет в библиотеке карт", exact=False).first)
        judge.button("Положить своей картой «Орк»", form, said(pg, "«Орк» (игрок B) — на d4."))
        setup_count = judge.count
        assert setup_count <= SETUP_BUDGET, setup_count
        shot(pg, "desk_1_position_from_scratch")

        judge.count = 0
        judge.cell("c4", pg.get_by_text("Выбрана: Вайл"))  # selects Вайл (the card standing there)
        judge.target("игрок A — ✔ можно", answer=banner(pg, "Законно"))  # take_control: {card: vail, by: A}
        shot(pg, "desk_2_taken_under_control")
        judge.target("Орк (d4) — ✘ нельзя: п. 211.3.1", answer=banner(pg, "Запрещено"))
        assert "запрещает п. 211.3.1" in banner(pg, "Запрещено").inner_text()
        # a tap on an empty cell declares the move; the tile said what it would give, with its clause
        assert "нельзя: п. 211.3.1" in tile(pg, "c3").inner_text()
        judge.cell("c3", banner(pg, "Запрещено"))
        # the attack on its own parasite: what the text decides, and the wounds asked of the judge
        und = pg.get_by_role("button", name="Карлик Унд (c4) —", exact=False).first
        asked = pg.locator(".st-key-desk_pending")
        judge.click(und, asked, "нападение на Карлика Унда")
        assert "211.9" in pg.locator(".st-key-desk_answer").inner_text()
        shot(pg, "desk_3_attack_on_the_parasite")
        judge.click(asked.get_by_role("button", name="2 раны", exact=True), banner(pg, "Законно"), "2 раны")
        assert "Карлик Унд A · 2/8" in tile(pg, "c4").inner_text()
        judge.cell("c4", pg.get_by_text("Выбрана: Карлик Унд"))  # a second tap on the host: its symbiote
        height = pg.evaluate("() => document.querySelector('[data-testid=\"stMain\"]').scrollHeight")
        if viewport == DESKTOP:
            assert height <= TWO_SCREENS, height
        box = pg.locator("[data-row='desk_q_wound']")  # the wound's sources
        judge.click(box.get_by_role("button", name="от Орк", exact=False), banner(pg, "Законно"), "от Орка")
        # 211.3.1: he takes wounds from no one but his host, and the verdict says so where it was tapped
        assert "раны не наносятся" in banner(pg, "Законно").inner_text()
        assert "Карлик Унд A · 2/8" in tile(pg, "c4").inner_text()
        assert judge.count <= ACTIONS_BUDGET, judge.count
        shot(pg, "desk_4_actions")
        # the position text is the position now: the control marker and the wounds the actions left
        now = position_text(pg)
        assert "B Вайл c4 контроль A" in now and "A Карлик Унд на Вайл раны 2" in now, now
        print(f"{viewport['width']} px: set-up {setup_count}, actions {judge.count}, page {height} px")
    finally:
        close(pg)


def _held_click(pg: Any, button: Any) -> None:
    """A judge's click that lasts while the page answers what was typed: the mouse goes down on the
    button, the run sent by leaving the name box is drawn (waited for by condition), then the mouse
    comes up. A click is a press and a release on the same element: if the page moved the button
    in between, the click is lost (this lost «Положить» once in a busy run and by hand)."""
    button.scroll_into_view_if_needed()
    box = button.bounding_box()
    assert box is not None
    pg.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    pg.mouse.down()
    settle(pg)
    pg.mouse.up()
    settle(pg)


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone390", "desktop1280"])
def test_a_click_held_while_the_typed_name_arrives_still_puts_the_card(
    browser: Browser, app_server: str, viewport: dict[str, int]
) -> None:
    pg = desk_page(browser, app_server, viewport)
    try:
        open_desk(pg)
        tile(pg, "c4").click()
        form = pg.get_by_role("dialog")
        waited(pg, form.get_by_text("Клетка c4: новая карта"))
        form.get_by_label("Карта", exact=True).fill("Вайл")
        _held_click(pg, form.get_by_role("button", name="Положить", exact=True))
        waited(pg, said(pg, "«Вайл» (игрок B) — на c4."))
        # the symbiote's field under the selected host: the same press, the same answer
        pg.get_by_label("Симбиот", exact=True).fill("Карлик Унд")
        _held_click(pg, pg.get_by_role("button", name="Положить на «Вайл»", exact=True))
        waited(pg, said(pg, "«Карлик Унд» (игрок A) — на карте «Вайл»."))
        # a tile pressed while the run sent by leaving the question's box is drawn: the field is
        # drawn anew under the press, and the tap still opens the card form on its cell
        unfold(pg, "desk_save").get_by_label("Вопрос (заголовок сценария)").fill("Чей Вайл?")
        _held_click(pg, tile(pg, "d4"))
        waited(pg, form.get_by_text("Клетка d4: новая карта"))
        assert (
            "Вопрос: Чей Вайл?"
            in pg.locator('[data-testid="stCaptionContainer"]').filter(has_text="Карт:").first.inner_text()
        )
    finally:
        close(pg)


def test_the_position_as_text_there_and_back(browser: Browser, app_server: str) -> None:
    pg = desk_page(browser, app_server)
    try:
        open_desk(pg)
        panel = unfold(pg, "desk_text")
        text = "B Вайл с4; А Карлик Унд на Вайла; B Орк (Наземное существо, жизнь 5) d4 раны 2"
        # A typo: a Russian message naming the word and its place; the desk stays empty.
        panel.locator("textarea").fill("B Вайлл c4")
        panel.get_by_role("button", name="Прочитать текст").click()
        settle(pg)
        waited(
            pg,
            pg.get_by_text(
                "Текст не прочитан, стол не изменился: знак 3, «Вайлл»: карты «Вайлл» нет в библиотеке",
                exact=False,
            ),
        )
        assert (
            "Карт: 0."
            in pg.locator('[data-testid="stCaptionContainer"]').filter(has_text="Карт:").first.inner_text()
        )
        panel.locator("textarea").fill(text)
        panel.get_by_role("button", name="Прочитать текст").click()
        settle(pg)
        assert "Орк" in tile(pg, "d4").inner_text() and "B · 2/5" in tile(pg, "d4").inner_text()
        assert "+ Карлик Унд A" in tile(pg, "c4").inner_text()
        written = position_text(pg)
        assert written == "B Вайл c4; A Карлик Унд на Вайл; B Орк (Наземное существо, жизнь 5) d4 раны 2"
        # Written back and read again: the same desk.
        before = pg.url
        panel.locator("textarea").fill(written)
        panel.get_by_role("button", name="Прочитать текст").click()
        settle(pg)
        assert pg.url == before
        shot(pg, "desk_3_notation")
    finally:
        close(pg)


def test_official_example_marks_agree_with_applying_and_clause_links_work(
    browser: Browser, app_server: str
) -> None:
    pg = desk_page(browser, app_server)
    try:
        open_desk(pg, f"?scn={KARLIK}")
        pg.get_by_text("Загружен сценарий", exact=False).first.wait_for()
        pg.get_by_role("button", name="К началу").click()
        settle(pg)
        pg.get_by_role("button", name="Вернуть").click()  # take_control again
        settle(pg)
        tile(pg, "c4").click()
        settle(pg)
        orc = pg.get_by_role("button", name="Орк (d4) — ✘ нельзя: п. 211.3.1", exact=True)
        und = pg.get_by_role("button", name="Карлик Унд (c4) —", exact=False).first
        mark = und.inner_text()
        orc.click()
        settle(pg)
        banner(pg, "Запрещено").wait_for()  # what the mark said is what applying gives
        link = unfold(pg, "desk_why").get_by_role("link", name="п. 211.3.1").first  # «Почему»
        link.wait_for()
        shot(pg, "desk_5_marks_and_trace")
        und.click()
        settle(pg)
        word = "Законно" if "можно" in mark else "Не определено"
        banner(pg, word).wait_for()  # the attack on the parasite: the verdict its mark promised
        link = unfold(pg, "desk_why").get_by_role("link", name="п. 211.9").first
        href = link.get_attribute("href") or ""
        assert "p=211.9" in href
        link.click()
        pg.wait_for_url("**p=211.9**")
        pg.get_by_text("211.9").first.wait_for()
    finally:
        close(pg)


def upload(pg: Any, name: str, data: bytes) -> None:
    """One action: choosing the file opens it (no second button)."""
    unfold(pg, "desk_load")  # «Открыть пример из правил, сценарий или файл стола»
    pg.locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files(
        files=[{"name": name, "mimeType": "application/octet-stream", "buffer": data}]
    )
    settle(pg)


def test_the_field_and_the_panel_answer_the_keyboard_and_say_what_is_chosen(
    browser: Browser, app_server: str
) -> None:
    """The field and the panel's rows are buttons of our own (issue 24): Enter and Space press them,
    the pressed tile keeps the focus across the run that answers it, a chosen option says so to
    assistive technology (aria-pressed), each tile's story is there in words for a screen without
    hover, and a folded part of the panel shows its buttons once opened."""
    pg = desk_page(browser, app_server)
    try:
        open_desk(pg, f"?scn={KARLIK}")
        pg.get_by_text("Загружен сценарий", exact=False).first.wait_for()
        pg.locator("button[data-id='desk_restart']").click()  # «К началу»
        settle(pg)
        tile(pg, "c4").focus()
        pg.keyboard.press("Enter")
        settle(pg)
        pg.get_by_text("Выбрана: Вайл", exact=False).first.wait_for()
        assert pg.evaluate("() => document.activeElement.dataset.cell") == "c4"  # still on its tile
        chosen = pg.locator("[data-row='desk_armed'] button[aria-pressed='true']")
        assert chosen.count() == 1 and chosen.inner_text() == "Заявить движение"
        pg.get_by_role("button", name="игрок A — ✔ можно", exact=True).focus()
        pg.keyboard.press("Space")
        settle(pg)
        banner(pg, "Законно").wait_for()
        assert "⚑A" in tile(pg, "c4").inner_text()
        # each tile's story (its tooltip), in words under the field for a screen without hover
        stories = pg.locator(".st-key-desk_board details.desk-stories")
        assert stories.locator("p").count() == 0  # folded: not even made
        stories.locator("summary").click()
        story = stories.locator("p").filter(has_text="c4: ").first
        story.wait_for()
        assert "Вайл" in story.inner_text() and "Карлик Унд" in story.inner_text()
        a1 = stories.locator("p").filter(has_text="a1: ").first.inner_text()
        assert a1.startswith("a1: Заявить движение"), a1  # what a tap on the empty cell would give
        more = pg.locator("details[data-row='desk_more']")
        assert more.locator("button").count() == 0  # folded: not even made
        more.locator("summary").click()
        settle(pg)
        more.get_by_role("button").first.wait_for()
        assert more.get_attribute("open") is not None
        shot(pg, "desk_keyboard_and_fold")
    finally:
        close(pg)


def test_uploads_act_on_one_click_and_ask_before_replacing_work(browser: Browser, app_server: str) -> None:
    from desk import edits, model, share

    pg = desk_page(browser, app_server)
    try:
        open_desk(pg)
        upload(pg, "<b>плохой</b>.yaml", b"title: [unclosed\nsetup: !!python/object:os.system {}\n")
        pg.get_by_text("Сценарий не загружен, стол не изменился.", exact=False).first.wait_for()
        assert pg.locator("b", has_text="плохой").count() == 0  # the file name is not markup
        upload(pg, "notes.pdf", b"%PDF")
        pg.get_by_text(
            "Файл «notes.pdf» не открыт: нужен сценарий .yaml или .yml, или файл стола .json."
        ).wait_for()
        vail = {"id": "vail", "card": "Вайл", "owner": "B", "at": "e6"}
        desk = edits.put_card(model.Desk(title="Файл стола"), vail)
        upload(pg, "stol.json", share.to_file_text(desk).encode("utf-8"))  # an empty desk: no question
        pg.get_by_text("Открыт стол из файла «stol.json».").wait_for()
        pg.get_by_text("Вопрос: Файл стола").wait_for()
        assert "Вайл" in tile(pg, "e6").inner_text()
        shot(pg, "desk_5_uploaded")
        # The official Бул'Багур example onto a desk with work: asked first; «Оставить» keeps the desk.
        panel = pg.locator(".st-key-desk_load")
        panel.get_by_text("534.5 · ", exact=False).first.click()
        settle(pg)
        ask = pg.get_by_role("dialog")
        ask.get_by_text("Заменить то, что на столе?").wait_for()
        ask.get_by_text("карт 1, действий 0", exact=False).wait_for()
        ask.get_by_role("button", name="Оставить текущий стол").click()
        settle(pg)
        assert "Вайл" in tile(pg, "e6").inner_text()
        panel.get_by_text("534.5 · ", exact=False).first.click()
        settle(pg)
        pg.get_by_role("dialog").get_by_role("button", name="Заменить").click()
        settle(pg)
        pg.get_by_text("Загружен сценарий", exact=False).first.wait_for()
        pg.get_by_text("Все ожидания сценария выполняются", exact=False).first.wait_for()
        with pg.expect_download() as saved:
            unfold(pg, "desk_save").get_by_role("button", name="Скачать сценарий (YAML)").click()
        yaml_bytes = Path(saved.value.path()).read_bytes()
        assert saved.value.suggested_filename.endswith(".yaml") and "Бул'Багур".encode() in yaml_bytes
        upload(pg, "stol-sudi.yaml", yaml_bytes)  # the same desk: nothing to ask
        pg.get_by_text("Загружен сценарий «Считаются ли лишние раны", exact=False).first.wait_for()
        pg.get_by_text("Все ожидания сценария выполняются", exact=False).first.wait_for()
    finally:
        close(pg)


def test_phone_board_fits_and_links_keep_the_session(browser: Browser, app_server: str) -> None:
    """At 390 px the whole 5×6 board fits the width with the names readable, nothing is wider than the
    screen, and a trace link opens the clause in the same session: back returns to the same desk."""
    pg = desk_page(browser, app_server, PHONE)
    try:
        open_desk(pg, f"?scn={KARLIK}")
        pg.get_by_text("Загружен сценарий", exact=False).first.wait_for()
        settle(pg)
        boxes = {}
        for row in range(1, 7):
            for col in "abcde":
                button = tile(pg, f"{col}{row}")
                button.scroll_into_view_if_needed()
                boxes[f"{col}{row}"] = button.bounding_box()
        assert all(b and b["x"] >= 0 and b["x"] + b["width"] <= 390 for b in boxes.values()), boxes
        for row in range(1, 7):
            assert len({round(boxes[f"{c}{row}"]["y"]) for c in "abcde"}) == 1, row  # five side by side
        assert pg.evaluate("() => document.documentElement.scrollWidth") <= 390
        c4 = tile(pg, "c4").inner_text()
        assert "Вайл" in c4 and "Карлик Унд" in c4 and "⚑A" in c4  # name, symbiote and control marker
        assert "Орк" in tile(pg, "d4").inner_text()
        size = pg.evaluate(
            "(sel) => Math.min(...[...document.querySelectorAll(sel + ' span:not([hidden])')]"
            ".map((line) => parseFloat(getComputedStyle(line).fontSize)))",
            tile_selector("c4"),
        )
        assert size >= 9, size  # readable on a phone
        shot(pg, "desk_6_phone")
        desk_url = pg.url
        assert "scn=" not in desk_url and "desk=" in desk_url
        unfold(pg, "desk_why").get_by_text("Все действия (7)").wait_for()  # «Почему»: every action's steps
        pg.locator(".st-key-desk_why").get_by_role("link", name="п. 211.3.1").first.click()
        pg.wait_for_url("**p=211.3.1**")
        pg.get_by_role("heading", name="п. 211.3.1").first.wait_for()
        pg.go_back()
        pg.get_by_role("heading", name="Стол судьи").first.wait_for()
        settle(pg)
        assert pg.url == desk_url
        assert pg.get_by_text("Действий: 7 из 7").count() == 1  # the same desk
    finally:
        close(pg)


def test_streamlits_own_words_are_russian(browser: Browser, app_server: str) -> None:
    pg = desk_page(browser, app_server)
    try:
        pg.goto(pg.base + "/no-such-page")
        dialog = pg.get_by_role("dialog")
        dialog.get_by_text("Страница не найдена").wait_for()
        dialog.get_by_text("в приложении нет. Открыта главная страница.", exact=False).wait_for()
        assert "Page not found" not in dialog.inner_text()
        pg.goto(pg.base + "/desk")
        settle(pg)
        upload(pg, "big.json", b" " * (1024 * 1024 + 100))
        chip = pg.locator('[data-testid="stFileChip"]')
        chip.get_by_text("Файл больше", exact=False).wait_for()  # said in words, not only by a red icon
        assert chip.get_by_text("Файл больше", exact=False).is_visible()
        assert "File must be" not in chip.inner_text()
    finally:
        close(pg)

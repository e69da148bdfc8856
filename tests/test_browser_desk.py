"""«Стол судьи» in a real browser (Debian chromium via playwright): build a position by clicking,
apply actions, read the trace, follow a clause link into the rules browser.

Screenshots land in tests/artifacts/ (ignored by git) for a human to review.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright import sync_api as playwright_sync

from tests import helpers

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
TIMEOUT_MS = 60_000  # the machine is shared; a slow run is not a failure


@pytest.fixture(scope="module")
def page(chromium_executable: str, app_server: str) -> Iterator[Any]:
    with playwright_sync.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium_executable, args=helpers.CHROMIUM_ARGS)
        context = browser.new_context(
            viewport={"width": 1400, "height": 1000}, locale="ru-RU", accept_downloads=True
        )
        pg = context.new_page()
        pg.set_default_timeout(TIMEOUT_MS)
        pg.base = app_server
        yield pg
        context.close()
        browser.close()


def settle(pg: Any) -> None:
    """Wait until the script run ends (Streamlit shows a running indicator meanwhile)."""
    pg.wait_for_timeout(400)
    pg.locator('[data-testid="stStatusWidget"]').wait_for(state="detached")
    # A new session draws grey placeholders first; the running indicator may not have shown yet.
    pg.wait_for_function("() => !document.querySelector('[data-testid=\"stSkeleton\"]')")
    pg.wait_for_timeout(200)


def shot(pg: Any, name: str) -> None:
    """The whole page: Streamlit scrolls inside its main pane, so grow the window to fit it first."""
    ARTIFACTS.mkdir(exist_ok=True)
    settle(pg)
    size = pg.viewport_size or {"width": 1400, "height": 1000}
    tall = pg.evaluate(
        "() => { const m = document.querySelector('[data-testid=\"stMain\"]');"
        " return m ? m.scrollHeight : document.body.scrollHeight; }"
    )
    pg.set_viewport_size({"width": size["width"], "height": max(int(tall), size["height"])})
    pg.wait_for_timeout(300)
    pg.screenshot(path=str(ARTIFACTS / f"desk_{name}.png"), full_page=True)
    pg.set_viewport_size(size)


def pick(pg: Any, label: str, option: str) -> None:
    """Choose an option of a Streamlit selectbox by typing into it and picking the exact line."""
    box = pg.get_by_test_id("stSelectbox").filter(has=pg.get_by_text(label, exact=True)).first
    box.click()
    box.locator("input").fill(option)
    pg.get_by_role("option").filter(has_text=option).first.click()
    settle(pg)


def radio(pg: Any, label: str, option: str) -> None:
    group = pg.get_by_test_id("stRadio").filter(has=pg.get_by_text(label, exact=True)).first
    group.get_by_text(option, exact=True).click()
    settle(pg)


def click_cell(pg: Any, cell: str) -> None:
    pg.locator(f".st-key-desk_cell_{cell} button:visible").first.click()
    settle(pg)


def put_card(pg: Any, name: str, owner: str, cid: str, cell: str = "", host: str = "") -> None:
    pg.get_by_role("tab", name="Расклад").click()
    pick(pg, "Карта из библиотеки", name)
    radio(pg, "Владелец", owner)
    pg.get_by_label("id (латиницей; пусто — подберу)").fill(cid)
    if cell:
        click_cell(pg, cell)  # the click fills «Где» in the form
        pg.get_by_role("tab", name="Расклад").click()
    if host:
        pick(pg, "Где", "на карту (симбиот)")
        pick(pg, "Хозяин (для симбиота)", host)
    pg.get_by_role("button", name="Положить карту").click()
    settle(pg)
    pg.get_by_text(f"Карта {cid} на столе.").wait_for()


def test_build_by_clicking_apply_read_trace_follow_clause(page: Any) -> None:
    pg = page
    pg.goto(pg.base + "/desk")
    pg.get_by_role("heading", name="Стол судьи").first.wait_for()
    settle(pg)
    put_card(pg, "Вайл", "B", "vail", cell="c4")
    put_card(pg, "Карлик Унд", "A", "und", host="vail")
    put_card(pg, "Многоликий", "B", "many", cell="d4")
    assert pg.get_by_text("↳ симбиот: Карлик Унд [und]").count() == 1
    shot(pg, "1_position")

    pg.get_by_role("tab", name="Действие и разбор").click()
    pick(pg, "Действие", "take_control")
    pick(pg, "карта", "[vail]")
    radio(pg, "игрок", "A")
    pg.get_by_role("button", name="Применить действие").click()
    settle(pg)
    pg.get_by_text("Законно", exact=True).first.wait_for()
    assert pg.get_by_text("маркер контроля: управляет A").count() >= 1

    pick(pg, "Действие", "attack")
    pick(pg, "атакующий", "[vail]")
    click_cell(pg, "d4")  # a click on a card's cell fills the next card argument: the target
    pg.get_by_role("tab", name="Действие и разбор").click()
    pg.get_by_role("button", name="Применить действие").click()
    settle(pg)
    pg.get_by_text("Запрещено", exact=True).first.wait_for()
    link = pg.get_by_role("link", name="п. 211.3.1").first
    link.wait_for()
    shot(pg, "2_forbidden_trace")

    href = link.get_attribute("href") or ""
    assert href.endswith("/?p=211.3.1") or "p=211.3.1" in href
    if link.get_attribute("target") == "_blank":  # the desk stays open in its own tab
        with pg.context.expect_page() as info:
            link.click()
        clause_page = info.value
    else:
        link.click()
        pg.wait_for_url("**p=211.3.1**")
        clause_page = pg
    clause_page.wait_for_load_state()
    clause_page.get_by_text("211.3.1").first.wait_for()
    settle(clause_page)
    assert "p=211.3.1" in clause_page.url
    clause_page.screenshot(path=str(ARTIFACTS / "desk_3_clause.png"), full_page=True)


def open_load_panel(pg: Any) -> None:
    """Unfold «Открыть сценарий…» unless it is open already (it starts open only on an empty desk)."""
    panel = pg.locator('[data-testid="stExpander"] details').filter(
        has_text="Открыть сценарий, файл стола или начать заново"
    )
    if panel.first.get_attribute("open") is None:
        pg.get_by_text("Открыть сценарий, файл стола или начать заново").click()
        settle(pg)


def upload(pg: Any, name: str, data: bytes) -> None:
    pg.locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files(
        files=[{"name": name, "mimeType": "application/octet-stream", "buffer": data}]
    )
    settle(pg)
    pg.get_by_role("button", name="Открыть файл").click()
    settle(pg)


def test_uploaded_files_bad_refused_desk_file_reopens(page: Any) -> None:
    from desk import edits, model, share

    pg = page
    pg.goto(pg.base + "/desk")
    pg.get_by_role("heading", name="Стол судьи").first.wait_for()
    settle(pg)
    upload(pg, "<b>плохой</b>.yaml", b"title: [unclosed\nsetup: !!python/object:os.system {}\n")
    pg.get_by_text("Сценарий не загружен, стол не изменился.", exact=False).first.wait_for()
    assert pg.locator("b", has_text="плохой").count() == 0  # the file name is not markup
    shot(pg, "4_bad_upload")
    vail = {"id": "vail", "card": "Вайл", "owner": "B", "at": "e6"}
    desk = edits.put_card(model.Desk(title="Файл стола"), vail)
    upload(pg, "stol.json", share.to_file_text(desk).encode("utf-8"))
    pg.get_by_text("Открыт стол из файла «stol.json».").wait_for()
    pg.get_by_text("Вопрос: Файл стола").wait_for()
    assert pg.get_by_text("Вайл [vail]").count() >= 1

    # The official Бул'Багур example, one click away; saved as YAML and opened back, it is the same desk.
    open_load_panel(pg)
    pg.get_by_text("534.5 · ", exact=False).first.click()
    settle(pg)
    pg.get_by_text("Загружен сценарий", exact=False).first.wait_for()
    pg.get_by_text("Все ожидания сценария выполняются", exact=False).first.wait_for()
    with pg.expect_download() as saved:
        pg.get_by_role("button", name="Скачать сценарий (YAML)").click()
    yaml_bytes = Path(saved.value.path()).read_bytes()
    assert saved.value.suggested_filename.endswith(".yaml") and "Бул'Багур".encode() in yaml_bytes
    open_load_panel(pg)
    pg.get_by_role("button", name="Новый пустой стол").click()
    settle(pg)
    assert pg.get_by_text("Бул'Багур [bul]", exact=False).count() == 0
    open_load_panel(pg)
    upload(pg, "stol-sudi.yaml", yaml_bytes)
    pg.get_by_text("Загружен сценарий «Считаются ли лишние раны", exact=False).first.wait_for()
    assert pg.get_by_text("Бул'Багур [bul]", exact=False).count() >= 1
    pg.get_by_text("Все ожидания сценария выполняются", exact=False).first.wait_for()
    shot(pg, "6_saved_yaml_reopened")


def test_phone_keeps_the_five_columns_and_links_keep_the_session(page: Any) -> None:
    """At 390 px the field stays a 5×6 grid (Streamlit would stack 30 cells in one column), nothing is
    wider than the screen, and a trace link opens the clause in the same session: back returns to
    the same desk, whose address names the desk alone."""
    context = page.context.browser.new_context(viewport={"width": 390, "height": 844}, locale="ru-RU")
    pg = context.new_page()  # a second tab of the same browser, sized as a phone
    pg.set_default_timeout(TIMEOUT_MS)
    try:
        pg.goto(page.base + "/desk?scn=scenarios/official/211.3.1_karlik_und.yaml")
        pg.get_by_text("Загружен сценарий", exact=False).first.wait_for()
        settle(pg)
        boxes = {}
        for cell in ("a4", "b4", "c4", "d4", "e4"):
            button = pg.locator(f".st-key-desk_cell_{cell} button:visible").first
            button.scroll_into_view_if_needed()
            boxes[cell] = button.bounding_box()
        assert all(boxes.values()), boxes
        assert len({round(b["y"]) for b in boxes.values() if b}) == 1, boxes  # one row, side by side
        assert all(b and b["x"] + b["width"] <= 390 for b in boxes.values()), boxes
        assert pg.evaluate("() => document.documentElement.scrollWidth") <= 390
        while not pg.locator(".st-key-desk_redo button").is_disabled():
            pg.locator(".st-key-desk_redo button").click()
            settle(pg)
        pg.get_by_text("Все шаги (6)").click()
        settle(pg)
        ARTIFACTS.mkdir(exist_ok=True)
        pg.screenshot(path=str(ARTIFACTS / "desk_5_phone.png"), full_page=True)
        desk_url = pg.url
        assert "scn=" not in desk_url and "desk=" in desk_url
        pg.get_by_role("link", name="п. 211.3.1").first.click()
        pg.wait_for_url("**p=211.3.1**")
        pg.get_by_role("heading", name="п. 211.3.1").first.wait_for()
        pg.go_back()
        pg.get_by_role("heading", name="Стол судьи").first.wait_for()
        settle(pg)
        assert pg.url == desk_url
        assert pg.get_by_text("Действий применено: 6 из 6.").count() == 1  # the same desk
    finally:
        context.close()

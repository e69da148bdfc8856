"""How the browser benchmark drives a page and times what a person waits for (async playwright).

Every page gets the browser harness's run watcher (tests/browser.py: each rerun the page asks for
must be followed by a run that started after it and finished) and a stopwatch: the moment of the
last Enter or pointer press, read in the page's own clock. A step is over when the page shows what
it should (the results of this query, the verdict, the other page's heading), every run it asked
for has finished, and nothing stale or skeletal is left on screen; the time is taken in the page,
on the animation frame that first sees all that, so the test driver's own delays do not count.
A first load counts from the start of the navigation.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Literal

from playwright.async_api import Browser, BrowserContext, Locator, Page

from tests import helpers
from tests.bench import bare_app
from tests.browser import _QUIET, _WATCH_RUNS, QUIET_MS, SEARCH_LABEL, tile_selector

TIMEOUT_MS = 120_000
Polling = float | Literal["raf"]
VIEWPORT = {"width": 1280, "height": 900}
KARLIK = "scenarios/official/211.3.1_karlik_und.yaml"
# The desk's one action on the Карлик Унд example: Вайл (c4) taken under A's control, then undone.
DESK_ACTION = "игрок A — ✔ можно"


def _desk_action(page: Page) -> Locator:
    """The action's target: a button (of the panel's rows, or of its own), or an option of the
    action's pills (a radio), whichever the served checkout draws (BENCH_BASELINE may serve an older
    one)."""
    return page.get_by_role("radio", name=DESK_ACTION, exact=True).or_(
        page.get_by_role("button", name=DESK_ACTION, exact=True)
    )


DESK_VERDICT = "Законно"
DESK_PAGE, SEARCH_PAGE = "Стол судьи", "Поиск"
SEARCH_TITLE = "Поиск по правилам"

_STOPWATCH = """(() => {
  if (window.__bench) return;
  const bench = (window.__bench = { t0: 0 });
  document.addEventListener("keydown", (e) => { if (e.key === "Enter") bench.t0 = performance.now(); }, true);
  document.addEventListener("pointerdown", () => { bench.t0 = performance.now(); }, true);
})();"""

# Over when: the page shows `want` (a CSS selector some element of which contains the text, and
# optionally the address's q= value), the app is connected and not running, every socket's last
# rerun request was answered by a finished run, and nothing is stale. Returns the ms since t0.
_DONE = """([want, since]) => {
  const runs = window.__stRuns, app = document.querySelector('[data-testid="stApp"]');
  if (!runs || !app || !runs.sockets.length) return false;
  if (app.getAttribute("data-test-connection-state") !== "CONNECTED") return false;
  if (app.getAttribute("data-test-script-state") !== "notRunning") return false;
  if (document.querySelector('[data-stale="true"], [data-testid="stSkeleton"]')) return false;
  const answered = (ws) => ws.readyState > 1 || (ws.__runs.urls === 0
    && ws.__runs.started > ws.__runs.asked && ws.__runs.finished > ws.__runs.started);
  if (!runs.sockets.every(answered)) return false;
  if (want.q !== undefined && new URLSearchParams(location.search).get("q") !== want.q) return false;
  const found = [...document.querySelectorAll(want.selector)].some((el) => el.innerText.includes(want.text));
  if (!found) return false;
  return Math.max(performance.now() - (since ? window.__bench.t0 : 0), 0.001);
}"""


@dataclass(frozen=True)
class Want:
    """What the page shows when a step is over."""

    selector: str
    text: str
    q: str | None = None

    def js(self) -> dict[str, str]:
        out = {"selector": self.selector, "text": self.text}
        if self.q is not None:
            out["q"] = self.q
        return out


def heading(text: str) -> Want:
    return Want("h1", text)


async def new_page(browser: Browser) -> Page:
    context = await browser.new_context(viewport=VIEWPORT, locale="ru-RU")  # type: ignore[arg-type]
    context.set_default_timeout(TIMEOUT_MS)
    await context.add_init_script(_WATCH_RUNS)
    await context.add_init_script(_STOPWATCH)
    return await context.new_page()


async def close(page: Page) -> None:
    context: BrowserContext = page.context
    await context.close()


async def done(page: Page, want: Want, *, since_press: bool = True, polling: Polling = "raf") -> float:
    """Wait until the step is over; the ms it took (since the press, or since navigation)."""
    handle = await page.wait_for_function(_DONE, arg=[want.js(), since_press], polling=polling)
    return float(json.loads(json.dumps(await handle.json_value())))


async def settle(page: Page) -> None:
    """Wait, untimed, until the page is quiet (the harness's settle)."""
    await page.wait_for_function(_QUIET, arg=[QUIET_MS, id(page)], polling=50)


async def first_load(browser: Browser, url: str, want: Want) -> float:
    """A new window (a new session) opens `url`: ms from navigation start to `want` shown."""
    page = await new_page(browser)
    try:
        await page.goto(url, wait_until="commit")
        return await done(page, want, since_press=False)
    finally:
        await close(page)


class App:
    """The steps of one app the benchmark times, with what each shows when it is over."""

    name = ""

    def load_want(self) -> Want:
        raise NotImplementedError

    async def open_search(self, page: Page, url: str) -> None:
        raise NotImplementedError

    async def search(self, page: Page, query: str, polling: Polling = "raf") -> float:
        raise NotImplementedError

    async def open_action(self, page: Page, url: str) -> None:
        raise NotImplementedError

    async def action(self, page: Page) -> float:
        raise NotImplementedError

    async def press(self, page: Page) -> float:
        """The action alone, timed; `unpress` puts the page back as it was before it, untimed."""
        raise NotImplementedError

    async def unpress(self, page: Page) -> None:
        raise NotImplementedError

    def pages(self) -> tuple[str, str, Want, Want]:
        """The two menu entries a switch goes between, and what each shows."""
        raise NotImplementedError

    async def switch(self, page: Page, to: str, want: Want) -> float:
        link = page.locator('[data-testid="stSidebarNav"]').get_by_role("link", name=to, exact=True)
        await link.click()
        return await done(page, want)


class Ours(App):
    name = "ours"

    def load_want(self) -> Want:
        return Want('[data-testid="stTextInput"] label', SEARCH_LABEL)

    async def open_search(self, page: Page, url: str) -> None:
        await page.goto(url + "/search")
        await done(page, self.load_want(), since_press=False)

    async def search(self, page: Page, query: str, polling: Polling = "raf") -> float:
        box = page.locator(".st-key-search_box input")
        await box.fill(query)
        await box.press("Enter")
        return await done(
            page, Want('.st-key-search_hits, [data-testid="stAlert"]', "", q=query), polling=polling
        )

    async def open_action(self, page: Page, url: str) -> None:
        await page.goto(f"{url}/desk?scn={KARLIK}")
        await done(page, Want('[data-testid="stAlert"]', "Загружен сценарий"), since_press=False)
        await settle(page)
        # «К началу»: the set-up (a button of the panel's rows, or of its own in a BENCH_BASELINE checkout)
        restart = "button[data-id='desk_restart'], .st-key-desk_restart button:visible"
        await page.locator(restart).first.click()
        await settle(page)
        # the tile of c4: a button of the field's component, or (a BENCH_BASELINE checkout from
        # before it) the fourth tile of the pills of B's half's first row, or a button of its own
        older = ".st-key-desk_half_B [role='radiogroup'] > button:nth-child(13)"
        older += ", .st-key-desk_cell_c4 button:visible"
        await page.locator(f"{tile_selector('c4')}, {older}").first.click()
        await settle(page)

    async def action(self, page: Page) -> float:
        took = await self.press(page)
        await self.unpress(page)
        return took

    async def press(self, page: Page) -> float:
        """The action alone (the button found first: finding it by its name is the driver's work)."""
        button = await _desk_action(page).element_handle()
        await button.click()
        return await done(page, Want('[data-testid="stAlert"]', DESK_VERDICT))

    async def unpress(self, page: Page) -> None:
        """Undo the action, untimed, until the desk is as before it."""
        await page.locator("button[data-id='desk_undo'], .st-key-desk_undo button:visible").first.click()
        await settle(page)
        await _desk_action(page).wait_for()

    def pages(self) -> tuple[str, str, Want, Want]:
        return SEARCH_PAGE, DESK_PAGE, heading(SEARCH_TITLE), heading(DESK_PAGE)


class Bare(App):
    name = "bare"

    def __init__(self) -> None:
        self._pressed = 0

    def load_want(self) -> Want:
        return Want('[data-testid="stTextInput"] label', bare_app.FIELD_LABEL)

    async def open_search(self, page: Page, url: str) -> None:
        await page.goto(url)
        await done(page, self.load_want(), since_press=False)

    async def search(self, page: Page, query: str, polling: Polling = "raf") -> float:
        box = page.locator(".st-key-bare_query input")
        await box.fill(query)
        await box.press("Enter")
        return await done(
            page, Want('[data-testid="stMarkdownContainer"]', f"{query} — строка 10"), polling=polling
        )

    async def open_action(self, page: Page, url: str) -> None:
        await page.goto(url + "/button")
        await done(page, Want('[data-testid="stMarkdownContainer"]', "Нажато: 0"), since_press=False)
        self._pressed = 0

    async def action(self, page: Page) -> float:
        return await self.press(page)

    async def press(self, page: Page) -> float:
        button = await page.get_by_role("button", name=bare_app.BUTTON_LABEL, exact=True).element_handle()
        await button.click()
        self._pressed += 1
        return await done(page, Want('[data-testid="stMarkdownContainer"]', f"Нажато: {self._pressed}"))

    async def unpress(self, page: Page) -> None:
        """Nothing to undo: the next press counts on."""

    def pages(self) -> tuple[str, str, Want, Want]:
        return "Поле", "Кнопка", heading("Поле"), heading("Кнопка")


def chromium_args() -> list[str]:
    return list(helpers.CHROMIUM_ARGS)

"""The harness of the browser tests (Debian chromium driven by playwright), in one place.

`launch` starts chromium with the team's flags (tests/conftest.py holds the one `browser` fixture);
`new_page` opens a page in a context of its own (its own Streamlit session) at a viewport, with a
default timeout a loaded 2-core machine meets; `settle` waits until Streamlit's run is over, by
condition; `shot`, `fits_width`, `params`, `wait_params` and `Visit` are what the tests check with;
`sign_in` is a judge signing in on a page, `nav` a move through the app's menu; `Wire` reads what
the server sends (which runs finished how, and what they drew). No pytest here.

How `settle` knows a run is over: the DOM alone cannot tell. After a click, nothing on the page
changes until the server starts the run (on a busy machine that can take seconds), and Streamlit's
running indicator shows only half a second into a run. So every page gets a script that watches
Streamlit's websocket: each rerun request the page sends must be followed by a run that started
after it and finished (not cut short for another rerun), and no file upload may be under way. Then
the page itself must be quiet: the app connected and not running, no running indicator, no
skeleton, no stale element, no fold still opening or closing.
"""

from __future__ import annotations

import itertools
import json
import os
import sys
import time
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from google.protobuf import text_format  # type: ignore[import-untyped]
from playwright.sync_api import Browser, Locator, Page, Playwright, ViewportSize
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

from app_pages.desk.board import KEY as BOARD_KEY
from tests import helpers

ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
# A bound that catches a hang, never slowness: every wait ends as soon as its condition holds, so
# a passing run takes no longer for it. 60 s was missed on a fresh server's first sign-in and first
# search (scenario runs, index, journal) in a clean-clone run whose suite, at nice 5, shared the
# 2 cores with two `yes` and two other test workers at normal priority (issue 27).
TIMEOUT_MS = 180_000
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
SEARCH_LABEL = "Номер пункта, слова, жаргон или название карты"
# A search hit's link: the title line of an entry of the hits list (app_pages/shared/linklist).
SEARCH_HIT = ".st-key-search_hits a.head"
# The page must stay quiet this long within one settle: the last message of a run reaches the
# socket a moment before the app has drawn it, and a chosen file is read for a moment before its
# upload begins (neither moment leaves a sign in the page).
QUIET_MS = 100
_settles = itertools.count(1)

# The protobuf field numbers come from the installed Streamlit, so they cannot drift from it.
_FIELDS = {
    "rerun": BackMsg.DESCRIPTOR.fields_by_name["rerun_script"].number,
    "urls_asked": BackMsg.DESCRIPTOR.fields_by_name["file_urls_request"].number,
    "urls_given": ForwardMsg.DESCRIPTOR.fields_by_name["file_urls_response"].number,
    "started": ForwardMsg.DESCRIPTOR.fields_by_name["new_session"].number,
    "finished": ForwardMsg.DESCRIPTOR.fields_by_name["script_finished"].number,
    "cut_short": ForwardMsg.FINISHED_EARLY_FOR_RERUN,
}

# Installed in every page before Streamlit's own code: wraps WebSocket to stamp, per socket, the
# last rerun request sent, the last run started and the last run finished (a shared sequence), and
# counts a file upload's steps under way (asking the server where to put the file, sending it):
# the rerun that shows an uploaded file is asked for only once those are done.
_WATCH_RUNS = """(() => {
  if (window.__stRuns) return;
  const F = FIELDS;
  const runs = (window.__stRuns = { seq: 0, sockets: [], uploads: 0, quietSince: 0 });
  const bytesOf = (d) =>
    d instanceof ArrayBuffer ? new Uint8Array(d)
      : ArrayBuffer.isView(d) ? new Uint8Array(d.buffer, d.byteOffset, d.byteLength) : null;
  // The top-level fields of a protobuf message: [number, value of a varint field or null].
  const fields = (b) => {
    const out = [];
    let i = 0;
    const varint = () => {
      let v = 0, m = 1, x;
      do { x = b[i++]; v += (x & 127) * m; m *= 128; } while (x & 128 && i < b.length);
      return v;
    };
    while (i < b.length) {
      const key = varint(), wire = key % 8, number = Math.floor(key / 8);
      if (wire === 0) out.push([number, varint()]);
      else if (wire === 2) { const n = varint(); i += n; out.push([number, null]); }
      else if (wire === 1) { i += 8; out.push([number, null]); }
      else if (wire === 5) { i += 4; out.push([number, null]); }
      else break;
    }
    return out;
  };
  const Native = window.WebSocket;
  class Watched extends Native {
    constructor(...args) {
      super(...args);
      const s = (this.__runs = { asked: 0, started: 0, finished: 0, urls: 0 });
      runs.sockets.push(this);
      this.addEventListener("message", (e) => {
        const b = bytesOf(e.data);
        for (const [number, value] of b ? fields(b) : []) {
          if (number === F.started) s.started = ++runs.seq;
          else if (number === F.finished && value !== F.cut_short) s.finished = ++runs.seq;
          else if (number === F.urls_given) s.urls -= 1;
        }
      });
    }
    send(data) {
      for (const [number] of fields(bytesOf(data) || [])) {
        if (number === F.rerun) this.__runs.asked = ++runs.seq;
        else if (number === F.urls_asked) this.__runs.urls += 1;
      }
      return super.send(data);
    }
  }
  window.WebSocket = Watched;
  const isUpload = (url) => String(url).includes("/_stcore/upload_file");
  const open = XMLHttpRequest.prototype.open;
  XMLHttpRequest.prototype.open = function (method, url, ...rest) {
    this.__upload = isUpload(url);
    return open.call(this, method, url, ...rest);
  };
  const sendXhr = XMLHttpRequest.prototype.send;
  XMLHttpRequest.prototype.send = function (...args) {
    if (this.__upload) {
      runs.uploads += 1;
      this.addEventListener("loadend", () => { runs.uploads -= 1; });
    }
    return sendXhr.apply(this, args);
  };
  const nativeFetch = window.fetch;
  window.fetch = function (input, init) {
    if (!isUpload(input instanceof Request ? input.url : input)) return nativeFetch.call(this, input, init);
    runs.uploads += 1;
    return nativeFetch.call(this, input, init).finally(() => { runs.uploads -= 1; });
  };
  // The last taps and key presses, for keep_evidence: where each landed (the nearest st-key-…)
  // and whether on a disabled control. A click lost at a fresh server's first sign-in (issue 27)
  // left the form filled and no rerun asked, and nothing to tell where the click went.
  runs.events = [];
  const keyOf = (el) => {
    for (let e = el; e && e.classList; e = e.parentElement) {
      const key = [...e.classList].find((c) => c.startsWith("st-key-"));
      if (key) return key.slice(7) + ">" + el.tagName.toLowerCase();
    }
    return el && el.tagName ? el.tagName.toLowerCase() : String(el);
  };
  for (const type of ["pointerdown", "pointerup", "click", "keydown", "focusin"]) {
    window.addEventListener(type, (e) => {
      const at = [Math.round(e.clientX ?? -1), Math.round(e.clientY ?? -1)];
      const disabled = e.target?.disabled === true;
      runs.events.push([type, Math.round(performance.now()), keyOf(e.target), ...at, disabled]);
      if (runs.events.length > 30) runs.events.shift();
    }, true);
  }
})();""".replace("FIELDS", json.dumps(_FIELDS))

_QUIET = """([quietMs, call]) => {
  const runs = window.__stRuns;
  if (runs && runs.call !== call) {
    runs.call = call;  // a new settle: quiet counts from now, not from an earlier one
    runs.quietSince = 0;
  }
  const app = document.querySelector('[data-testid="stApp"]');
  // A fold opens (and closes) in a 500 ms animation of its height, and the content under it moves
  // while it runs: a press and its release that frames apart land on different elements, and the
  // click is lost (issue 27: «Войти» pressed at the end of the opening, released on the select box
  // above it). A person sees the motion and taps after it; a test waits for it to end: no animation
  // on the fold, and the fixed height it holds while animating let go (its finish handler does it).
  const moving = (d) => d.getAnimations().length > 0 || d.style.height !== "";
  const answered = (ws) => ws.readyState > 1 || (ws.__runs.urls === 0
    && ws.__runs.started > ws.__runs.asked && ws.__runs.finished > ws.__runs.started);
  const quiet = runs && app
    && app.getAttribute("data-test-connection-state") === "CONNECTED"
    && app.getAttribute("data-test-script-state") === "notRunning"
    && !document.querySelector(
      '[data-testid="stStatusWidget"], [data-testid="stSkeleton"], [data-stale="true"]')
    && runs.uploads === 0 && runs.sockets.every(answered)
    && ![...document.querySelectorAll('[data-testid="stExpander"] details')].some(moving)
    // A font still loading swaps in later and wraps the text anew, moving what is under it: on a
    // fresh phone page a fold's summary was pressed and the release landed on the text it moved
    // to (a clean-clone run, test_the_rules_page_on_a_phone; the tap log kept it).
    && document.fonts.status === "loaded";
  // And the page must keep its size for the whole quiet time: anything else that moves the page
  // (an image, a late style) starts the count again.
  const main = document.querySelector('[data-testid="stMain"]');
  const size = main ? `${main.scrollWidth}x${main.scrollHeight}` : "";
  if (runs && runs.size !== size) {
    runs.size = size;
    runs.quietSince = 0;
  }
  if (!quiet) {
    if (runs) runs.quietSince = 0;
    return false;
  }
  runs.quietSince = runs.quietSince || performance.now();
  return performance.now() - runs.quietSince >= quietMs;
}"""


def launch(pw: Playwright, executable: str) -> Browser:
    return pw.chromium.launch(executable_path=executable, args=helpers.CHROMIUM_ARGS)


def new_page(browser: Browser, viewport: dict[str, int] = DESKTOP, *, downloads: bool = False) -> Page:
    """A page in a context of its own (a Streamlit session of its own); close it with `close(page)`."""
    context = browser.new_context(
        viewport={"width": viewport["width"], "height": viewport["height"]},
        locale="ru-RU",
        accept_downloads=downloads,
    )
    context.set_default_timeout(TIMEOUT_MS)
    context.add_init_script(_WATCH_RUNS)
    return context.new_page()


def waited(page: Page, locator: Locator) -> None:
    """`locator.wait_for()`; when the wait runs out, what the page showed is kept first."""
    try:
        locator.wait_for()
    except PlaywrightTimeout:
        keep_evidence(page)
        raise


def close(page: Page) -> None:
    """Close the page's context. Called from a test's `finally`, while the test is failing (an
    exception on its way out), it keeps what the page showed first: a wait in the test itself ran
    out, or an assertion failed, and the page is the evidence."""
    if sys.exc_info()[1] is not None:
        keep_evidence(page)
    page.context.close()


def keep_evidence(page: Page) -> None:
    """What the page showed when a test failed: tests/artifacts/failed-<test>-<time>.png and .txt
    (the page's text, the counts of runs asked, started and finished, and the last taps with where
    they landed), for a failure that happens once in many runs. Never raises: the test's own error
    is the one to report."""
    test = os.environ.get("PYTEST_CURRENT_TEST", "test").split(" ")[0]
    name = "failed-" + "".join(c if c.isalnum() or c in "-_" else "_" for c in test)[-120:]
    name += f"-{int(time.time() * 1000)}"
    try:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        facts = page.evaluate(
            """() => { const app = document.querySelector('[data-testid="stApp"]');
              return JSON.stringify({url: location.href,
                state: app?.getAttribute('data-test-script-state'),
                connection: app?.getAttribute('data-test-connection-state'),
                sockets: (window.__stRuns?.sockets || []).map(w => w.__runs),
                loaded: performance.getEntriesByType('navigation')[0]?.type,
                now: Math.round(performance.now()),
                events: window.__stRuns?.events || []})
              + "\\n\\n" + document.body.innerText; }"""
        )
        (ARTIFACTS / f"{name}.txt").write_text(str(facts), encoding="utf-8")
        page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True, timeout=10_000)
    except Exception as exc:  # evidence is best effort
        print(f"keep_evidence: {type(exc).__name__}: {exc}", file=sys.stderr)


def settle(page: Page) -> None:
    """Wait until every rerun the page asked for has run to its end and the page is drawn."""
    try:
        page.wait_for_function(_QUIET, arg=[QUIET_MS, next(_settles)], polling=50)
    except PlaywrightTimeout:
        keep_evidence(page)
        raise


def next_frame(page: Page) -> None:
    """Wait until the browser has drawn two frames (a layout change has been painted)."""
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")


def shot(page: Page, name: str) -> None:
    """The whole page as `<name>_<width>.png` in tests/artifacts/ (and in $SHOTS_DIR when set).
    Streamlit scrolls inside its main pane, so the window grows to fit it first."""
    settle(page)
    size = page.viewport_size or ViewportSize(width=DESKTOP["width"], height=DESKTOP["height"])
    tall = page.evaluate(
        "() => { const m = document.querySelector('[data-testid=\"stMain\"]');"
        " return m ? m.scrollHeight : document.body.scrollHeight; }"
    )
    page.set_viewport_size({"width": size["width"], "height": max(int(tall), size["height"])})
    next_frame(page)
    folders = [ARTIFACTS] + ([Path(os.environ["SHOTS_DIR"])] if os.environ.get("SHOTS_DIR") else [])
    for folder in folders:
        folder.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(folder / f"{name}_{size['width']}.png"), full_page=True)
    page.set_viewport_size(size)


def fits_width(page: Page) -> None:
    """Nothing on the page is wider than the screen (no sideways scrolling)."""
    width = (page.viewport_size or DESKTOP)["width"]
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 1, f"the page is {overflow}px wider than a {width}px screen"


def params(page: Page) -> dict[str, str]:
    """The query parameters of the page's address (the first value of each)."""
    return {k: v[0] for k, v in parse_qs(urlsplit(page.url).query).items()}


def wait_params(page: Page, **expected: str) -> None:
    """Wait until the address carries the first parameter given, then check them all."""
    page.wait_for_function(
        "([k, v]) => new URLSearchParams(location.search).get(k) === v",
        arg=list(next(iter(expected.items()))),
    )
    for key, value in expected.items():
        assert params(page).get(key) == value, page.url


def record_requests(page: Page) -> list[str]:
    """The address of every request the page makes from now on (the list grows as it goes)."""
    seen: list[str] = []
    page.on("request", lambda r: seen.append(r.url))
    return seen


def assert_local_only(requests: list[str]) -> None:
    """Every request stayed on this machine (the hall's network may have no internet)."""
    web = ("http", "https", "ws", "wss")
    outside = [u for u in requests if urlsplit(u).scheme in web and urlsplit(u).hostname != "127.0.0.1"]
    assert not outside, f"requests left the machine: {outside}"
    assert requests, "no request was recorded at all"


def sign_in(page: Page, where: str, name: str, password: str, *, folded_in: str = "") -> None:
    """A judge signs in through the page's own «Вход для судей» form (`where`: the key prefix the
    page gives it); `folded_in`: the key of the expander that folds the form, opened first. Waits
    for «Вы вошли» (a sign-in lives in this tab's session: a reload or a typed address drops it)."""
    if folded_in:
        unfold(page, folded_in)
    page.locator(f".st-key-{where}_signin_name input").fill(name)
    page.locator(f".st-key-{where}_signin_password input").fill(password)
    page.locator(f".st-key-{where}_signin_submit button").click()
    settle(page)
    waited(page, page.get_by_text(f"Вы вошли: {name}", exact=False).first)


def nav(page: Page, name: str) -> None:
    """Go to another page through the app's own menu (the same tab, so the same session and
    sign-in); on a phone the folded sidebar is opened first and folded back after."""
    link = page.locator('[data-testid="stSidebarNav"]').get_by_role("link", name=name)
    opener = page.locator('[data-testid="stExpandSidebarButton"]')
    if opener.count() and opener.first.is_visible():
        opener.first.click()
        link.wait_for(state="visible")
    link.click()
    settle(page)
    closer = page.locator('[data-testid="stSidebarCollapseButton"] button')
    if (page.viewport_size or DESKTOP)["width"] < 700 and closer.count() and closer.first.is_visible():
        closer.first.click()
        opener.first.wait_for(state="visible")


class Visit:
    """One person's browser tab on the app at `base`, with every request it makes written down;
    screenshots are named `<prefix>_<name>_<width>.png`."""

    def __init__(self, browser: Browser, viewport: dict[str, int], base: str, prefix: str = "rules") -> None:
        self.page = new_page(browser, viewport)
        self.context = self.page.context
        self.base = base
        self.width = viewport["width"]
        self.prefix = prefix
        self.requests = record_requests(self.page)

    def params(self) -> dict[str, str]:
        return params(self.page)

    def wait_params(self, **expected: str) -> None:
        wait_params(self.page, **expected)

    def heading(self, text: str) -> None:
        self.page.get_by_role("heading", name=text, exact=True).first.wait_for()

    def main(self) -> Locator:
        return self.page.locator('[data-testid="stMain"]')

    def settle(self) -> None:
        settle(self.page)

    def shot(self, name: str) -> None:
        shot(self.page, f"{self.prefix}_{name}")

    def fits_width(self) -> None:
        fits_width(self.page)

    def assert_local_only(self) -> None:
        assert_local_only(self.requests)

    def close(self) -> None:
        close(self.page)


class Wire:
    """The ForwardMsgs a page receives, from a mark on: what a tap redrew, read off Streamlit's
    websocket (a part not redrawn sends nothing)."""

    def __init__(self, pg: Any) -> None:
        self.msgs: list[ForwardMsg] = []
        pg.on("websocket", lambda ws: ws.on("framereceived", self._got))

    def _got(self, payload: str | bytes) -> None:
        if isinstance(payload, bytes):
            msg = ForwardMsg()
            msg.ParseFromString(payload)
            self.msgs.append(msg)

    def mark(self) -> int:
        return len(self.msgs)

    def since(self, at: int) -> tuple[list[Any], str]:
        """The finish statuses of the runs since `at`, and the text of every delta they sent."""
        msgs = self.msgs[at:]
        finished = [m.script_finished for m in msgs if m.WhichOneof("type") == "script_finished"]
        sent = "\n".join(
            text_format.MessageToString(m.delta, as_utf8=True)
            for m in msgs
            if m.WhichOneof("type") == "delta"
        )
        # a component's data (the desk's field: UTF-8 JSON bytes) as the text it is
        sent += "\n" + "\n".join(
            m.delta.new_element.bidi_component.bytes.decode("utf-8", "replace")
            for m in msgs
            if m.WhichOneof("type") == "delta" and m.delta.new_element.WhichOneof("type") == "bidi_component"
        )
        return finished, sent


# The desk («Стол судьи») -------------------------------------------------------------------------

KARLIK = "scenarios/official/211.3.1_karlik_und.yaml"


def tile_selector(cell: str) -> str:
    """The CSS selector of the field's tile of this cell: the button of the desk's field that
    sends this cell."""
    return f".st-key-{BOARD_KEY} button[data-cell='{cell}']"


def tile(pg: Any, cell: str) -> Any:
    """The field's tile of this cell (a button)."""
    return pg.locator(tile_selector(cell)).first


def desk_page(browser: Browser, base: str, viewport: dict[str, int] = DESKTOP) -> Any:
    """A page for the desk tests of the app at `base` (downloads allowed; `open_desk` goes there)."""
    pg = new_page(browser, viewport, downloads=True)
    pg.base = base
    return pg


def open_desk(pg: Any, query: str = "") -> None:
    """The desk page of `pg.base`, with this query, once it has settled."""
    pg.goto(pg.base + "/desk" + query)
    pg.get_by_role("heading", name="Стол судьи").first.wait_for()
    settle(pg)


def unfold(pg: Any, key: str) -> Any:
    """Open the folded part with this key (if it is not open already) and wait until it has
    stopped moving (`settle`: the fold's opening animation over); returns it. A closed part of the
    desk's under the field is a summary among others in one element (app_pages.desk.session.Folds),
    an open one Streamlit's expander: the tap lands on whichever is drawn."""
    part = pg.locator(f".st-key-{key}")
    closed = pg.locator(f"details.desk-fold[data-row='{key}'] > summary")
    closed.or_(part.locator("summary")).first.wait_for()
    if closed.count():
        closed.first.click()
        settle(pg)
    if part.locator("details").first.get_attribute("open") is None:
        part.locator("summary").first.click()
        settle(pg)
    return part


def banner(pg: Any, word: str) -> Any:
    """The verdict box with this word (a locator: it waits when it is used)."""
    return pg.locator(".st-key-desk_verdict").filter(has_text=word).first

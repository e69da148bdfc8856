"""A hall's server against hostile players, in a real browser (issue 26).

- A hostile card base, hostile rules and a hostile `?desk=` link: every page is walked in
  chromium and no image or link on it leads to the payloads' address, no request leaves the
  machine, no page shows a traceback (before, the desk's pills and buttons and the card page's
  heading rendered names as Markdown, and the browser fetched an attacker's image).
- The upload limit is the server's: a body over 20 MB sent straight to the upload address is
  refused (before, a 60 MB body was taken into memory), and so is anything past the tab's 150 MB
  budget, though no page ever read it.
- A parse is stopped when its window goes away (before, a player's upload kept a core busy after
  the tab was closed): the worker's child is frozen mid-parse, the tab closed, and the child is gone.
"""

from __future__ import annotations

import os
import select
import signal
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import pytest
from playwright.sync_api import Browser, Page, Request

import engine
from rulings import limits
from tests import helpers, hostile_data, rules_docs
from tests.browser import DESKTOP, PHONE, Visit, close, new_page, settle, tile
from tests.hostile_text import EVIL

pytestmark = pytest.mark.browser
ROOT = Path(__file__).resolve().parent.parent
MB = 1024 * 1024
UPLOAD_PATH = "/_stcore/upload_file/"


@pytest.fixture(scope="module")
def hostile_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str, str]]:
    """An app server whose default rules and card base are the hostile ones; (url, base id, token)."""
    with hostile_data.installed(tmp_path_factory.mktemp("hostile_server")) as (_, base_id):
        token = hostile_data.desk_token(engine.load_library())
        with helpers.running_app(ROOT) as url:
            yield url, base_id, token


def _no_markup_from_user_data(page: Page, where: str, shown: bool = True) -> None:
    settle(page)
    assert page.locator('[data-testid="stException"]').count() == 0, where
    images = page.eval_on_selector_all("img", "els => els.map(e => e.getAttribute('src') || '')")
    links = page.eval_on_selector_all("a[href]", "els => els.map(e => e.getAttribute('href') || '')")
    # A link or an image leading elsewhere (a card's name may ride in a link's query, as text).
    outside = [
        a for a in images + links if urlsplit(urljoin(page.url, a)).hostname not in ("127.0.0.1", None)
    ]
    assert not outside, (where, outside)
    if shown:  # the payloads are on the page, as text
        assert EVIL in page.locator('[data-testid="stMain"]').inner_text(), where


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1280", "390"])
def test_every_page_shows_hostile_text_as_text(
    browser: Browser, hostile_server: tuple[str, str, str], viewport: dict[str, int]
) -> None:
    url, base_id, token = hostile_server
    v = Visit(browser, viewport, url, prefix="hostile")
    try:
        page = v.page
        for where, path, shown in (
            ("search", "/?q=первый пункт", True),
            ("search for a card", "/?q=Степной дозорный", False),
            ("a clause", "/?p=900.1", True),
            ("the section", "/clause?p=900", True),
            ("the graph", "/graph?s=900", False),
            ("the rules", "/rules", False),
            ("the changes", "/changes", False),
            ("a hostile ruling", "/journal?r=1", True),
            ("a card", f"/cards?card=90001&base={base_id}", True),
        ):
            page.goto(url + path)
            _no_markup_from_user_data(page, where, shown)
        page.goto(url + "/cards")
        box = page.locator(".st-key-cards_query input")
        box.fill("а")
        box.press("Enter")
        page.locator(".st-key-cards_hits a").first.wait_for()
        _no_markup_from_user_data(page, "the card list")
        page.goto(url + f"/desk?desk={token}")
        settle(page)
        tile(page, "c2").click()  # the hostile own card: its actions
        _no_markup_from_user_data(page, "the desk, a card selected")
        v.shot("desk_selected")
        tile(page, "a1").click()  # an empty cell: the base's names to pick
        _no_markup_from_user_data(page, "the desk's card form")
        v.assert_local_only()
    finally:
        v.close()


# -- the server's upload limits -------------------------------------------------------------------


def _a_real_upload(page: Page, url: str, tmp_path: Path) -> tuple[str, str]:
    """Upload a small rules file through the page; the upload address of this tab and its XSRF token."""
    seen: list[Request] = []
    page.on("request", lambda r: seen.append(r) if r.method == "PUT" and UPLOAD_PATH in r.url else None)
    rules = tmp_path / "r.txt"
    rules.write_text("900. Раздел.\n900.1. Пункт.\nРП 9.9 от 01.01.2030\n", encoding="utf-8")
    page.goto(url + "/rules")
    page.get_by_role("heading", name="Правила", exact=True).first.wait_for()
    settle(page)
    page.get_by_text("Да, это версия правил «Берсерк» (РП)").click()
    settle(page)  # the box's run drawn: a file given to the uploader it replaces would be lost
    page.locator('[data-testid="stFileUploader"] input[type="file"]').set_input_files(str(rules))
    page.get_by_text("Загружены правила РП 9.9", exact=False).wait_for()
    assert seen, "the page uploaded its file"
    put = seen[0]
    return put.url.rsplit("/", 1)[0], put.headers.get("x-xsrftoken", "")


def _put(page: Page, address: str, file_id: str, size: int, token: str) -> int:
    """PUT a file of `size` bytes to the tab's upload address, as a script would (not the page):
    the body streams in chunks and the server's answer is read as soon as it comes, so a server
    that refuses early (before reading the body) is heard."""
    target = urlsplit(f"{address}/{file_id}")
    cookies = "; ".join(f"{c['name']}={c['value']}" for c in page.context.cookies())
    boundary = "guardboundary"
    head = (
        f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="x.pdf"\r\n'
        "Content-Type: application/pdf\r\n\r\n"
    ).encode()
    tail = f"\r\n--{boundary}--\r\n".encode()
    request = (
        f"PUT {target.path} HTTP/1.1\r\nHost: {target.netloc}\r\nCookie: {cookies}\r\n"
        f"X-Xsrftoken: {token}\r\nContent-Type: multipart/form-data; boundary={boundary}\r\n"
        f"Content-Length: {len(head) + size + len(tail)}\r\nConnection: close\r\n\r\n"
    ).encode()
    chunk = b"\0" * MB
    with socket.create_connection((target.hostname, target.port), timeout=120) as conn:
        try:
            conn.sendall(request + head)
            left = size
            while left > 0:
                if select.select([conn], [], [], 0)[0]:
                    break  # the server answered before the body was all sent
                part = chunk[: min(left, MB)]
                conn.sendall(part)
                left -= len(part)
            else:
                conn.sendall(tail)
        except (BrokenPipeError, ConnectionResetError):
            pass  # it closed the connection after answering
        answer = conn.recv(4096).decode("latin-1")
    return int(answer.split()[1])


def test_the_server_refuses_a_body_over_its_limit_and_past_the_tabs_budget(
    browser: Browser, app_server: str, tmp_path: Path
) -> None:
    page = new_page(browser)
    try:
        address, token = _a_real_upload(page, app_server, tmp_path)
        assert _put(page, address, "too-big", 21 * MB, token) == 413
        sent = 0
        status = 204
        for k in range(limits.SESSION_UPLOAD_MB // 19 + 2):  # 19 MB each, sent straight, read by no page
            status = _put(page, address, f"junk-{k}", 19 * MB, token)
            if status != 204:
                break
            sent += 19
        assert status == 413, status
        assert limits.SESSION_UPLOAD_MB - 19 <= sent <= limits.SESSION_UPLOAD_MB
    finally:
        close(page)


# -- a parse stops when its window goes away ------------------------------------------------------


def _server_pid(url: str) -> int:
    port = url.rsplit(":", 1)[1].encode()
    for proc in Path("/proc").iterdir():
        if proc.name.isdigit():
            try:
                cmd = (proc / "cmdline").read_bytes().split(b"\0")
            except OSError:
                continue
            if b"streamlit" in b" ".join(cmd) and port in cmd:
                return int(proc.name)
    raise AssertionError(f"no Streamlit server on port {port.decode()}")


def _children(pid: int) -> list[int]:
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*/children"):
        found += [int(c) for c in task.read_text().split()]
    return found


def _jobs(server: int) -> list[int]:
    """The worker's job children: those of the server's forkserver."""
    forkservers = [c for c in _children(server) if b"forkserver" in Path(f"/proc/{c}/cmdline").read_bytes()]
    return [job for fs in forkservers for job in _children(fs)]


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _cpu_ticks(pid: int) -> int:
    """The process's user and system CPU time so far, in clock ticks (0 when it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0
    return int(fields[11]) + int(fields[12])


def _until(condition: object, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if callable(condition) and condition():
            return True
        time.sleep(0.02)
    return False


def test_a_parse_stops_when_its_window_is_closed(browser: Browser, app_server: str, tmp_path: Path) -> None:
    server = _server_pid(app_server)
    rules = tmp_path / "big.txt"
    rules.write_bytes(rules_docs.full_rules(6.0))  # seconds of parsing: time to catch the child
    page = new_page(browser)
    page.goto(app_server + "/rules")
    page.get_by_role("heading", name="Правила", exact=True).first.wait_for()
    settle(page)
    page.get_by_text("Да, это версия правил «Берсерк» (РП)").click()
    settle(page)
    before = set(_jobs(server))
    page.locator('[data-testid="stFileUploader"] input[type="file"]').set_input_files(str(rules))
    assert _until(lambda: set(_jobs(server)) - before, 120), "the parse started in a worker child"
    child = next(iter(set(_jobs(server)) - before))
    # Frozen once it is parsing (its file read, its CPU seconds running), not while it still reads
    # the job it was given.
    assert _until(lambda: _cpu_ticks(child) >= 50, 120), "the child parses"
    os.kill(child, signal.SIGSTOP)  # the parse can no longer finish on its own
    close(page)
    assert _until(lambda: not _alive(child), 90), "the closed window's parse was not stopped"
    # the server goes on: another window parses
    other = new_page(browser)
    try:
        _a_real_upload(other, app_server, tmp_path)
    finally:
        close(other)

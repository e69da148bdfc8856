"""Shared test fixtures: free ports, a live app server, the browser gate and the one browser."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings
from hypothesis.database import DirectoryBasedExampleDatabase
from playwright import sync_api as playwright_sync

import engine
import rules_index
from tests import browser as harness
from tests import helpers

# The journal's two engines: `journal_target` and the session's PostgreSQL server.
pytest_plugins = ["tests.pg_server"]

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"

# Hypothesis under CI (CI=true, as .ci/run sets it): every run tries the same examples, derived from
# each test (derandomize), and keeps no database, so a failure on a fresh clone repeats on the next
# run and prints how to reproduce it. Elsewhere examples are random and the failing ones are
# remembered outside the checkout (a database in the tree would travel between branches).
settings.register_profile("ci", derandomize=True, database=None, print_blob=True)
_CACHE = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "berserk-judge" / "hypothesis"
settings.register_profile("dev", database=DirectoryBasedExampleDatabase(_CACHE))
settings.load_profile("ci" if os.environ.get("CI") == "true" else "dev")


# Fixtures that start a server or a browser: the tests that take them are the long ones.
_SERVERS = {"browser", "app_server", "postgres_server"}


def _weight(item: pytest.Item) -> int:
    """How long a test's file is likely to take, coarsely: a browser or a server of its own; a
    hypothesis test runs its body hundreds of times; the rest are quick."""
    if item.get_closest_marker("browser") or _SERVERS & set(getattr(item, "fixturenames", ())):
        return 0
    return 1 if getattr(getattr(item, "obj", None), "is_hypothesis_test", False) else 2


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The long files first (then the collection order): pytest-xdist hands each worker a whole
    file at a time in this order (`--no-loadscope-reorder`), so the short files fill the end of
    the run instead of one worker finishing a browser file alone (xdist's own order, most tests
    first, put the browser files, with few tests each, last). The same order in every worker."""
    weight: dict[str, int] = {}
    for item in items:
        path = item.nodeid.split("::", 1)[0]
        weight[path] = min(weight.get(path, 2), _weight(item))
    items.sort(key=lambda item: weight[item.nodeid.split("::", 1)[0]])


@pytest.fixture(scope="session", autouse=True)
def rules_store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Uploaded rules versions go to a temporary store, never the project's data/rules/ (the app
    servers the browser tests start inherit it through the environment)."""
    from rules_index import versions

    root = tmp_path_factory.mktemp("rules_store")
    old = os.environ.get(versions.ENV_VAR)
    os.environ[versions.ENV_VAR] = str(root)
    yield root
    if old is None:
        os.environ.pop(versions.ENV_VAR, None)
    else:
        os.environ[versions.ENV_VAR] = old


@pytest.fixture(scope="session", autouse=True)
def data_folders(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The journal and the card store of the tests live in a temporary folder too, never the
    project's data/ (a test that needs its own sets its own with monkeypatch)."""
    from cardbase import store as cards
    from rulings import store as journal

    root = tmp_path_factory.mktemp("data")
    wanted = {journal.ENV_VAR: str(root / "rulings.sqlite3"), cards.ENV_VAR: str(root / "cards")}
    old = {k: os.environ.get(k) for k in wanted}
    os.environ.update(wanted)
    yield root
    for key, value in old.items():
        if value is None:
            os.environ.pop(key, None)
        else:
            os.environ[key] = value


@pytest.fixture(scope="session")
def chromium_executable() -> str:
    """Debian's chromium, or a skip with the reason (a failure under CI=true)."""
    if Path(CHROMIUM).exists() or shutil.which("chromium") == CHROMIUM:
        return CHROMIUM
    reason = f"{CHROMIUM} не найден: браузерные тесты требуют пакет Debian chromium"
    if os.environ.get("CI") == "true":
        pytest.fail(reason + " (под CI это ошибка, а не пропуск)")
    pytest.skip(reason)


@pytest.fixture(scope="module")
def browser(chromium_executable: str) -> Iterator[playwright_sync.Browser]:
    """One chromium per browser test file; each test opens its own context (tests/browser.py).
    Per file, not per run: playwright's sync API keeps an event loop running in the main thread
    while it is open, and the page and unit tests that follow must not run inside it."""
    with playwright_sync.sync_playwright() as pw:
        launched = harness.launch(pw, chromium_executable)
        yield launched
        launched.close()


@pytest.fixture(scope="session")
def app_server() -> Iterator[str]:
    """The app started with `make run`'s command line on a free port; yields its base URL."""
    with helpers.running_app(ROOT) as url:
        yield url


@pytest.fixture(scope="session")
def judge(data_folders: Path) -> str:
    """A judge's account in the journal `app_server` reads (data_folders'); its name (the password
    is rulings_samples.PASSWORD). Made with the cheap hasher: an Argon2 hash names its own cost,
    so the app's default hasher checks it as it is."""
    from rulings import store as journal
    from tests.rulings_samples import PASSWORD, cheap_hasher

    name = "Сидорова"
    journal.Journal(journal.default_path(), hasher=cheap_hasher()).add_account(name, "judge", PASSWORD)
    return name


@pytest.fixture(scope="session")
def index() -> rules_index.RulesIndex:
    """The embedded rules, parsed once for the whole run (the index is immutable)."""
    return rules_index.load_default()


@pytest.fixture(scope="session")
def library() -> engine.CardLibrary:
    """The card library of engine/data/cards.yaml (read-only)."""
    return engine.load_library()


@pytest.fixture
def judge_account(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A journal of this test's own with one judge's account, and a rules store of its own."""
    from rules_index import versions
    from tests.rulings_samples import judges_journal

    monkeypatch.setenv(versions.ENV_VAR, str(tmp_path / "rules"))
    judges_journal(tmp_path / "rulings.sqlite3", monkeypatch)
    return tmp_path / "rules"

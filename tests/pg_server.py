"""A real PostgreSQL server for the journal's tests: Debian's postgresql package, started once per
test session in a temporary folder, reachable only through a Unix socket there (no TCP port).

`journal_target` is the one fixture the journal's tests take to run on both engines: a fresh file
path for SQLite, a fresh schema of the session's server for PostgreSQL (creating a schema costs a
millisecond, a database a second). Without the server the PostgreSQL cases skip and say how to
install it; under CI=true a missing server fails them.
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import pytest

INSTALL_HINT = (
    "нет сервера PostgreSQL для тестов журнала: установите пакет Debian `apt-get install postgresql`"
)
ENGINES = ("sqlite", "postgres")


def _bindir() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


class PgServer:
    """One postgres process on a temporary folder; `url(schema)` names a schema of its database."""

    def __init__(self, bindir: Path, root: Path) -> None:
        self.bindir = bindir
        self.root = root
        self.data = root / "data"
        self.user = "postgres" if os.geteuid() == 0 else pwd.getpwuid(os.geteuid()).pw_name

    def _as_owner(self, *args: str | Path) -> subprocess.CompletedProcess[str]:
        cmd = [str(a) for a in args]
        if os.geteuid() == 0:  # initdb and postgres refuse to run as root
            cmd = ["runuser", "-u", "postgres", "--", *cmd]
        return subprocess.run(cmd, capture_output=True, text=True, timeout=120, check=False)

    def init(self) -> None:
        if os.geteuid() == 0:
            shutil.chown(self.root, "postgres")
        done = self._as_owner(
            self.bindir / "initdb", "-D", str(self.data), "-A", "trust", "-U", self.user, "-E", "UTF8",
            "--locale=C.UTF-8", "--no-sync",
        )  # fmt: skip
        if done.returncode:
            raise RuntimeError(f"initdb: {done.stderr.strip()[-500:]}")

    def start(self) -> None:
        # No TCP at all; fsync off: a test server's data need not survive a power cut, only a restart.
        options = f"-c listen_addresses='' -k {self.root} -c fsync=off -c full_page_writes=off"
        options += " -c max_connections=100"
        log = str(self.root / "log")
        pg_ctl = self.bindir / "pg_ctl"
        done = self._as_owner(pg_ctl, "-D", str(self.data), "-o", options, "-l", log, "-w", "start")
        if done.returncode:
            raise RuntimeError(f"pg_ctl start: {done.stderr.strip()[-500:]} {self.log_tail()}")

    def stop(self, mode: str = "fast") -> None:
        self._as_owner(self.bindir / "pg_ctl", "-D", str(self.data), "-m", mode, "-w", "stop")

    def restart(self) -> None:
        self.stop("immediate")
        self.start()

    def log_tail(self) -> str:
        with contextlib.suppress(OSError):
            return (self.root / "log").read_text(encoding="utf-8", errors="replace")[-500:]
        return ""

    def url(self, schema: str = "public") -> str:
        options = quote(f"-csearch_path={schema}")
        return f"postgresql://{self.user}@/postgres?host={quote(str(self.root))}&options={options}"

    def new_schema(self) -> str:
        """A fresh, empty schema; returns the URL of a journal in it."""
        import psycopg

        name = "t_" + uuid.uuid4().hex[:12]
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f"CREATE SCHEMA {name}")
        return self.url(name)


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PgServer]:
    """The session's PostgreSQL server (skipped with how to install it; failed under CI=true)."""
    bindir = _bindir()
    if bindir is None or (os.geteuid() == 0 and not _has_postgres_user()):
        if os.environ.get("CI") == "true":
            pytest.fail(INSTALL_HINT + " (под CI это ошибка, а не пропуск)")
        pytest.skip(INSTALL_HINT)
    root = Path(tempfile.mkdtemp(prefix="journal-pg-"))
    server = PgServer(bindir, root)
    try:
        server.init()
        server.start()
        yield server
    finally:
        server.stop("immediate")
        shutil.rmtree(root, ignore_errors=True)


def _has_postgres_user() -> bool:
    try:
        pwd.getpwnam("postgres")
    except KeyError:
        return False
    return True


@pytest.fixture(params=ENGINES)
def journal_target(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """Where a test's journal lives: a new SQLite file, or a new schema on the session's server."""
    if request.param == "sqlite":
        yield str(tmp_path / "j.sqlite3")
        return
    from rulings import postgres

    server: PgServer = request.getfixturevalue("postgres_server")
    url = server.new_schema()
    yield url
    postgres.close_pool(url)

"""How often the server checks passwords: wrong guesses slow down their source, and the Argon2
work of all sign-ins together is capped per minute.

The state lives in the journal's SQLite file (tables `sign_in_sources`, `password_checks`), so every
process and every browser tab of the app sees the same counts; the functions here run inside the
sign-in's own IMMEDIATE transaction (`rulings.store.Journal.sign_in`), which also serialises the
password checks themselves: at most one Argon2 hash (64 MiB) is computed at a time per journal.

A *source* is where an attempt comes from: the client's network address as the app server sees
it (`st.context.ip_address`), or, where the server has none (a tab on the laptop itself), the
browser tab's session. The page passes it; callers of the API that pass none share one source.

What it protects against:
- guessing a password from one device: after `FREE_FAILURES` wrong attempts in a row from a source
  (whatever names they tried), that source waits 1, 2, 4 … up to `MAX_WAIT_S` seconds before its
  next attempt is checked, and is refused without a hash meanwhile;
- locking a judge out: the wait belongs to the source that guessed, not to the account name, so a
  player typing «Иванов» with wrong passwords on a phone does not stop Иванов signing in from his
  own device (no per-name wait at all);
- exhausting the server with password hashing (from one device or many, with real or random names):
  at most `MAX_CHECKS_PER_MINUTE` password checks per minute server-wide, right or wrong; an attempt
  beyond that is refused with a Russian «wait N s» and costs no hash.

What it does not protect against:
- a guesser with many addresses: each address gets its own free attempts, so only the server-wide
  cap bounds guessing one account (`MAX_CHECKS_PER_MINUTE` a minute); long random passwords are the
  defence, and judges' accounts need them;
- a flood from many addresses filling the server-wide cap: while it lasts every sign-in (a judge's
  too) waits up to a minute; judges already signed in keep writing, since writes check tokens, not
  passwords;
- devices behind one address (a NAT, a proxy in front of the app) share one source: a guesser
  there slows the judges there too;
- a tab on the laptop itself has no address: a new tab is a new source there (whoever uses the
  head judge's laptop is trusted anyway);
- a judge with an account: a successful sign-in clears its source's count.
"""

from __future__ import annotations

import math

from rulings.db import Conn
from rulings.model import SignInError

FREE_FAILURES = 3
MAX_WAIT_S = 300.0
# Argon2id at the library's defaults takes about 50–100 ms of one core: 30 a minute is at most a
# few seconds of work a minute, however many attempts arrive.
MAX_CHECKS_PER_MINUTE = 30
WINDOW_S = 60.0
# Sources nobody has tried from for a day are forgotten, so many sources cannot grow the file.
FORGET_AFTER_S = 86_400.0
MAX_SOURCE_CHARS = 100
API_SOURCE = "api"  # the source of a call that names none (the command line, a script)

SCHEMA = """
CREATE TABLE IF NOT EXISTS sign_in_sources (
    source      TEXT PRIMARY KEY,
    failures    INTEGER NOT NULL,
    last_at     REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS password_checks (
    at          REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS password_checks_by_time ON password_checks(at);
"""


def failure_wait(failures: int) -> float:
    """Seconds a source's next attempt must wait after `failures` wrong attempts in a row."""
    if failures < FREE_FAILURES:
        return 0.0
    return float(min(2.0 ** (failures - FREE_FAILURES), MAX_WAIT_S))


def seconds_text(wait: float) -> str:
    """«3 с» for a wait (rounded up: «через 0 с» would invite a retry that is refused)."""
    return f"{max(math.ceil(wait), 1)} с"


def source_key(source: str) -> str:
    """The stored form of a source: whitespace folded, bounded, `API_SOURCE` when empty."""
    return " ".join(str(source).split())[:MAX_SOURCE_CHARS] or API_SOURCE


def refusal(conn: Conn, source: str, now: float, max_checks: int) -> SignInError | None:
    """Why this attempt must not be checked now (the source's wait, or the server's cap), or None.
    Reads only: a refused attempt neither counts nor lengthens a wait."""
    row = conn.execute("SELECT failures, last_at FROM sign_in_sources WHERE source = ?", (source,)).fetchone()
    if row is not None:
        wait = failure_wait(int(row[0])) - (now - float(row[1]))
        if wait > 0:
            return SignInError(
                "Слишком много неверных попыток входа с этого устройства. "
                f"Следующая попытка — через {seconds_text(wait)}.",
                wait_s=wait,
            )
    count, oldest = conn.execute(
        "SELECT COUNT(*), MIN(at) FROM password_checks WHERE at > ?", (now - WINDOW_S,)
    ).fetchone()
    if int(count) >= max_checks:
        wait = float(oldest) + WINDOW_S - now
        return SignInError(
            f"Сервер проверяет не больше {max_checks} паролей в минуту, а попыток входа сейчас больше. "
            f"Подождите {seconds_text(wait)} и попробуйте снова.",
            wait_s=wait,
        )
    return None


def checked(conn: Conn, now: float) -> None:
    """Count one password check (made now) against the server's cap; forget checks out of the window."""
    conn.execute("DELETE FROM password_checks WHERE at <= ?", (now - WINDOW_S,))
    conn.execute("INSERT INTO password_checks (at) VALUES (?)", (now,))


def failed(conn: Conn, source: str, now: float) -> float:
    """Count a wrong attempt from `source`; returns how long its next attempt must wait."""
    row = conn.execute("SELECT failures FROM sign_in_sources WHERE source = ?", (source,)).fetchone()
    failures = (int(row[0]) if row else 0) + 1
    conn.execute(
        "INSERT INTO sign_in_sources (source, failures, last_at) VALUES (?, ?, ?) "
        "ON CONFLICT(source) DO UPDATE SET failures = excluded.failures, last_at = excluded.last_at",
        (source, failures, now),
    )
    conn.execute("DELETE FROM sign_in_sources WHERE last_at < ?", (now - FORGET_AFTER_S,))
    return failure_wait(failures)


def succeeded(conn: Conn, source: str) -> None:
    """A right password from `source`: its count starts again."""
    conn.execute("DELETE FROM sign_in_sources WHERE source = ?", (source,))

"""Judges' accounts: who may write to the journal, how a judge signs in, and how long it lasts.

Reading the journal needs no account; every write (record, amend, lock, and a rules version made
available to all or removed) needs a signed-in judge, and the check is made by the journal's API
inside the write's own transaction (`rulings.store.Journal`), not only by a page.

- Accounts live in the journal's SQLite file (tables `accounts`, `sessions`), under the same
  integrity rules as the rulings. No account exists by default: the head judge
  creates the first with `python -m rulings users add NAME --role head`.
- Passwords are hashed with Argon2id (argon2-cffi, its default parameters); the clear password is
  never stored, logged or kept in a page's state.
- A sign-in is a random token; only its SHA-256 is stored. The page keeps the token in the tab's
  `st.session_state` and in a cookie of the device (never in a URL), so a reload or a new tab
  resumes it (`resume`); every write presents it, and a token unused for `idle_s` seconds (12 h by
  default), or whose account was removed or whose password changed, no longer works anywhere.
- Wrong passwords slow down the source that typed them (its address, else its tab), not the
  account name, and the server checks at most so many passwords a minute: `rulings.throttle` says
  how, and what that does and does not protect against. An unknown name costs the same hash and
  gets the same words as a wrong password (no probing for names).

The functions taking a `Conn` run inside a transaction the store opened.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import os
import re
import secrets
import types
from collections.abc import Mapping

import argon2

from rulings import throttle
from rulings.db import Conn
from rulings.model import NotSignedInError, SignInError

ROLES = ("judge", "head")
ROLE_LABELS: Mapping[str, str] = types.MappingProxyType({"judge": "судья", "head": "главный судья"})
MIN_PASSWORD = 8
MAX_PASSWORD = 256
IDLE_ENV = "BERSERK_SIGNIN_IDLE_MIN"
DEFAULT_IDLE_MIN = 720.0  # a tournament day: a judge stays signed in between rounds and reloads
# A name as judges write it: letters (any alphabet), digits, spaces, dots, hyphens, apostrophes.
_NAME_RE = re.compile(r"[^\W_](?:[\w .'’-]{0,38}[^\W_.])?")
# A sign-in's last-seen time is refreshed at most this often (a write per minute, not per click).
_TOUCH_EVERY_S = 30.0

SCHEMA = """
CREATE TABLE IF NOT EXISTS accounts (
    name        TEXT PRIMARY KEY,
    role        TEXT NOT NULL CHECK (role IN ('judge', 'head')),
    pw_hash     TEXT NOT NULL,
    created_at  TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS sessions (
    token_hash  TEXT PRIMARY KEY,
    name        TEXT NOT NULL REFERENCES accounts(name),
    created_at  REAL NOT NULL,
    last_seen   REAL NOT NULL
);
"""


class AccountError(ValueError):
    """A bad account name, role or password, or an account that exists or does not; Russian message."""


@dataclasses.dataclass(frozen=True)
class Account:
    name: str
    role: str
    created_at: str

    @property
    def is_head(self) -> bool:
        return self.role == "head"

    @property
    def label(self) -> str:
        """«Сидорова (главный судья)»."""
        return f"{self.name} ({ROLE_LABELS.get(self.role, self.role)})"


@dataclasses.dataclass(frozen=True)
class SignedIn:
    """A judge's sign-in as a page holds it: the name, the role at sign-in, and the secret token.

    Holding one proves nothing by itself: the store checks the token against its table on every write.
    """

    name: str
    role: str
    token: str = dataclasses.field(repr=False)

    @property
    def label(self) -> str:
        return f"{self.name} ({ROLE_LABELS.get(self.role, self.role)})"


def idle_seconds() -> float:
    """Inactivity after which a sign-in expires: `$BERSERK_SIGNIN_IDLE_MIN` minutes, default 12 h."""
    return max(minutes_from_env(IDLE_ENV, DEFAULT_IDLE_MIN), 0.1) * 60.0


def minutes_from_env(name: str, default: float) -> float:
    """A number of minutes from an environment variable; the default when unset or not a number."""
    raw = os.environ.get(name, "").strip()
    try:
        return float(raw) if raw else default
    except ValueError:
        return default


def idle_text(idle_s: float) -> str:
    """«30 мин», «1,5 мин», or «45 с» under a minute (never «0 мин»)."""
    if idle_s < 60:
        return f"{max(round(idle_s), 1)} с"
    return f"{idle_s / 60:.1f}".rstrip("0").rstrip(".").replace(".", ",") + " мин"


@functools.cache
def _hasher() -> argon2.PasswordHasher:
    """Argon2id with the library's recommended parameters (immutable: sharing it keeps no state)."""
    return argon2.PasswordHasher()


@functools.cache
def _dummy_hash() -> str:
    """A hash to verify against when the name is unknown, so both cases take the same time."""
    return _hasher().hash(secrets.token_hex(16))


def check_name(name: str) -> str:
    cleaned = " ".join(str(name).split())
    if not _NAME_RE.fullmatch(cleaned):
        raise AccountError(
            f"Имя «{cleaned[:60]}» не подходит: 1–40 знаков — буквы, цифры, пробел, точка, дефис, апостроф."
        )
    return cleaned


def check_role(role: str) -> str:
    if role not in ROLES:
        raise AccountError(f"Роль «{role}» не подходит: judge (судья) или head (главный судья).")
    return role


def check_password(password: str) -> str:
    if len(password) < MIN_PASSWORD:
        raise AccountError(f"Пароль короче {MIN_PASSWORD} знаков.")
    if len(password) > MAX_PASSWORD:
        raise AccountError(f"Пароль длиннее {MAX_PASSWORD} знаков.")
    if password != password.strip():
        raise AccountError("Пароль начинается или кончается пробелом: уберите его (так легко ошибиться).")
    return password


def hash_password(password: str, hasher: argon2.PasswordHasher | None = None) -> str:
    """The Argon2id hash of a checked password (the hash carries its own parameters and salt)."""
    return (hasher or _hasher()).hash(check_password(password))


def _token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


# -- inside a transaction -----------------------------------------------------------------------


def add(conn: Conn, name: str, role: str, pw_hash: str, now_iso: str) -> None:
    if conn.execute("SELECT 1 FROM accounts WHERE name = ?", (name,)).fetchone():
        raise AccountError(f"Учётная запись «{name}» уже есть (сменить пароль: users passwd).")
    conn.execute(
        "INSERT INTO accounts (name, role, pw_hash, created_at) VALUES (?, ?, ?, ?)",
        (name, role, pw_hash, now_iso),
    )


def remove(conn: Conn, name: str) -> None:
    """Delete the account and end its sign-ins; its rulings keep the name they were written with."""
    if not conn.execute("SELECT 1 FROM accounts WHERE name = ?", (name,)).fetchone():
        raise AccountError(f"Учётной записи «{name}» нет.")
    conn.execute("DELETE FROM sessions WHERE name = ?", (name,))
    conn.execute("DELETE FROM accounts WHERE name = ?", (name,))


def set_password(conn: Conn, name: str, pw_hash: str) -> None:
    """A new password; every open sign-in of the account ends."""
    if not conn.execute("SELECT 1 FROM accounts WHERE name = ?", (name,)).fetchone():
        raise AccountError(f"Учётной записи «{name}» нет.")
    conn.execute("UPDATE accounts SET pw_hash = ? WHERE name = ?", (pw_hash, name))
    conn.execute("DELETE FROM sessions WHERE name = ?", (name,))


def listed(conn: Conn) -> list[Account]:
    rows = conn.execute("SELECT name, role, created_at FROM accounts ORDER BY name").fetchall()
    return [Account(str(n), str(r), str(c)) for n, r, c in rows]


def sign_in(
    conn: Conn,
    name: str,
    password: str,
    now: float,
    *,
    source: str = "",
    max_checks: int = throttle.MAX_CHECKS_PER_MINUTE,
    hasher: argon2.PasswordHasher | None = None,
) -> tuple[SignedIn | None, SignInError | None]:
    """Check a password from `source` and open a sign-in. Returns (sign-in, None) or (None, the
    refusal); the counts it updates must be committed either way, so the refusal is returned, not
    raised. An attempt the throttle refuses is not hashed (`rulings.throttle`)."""
    key = " ".join(str(name).split())[:40]
    where = throttle.source_key(source)
    refused = throttle.refusal(conn, where, now, max_checks)
    if refused is not None:
        return None, refused
    found = conn.execute("SELECT role, pw_hash FROM accounts WHERE name = ?", (key,)).fetchone()
    throttle.checked(conn, now)
    try:
        (hasher or _hasher()).verify(str(found[1]) if found else _dummy_hash(), password[:MAX_PASSWORD])
        ok = found is not None
    except (argon2.exceptions.VerificationError, argon2.exceptions.InvalidHashError):
        ok = False
    if not ok:
        wait = throttle.failed(conn, where, now)
        later = f" Следующая попытка — через {throttle.seconds_text(wait)}." if wait else ""
        return None, SignInError("Неверное имя или пароль." + later, wait_s=wait)
    throttle.succeeded(conn, where)
    token = secrets.token_urlsafe(32)
    conn.execute(
        "INSERT INTO sessions (token_hash, name, created_at, last_seen) VALUES (?, ?, ?, ?)",
        (_token_hash(token), key, now, now),
    )
    return SignedIn(name=key, role=str(found[0]), token=token), None


def authenticate(conn: Conn, who: SignedIn | None, now: float, idle_s: float, touch: bool) -> Account:
    """The account behind a sign-in, checked against the stored token; `touch` refreshes its time.

    Raises:
        NotSignedInError: no sign-in, an unknown or expired token, or a removed account.
    """
    if not isinstance(who, SignedIn) or not who.token:
        raise NotSignedInError("Записывать и править решения может только судья: войдите под своим именем.")
    row = conn.execute(
        "SELECT s.last_seen, a.name, a.role, a.created_at FROM sessions AS s "
        "JOIN accounts AS a ON a.name = s.name WHERE s.token_hash = ? AND s.name = ?",
        (_token_hash(who.token), who.name),
    ).fetchone()
    if row is None:
        raise NotSignedInError(
            "Вход недействителен (учётная запись удалена или пароль сменён): войдите снова."
        )
    if now - float(row[0]) > idle_s:
        if touch:
            conn.execute("DELETE FROM sessions WHERE token_hash = ?", (_token_hash(who.token),))
        raise NotSignedInError(
            f"Вход истёк: больше {idle_text(idle_s)} без действий. Войдите снова — введённый текст сохранён."
        )
    if touch and now - float(row[0]) > _TOUCH_EVERY_S:
        conn.execute("UPDATE sessions SET last_seen = ? WHERE token_hash = ?", (now, _token_hash(who.token)))
    return Account(name=str(row[1]), role=str(row[2]), created_at=str(row[3]))


def resume(conn: Conn, token: str, now: float, idle_s: float) -> SignedIn | None:
    """The sign-in a token still opens (a reload, a new tab of the same device: the page keeps the
    token in a cookie), or None: unknown, expired, or its account removed or its password changed
    (both delete the account's sessions). Reads only: the next write refreshes its time."""
    if not token or len(token) > 200:
        return None
    row = conn.execute(
        "SELECT s.last_seen, a.name, a.role FROM sessions AS s JOIN accounts AS a ON a.name = s.name "
        "WHERE s.token_hash = ?",
        (_token_hash(token),),
    ).fetchone()
    if row is None or now - float(row[0]) > idle_s:
        return None
    return SignedIn(name=str(row[1]), role=str(row[2]), token=token)


def sign_out(conn: Conn, who: SignedIn) -> None:
    conn.execute("DELETE FROM sessions WHERE token_hash = ?", (_token_hash(who.token),))


def forget_expired(conn: Conn, now: float, idle_s: float) -> None:
    """Drop every expired sign-in, so the table stays small."""
    conn.execute("DELETE FROM sessions WHERE last_seen < ?", (now - idle_s,))

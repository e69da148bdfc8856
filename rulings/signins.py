"""The journal's accounts and sign-in sessions as `Journal` methods (`Journal` inherits them).

What an account, a password, a token and the throttle are lives in `rulings.accounts` and
`rulings.throttle`; here each operation gets its own transaction of the journal, so a password
change and the end of that account's sessions are committed together or not at all.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import argon2

from rulings import accounts
from rulings.accounts import Account, SignedIn
from rulings.db import Conn
from rulings.model import RulingLockedError, SignInError

T = TypeVar("T")


class JudgesMixin:
    """Accounts and sign-ins of a journal. The journal provides the transaction (`_run`, `_read`),
    its clock, the sign-in inactivity limit, the password checks per minute and the hasher."""

    clock: Callable[[], float]
    idle_s: float
    max_checks_per_minute: int
    hasher: argon2.PasswordHasher | None

    def _run(self, write: bool, body: Callable[[Conn, int], T]) -> T:
        raise NotImplementedError

    def _read(self, body: Callable[[Conn, int], T], absent: T) -> T:
        raise NotImplementedError

    def _now_iso(self, at: float | None = None) -> str:
        raise NotImplementedError

    def _accounts_read(self, body: Callable[[Conn], T], absent: T) -> T:
        """Read account tables; a journal without them (new, or schema 1) has no accounts."""
        return self._read(lambda conn, version: body(conn) if version >= 2 else absent, absent)

    def add_account(self, name: str, role: str, password: str) -> Account:
        """A new judge's account (the command line's `users add`). Raises AccountError, JournalError."""
        name, role = accounts.check_name(name), accounts.check_role(role)
        pw_hash = accounts.hash_password(password, self.hasher)
        stamp = self._now_iso()
        self._run(True, lambda conn, _v: accounts.add(conn, name, role, pw_hash, stamp))
        return Account(name=name, role=role, created_at=stamp)

    def remove_account(self, name: str) -> None:
        self._run(True, lambda conn, _v: accounts.remove(conn, accounts.check_name(name)))

    def set_password(self, name: str, password: str) -> None:
        pw_hash = accounts.hash_password(password, self.hasher)
        self._run(True, lambda conn, _v: accounts.set_password(conn, accounts.check_name(name), pw_hash))

    def accounts(self) -> list[Account]:
        return self._accounts_read(accounts.listed, [])

    def sign_in(self, name: str, password: str, source: str = "") -> SignedIn:
        """Check the password and open a sign-in. `source` is where the attempt comes from (the
        client's address, else its tab; see `rulings.throttle`): wrong attempts slow that source.

        Raises:
            SignInError: wrong name or password (counted against the source), or the attempt is
                refused unchecked: the source's wait is not over, or the server has checked its
                passwords for this minute (`wait_s` says how long to wait).
            JournalError: the file cannot be used.
        """

        def body(conn: Conn, _version: int) -> tuple[SignedIn | None, SignInError | None]:
            now = self.clock()
            accounts.forget_expired(conn, now, self.idle_s)
            return accounts.sign_in(
                conn,
                name,
                password,
                now,
                source=source,
                max_checks=self.max_checks_per_minute,
                hasher=self.hasher,
            )

        signed, refusal = self._run(True, body)
        if refusal is not None or signed is None:
            raise refusal or SignInError("Неверное имя или пароль.")
        return signed

    def resume(self, token: str) -> SignedIn | None:
        """The sign-in a device's stored token still opens, or None (see `accounts.resume`)."""

        return self._accounts_read(lambda conn: accounts.resume(conn, token, self.clock(), self.idle_s), None)

    def sign_out(self, who: SignedIn) -> None:
        self._run(True, lambda conn, _v: accounts.sign_out(conn, who))

    def require_judge(self, who: SignedIn | None, head: bool = False) -> Account:
        """The account of a valid sign-in (refreshing its inactivity timer), for any write that is
        not a ruling: making a rules version available to all, removing one.

        Raises:
            NotSignedInError: no sign-in, or it expired, or its account is gone.
            RulingLockedError: `head` is asked and the judge is not a head judge.
            JournalError: the file cannot be used.
        """

        def body(conn: Conn, version: int) -> Account:
            if version < 2:
                return accounts.authenticate(conn, None, 0.0, 0.0, touch=False)  # raises
            return accounts.authenticate(conn, who, self.clock(), self.idle_s, touch=True)

        account = self._run(True, body)
        if head and not account.is_head:
            raise RulingLockedError("Это может сделать только главный судья.")
        return account

    def signed_in(self, who: SignedIn | None) -> Account | None:
        """The account if the sign-in is still valid, else None; reading only (a page's rerun)."""
        if who is None:
            return None

        def body(conn: Conn) -> Account | None:
            try:
                return accounts.authenticate(conn, who, self.clock(), self.idle_s, touch=False)
            except PermissionError:
                return None

        return self._accounts_read(body, None)

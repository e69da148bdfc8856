"""Unsaved ruling forms kept in the journal, so a judge's draft survives a reload of the page.

A draft belongs to the signed-in judge's account and to one form (the journal's new ruling, an
amendment of ruling № N, the desk's ruling): what the judge typed, the form's draft id (so a
submit after a reload is still recognised as the same ruling, never a duplicate) and the revision
an amendment started from (so a colleague's revision saved meanwhile is still a conflict). It lives
in table `drafts`, not in the server's memory: another tab, a reload, another server process of the
league all find it, and no judge's text sits in a module global. A recorded ruling or a discarded
form deletes its draft; removing an account deletes its drafts; a sync never copies them.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
from collections.abc import Callable, Mapping
from typing import TypeVar

from rulings import accounts
from rulings.accounts import SignedIn
from rulings.db import Conn
from rulings.model import FIELD_LIMITS

T = TypeVar("T")
SCHEMA = """
CREATE TABLE IF NOT EXISTS drafts (
    name      TEXT NOT NULL,
    form      TEXT NOT NULL,
    draft_id  TEXT NOT NULL,
    base_rev  INTEGER,
    fields    TEXT NOT NULL,
    saved_at  TEXT NOT NULL,
    PRIMARY KEY (name, form)
);
"""
MAX_DRAFTS = 30  # per account: the oldest beyond are dropped (a judge has a few forms open at most)
MAX_FORM_CHARS = 100
CLAUSES_CHARS = 400  # the form's clause list as typed («211.3.1, 535.8»), before it is parsed
_TYPED = ("title", "decision", "clauses", "judge_verdict", "event", "round", "table_no", "players")
FIELDS = (*_TYPED, "outcome", "rules_version", "note")


@dataclasses.dataclass(frozen=True)
class Draft:
    """A form as the judge left it: field → text, the draft id, an amendment's base revision."""

    fields: Mapping[str, str]
    draft_id: str
    base_rev: int | None
    saved_at: str


def _kept(fields: Mapping[str, object]) -> dict[str, str]:
    """The form's own fields only, as text, each within its limit."""
    out = {}
    for name in FIELDS:
        value = fields.get(name)
        if isinstance(value, str) and value:
            out[name] = value[: CLAUSES_CHARS if name == "clauses" else FIELD_LIMITS[name]]
    return out


class DraftsMixin:
    """Drafts of a journal; the journal provides the transaction, its clock and the sign-in limit."""

    clock: Callable[[], float]
    idle_s: float

    def _run(self, write: bool, body: Callable[[Conn, int], T]) -> T:
        raise NotImplementedError

    def _read(self, body: Callable[[Conn, int], T], absent: T) -> T:
        raise NotImplementedError

    def save_draft(
        self,
        by: SignedIn | None,
        form: str,
        fields: Mapping[str, object],
        draft_id: str,
        base_rev: int | None,
    ) -> None:
        """Keep the judge's form (replacing its earlier draft). A form with nothing typed keeps none.

        Raises:
            NotSignedInError: no valid sign-in (nothing is kept). JournalError: see `Journal.record`.
        """
        kept = _kept(fields)
        form = str(form)[:MAX_FORM_CHARS]

        def body(conn: Conn, _version: int) -> None:
            account = accounts.authenticate(conn, by, self.clock(), self.idle_s, touch=True)
            if not kept:
                conn.execute("DELETE FROM drafts WHERE name = ? AND form = ?", (account.name, form))
                return
            at = dt.datetime.fromtimestamp(self.clock(), dt.UTC).isoformat(timespec="microseconds")
            conn.execute(
                "INSERT INTO drafts (name, form, draft_id, base_rev, fields, saved_at) "
                "VALUES (?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (name, form) DO UPDATE SET draft_id = excluded.draft_id, "
                "base_rev = excluded.base_rev, fields = excluded.fields, saved_at = excluded.saved_at",
                (account.name, form, str(draft_id)[:100], base_rev, json.dumps(kept, ensure_ascii=False), at),
            )
            old = conn.execute(
                "SELECT form FROM drafts WHERE name = ? ORDER BY saved_at DESC, form LIMIT -1 OFFSET ?"
                if conn.engine == "sqlite"
                else "SELECT form FROM drafts WHERE name = ? ORDER BY saved_at DESC, form OFFSET ?",
                (account.name, MAX_DRAFTS),
            ).fetchall()
            gone = [(account.name, str(r[0])) for r in old]
            conn.executemany("DELETE FROM drafts WHERE name = ? AND form = ?", gone)

        self._run(True, body)

    def draft(self, by: SignedIn | None, form: str) -> Draft | None:
        """The judge's kept draft of this form, or None (also when the sign-in is not valid).

        Raises:
            JournalError: the journal cannot be read.
        """

        def body(conn: Conn, version: int) -> Draft | None:
            if version < 5 or by is None:
                return None
            valid = accounts.resume(conn, by.token, self.clock(), self.idle_s)
            if valid is None or valid.name != by.name:
                return None
            row = conn.execute(
                "SELECT fields, draft_id, base_rev, saved_at FROM drafts WHERE name = ? AND form = ?",
                (by.name, str(form)[:MAX_FORM_CHARS]),
            ).fetchone()
            if row is None:
                return None
            try:
                fields = json.loads(str(row[0]))
            except json.JSONDecodeError:
                return None
            base = None if row[2] is None else int(row[2])
            return Draft(_kept(fields if isinstance(fields, dict) else {}), str(row[1]), base, str(row[3]))

        return self._read(body, None)

    def drop_draft(self, by: SignedIn | None, form: str) -> None:
        """Forget the judge's draft of this form (recorded, or discarded). Raises as `save_draft`."""

        def body(conn: Conn, _version: int) -> None:
            account = accounts.authenticate(conn, by, self.clock(), self.idle_s, touch=False)
            sql = "DELETE FROM drafts WHERE name = ? AND form = ?"
            conn.execute(sql, (account.name, str(form)[:MAX_FORM_CHARS]))

        self._run(True, body)

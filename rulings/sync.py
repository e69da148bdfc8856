"""Copying rulings between journals: `python -m rulings sync FROM TO` (either engine, either way).

Rulings travel by their global ids (UUID): a ruling TO lacks is copied whole (its local number there
is TO's next one); a ruling both hold gets the revisions TO lacks, appended after TO's own, each with
its author, time, hall and global id as written. Nothing is ever changed or removed, so running a
sync again changes nothing, and a sync stopped half-way (killed, a lost connection) leaves whole
rulings behind — each batch is one transaction — and a second run ends exactly where one run would.

A ruling amended in both journals since they last met ends with two branches (the revisions of each
are kept, neither overwritten): the journal shows it as a conflict with both texts until a judge
amends it, and that amendment, written on both branches, resolves it. A sync in both directions
(`--both`) leaves the conflict visible in both journals. Accounts are copied only when asked
(`--accounts`): a hall's judges are not the league's by default; a name TO already has keeps TO's
password. Sign-in sessions and the throttle's counts never travel. A revision whose stored text
fails its checksum in FROM is not copied (it is reported): damage must not spread. Nor is one whose
text fails the checks a judge's own write passes (`RulingInput.validated`: empty or over-long fields,
an answer that is not a verdict, a trace that is not JSON), whatever wrote it into FROM: the receiving
journal holds only what it would have accepted from a judge. (Cited clauses are not checked against
the loaded rules: a hall may cite another version's numbering.)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence

from rulings import accounts, postings, records
from rulings.db import Conn
from rulings.model import JournalError, Revision, Ruling, RulingInput, RulingInputError
from rulings.store import Journal

BATCH = 1000  # rulings per transaction on the receiving side (the index rewrites a row once a batch)


@dataclasses.dataclass
class SyncReport:
    """What a sync did (counts), and the rulings it left in conflict (TO's local numbers)."""

    rulings_new: int = 0
    revisions_new: int = 0
    unchanged: int = 0
    conflicts: list[int] = dataclasses.field(default_factory=list)
    damaged: list[str] = dataclasses.field(default_factory=list)
    refused: list[str] = dataclasses.field(default_factory=list)
    accounts_new: list[str] = dataclasses.field(default_factory=list)

    def add(self, other: SyncReport) -> None:
        self.rulings_new += other.rulings_new
        self.revisions_new += other.revisions_new
        self.unchanged += other.unchanged
        self.conflicts += other.conflicts
        self.damaged += other.damaged
        self.refused += other.refused

    def lines(self, source: str, target: str) -> list[str]:
        out = [
            f"{source} → {target}: новых решений {self.rulings_new}, новых редакций {self.revisions_new}, "
            f"без изменений {self.unchanged}."
        ]
        if self.conflicts:
            shown = ", ".join(f"№ {n}" for n in self.conflicts[:30])
            more = f" и ещё {len(self.conflicts) - 30}" if len(self.conflicts) > 30 else ""
            out.append(
                f"Конфликты (правлены в обоих журналах, сохранены обе версии): {shown}{more}. "
                "Судья выбирает текст, исправив решение в журнале."
            )
        if self.damaged:
            out.append(
                "Не скопированы повреждённые редакции (не сходится контрольная сумма): "
                + ", ".join(self.damaged[:30])
            )
        if self.refused:
            out.append(
                "Не скопированы редакции, текст которых журнал не принял бы от судьи: "
                + "; ".join(self.refused[:30])
                + (f" и ещё {len(self.refused) - 30}" if len(self.refused) > 30 else "")
            )
        if self.accounts_new:
            out.append("Скопированы учётные записи: " + ", ".join(self.accounts_new))
        return out


def sync(
    source: Journal,
    target: Journal,
    *,
    with_accounts: bool = False,
    progress: Callable[[int], None] | None = None,
) -> SyncReport:
    """Copy what `target` lacks of `source` (see the module's docstring). Raises JournalError."""
    report = SyncReport()
    if with_accounts:
        nobody: list[tuple[str, str, str, str]] = []
        rows = source._read(lambda conn, v: _account_rows(conn) if v >= 2 else nobody, nobody)
        report.accounts_new = target._run(True, lambda conn, _v: _put_accounts(conn, rows))
    after = 0
    while True:

        def read(conn: Conn, version: int, start: int = after) -> list[Ruling]:
            return _batch(conn, version, start)

        batch: list[Ruling] = source._read(read, [])
        if not batch:
            break
        after = batch[-1].id

        def receive(conn: Conn, _version: int, rulings: list[Ruling] = batch) -> SyncReport:
            return _receive(conn, rulings)

        done = target._run(True, receive, serial=True)
        report.add(done)
        if progress is not None:
            progress(after)
    return report


def _batch(conn: Conn, version: int, after: int) -> list[Ruling]:
    sql = "SELECT id FROM rulings WHERE id > ? ORDER BY id LIMIT ?"
    ids = [int(r[0]) for r in conn.execute(sql, (after, BATCH)).fetchall()]
    found = records.fetch_many(conn, version, ids)
    if version < 4:  # an old file not yet upgraded has no global ids to travel by
        raise_old(conn)
    return sorted(found, key=lambda r: r.id)


def raise_old(conn: Conn) -> None:

    raise JournalError(
        "Журнал-источник записан старой версией приложения (нет глобальных номеров решений). "
        "Откройте его один раз этой версией (например, `python -m rulings users list --file …` "
        "и любая запись) или выполните `python -m rulings init --file …`, затем повторите."
    )


def _receive(conn: Conn, batch: Sequence[Ruling]) -> SyncReport:
    """One transaction of the receiving journal: every ruling of the batch, whole. Returns what it
    did (a transaction run again after a serialization failure counts from zero)."""
    counted = SyncReport()
    uids = [r.uid for r in batch]
    marks = ", ".join("?" for _ in uids)
    sql = f"SELECT uid, id FROM rulings WHERE uid IN ({marks})"
    local = {str(u): int(i) for u, i in conn.execute(sql, uids).fetchall()}
    have: dict[int, list[tuple[str, int]]] = {}
    if local:
        ids = list(local.values())
        marks = ", ".join("?" for _ in ids)
        sql = f"SELECT ruling_id, uid, rev FROM revisions WHERE ruling_id IN ({marks})"
        for rid, uid, rev in conn.execute(sql, ids).fetchall():
            have.setdefault(int(rid), []).append((str(uid), int(rev)))
    current: list[tuple[int, RulingInput]] = []
    rows: list[list[object]] = []  # the revisions of rulings new here, written in one statement
    for ruling in batch:
        good = [r for r in ruling.revisions if not r.damaged and r.uid]
        counted.damaged += [f"{ruling.uid} ред. {r.rev}" for r in ruling.revisions if r.damaged]
        refused = {r.rev: why for r in good if (why := _text_problem(r.data))}
        if refused:
            counted.refused += [f"{ruling.uid} ред. {rev} ({why})" for rev, why in refused.items()]
            good = [r for r in good if r.rev not in refused]
        rid = local.get(ruling.uid)
        if rid is None:
            if not good:
                continue
            cur = conn.execute(
                "INSERT INTO rulings (created_at, uid, hall, updated_at, locked_by, locked_at) "
                "VALUES (?, ?, ?, ?, ?, ?) RETURNING id",
                (
                    ruling.created_at,
                    ruling.uid,
                    ruling.hall,
                    max(r.created_at for r in good),
                    ruling.locked_by,
                    ruling.locked_at,
                ),
            )
            rid = int(cur.fetchone()[0])
            known: set[str] = set()
            top = 0
            counted.rulings_new += 1
        else:
            known = {u for u, _r in have.get(rid, [])}
            top = max((r for _u, r in have.get(rid, [])), default=0)
        fresh = [r for r in good if r.uid not in known]
        if not fresh:
            counted.unchanged += 1
            continue
        counted.revisions_new += len(fresh)
        if not known:  # all of it is new here: what arrived is the whole history
            rows += [records.revision_row(rid, ruling.uid, i, r, "") for i, r in enumerate(fresh, 1)]
            history: Sequence[Revision] = good
        else:
            for i, revision in enumerate(fresh, 1):
                records.insert_revision(conn, rid, ruling.uid, top + i, revision, "")
            stored = records.fetch(conn, 4, rid)
            history = stored.revisions if stored is not None else good
            newest = max(r.created_at for r in history)
            conn.execute("UPDATE rulings SET updated_at = ? WHERE id = ?", (newest, rid))
        current.append((rid, history[-1].data))
        if records.branch_apart(history):
            counted.conflicts.append(rid)
    if rows:
        conn.executemany(records.INSERT_REVISION, rows)
    postings.index_rulings(conn, current)
    return counted


def _text_problem(data: RulingInput) -> str:
    """Why a judge's own write of this text would be refused ("" when it would not)."""
    try:
        data.validated()
    except RulingInputError as exc:
        return str(exc)
    return ""


def _account_rows(conn: Conn) -> list[tuple[str, str, str, str]]:
    rows = conn.execute("SELECT name, role, pw_hash, created_at FROM accounts ORDER BY name").fetchall()
    return [(str(a), str(b), str(c), str(d)) for a, b, c, d in rows]


def _put_accounts(conn: Conn, rows: Sequence[tuple[str, str, str, str]]) -> list[str]:
    added = []
    for name, role, pw_hash, created in rows:
        if conn.execute("SELECT 1 FROM accounts WHERE name = ?", (name,)).fetchone() is None:
            accounts.add(conn, name, role, pw_hash, created)
            added.append(name)
    return added

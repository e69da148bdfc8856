"""Rulings as rows: a revision appended, rulings read back with their whole history.

The functions take a connection inside a transaction the store opened (`rulings.store.Journal`);
column names come from our own constant tuples and every value is bound, never joined into SQL.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping, Sequence

from rulings import schema
from rulings.model import TEXT_FIELDS, Revision, Ruling, RulingInput

_CHUNK = 500  # SQLite's bound-parameter limit is far above; a chunk keeps each statement short


def insert_revision(
    conn: sqlite3.Connection, ruling_id: int, rev: int, now: str, data: RulingInput, author: str, draft: str
) -> None:
    columns = ["ruling_id", "rev", "created_at", *TEXT_FIELDS, "clauses_json", "author", "draft_id"]
    values: list[object] = [ruling_id, rev, now, *(getattr(data, n) for n in TEXT_FIELDS)]
    values += [json.dumps(list(data.clauses), ensure_ascii=False), author, draft]
    marks = ", ".join("?" for _ in columns)
    conn.execute(f"INSERT INTO revisions ({', '.join(columns)}) VALUES ({marks})", values)


def fetch(conn: sqlite3.Connection, version: int, ruling_id: int) -> Ruling | None:
    found = fetch_many(conn, version, [ruling_id])
    return found[0] if found else None


def fetch_many(conn: sqlite3.Connection, version: int, wanted: Sequence[int]) -> list[Ruling]:
    """The rulings with these ids (those that exist), each with every revision, oldest first."""
    out: list[Ruling] = []
    for start in range(0, len(wanted), _CHUNK):
        chunk = list(wanted[start : start + _CHUNK])
        marks = ", ".join("?" for _ in chunk)
        rows = conn.execute(
            schema.select_revisions(version) + f" WHERE r.ruling_id IN ({marks}) ORDER BY r.ruling_id, r.rev",
            chunk,
        ).fetchall()
        heads = conn.execute(schema.select_rulings(version) + f" WHERE id IN ({marks})", chunk).fetchall()
        out.extend(group(rows, {int(h[0]): (str(h[1]), str(h[2]), str(h[3])) for h in heads}))
    return out


def group(rows: Sequence[Sequence[object]], heads: Mapping[int, tuple[str, str, str]]) -> list[Ruling]:
    """Revision rows (ordered by ruling, then revision) and the rulings' heads → rulings."""
    by_id: dict[int, list[Revision]] = {}
    n = len(TEXT_FIELDS)
    for row in rows:
        ruling_id, rev, created_at = int(str(row[0])), int(str(row[1])), str(row[2])
        texts = {name: str(row[3 + i]) for i, name in enumerate(TEXT_FIELDS)}
        try:
            clauses = tuple(str(c) for c in json.loads(str(row[3 + n])))
        except (json.JSONDecodeError, TypeError):
            clauses = ()
        data = RulingInput(clauses=clauses, **texts)
        revision = Revision(rev=rev, created_at=created_at, data=data, author=str(row[4 + n]))
        by_id.setdefault(ruling_id, []).append(revision)
    out = []
    for ruling_id, revs in by_id.items():
        created, locked_by, locked_at = heads.get(ruling_id, (revs[0].created_at, "", ""))
        out.append(
            Ruling(
                id=ruling_id,
                created_at=created,
                updated_at=revs[-1].created_at,
                current=revs[-1].data,
                revisions=tuple(revs),
                locked_by=locked_by,
                locked_at=locked_at,
            )
        )
    return out

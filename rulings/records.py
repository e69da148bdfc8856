"""Rulings as rows: a revision appended with its checksum, rulings read back with their history, the
search index kept beside them.

The functions take a connection inside a transaction the journal opened (`rulings.store.Journal`);
column names come from our own constant tuples and every value is bound, never joined into SQL.

Every revision carries a SHA-256 of what it says (its text, clauses, author, time, hall, global ids),
computed when it is written and checked whenever it is read: a revision whose stored bytes changed
(a bad disk, a hand edit) is read as *damaged* — shown so, its text not trusted — and every other
ruling stays readable. Its text is decoded leniently for that (SQLite hands back the raw bytes).
"""

from __future__ import annotations

import hashlib
import itertools
import json
import uuid
from collections.abc import Mapping, Sequence

from rulings import search
from rulings.db import Conn
from rulings.model import TEXT_FIELDS, Revision, Ruling, RulingInput

_CHUNK = 500  # ids per IN (…) list: each statement stays short
_NEW_IN_2 = frozenset({"judge_verdict"})
REVISION_EXTRA = ("uid", "base_uids", "hall", "replaced", "checksum")
# Search keys are those of `rulings.search` when the row was written; a change of their analysis
# changes this number and the journal reindexes (`reindex`).
SEARCH_KEYS_VERSION = "1"


def new_uid() -> str:
    return str(uuid.uuid4())


def select_revisions(version: int) -> str:
    """The SELECT of revision rows (as `group` reads them) for a journal of this schema."""
    cols = [f"'' AS {n}" if version < 2 and n in _NEW_IN_2 else f"r.{n}" for n in TEXT_FIELDS]
    author = "r.author" if version >= 2 else "''"
    extra = ", ".join(f"r.{n}" if version >= 4 else f"'' AS {n}" for n in REVISION_EXTRA)
    return (
        f"SELECT r.ruling_id, r.rev, r.created_at, {', '.join(cols)}, r.clauses_json, {author}, {extra} "
        "FROM revisions AS r"
    )


def select_rulings(version: int) -> str:
    lock = "locked_by, locked_at" if version >= 2 else "'', ''"
    more = "uid, hall" if version >= 4 else "'', ''"
    return f"SELECT id, created_at, {lock}, {more} FROM rulings"


def _text(value: object) -> str:
    """A stored text: bytes that are not UTF-8 (damage) keep their place as lone surrogates, so the
    checksum sees them and the page can show what is left."""
    if isinstance(value, bytes):
        return value.decode("utf-8", "surrogateescape")
    return "" if value is None else str(value)


def shown(text: str) -> str:
    """Text safe to render: damaged bytes become «�»."""
    return text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def checksum(ruling_uid: str, rev: Revision) -> str:
    """SHA-256 over what a revision says (not its local numbers: a sync renumbers them)."""
    body = {name: getattr(rev.data, name) for name in TEXT_FIELDS}
    facts = [ruling_uid, rev.uid, list(rev.base_uids), rev.created_at, rev.author, rev.hall, rev.replaced]
    text = json.dumps([facts, body, list(rev.data.clauses)], ensure_ascii=False, sort_keys=True)
    return hashlib.sha256(text.encode("utf-8", "surrogateescape")).hexdigest()


def insert_revision(
    conn: Conn, ruling_id: int, ruling_uid: str, rev: int, revision: Revision, draft: str
) -> None:
    """Append one revision (its `rev` number is this journal's) with its checksum."""
    data = revision.data
    columns = ["ruling_id", "rev", "created_at", *TEXT_FIELDS, "clauses_json", "author", "draft_id"]
    columns += list(REVISION_EXTRA)
    values: list[object] = [ruling_id, rev, revision.created_at, *(getattr(data, n) for n in TEXT_FIELDS)]
    values += [json.dumps(list(data.clauses), ensure_ascii=False), revision.author, draft]
    values += [revision.uid, " ".join(revision.base_uids), revision.hall, revision.replaced]
    values.append(checksum(ruling_uid, revision))
    marks = ", ".join("?" for _ in columns)
    conn.execute(f"INSERT INTO revisions ({', '.join(columns)}) VALUES ({marks})", values)


def fetch(conn: Conn, version: int, ruling_id: int) -> Ruling | None:
    found = fetch_many(conn, version, [ruling_id])
    return found[0] if found else None


def fetch_many(conn: Conn, version: int, wanted: Sequence[int]) -> list[Ruling]:
    """The rulings with these ids (those that exist), each with every revision, oldest first."""
    out: list[Ruling] = []
    for start in range(0, len(wanted), _CHUNK):
        chunk = list(wanted[start : start + _CHUNK])
        marks = ", ".join("?" for _ in chunk)
        rows = conn.execute(
            select_revisions(version) + f" WHERE r.ruling_id IN ({marks}) ORDER BY r.ruling_id, r.rev", chunk
        ).fetchall()
        heads = conn.execute(select_rulings(version) + f" WHERE id IN ({marks})", chunk).fetchall()
        out.extend(group(rows, {int(h[0]): tuple(_text(v) for v in h[1:6]) for h in heads}))
    return out


def _revision(row: Sequence[object], ruling_uid: str) -> Revision:
    n = len(TEXT_FIELDS)
    texts = {name: _text(row[3 + i]) for i, name in enumerate(TEXT_FIELDS)}
    try:
        clauses = tuple(str(c) for c in json.loads(_text(row[3 + n])))
    except (json.JSONDecodeError, TypeError, ValueError):
        clauses = ("?",)  # not the list we wrote: the checksum below fails, so it shows as damaged
    uid, base, hall, replaced, stored_sum = (_text(v) for v in row[5 + n : 10 + n])
    revision = Revision(
        rev=int(str(row[1])),
        created_at=_text(row[2]),
        data=RulingInput(clauses=clauses, **texts),
        author=_text(row[4 + n]),
        uid=uid,
        base_uids=tuple(base.split()),
        hall=hall,
        replaced=replaced,
    )
    if stored_sum and stored_sum != checksum(ruling_uid, revision):
        data = RulingInput(
            clauses=tuple(shown(c) for c in clauses), **{k: shown(v) for k, v in texts.items()}
        )
        return Revision(**{**revision.__dict__, "data": data, "damaged": True})
    return revision


def group(rows: Sequence[Sequence[object]], heads: Mapping[int, tuple[str, ...]]) -> list[Ruling]:
    """Revision rows (ordered by ruling, then revision) and the rulings' heads → rulings.

    `heads[id]` is (created_at, locked_by, locked_at, uid, hall)."""
    by_id: dict[int, list[Revision]] = {}
    for row in rows:
        ruling_id = int(str(row[0]))
        head = heads.get(ruling_id)
        by_id.setdefault(ruling_id, []).append(_revision(row, head[3] if head else ""))
    out = []
    for ruling_id, revs in by_id.items():
        created, locked_by, locked_at, ruling_uid, hall = heads.get(
            ruling_id, (revs[0].created_at, "", "", "", "")
        )
        out.append(
            Ruling(
                id=ruling_id,
                created_at=created,
                updated_at=revs[-1].created_at,
                current=revs[-1].data,
                revisions=tuple(revs),
                locked_by=locked_by,
                locked_at=locked_at,
                uid=ruling_uid,
                hall=hall,
                conflict=branch_apart(revs),
            )
        )
    return out


def branch_apart(revs: Sequence[Revision]) -> tuple[Revision, ...]:
    """Revisions not behind the newest one: another journal's amendments of an older revision that
    no later revision resolved (empty when the history is one line)."""
    if not revs or not revs[-1].uid:
        return ()
    by_uid = {r.uid: r for r in revs}
    behind: set[str] = set()
    todo = [revs[-1].uid]
    while todo:
        uid = todo.pop()
        if uid in behind or uid not in by_uid:
            continue
        behind.add(uid)
        todo.extend(by_uid[uid].base_uids)
    return tuple(r for r in revs if r.uid not in behind)


def heads_of(revs: Sequence[Revision]) -> tuple[str, ...]:
    """Uids of the revisions nothing was written on: the one current text, or each branch's."""
    based = {b for r in revs for b in r.base_uids}
    return tuple(r.uid for r in revs if r.uid and r.uid not in based)


# -- the search index ---------------------------------------------------------------------------


def search_row(data: RulingInput) -> tuple[str, str, str]:
    """What the index holds of a ruling's current text: its title's keys, its body's keys (the
    fields `rulings.search` scores), and every prefix of every clause it cites («211», «211.3»…)."""
    title, body = search.fields(data)
    cited = {".".join(c.split(".")[: i + 1]) for c in data.clauses for i in range(c.count(".") + 1)}
    return " ".join(search.stems(title)), " ".join(search.stems(body)), " ".join(sorted(cited))


def index_ruling(conn: Conn, ruling_id: int, data: RulingInput) -> None:
    title, body, cited = search_row(data)
    if conn.engine == "sqlite":
        conn.execute("DELETE FROM ruling_search WHERE rowid = ?", (ruling_id,))
        conn.execute(
            "INSERT INTO ruling_search (rowid, title, body, cited) VALUES (?, ?, ?, ?)",
            (ruling_id, title, body, cited),
        )
    else:
        conn.execute(
            "INSERT INTO ruling_search (ruling_id, title, body, cited) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (ruling_id) DO UPDATE SET "
            "title = excluded.title, body = excluded.body, cited = excluded.cited",
            (ruling_id, title, body, cited),
        )


def reindex(conn: Conn, engine: str) -> None:
    """Rebuild the search index from every ruling's current text (after a migration or a change of
    the search keys), and record the keys' version."""
    conn.execute("DELETE FROM ruling_search")
    ids = [int(r[0]) for r in conn.execute("SELECT id FROM rulings ORDER BY id").fetchall()]
    for start in range(0, len(ids), _CHUNK):
        for ruling in fetch_many(conn, 4, ids[start : start + _CHUNK]):
            index_ruling(conn, ruling.id, ruling.current)
    set_meta(conn, "search_keys", SEARCH_KEYS_VERSION)


def get_meta(conn: Conn, key: str) -> str | None:
    row = conn.execute("SELECT value FROM journal_meta WHERE key = ?", (key,)).fetchone()
    return None if row is None else str(row[0])


def set_meta(conn: Conn, key: str, value: str) -> None:
    conn.execute(
        "INSERT INTO journal_meta (key, value) VALUES (?, ?) "
        "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        (key, value),
    )


def stamp_legacy(conn: Conn) -> None:
    """Give rulings and revisions of a journal older than schema 4 their global ids, their base and
    their checksums (once, inside the migration that added the columns)."""
    for (ruling_id,) in conn.execute("SELECT id FROM rulings WHERE uid = ''").fetchall():
        conn.execute("UPDATE rulings SET uid = ? WHERE id = ?", (new_uid(), int(ruling_id)))
    conn.execute(
        "UPDATE rulings SET updated_at = "
        "(SELECT MAX(created_at) FROM revisions WHERE ruling_id = rulings.id) "
        "WHERE updated_at = ''"
    )
    todo = [
        int(r[0]) for r in conn.execute("SELECT DISTINCT ruling_id FROM revisions WHERE uid = ''").fetchall()
    ]
    for start in range(0, len(todo), _CHUNK):
        for ruling in fetch_many(conn, 4, todo[start : start + _CHUNK]):
            previous = ""
            for rev in ruling.revisions:
                uid = rev.uid or new_uid()
                base = rev.base_uids or ((previous,) if previous else ())
                stamped = Revision(**{**rev.__dict__, "uid": uid, "base_uids": base})
                conn.execute(
                    "UPDATE revisions SET uid = ?, base_uids = ?, checksum = ? "
                    "WHERE ruling_id = ? AND rev = ?",
                    (uid, " ".join(base), checksum(ruling.uid, stamped), ruling.id, rev.rev),
                )
                previous = uid


MAX_TIERED = 5  # distinct query keys the tiered search enumerates (3^5 = 243 places at most)


def ranked(conn: Conn, pairs: Sequence[tuple[str, str]], limit: int) -> list[tuple[int, float]]:
    """The best rulings for the query's (word, key) pairs by `rulings.search.match`'s points, best
    first, ties newest first (as the scan over every ruling ranked them): (id, points).

    Each key stands in the title (2 points), only in the body (1; a number: 0) or nowhere, so a
    ruling's points are fixed by where each key stands. Places are tried from the most points down,
    each one query of the index for exactly that place, newest first and no more than still needed:
    the database reads a handful of rows from the index instead of every ruling that has a common
    word. Queries of more keys than MAX_TIERED are counted whole (`_counted`)."""
    groups: dict[tuple[bool, str], int] = {}
    for word, key in pairs:
        if key:
            number = word[:1].isdigit()
            groups[(number, key)] = groups.get((number, key), 0) + 1
    if not groups:
        return []
    if len(groups) > MAX_TIERED:
        return _counted(conn, pairs, limit)
    keys = list(groups)
    places: list[tuple[int, tuple[int, ...]]] = []
    for place in itertools.product(*[(2, 0) if number else (2, 1, 0) for number, _k in keys]):
        points = sum(g * groups[k] for g, k in zip(place, keys, strict=True))
        if points:
            places.append((points, place))
    places.sort(key=lambda p: -p[0])
    out: list[tuple[int, float]] = []
    for points, group in itertools.groupby(places, key=lambda p: p[0]):
        need = limit - len(out)
        if need <= 0:
            break
        found: list[int] = []
        for _points, place in group:
            found += _at_place(conn, keys, place, need)
        out += [(rid, float(points)) for rid in sorted(set(found), reverse=True)[:need]]
    return out


def _at_place(conn: Conn, keys: Sequence[tuple[bool, str]], place: Sequence[int], need: int) -> list[int]:
    """The newest `need` rulings where each key stands exactly where `place` says."""
    if conn.engine == "sqlite":
        positive, negative = [], []
        for (number, key), g in zip(keys, place, strict=True):
            quoted = '"' + key.replace('"', '""') + '"'
            both = "{title cited}" if number else "{title body}"
            if g == 2:
                positive.append(("{title cited}" if number else "title") + " : " + quoted)
            elif g == 1:
                positive.append("body : " + quoted)
                negative.append("title : " + quoted)
            else:
                negative.append(both + " : " + quoted)
        query = " AND ".join(positive)
        if negative:
            query = f"({query}) NOT ({' OR '.join(negative)})"
        sql = "SELECT rowid FROM ruling_search WHERE ruling_search MATCH ? ORDER BY rowid DESC LIMIT ?"
        return [int(r[0]) for r in conn.execute(sql, (query, need)).fetchall()]
    conds: list[str] = []
    params: list[object] = []
    for (number, key), g in zip(keys, place, strict=True):
        term = "'" + key.replace("'", "''") + "'"
        title_or_cited = "(tsv_title @@ ?::tsquery OR tsv_cited @@ ?::tsquery)"
        title_or_body = "(tsv_title @@ ?::tsquery OR tsv_body @@ ?::tsquery)"
        if g == 2:
            conds.append(title_or_cited if number else "tsv_title @@ ?::tsquery")
            params += [term, term] if number else [term]
        elif g == 1:
            conds.append("tsv_body @@ ?::tsquery AND NOT tsv_title @@ ?::tsquery")
            params += [term, term]
        else:
            conds.append("NOT " + (title_or_cited if number else title_or_body))
            params += [term, term]
    sql = f"SELECT ruling_id FROM ruling_search WHERE {' AND '.join(conds)} ORDER BY ruling_id DESC LIMIT ?"
    return [int(r[0]) for r in conn.execute(sql, [*params, need]).fetchall()]


def _counted(conn: Conn, pairs: Sequence[tuple[str, str]], limit: int) -> list[tuple[int, float]]:
    """`ranked` for long queries: every matching ruling's points summed by the database (a word
    earns 2 in the title, else 1 in the body; a number 2 in the title or the cited clauses)."""
    parts: list[str] = []
    params: list[object] = []
    for i, (word, key) in enumerate(pairs):
        number = word[:1].isdigit()
        if conn.engine == "sqlite":
            quoted = '"' + key.replace('"', '""') + '"'
            where = ("{title cited} : " if number else "title : ") + quoted
            parts.append(
                f"SELECT rowid AS id, {i} AS i, 2 AS g FROM ruling_search WHERE ruling_search MATCH ?"
            )
            params.append(where)
            if not number:
                parts.append(f"SELECT rowid, {i}, 1 FROM ruling_search WHERE ruling_search MATCH ?")
                params.append("body : " + quoted)
        else:
            term = "'" + key.replace("'", "''") + "'"
            if number:
                parts.append(
                    f"SELECT ruling_id AS id, {i} AS i, 2 AS g FROM ruling_search "
                    "WHERE tsv_title @@ ?::tsquery OR tsv_cited @@ ?::tsquery"
                )
                params += [term, term]
            else:
                head = f"SELECT ruling_id AS id, {i} AS i, 2 AS g FROM ruling_search"
                parts.append(f"{head} WHERE tsv_title @@ ?::tsquery")
                parts.append(f"SELECT ruling_id, {i}, 1 FROM ruling_search WHERE tsv_body @@ ?::tsquery")
                params += [term, term]
    if not parts:
        return []
    union = " UNION ALL ".join(parts)
    sql = (
        f"SELECT id, SUM(g) AS s FROM (SELECT id, i, MAX(g) AS g FROM ({union}) AS u GROUP BY id, i) AS v "
        "GROUP BY id ORDER BY s DESC, id DESC LIMIT ?"
    )
    rows = conn.execute(sql, [*params, int(limit)]).fetchall()
    return [(int(r[0]), float(r[1])) for r in rows]


def keys_of(conn: Conn, ids: Sequence[int]) -> dict[int, tuple[str, str, str]]:
    """The index's (title keys, body keys, cited) of these rulings."""
    if not ids:
        return {}
    marks = ", ".join("?" for _ in ids)
    col = "rowid" if conn.engine == "sqlite" else "ruling_id"
    sql = f"SELECT {col}, title, body, cited FROM ruling_search WHERE {col} IN ({marks})"
    return {int(r[0]): (str(r[1]), str(r[2]), str(r[3])) for r in conn.execute(sql, list(ids)).fetchall()}

"""The journal's search index: for each search key, which rulings hold it, as chunked bitmaps.

`rulings.search.match` gives a ruling, for each query word, 2 points when the word's key is in the
title (a number: in the title or among the cited clauses), else 1 when it is in the body. The best
rulings are those with the most points, ties newest first. Full-text indexes (SQLite FTS5,
PostgreSQL tsvectors) answer «which rulings hold this key» but not «which 20 have the most points»:
they visit every match, and in a league journal a common word («карта», «симбиот») is in most of the
100,000 rulings (measured in `tests/bench/bench_journal.py`: 1.4 s p95 on FTS5 this way). So the
journal keeps its own inverted index, laid out for counting points:

- a *term* is a field letter and a key: «t:паразит» (title), «b:паразит» (body), «c:211.3» (a cited
  clause or its parent), «s:вайл» (the recorded position); `terms` lists a ruling's;
- a term's rulings are split by id into chunks of 4,096 (`CHUNK`); each row (term, chunk) holds the
  chunk's members as a 512-byte bitmap, or, when they are few, as their 16-bit offsets (2 bytes
  each), so a rare term costs bytes and a common one half a kilobyte per 4,096 rulings;
- a query reads the rows of its terms (a few hundred small rows at 100,000 rulings), adds up every
  ruling's points in vectors (numpy) and keeps the best: exactly the scan's ranking, in time that
  grows with the number of rulings by a few microseconds per thousand, not with their text;
- a write changes only the rows of the terms a ruling gained or lost, in its own chunk: one read
  and one write statement per ruling, whatever its length (batched across a sync's rulings).

The rows live in table `search_postings`, the ruling's own keys in `ruling_keys` (to know what an
amendment removes, and to tell the page which words matched). Both are rebuilt from the rulings by
`reindex`, which runs when the search keys change (`rulings.search.keys_version`).
"""

from __future__ import annotations

import array
import itertools
import sys
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

from rulings import records, search
from rulings.db import Conn
from rulings.model import RulingInput

if TYPE_CHECKING:
    import numpy as np

# numpy is imported by the functions that count points, on a process's first journal search, not
# with this module: every page imports the journal (its sign-in), and numpy's import was a fifth of
# the app's cold first run, which needs no search of the journal (issue 24).

CHUNK_BITS = 12
CHUNK = 1 << CHUNK_BITS  # ruling ids per row
_BITMAP_BYTES = CHUNK // 8  # 512: a row this long is a bitmap, a shorter one a list of offsets
_SPARSE_MAX = _BITMAP_BYTES // 2 - 1  # 255 offsets (510 bytes) at most; more become a bitmap
_IN = 400  # terms per IN (…) list
META_KEY = "search_keys"  # journal_meta: the `rulings.search.keys_version` the index was built with


Keys = tuple[str, str, str, str]  # a ruling's keys: title, body, cited clauses, recorded position


def row_keys(data: RulingInput) -> Keys:
    """What the index holds of a ruling's current text: its title's keys, its body's keys (the
    fields `rulings.search` scores), every prefix of every clause it cites («211», «211.3»…), and
    the distinct keys of its recorded position (the card page finds rulings naming a card there)."""
    title, body = search.fields(data)
    cited = {".".join(c.split(".")[: i + 1]) for c in data.clauses for i in range(c.count(".") + 1)}
    scene = " ".join(sorted(set(search.stems(data.scenario_yaml))))
    return " ".join(search.stems(title)), " ".join(search.stems(body)), " ".join(sorted(cited)), scene


def terms(keys: Keys) -> set[str]:
    """The terms of a ruling's keys."""
    title, body, cited, scene = keys
    out = {f"t:{k}" for k in title.split()} | {f"b:{k}" for k in body.split()}
    return out | {f"c:{k}" for k in cited.split()} | {f"s:{k}" for k in scene.split()}


def decode(blob: bytes) -> np.ndarray:
    """The offsets (0..CHUNK-1) a row holds, ascending."""
    import numpy as np

    raw = np.frombuffer(bytes(blob), dtype=np.uint8)
    if len(raw) == _BITMAP_BYTES:
        return np.flatnonzero(np.unpackbits(raw, bitorder="little"))
    return np.frombuffer(bytes(blob), dtype="<u2").astype(np.int64)


def encode(offsets: Iterable[int]) -> bytes:
    """A row for these offsets: the shorter of the two forms (empty: nothing)."""
    kept = sorted(set(offsets))
    if len(kept) > _SPARSE_MAX:
        bits = bytearray(_BITMAP_BYTES)
        for off in kept:
            bits[off >> 3] |= 1 << (off & 7)
        return bytes(bits)
    out = array.array("H", kept)
    if sys.byteorder == "big":
        out.byteswap()  # rows are little-endian on every machine
    return out.tobytes()


def _offsets(row: bytes) -> list[int]:
    """The offsets a short row (not a bitmap) lists."""
    out = array.array("H", row)
    if sys.byteorder == "big":
        out.byteswap()
    return out.tolist()


def _changed(old: bytes | None, add: set[int], drop: set[int]) -> bytes:
    """A row with offsets added and dropped (b"": none left). A bitmap has its bits set in place
    (an amendment changes a few dozen rows: no row is decoded whole); a short list is rebuilt."""
    if old is not None and len(old) == _BITMAP_BYTES:
        bits = bytearray(old)
        for off in add - drop:
            bits[off >> 3] |= 1 << (off & 7)
        for off in drop - add:
            bits[off >> 3] &= ~(1 << (off & 7)) & 0xFF
        return bytes(bits) if any(bits) else b""
    have = set(_offsets(old)) if old else set()
    kept = (have - drop) | add
    return encode(kept) if kept else b""


def update(conn: Conn, changes: Sequence[tuple[int, set[str], set[str]]]) -> None:
    """Apply (ruling id, terms gained, terms lost) for many rulings: one read and one write of
    each (term, chunk) row they touch."""
    todo: dict[tuple[str, int], tuple[set[int], set[int]]] = {}
    for ruling_id, gained, lost in changes:
        chunk, offset = divmod(int(ruling_id), CHUNK)
        for term in gained:
            todo.setdefault((term, chunk), (set(), set()))[0].add(offset)
        for term in lost:
            todo.setdefault((term, chunk), (set(), set()))[1].add(offset)
    if not todo:
        return
    stored: dict[tuple[str, int], bytes] = {}
    by_chunk = sorted(todo, key=lambda tc: (tc[1], tc[0]))
    for chunk, group in itertools.groupby(by_chunk, key=lambda tc: tc[1]):
        names = [t for t, _c in group]
        for start in range(0, len(names), _IN):
            part = names[start : start + _IN]
            marks = ", ".join("?" for _ in part)
            sql = f"SELECT term, ids FROM search_postings WHERE chunk = ? AND term IN ({marks})"
            for term, blob in conn.execute(sql, [chunk, *part]).fetchall():
                stored[(str(term), chunk)] = bytes(blob)
    put: list[tuple[str, int, bytes]] = []
    gone: list[tuple[str, int]] = []
    for (term, chunk), (add, drop) in todo.items():
        old = stored.get((term, chunk))
        new = _changed(old, add, drop)
        if new == old:
            continue
        if new:
            put.append((term, chunk, new))
        elif old is not None:
            gone.append((term, chunk))
    if put:
        _put(conn, put)
    if gone:
        _gone(conn, gone)


# PostgreSQL gets a write's rows as arrays in one statement: a pipeline of one statement per row
# (executemany) cost the server ~0.1 ms a row, 4–5 ms of an amendment that changes fifty terms.
_UPSERT = (
    "INSERT INTO search_postings (term, chunk, ids) {} "
    "ON CONFLICT (term, chunk) DO UPDATE SET ids = excluded.ids"
)


def _put(conn: Conn, rows: Sequence[tuple[str, int, bytes]]) -> None:
    if conn.engine == "postgres":
        terms, chunks, blobs = (list(column) for column in zip(*rows, strict=True))
        conn.execute(
            _UPSERT.format("SELECT * FROM unnest(?::text[], ?::bigint[], ?::bytea[])"), (terms, chunks, blobs)
        )
    else:
        conn.executemany(_UPSERT.format("VALUES (?, ?, ?)"), rows)


def _gone(conn: Conn, rows: Sequence[tuple[str, int]]) -> None:
    if conn.engine == "postgres":
        terms, chunks = (list(column) for column in zip(*rows, strict=True))
        sql = (
            "DELETE FROM search_postings "
            "WHERE (term, chunk) IN (SELECT * FROM unnest(?::text[], ?::bigint[]))"
        )
        conn.execute(sql, (terms, chunks))
    else:
        conn.executemany("DELETE FROM search_postings WHERE term = ? AND chunk = ?", rows)


def index_rulings(conn: Conn, current: Sequence[tuple[int, RulingInput]]) -> None:
    """Index the current text of these rulings (new ones, or amended: what they lost is removed)."""
    if not current:
        return
    ids = [int(rid) for rid, _data in current]
    before = keys_of(conn, ids)
    changes = []
    rows = []
    for rid, data in current:
        keys = row_keys(data)
        old = before.get(int(rid))
        if old == keys:
            continue
        new_terms, old_terms = terms(keys), terms(old) if old else set()
        changes.append((int(rid), new_terms - old_terms, old_terms - new_terms))
        rows.append((int(rid), *keys))
    update(conn, changes)
    conn.executemany(
        "INSERT INTO ruling_keys (ruling_id, title, body, cited, scene) VALUES (?, ?, ?, ?, ?) "
        "ON CONFLICT (ruling_id) DO UPDATE SET title = excluded.title, body = excluded.body, "
        "cited = excluded.cited, scene = excluded.scene",
        rows,
    )


def _members(conn: Conn, names: Sequence[str]) -> tuple[dict[str, list[tuple[int, bytes]]], int]:
    """Each term's rows (chunk, blob), and the number of chunks the largest holds."""
    found: dict[str, list[tuple[int, bytes]]] = {}
    top = 0
    for start in range(0, len(names), _IN):
        part = list(names[start : start + _IN])
        marks = ", ".join("?" for _ in part)
        sql = f"SELECT term, chunk, ids FROM search_postings WHERE term IN ({marks})"
        for term, chunk, blob in conn.execute(sql, part).fetchall():
            found.setdefault(str(term), []).append((int(chunk), bytes(blob)))
            top = max(top, int(chunk) + 1)
    return found, top


def _vector(rows: Sequence[tuple[int, bytes]], size: int) -> np.ndarray:
    import numpy as np

    out = np.zeros(size, dtype=np.uint8)
    for chunk, blob in rows:
        raw = np.frombuffer(blob, dtype=np.uint8)
        base = chunk * CHUNK
        if len(raw) == _BITMAP_BYTES:
            out[base : base + CHUNK] = np.unpackbits(raw, bitorder="little")
        else:
            out[base + np.frombuffer(blob, dtype="<u2").astype(np.int64)] = 1
    return out


def best(conn: Conn, weights: Mapping[tuple[bool, str], int], limit: int) -> list[tuple[int, float]]:
    """The `limit` rulings with the most points for the query's keys, best first, ties newest
    first: (id, points). `weights[(is_number, key)]` is how many query words have that key."""
    if not weights or limit <= 0:
        return []
    names = sorted({f"{f}:{key}" for (number, key) in weights for f in ("t", "c" if number else "b")})
    rows, chunks = _members(conn, names)
    if not chunks:
        return []
    import numpy as np

    size = chunks * CHUNK
    points = np.zeros(size, dtype=np.int16)  # at most 2 points a query word: 16 bits hold 16,000 words
    for (number, key), weight in weights.items():
        title = _vector(rows.get(f"t:{key}", ()), size)
        other = _vector(rows.get(f"{'c' if number else 'b'}:{key}", ()), size)
        if number:  # a number earns 2 in the title or among the cited clauses, nothing in the body
            np.bitwise_or(title, other, out=title)
            np.left_shift(title, 1, out=title)
        else:  # a word 2 in the title, else 1 in the body
            np.left_shift(title, 1, out=title)
            np.maximum(title, other, out=title)
        if weight != 1:
            np.multiply(title, weight, out=title)
        np.add(points, title, out=points, casting="unsafe")
    # The limit-th best score, from the count of rulings at each score; then everything above it
    # and the newest of those at it.
    counts = np.bincount(points)
    counts[0] = 0
    above = np.cumsum(counts[::-1])[::-1]  # above[s]: rulings with at least s points
    cut = 1 if above[1] <= limit else int(np.flatnonzero(above >= limit)[-1])
    over = np.flatnonzero(points > cut)
    at = np.flatnonzero(points == cut)[::-1][: limit - len(over)]
    chosen = np.concatenate([over, at])
    order = np.lexsort((-chosen, -points[chosen].astype(np.int64)))
    return [(int(chosen[i]), float(points[chosen[i]])) for i in order]


def keys_of(conn: Conn, ids: Sequence[int]) -> dict[int, Keys]:
    """The keys the index holds for these rulings."""
    out: dict[int, Keys] = {}
    for start in range(0, len(ids), _IN):
        part = [int(i) for i in ids[start : start + _IN]]
        marks = ", ".join("?" for _ in part)
        sql = f"SELECT ruling_id, title, body, cited, scene FROM ruling_keys WHERE ruling_id IN ({marks})"
        for rid, title, body, cited, scene in conn.execute(sql, part).fetchall():
            out[int(rid)] = (str(title), str(body), str(cited), str(scene))
    return out


def holding_all(conn: Conn, keys: Sequence[str], limit: int) -> list[int]:
    """The newest `limit` rulings that hold every one of these keys somewhere (title, body or
    recorded position): the candidates for «rulings that name this card»."""
    wanted = list(dict.fromkeys(keys))
    if not wanted or limit <= 0:
        return []
    names = [f"{f}:{k}" for k in wanted for f in ("t", "b", "s")]
    rows, chunks = _members(conn, names)
    if not chunks:
        return []
    import numpy as np

    size = chunks * CHUNK
    every = np.ones(size, dtype=np.uint8)
    for k in wanted:
        some = _vector(rows.get(f"t:{k}", ()), size)
        np.bitwise_or(some, _vector(rows.get(f"b:{k}", ()), size), out=some)
        np.bitwise_or(some, _vector(rows.get(f"s:{k}", ()), size), out=some)
        np.bitwise_and(every, some, out=every)
    return [int(i) for i in np.flatnonzero(every)[::-1][:limit]]


def create_tables(conn: Conn, engine: str) -> None:
    """The index's two tables (the old full-text table of schema 4 is dropped)."""
    blob, rowid = ("BLOB", " WITHOUT ROWID") if engine == "sqlite" else ("BYTEA", "")
    conn.execute("DROP TABLE IF EXISTS ruling_search")
    conn.execute(
        f"CREATE TABLE IF NOT EXISTS ruling_keys (ruling_id {'INTEGER' if engine == 'sqlite' else 'BIGINT'} "
        "PRIMARY KEY REFERENCES rulings(id), title TEXT NOT NULL, body TEXT NOT NULL, cited TEXT NOT NULL, "
        "scene TEXT NOT NULL)"
    )
    conn.execute(
        f"CREATE TABLE IF NOT EXISTS search_postings (term TEXT NOT NULL, chunk BIGINT NOT NULL, "
        f"ids {blob} NOT NULL, PRIMARY KEY (term, chunk)){rowid}"
    )


def fresh(conn: Conn) -> bool:
    """Whether the index was built with today's search keys (else searching it would miss)."""
    return records.get_meta(conn, META_KEY) == search.keys_version()


def reindex(conn: Conn) -> None:
    """Rebuild the index from every ruling's current text, one chunk of ids at a time (each chunk's
    rows are whole once its rulings are read, so nothing is read back), and record the keys'
    version. Runs inside the caller's write transaction: a reindex is done whole or not at all."""
    conn.execute("DELETE FROM search_postings")
    conn.execute("DELETE FROM ruling_keys")
    ids = [int(r[0]) for r in conn.execute("SELECT id FROM rulings ORDER BY id").fetchall()]
    for _chunk, group in itertools.groupby(ids, key=lambda i: i // CHUNK):
        members: dict[str, list[int]] = {}
        rows = []
        for ruling in records.fetch_many(conn, 4, list(group)):
            keys = row_keys(ruling.current)
            rows.append((ruling.id, *keys))
            for term in terms(keys):
                members.setdefault(term, []).append(ruling.id)
        sql = "INSERT INTO ruling_keys (ruling_id, title, body, cited, scene) VALUES (?, ?, ?, ?, ?)"
        conn.executemany(sql, rows)
        conn.executemany(
            "INSERT INTO search_postings (term, chunk, ids) VALUES (?, ?, ?)",
            [(t, _chunk, encode(i % CHUNK for i in got)) for t, got in sorted(members.items())],
        )
    records.set_meta(conn, META_KEY, search.keys_version())

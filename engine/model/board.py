"""The 5×6 battlefield: cell names, halves, rows and adjacency.

Row naming follows assumption A4 (engine/data/assumptions.yaml): player A holds rows 1–3 with
row 3 as A's first row and row 1 as A's third row; player B holds rows 4–6 with row 4 first.
Adjacency includes diagonals (assumption A1). How players and counts read in a sentence
(«игрока B», «2 шага») is lexicon's job, not the board's.
"""

from __future__ import annotations

PLAYERS: tuple[str, str] = ("A", "B")
COLUMNS = "abcde"
ROWS = (1, 2, 3, 4, 5, 6)
CELLS: tuple[str, ...] = tuple(f"{c}{r}" for r in ROWS for c in COLUMNS)
_CELL_SET = frozenset(CELLS)


def other(player: str) -> str:
    """The opponent of `player`."""
    return "B" if player == "A" else "A"


def is_cell(name: object) -> bool:
    return isinstance(name, str) and name in _CELL_SET


def coords(cell: str) -> tuple[int, int]:
    """(column index 0–4, row 1–6)."""
    return COLUMNS.index(cell[0]), int(cell[1:])


def cell_at(col: int, row: int) -> str | None:
    if 0 <= col < len(COLUMNS) and 1 <= row <= 6:
        return f"{COLUMNS[col]}{row}"
    return None


def half_of(cell: str) -> str:
    """The player whose half holds `cell` (A: rows 1–3, B: rows 4–6; A4)."""
    return "A" if coords(cell)[1] <= 3 else "B"


def row_number(player: str, rank: int) -> int:
    """The board row that is `player`'s `rank`-th row (1 = first row, next to the centre; A4)."""
    return 4 - rank if player == "A" else 3 + rank


def row_rank(player: str, cell: str) -> int | None:
    """Which of `player`'s rows holds `cell` (1 first … 3 third), None on the other half."""
    row = coords(cell)[1]
    if player == "A":
        return 4 - row if row <= 3 else None
    return row - 3 if row >= 4 else None


def row_cells(player: str, rank: int) -> tuple[str, ...]:
    row = row_number(player, rank)
    return tuple(f"{c}{row}" for c in COLUMNS)


def distance(a: str, b: str) -> int:
    """Steps between cells when diagonal steps count as one (A1)."""
    (ca, ra), (cb, rb) = coords(a), coords(b)
    return max(abs(ca - cb), abs(ra - rb))


def adjacent(a: str, b: str) -> bool:
    """Cells around one another, diagonals included (A1)."""
    return a != b and distance(a, b) == 1


def neighbours(cell: str) -> tuple[str, ...]:
    return tuple(c for c in CELLS if adjacent(cell, c))


def straight_line(origin: str, cells: tuple[str, ...]) -> bool:
    """True when `cells` run one after another on one straight line (diagonals too) from `origin`."""
    if not cells:
        return False
    oc, orow = coords(origin)
    fc, frow = coords(cells[0])
    dc, dr = fc - oc, frow - orow
    if max(abs(dc), abs(dr)) != 1:
        return False
    return all(cell_at(oc + dc * (i + 1), orow + dr * (i + 1)) == cell for i, cell in enumerate(cells))

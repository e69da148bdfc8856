"""The journal's search in the database ranks exactly as the scan over every ruling did."""

from __future__ import annotations

import pytest

from rulings import search
from rulings.store import Journal
from tests.rulings_samples import HOSTILE, journal_with_judge
from tests.rulings_samples import ruling as _ruling

TEXTS = [
    ("Может ли паразит атаковать своего хозяина?", "Нет, паразит не атакует хозяина (п. 211.6).", ("211.6",)),
    ("Паразиты и хозяева: кто управляет?", "Управляет владелец паразита.", ("211.4", "211.4.1")),
    ("Вайл атакует Карлика Унда", "Атака разрешена: Вайл может атаковать только Карлика Унда.", ("211.3.1",)),
    ("Инкарнация и отряд", "Карта берётся в отряд по 535.7.", ("535.7",)),
    ("Эффект замещения раны", "Паразитом заменяется рана, 534.4.", ("534.4",)),
    ("Вопрос без пунктов про хозяина", "Хозяином считается тот, на ком симбиот.", ()),
    ("211.3 в названии", "Решение о номере.", ()),
]
QUERIES = [
    "паразит",
    "паразиты хозяина",
    "211",
    "211.3",
    "211.4.1",
    "Вайл атаковать Карлик",
    "отряд инкарнация 535",
    "рана замещение паразитом",
    "ничего похожего",
    "хозяин хозяин",
    "паразит хозяин атаковать вайл карлик отряд 211",  # more keys than the tiers enumerate
]


@pytest.mark.parametrize("query", QUERIES)
def test_database_search_ranks_as_the_scan_over_every_ruling(journal_target: str, query: str) -> None:
    book, by = journal_with_judge(journal_target, max_writes_per_minute=1000)
    for title, decision, clauses in TEXTS * 2 + [(h[:200] or "x", h or "x", ()) for h in HOSTILE]:
        book.record(_ruling(title=title, decision=decision, clauses=clauses), by)
    # Amended text is what counts: the first ruling now speaks of something else.
    first = min(r.id for r in book.rulings())
    book.amend(first, _ruling(title="Про отряд", decision="Другой текст.", clauses=()), by, base_rev=1)
    scan = search.search_rulings(Journal(journal_target).rulings(), query, top=8)
    found = Journal(journal_target).search(query, top=8)
    assert [(h.ruling.id, h.score, h.matched) for h in found] == [
        (h.ruling.id, h.score, h.matched) for h in scan
    ]

"""A position in one line, like a chess FEN: `B Вайл c4; A Карлик Унд на Вайл; B Орк d4 раны 2 …`.

One card per item; items are separated by «;» or a new line. An item is the owner (A or B), the
card (a library name, or an own name with its template in brackets: «Орк (Наземное существо,
жизнь 5)»), where it is (a cell, «на <хозяин>» for a symbiote, or a zone: «в руке», «в колоде»,
«на кладбище», «в изгнании», «во вспомогательной зоне») and its properties in any order
(«раны 2», «закрыта», «скрыта», «контроль A», «id und» …; the words are in casebook/data/notation.yaml).
An optional header item sets the phase, the turn and the active player: «фаза вскрытие, ход 2,
активный B». The full grammar is in docs/scenarios.md.

Names resolve through the card library as scenario files do (case, «ё» and apostrophes do not
matter; an unknown name gets the nearest ones). Ids are made from the names («Карлик Унд» →
karlik_und) unless written. Errors name the word and where it stands (line and character).
This package checks the notation; whether the position is legal is `engine.build_state`'s question.

`words`: the vocabulary, ids and the error; `read`: text → cards; `write`: cards → text.
"""

from __future__ import annotations

from casebook.notation.read import read_card, read_position
from casebook.notation.words import (
    CARD_ID_RE,
    MAX_CHARS,
    NotationError,
    Position,
    assign_ids,
    free_id,
    latin_id,
    vocabulary,
)
from casebook.notation.write import quoted, write_position

__all__ = [
    "CARD_ID_RE",
    "MAX_CHARS",
    "NotationError",
    "Position",
    "assign_ids",
    "free_id",
    "latin_id",
    "quoted",
    "read_card",
    "read_position",
    "vocabulary",
    "write_position",
]

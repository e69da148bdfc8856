"""The position of the 211.3.1 example as desk entries, shared by the desk's model and logic tests:
Вайл on c4 (B), Карлик Унд on Вайл (A), an Орк of the template on d4 (B)."""

from __future__ import annotations

VAIL = {"id": "vail", "card": "Вайл", "owner": "B", "at": "c4"}
UND = {"id": "und", "card": "Карлик Унд", "owner": "A", "host": "vail"}
ORC = {
    "id": "orc",
    "card": {"template": "Наземное существо", "name": "Орк", "life": 5},
    "owner": "B",
    "at": "d4",
}

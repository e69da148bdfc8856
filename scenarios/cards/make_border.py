"""Writes border.json and border_const.json: a small card base in the community JSON format.

Every card here is invented — names, numbers and texts — in the style of the community card
files (the same fields, codes and `{tap}`-style placeholders; set «Порубежье», id 95). It is the
base the real-card scenarios of the library run on (`card_base: {file: ../cards/border.json,
constants: ../cards/border_const.json}`) and what tests/test_cardbase_coverage.py measures.
«Вайл» is deliberately a reprint of an embedded card with other numbers (life 15), to show that a
base record wins over the engine's card of the same name.

Run from the project root: `.venv/bin/python scenarios/cards/make_border.py`.
"""

from __future__ import annotations

import json
from pathlib import Path

HERE = Path(__file__).resolve().parent
SET = 95

# (number, name, type code, element bits, cost, life, move, strike, classes, icons, text)
Card = tuple[int, str, int, int, int, int | None, int | None, list[int], list[str], dict[str, int], str]
# one card per entry: the list reads as a table
# fmt: off
CARDS: list[Card] = [
    (1, "Туманный прыгун", 3, 8, 3, 4, None, [1, 1, 2], [""], {},
     "Бестелесный: все немагические атаки по нему наносят на 1 рану меньше."),
    (2, "Лесная совушка", 2, 4, 2, 3, None, [0, 1, 1], ["Птица"], {},
     "В конце хода своего игрока может быть помещена на другое своё существо на расстоянии до 1 клетки."),
    (3, "Болотный присосок", 3, 8, 2, 3, None, [1, 1, 1], [""], {},
     "Хозяин Болотного присоска не может двигаться."),
    (4, "Ржавый падальщик", 0, 16, 3, 6, 1, [1, 2, 2], ["Нежить"], {},
     "1 раз за бой может стать паразитом атакующего его существа."),
    (5, "Каменный домовой", 2, 2, 2, 4, None, [1, 1, 1], ["Дух"], {},
     "Не может быть перемещён особенностями."),
    (6, "Призрачный плут", 0, 32, 3, 4, 2, [1, 1, 2], [""], {"inc": 0},
     "{tap}: ранить на 1 существо рядом."),
    (7, "Полуночный страж", 0, 16, 5, 9, 1, [2, 2, 3], ["Страж"], {},
     "Если должен получить раны от удара летающего существа, вместо этого получает на 1 рану меньше."),
    (8, "Кровавый жрец", 0, 16, 6, 10, 1, [2, 3, 4], ["Жрец"], {},
     "Уничтожая существо противника, вместо этого изгоняет его."),
    (9, "Торфяной голем", 0, 8, 6, 12, 1, [2, 3, 3], ["Голем"], {"armor": 2, "regen": 1, "ova": 1},
     "Защита от выстрелов и метания."),
    (10, "Глашатай границы", 0, 1, 4, 7, 1, [1, 2, 3], ["Воин"], {},
     "Может вызвать «Пограничный волк» из своей колоды рядом с собой."),
    (11, "Пограничный волк", 0, 1, 2, 5, 2, [1, 2, 2], ["Зверь"], {}, ""),
    (12, "Курганный шаман", 0, 2, 5, 8, 1, [1, 2, 2], ["Шаман"], {},
     "Может возродить существо со своего кладбища в свой третий ряд в закрытом виде."),
    (13, "Пепельный феникс", 1, 1, 5, 6, None, [2, 2, 3], ["Птица"], {}, "Инкарнация 2."),
    (14, "Стяжатель воли", 0, 16, 7, 9, 1, [2, 2, 3], ["Маг"], {},
     "Один раз за бой: может взять под свой контроль вражеское существо, стоящее рядом."),
    (15, "Отшельник курганов", 0, 2, 3, 6, 1, [1, 2, 2], [""], {},
     "Не может быть взят в отряд с Курганным шаманом."),
    (16, "Сторожевой огонёк", 0, 32, 2, 3, 0, [0, 0, 1], ["Дух"], {},
     "Располагается во вспомогательной зоне. {tap}: открыть существо рядом."),
    (17, "Зовущий рог", 4, 32, 3, None, None, [0, 0, 0], [""], {},
     "{tap}: вызвать 2 существа из своей колоды рядом с собой."),
    (18, "Вихрь пустошей", 0, 1, 4, 6, 2, [1, 2, 3], [""], {},
     "Направленный удар. [Эррата 2024.05.12: «удар через ряд» заменён на «направленный удар».]"),
    (19, "Вайл", 0, 8, 6, 15, 1, [1, 2, 4], [""], {}, "Без особенностей."),
    (20, "Светлый пустынник", 0, 1, 3, 5, 1, [1, 1, 2], ["Отшельник"], {},
     "Не может быть взят в отряд с существами Тьмы."),
]
# fmt: on


def record(
    n: int,
    name: str,
    kind: int,
    color: int,
    cost: int,
    life: int | None,
    move: int | None,
    hit: list[int],
    classes: list[str],
    icons: dict[str, int],
    text: str,
) -> dict[str, object]:
    return {
        "id": f"{SET}{n:03d}",
        "set_id": SET,
        "number": n,
        "name": name,
        "rarity": 1 + n % 4,
        "cost": cost,
        "elite": False,
        "uniq": False,
        "color": color,
        "class": classes,
        "type": kind,
        "life": life,
        "move": move,
        "hit": hit,
        "icons": icons,
        "art": "Вымышленный художник",
        "tokens": "",
        "text": text or "nan",
        "prints": {},
        "alts": [],
        "alt": "",
        "altto": None,
    }


CONSTANTS = {
    "sets": {str(SET): "Порубежье"},
    "rarities": {"1": "Частая", "2": "Необычная", "3": "Редкая", "4": "Ультраредкая"},
    "colors": {"1": "Степи", "2": "Горы", "4": "Леса", "8": "Болота", "16": "Тьма", "32": "Нейтралы"},
    "creature_types": {
        "0": "Нелетающее",
        "1": "Летающее",
        "2": "Компаньон",
        "3": "Паразит",
        "4": "Артефакт",
        "5": "Местность",
    },
    "icons": {"inc": "Бестелесный", "armor": "Броня", "regen": "Регенерация", "ova": "Опыт в атаке"},
}


def main() -> None:
    cards = [record(*c) for c in CARDS]
    text = json.dumps(cards, ensure_ascii=False, indent=1) + "\n"
    (HERE / "border.json").write_text(text, encoding="utf-8")
    (HERE / "border_const.json").write_text(
        json.dumps(CONSTANTS, ensure_ascii=False, indent=1) + "\n", encoding="utf-8"
    )


if __name__ == "__main__":
    main()

"""A FICTIONAL «next version» of the rules, built from the embedded РП 4.1-2 text for the diff tests.

Never shipped as rules and never written to the corpus: the texts are made in memory by the tests
(and the browser test writes them to a temporary folder). Every invented sentence says that it is
invented, and the version stamp «РП 9.9-1 от 01.01.2099» is one no publisher has issued.

What differs from the embedded rules, and what the diff must say about each:
- a clause inserted near the top of section 535 (new 535.2): everything below it in 535 moves
  one number down (535.2 → 535.3 … 535.9 → 535.10, subclauses included) — `added` + `renumbered`;
- 535.5.1.3 cites 535.5.1.2; in the new text the citation follows its target (535.6.1.2) —
  `renumbered` with a citation whose target was renumbered;
- 534.6 reworded — `edited`;
- 534.8 removed — `removed`;
- 535.3 split into 535.4 and 535.4.1 — `split`;
- the example of 534.5 reworded — `edited`, part `examples`;
- the cut-off 211.5 completed — `edited`;
- the version stamp glued to 211.11 changed — 211.11 stays `same`.
"""

from __future__ import annotations

import re

from rules_index.index import CORPUS_DIR

FICTIONAL_VERSION = "РП 9.9-1 от 01.01.2099"
FICTIONAL_LABEL = "РП 9.9-1"
FICTIONAL_NOTE = "(ВЫМЫШЛЕННАЯ ВЕРСИЯ ДЛЯ ТЕСТОВ)"

INSERTED_535_2 = (
    f"535.2. {FICTIONAL_NOTE} Карта, взятая в отряд, остаётся в нём до конца боя, "
    "если никакой эффект не предписывает иного."
)
REWORDED_534_6 = (
    "534.6. Эффект замещения может быть применён и к эффекту, полученному в результате "
    "применения другого эффекта замещения."
)
OLD_534_6 = (
    "534.6. Эффект замещения можно применять к эффекту, который получился в результате "
    "использования другого эффекта замещения."
)
OLD_211_5_TAIL = "Если бестелесный симбиот"
COMPLETED_211_5_TAIL = (
    f"Если бестелесный симбиот {FICTIONAL_NOTE} помещён на небестелесное существо, он остаётся на нём."
)
OLD_EXAMPLE_534_5 = (
    "Это эффект замещения, но полученные раны по-прежнему будут считаться полученными от яда или атак."
)
NEW_EXAMPLE_534_5 = (
    f"Это эффект замещения {FICTIONAL_NOTE}, а полученные раны всё равно считаются полученными "
    "от яда или атак."
)
OLD_535_3 = (
    "535.3. Набор карт в отряд осуществляется согласно п.403.2. Игрок, взявший карту в отряд в подфазу "
    "Набора, становится игроком, контролирующим эту карту."
)
SPLIT_535_3 = (
    "535.3. Набор карт в отряд осуществляется согласно п.403.2.\n"
    "535.3.1. Игрок, взявший карту в отряд в подфазу Набора, становится игроком, контролирующим эту карту."
)

# The exact changes the diff must find, in the new version's reading order.
EXPECTED: list[tuple[str, tuple[str, ...], tuple[str, ...]]] = [
    *[("same", (c,), (c,)) for c in ("211", "211.1", "211.2", "211.3", "211.3.1", "211.4")],
    ("edited", ("211.5",), ("211.5",)),
    *[("same", (c,), (c,)) for c in ("211.6", "211.7", "211.8", "211.8.1", "211.9", "211.10", "211.11")],
    *[("same", (c,), (c,)) for c in ("534.4", "534.4.1", "534.4.2")],
    ("edited", ("534.5",), ("534.5",)),
    ("edited", ("534.6",), ("534.6",)),
    *[("same", (c,), (c,)) for c in ("534.7", "534.7.1", "534.7.2")],
    ("removed", ("534.8",), ()),
    *[("same", (c,), (c,)) for c in ("535", "535.1", "535.1.1")],
    ("added", (), ("535.2",)),
    ("renumbered", ("535.2",), ("535.3",)),
    ("split", ("535.3",), ("535.4", "535.4.1")),
    *[
        ("renumbered", (old,), (new,))
        for old, new in (
            ("535.4", "535.5"),
            ("535.5", "535.6"),
            ("535.5.1", "535.6.1"),
            ("535.5.1.1", "535.6.1.1"),
            ("535.5.1.2", "535.6.1.2"),
            ("535.5.1.3", "535.6.1.3"),
            ("535.5.2", "535.6.2"),
            ("535.6", "535.7"),
            ("535.7", "535.8"),
            ("535.7.1", "535.8.1"),
            ("535.7.2", "535.8.2"),
            ("535.7.3", "535.8.3"),
            ("535.7.4", "535.8.4"),
            ("535.8", "535.9"),
            ("535.8.1", "535.9.1"),
            ("535.9", "535.10"),
        )
    ],
]


def embedded_texts() -> list[tuple[str, str]]:
    """The embedded rules files as (name, text), in the order load_default reads them."""
    return [(f.name, f.read_text(encoding="utf-8")) for f in sorted(CORPUS_DIR.glob("*.txt"))]


def _replace_once(text: str, old: str, new: str) -> str:
    count = text.count(old)
    if count != 1:
        raise AssertionError(f"the embedded rules changed: {old[:60]!r} occurs {count} times")
    return text.replace(old, new)


def _renumber_535(text: str) -> str:
    """535.N (N ≥ 2) → 535.N+1 at line starts, and the one citation of 535.5.1.2 along with it."""

    def shift(m: re.Match[str]) -> str:
        number = int(m.group(1))
        return f"535.{number + 1 if number >= 2 else number}"

    text = re.sub(r"(?m)^535\.(\d+)", shift, text)
    return _replace_once(text, "в соответствии с п. 535.5.1.2", "в соответствии с п. 535.6.1.2")


def fictional_texts() -> list[tuple[str, str]]:
    """The fictional next version as (name, text) files (see the module docstring)."""
    out: list[tuple[str, str]] = []
    for name, text in embedded_texts():
        if name.startswith("211"):
            text = _replace_once(text, OLD_211_5_TAIL + "\n", COMPLETED_211_5_TAIL + "\n")
            text = _replace_once(text, "РП 4.1-2 от 09.11.2024", FICTIONAL_VERSION)
        else:
            text = _replace_once(text, OLD_534_6, REWORDED_534_6)
            text = _replace_once(text, OLD_EXAMPLE_534_5, NEW_EXAMPLE_534_5)
            start = text.index("534.8. ")
            text = text[:start] + text[text.index("\n", start) + 1 :]
            text = _replace_once(text, OLD_535_3, SPLIT_535_3)
            text = _renumber_535(text)
            text = _replace_once(text, "535.3. Взятие", INSERTED_535_2 + "\n535.3. Взятие")
        out.append((f"fictional_{name}", text))
    return out


def renumbered_only_texts(shift: int = 1) -> list[tuple[str, str]]:
    """The embedded rules with every clause of section 535 below 535.1 moved `shift` numbers down
    (and its one internal citation with it): a renumbering and nothing else."""
    out: list[tuple[str, str]] = []
    for name, text in embedded_texts():
        if "535" in name:

            def move(m: re.Match[str]) -> str:
                number = int(m.group(1))
                return f"535.{number + shift if number >= 2 else number}"

            text = re.sub(r"(?m)^535\.(\d+)", move, text)
            text = text.replace("п. 535.5.1.2", f"п. 535.{5 + shift}.1.2")
        out.append((f"renumbered_{name}", text))
    return out


def as_files(texts: list[tuple[str, str]]) -> list[tuple[str, bytes]]:
    return [(name, text.encode("utf-8")) for name, text in texts]

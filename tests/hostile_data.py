"""A hostile card base, rules text and desk link (issue 26), generated here, never committed.

Every text a page shows from them carries Markdown or HTML that would fetch an image from, or link
to, `EVIL` if a page rendered it as markup: card names, texts, classes and the set's name; the rules'
section title, clause texts and version; the desk's title and its own cards' names. `install`
makes the base and the rules the defaults of a server's stores (a test's temporary folders), so
every window of that server opens them.
"""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

import cardbase
import engine
import rules_index
from cardbase import store as card_store
from desk import edits, share
from desk.model import Desk
from rules_index import versions
from rulings import model
from rulings import store as journal_store
from tests import cardbase_cases as cards
from tests.hostile_text import EVIL
from tests.rulings_samples import journal_with_judge

IMAGE = f"![x](http://{EVIL}/a.png)"
LINK = f"[сюда](http://{EVIL}/)"
HTML = f"<img src=http://{EVIL}/b.png>"
BARE = f"http://{EVIL}/c"
WWW = f"www.{EVIL}"
MAIL = f"judge@{EVIL}"
PAYLOADS = (IMAGE, LINK, HTML, BARE, WWW, MAIL)
# What a page's Markdown may never hold unescaped: each would become an image, a link or HTML
# (a backslash before a punctuation mark, or a word joiner inside «http:» or «www.», defuses it).
UNESCAPED = tuple(
    re.compile(pattern)
    for pattern in (
        r"(?<!\\)!\[",
        r"(?<!\\)\]\(",
        r"(?<!\\)<(?:img|a\b|script)",
        r"https?://",
        rf"www\.{re.escape(EVIL)}",
        rf"@{re.escape(EVIL)}",
    )
)

RULES = (
    f"900. Пробный раздел {IMAGE}\n"
    f"900.1. Первый пункт {LINK} и {WWW}, см. 900.2.\n"
    f"900.2. Второй пункт {HTML} **жирно** {MAIL}.\n"
    f"900.3. Третий пункт {BARE}.\n"
    "РП 9.9 от 01.01.2030\n"
)


def base_files() -> list[tuple[str, bytes]]:
    """The test base with a payload in every card's name and text, its classes and a set's name."""
    recs = cards.records()
    for k, rec in enumerate(recs):
        payload = PAYLOADS[k % len(PAYLOADS)]
        rec["name"] = f"{rec['name']} {payload}"
        rec["text"] = f"{payload} {rec.get('text') or ''}".strip()
        rec["class"] = [LINK]
    name, data = cards.files()[1]
    consts = json.loads(data)
    consts["sets"] = {key: f"{value} {IMAGE}" for key, value in consts["sets"].items()}
    return [
        ("hostile.json", json.dumps(recs, ensure_ascii=False).encode()),
        (name, json.dumps(consts, ensure_ascii=False).encode()),
    ]


def base() -> cardbase.CardBase:
    (name, data), consts = base_files()
    return cardbase.import_base(data, name, constants=consts)


def desk_token(library: engine.CardLibrary) -> str:
    """A `?desk=` link's token: a hostile title and two own cards with hostile names."""
    desk = Desk(title=f"Спор {IMAGE} {WWW}")
    for entry in (
        {
            "id": "own1",
            "card": {"template": "Наземное существо", "name": f"Орк {LINK}", "life": 5},
            "owner": "A",
            "at": "c2",
        },
        {
            "id": "own2",
            "card": {"template": "Наземное существо", "name": f"Гоблин {HTML}", "life": 3},
            "owner": "B",
            "at": "c4",
        },
    ):
        desk = edits.put_card(desk, entry, library)
    return share.encode(desk)


@contextlib.contextmanager
def installed(root: Path) -> Iterator[tuple[str, str]]:
    """The hostile rules and base as the defaults of fresh stores under `root`, and a journal with
    one hostile ruling (number 1), which the app reads through its environment (set for the
    block): (rules version id, base id)."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv(versions.ENV_VAR, str(root / "rules"))
        mp.setenv(card_store.ENV_VAR, str(root / "cards"))
        mp.setenv(journal_store.ENV_VAR, str(root / "rulings.sqlite3"))
        ids = install(root / "rules", root / "cards")
        book, judge = journal_with_judge(root / "rulings.sqlite3")
        text = f"{IMAGE} {LINK} {HTML} {WWW} {MAIL}"
        ruling = model.RulingInput(
            title=f"Спор {IMAGE}", decision=f"Решение {text}", event=LINK, players=MAIL, note=HTML
        )
        book.record(ruling, judge)
        yield ids


def install(rules_root: Path, cards_root: Path) -> tuple[str, str]:
    """The hostile rules and base stored and made the defaults of these stores: (rules version
    id, base id). The folders are what the app reads through its environment variables."""
    files = [("hostile.txt", RULES.encode())]
    rules = versions.VersionStore(rules_root)
    info = rules.save(files, rules_index.load_texts(files, berserk=True), berserk=True)
    versions.publish_version(rules, info.id, make_default=True)
    shop = card_store.CardStore(cards_root)
    stored = shop.save(base(), base_files(), accept_skipped=True)
    card_store.make_default(shop, stored.id)
    return info.id, stored.id

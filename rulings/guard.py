"""Writes outside the journal that need a signed-in judge: storing a rules version on the server,
making one available to everyone, making one the default, removing one; and the same for card
bases (storing one, making a base the one every new window opens with, removing one). Players
only read: an unsigned upload is opened in that window alone and never fills the server's stores.
The guard is checked here, in the API, before the store is touched (rules_index.versions and
cardbase.store keep the one function each for the change itself; they cannot check a sign-in,
since they do not depend on the journal).

A page calls these instead of `rules_index.versions.publish_version` / `remove_version`, passing
the tab's sign-in (`app_pages.journal_form.current_judge()`, or None). The journal may import only
rules_index and lexicon, so a card base's change comes in as a callable: the page passes
`lambda: cardbase.store.make_default(cards, bid)` and the guard runs it only for a signed-in judge.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from rules_index import RulesIndex, versions
from rulings.accounts import Account, SignedIn
from rulings.store import Journal, require_judge

T = TypeVar("T")


def store_rules_version(
    who: SignedIn | None,
    store: versions.VersionStore,
    files: Sequence[tuple[str, bytes]],
    index: RulesIndex,
    *,
    berserk: bool,
    journal: Journal | None = None,
) -> tuple[Account, versions.VersionInfo]:
    """`VersionStore.save` (unshared) for a signed-in judge; returns (the judge's account, the version).

    Raises:
        NotSignedInError: no valid sign-in (nothing is stored).
        VersionError, JournalError: as the version store and the journal raise them.
    """
    account = require_judge(who, journal)
    return account, store.save(files, index, berserk=berserk)


def publish_rules_version(
    who: SignedIn | None,
    store: versions.VersionStore,
    vid: str,
    *,
    make_default: bool = False,
    journal: Journal | None = None,
) -> tuple[Account, versions.VersionInfo | None]:
    """`versions.publish_version` for a signed-in judge; returns (the judge's account, the version).

    Raises:
        NotSignedInError: no valid sign-in (nothing is changed).
        VersionError, JournalError: as the version store and the journal raise them.
    """
    account = require_judge(who, journal)
    return account, versions.publish_version(store, vid, make_default=make_default)


def remove_rules_version(
    who: SignedIn | None, store: versions.VersionStore, vid: str, *, journal: Journal | None = None
) -> tuple[Account, versions.VersionInfo]:
    """`versions.remove_version` for a signed-in judge; returns (the judge's account, the version).

    Raises:
        NotSignedInError: no valid sign-in (nothing is removed).
        VersionError, JournalError: as the version store and the journal raise them.
    """
    account = require_judge(who, journal)
    return account, versions.remove_version(store, vid)


def change_card_base(
    who: SignedIn | None, change: Callable[[], T], *, journal: Journal | None = None
) -> tuple[Account, T]:
    """Run a card store's change for everyone (`CardStore.save`, `cardbase.store.make_default` or
    `remove_base`, bound to its arguments) for a signed-in judge; returns (the judge's account,
    what it returned).

    Raises:
        NotSignedInError: no valid sign-in (`change` is not called: nothing is changed).
        JournalError: the journal cannot say who is signed in (nothing is changed).
        Whatever `change` raises (cardbase.CardBaseError), after the sign-in was checked.
    """
    account = require_judge(who, journal)
    return account, change()

"""Writes outside the journal that need a signed-in judge: making a rules version available to
everyone, and removing one. The guard is checked here, in the API, before the version store is
touched (rules_index.versions keeps the one function each for the change itself; it cannot check
a sign-in, since the rules index does not depend on the journal).

A page calls these instead of `rules_index.versions.publish_version` / `remove_version`, passing
the tab's sign-in (`st.session_state[app_pages.journal_form.JUDGE_KEY]`, or None).
"""

from __future__ import annotations

from rules_index import versions
from rulings.accounts import Account, SignedIn
from rulings.store import Journal, require_judge


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

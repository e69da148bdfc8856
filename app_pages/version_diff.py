"""Rules versions side by side for the pages: which versions a window can compare, their diff
(cached), and the notices the clause page and the journal show. Rendering only; the diff itself is
rules_index.diff, the fates rules_index.fates and rulings.affected.

Versions a window can compare today: the built-in rules and the rules this window uploaded
(«Правила» page, or «Что изменилось»). A link names its side's version with `v=`; the built-in
rules' label opens them on the clause page even in a window that reads an upload (so both sides
of a comparison can be opened). The stored versions of the rules-documents branch join the list
when it lands.

The diff of two versions is cached per process, keyed by the content of both (same texts, same
diff, whoever asks); it is immutable, so sharing it keeps no judge's state.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import streamlit as st

import engine
from app_pages import common
from engine.implemented import VersionView
from rules_index import RulesIndex
from rules_index.diff import RulesDiff, diff_indexes, side_of
from rules_index.fates import other_side
from rulings import affected
from rulings.model import Ruling

BUILTIN = "builtin"
WINDOW = "window"
# The comparison this window chose on «Что изменилось» (keys of `choices`).
OLD_KEY = "changes_old"
NEW_KEY = "changes_new"


@dataclass(frozen=True)
class Choice:
    """A version a window can compare: its key, how it is named, its index, its `v=` in links."""

    key: str
    label: str
    index: RulesIndex

    @property
    def name(self) -> str:
        return self.index.version_label or self.index.version or "версия без отметки"


def choices() -> list[Choice]:
    """The built-in rules, then this window's uploaded ones (if any)."""
    base = common.base_rules()
    out = [Choice(BUILTIN, f"Встроенные: {common.version_text(base.index)}", base.index)]
    if common.has_upload():
        upload = common.current_index()
        out.append(Choice(WINDOW, f"Загруженные в этом окне: {common.version_text(upload)}", upload))
    return out


def choice(key: str) -> Choice | None:
    return next((c for c in choices() if c.key == key), None)


def fingerprint(index: RulesIndex) -> int:
    """Equal for indexes of the same text (within this process)."""
    return hash((index.version, tuple((p.id, p.text, p.bullets, p.examples) for p in index.paragraphs)))


@st.cache_resource(max_entries=8, show_spinner="Сравниваю версии правил…")
def _shared_diff(old_print: int, new_print: int, _old: RulesIndex, _new: RulesIndex) -> RulesDiff:
    return diff_indexes(_old, _new)


def diff_of(old: RulesIndex, new: RulesIndex) -> RulesDiff:
    return _shared_diff(fingerprint(old), fingerprint(new), old, new)


def link_index(index: RulesIndex, cid: str) -> RulesIndex:
    """The rules a clause link opens: the built-in ones when its `v=` names them, they hold `cid`
    and this window reads an upload with another label (the old side of a comparison); else the
    window's rules (a link to a clause the built-in rules lack opens the upload, with a warning)."""
    wanted = st.query_params.get(common.VERSION_PARAM)
    base = common.base_rules().index
    if (
        wanted
        and index is not base
        and wanted == base.version_label
        and wanted != index.version_label
        and base.has(cid)
    ):
        return base
    return index


def clause_query(c: Choice, cid: str) -> dict[str, str]:
    """`?p=…&v=…` opening `cid` in version `c` (an upload labelled like the built-in rules gets no
    `v=`, which opens the window's own rules)."""
    params = {common.CLAUSE_PARAM: cid}
    base = common.base_rules().index
    clash = c.key != BUILTIN and c.index.version_label == base.version_label
    if c.index.version_label and not clash:
        params[common.VERSION_PARAM] = c.index.version_label
    return params


def side_link(c: Choice, cid: str) -> None:
    """A link to `cid`'s clause page in version `c`."""
    st.page_link(
        common.ROOT_PAGE,
        label=f"{common.escape_md(c.name)}: п. {common.escape_md(cid)}",
        icon=":material/description:",
        query_params=clause_query(c, cid),
        width="content",
    )


def _partner(index: RulesIndex) -> tuple[Choice, Choice] | None:
    """(old, new) of the comparison this clause page belongs to: the one chosen on «Что изменилось»
    when the page shows one of its sides, else the built-in rules against the window's upload."""
    found = choices()
    if len(found) < 2:
        return None
    by_key = {c.key: c for c in found}
    old = by_key.get(str(st.session_state.get(OLD_KEY, BUILTIN)))
    new = by_key.get(str(st.session_state.get(NEW_KEY, WINDOW)))
    if old is None or new is None or old.key == new.key:
        old, new = by_key[BUILTIN], by_key[WINDOW]
    if index is not old.index and index is not new.index:
        return None
    return old, new


def render_other_side(index: RulesIndex, cid: str) -> None:
    """On a clause page: what the clause is in the other version compared, with a link."""
    pair = _partner(index)
    if pair is None:
        return
    old, new = pair
    reading = "old" if index is old.index else "new"
    other = new if reading == "old" else old
    said = other_side(diff_of(old.index, new.index), cid, reading=reading)
    if said is None:
        return
    text, targets = said
    diff = diff_of(old.index, new.index)
    with st.container(border=True, key="clause_other_version"):
        st.markdown(":material/compare_arrows: " + common.escape_md(text))
        if targets:
            with st.container(horizontal=True, gap="small"):
                for target in targets:
                    side_link(other, target)
        if old.key == BUILTIN:
            engine_ids = (cid,) if reading == "old" else targets
            view = VersionView(diff, new.index)
            handlers = engine.handlers_by_clause()
            for engine_id in engine_ids:
                warning = view.warning(engine_id)
                if warning and handlers.get(engine_id):
                    names = ", ".join(handlers[engine_id])
                    st.caption(
                        f":material/warning: Движок (п. {common.escape_md(engine_id)} в "
                        f"{common.escape_md(diff.old.name)}; {common.escape_md(names)}): "
                        f"{common.escape_md(warning)}."
                    )
        st.page_link(
            "app_pages/changes.py", label="Все изменения между версиями", icon=":material/difference:"
        )


def ruling_notice(ruling: Ruling) -> None:
    """In the journal: the clauses a ruling cites that changed in the rules this window reads,
    when the ruling names another version the server has. The ruling itself is not touched."""
    current = common.current_index()
    version = ruling.current.rules_version
    written: Sequence[Choice] = [
        c for c in choices() if c.index is not current and affected.written_for(version, side_of(c.index))
    ]
    if not written or not ruling.current.clauses:
        return
    diff = diff_of(written[0].index, current)
    found = affected.ruling_fates(ruling, diff)
    if not found:
        return
    lines = affected.notice_lines(found, diff.new.name)
    head = (
        f"Правила изменились: решение записано по {diff.old.name}, а сейчас открыты {diff.new.name}. "
        "Само решение не изменено."
    )
    st.warning(
        common.escape_md(head) + "\n\n" + "\n".join(f"- {common.escape_md(line)}" for line in lines),
        icon=common.ICON_WARNING,
    )

"""Rules versions side by side for the pages: which versions a window can compare, their diff
(cached), and the notices the clause page and the journal show. Rendering only; the diff itself is
rules_index.diff, the fates rules_index.fates and rulings.affected.

Versions a window can compare: the built-in rules, the versions stored on the server and shared
with everyone (rules_index.versions), the version this window reads, and the ones it uploaded on
«Что изменилось» (stored unshared: this window knows their ids). A link to a clause of a side
carries that side's `v=` (app_pages.common), so it opens the clause in its own version.

The diff of two versions is kept per process, keyed by the content of both (same texts, same
diff, whoever asks); it is immutable, so sharing it keeps no judge's state. It is made in the
server's bounded worker (storage.worker, through app_pages.shared.uploads): a diff of two full rules
texts is seconds of CPU, and in the server's own process it would slow every other judge's search
for as long (one process runs Python one thread at a time); the page that waits shows a bar.
"""

from __future__ import annotations

import collections
import threading
import types
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import streamlit as st

import engine
import rules_index
from app_pages import registry
from app_pages.shared import common, uploads
from engine import VersionView
from rules_index import RulesIndex, versions
from rules_index.diff import RulesDiff, diff_paragraphs, side_of
from rules_index.fates import other_side
from rulings import affected
from rulings.model import Ruling
from storage import worker

BUILTIN = versions.BUILTIN
WINDOW = common.WINDOW
# A diff of two full rules texts (3,000 entries each) takes 2–5 s of CPU and some 200 MB; these
# bound one of the largest the importers let in (rules_index/limits.py) without hanging the server.
DIFF_LIMITS = worker.Limits(cpu_s=120, memory_mb=2048, output_mb=256, wall_s=300)
KEPT_DIFFS = 8
# The comparison this window chose on «Что изменилось» (keys of `choices`), and the versions it
# uploaded there (stored unshared; only this window lists them).
OLD_KEY = "changes_old"
NEW_KEY = "changes_new"
MINE_KEY = "changes_my_versions"
# The pair chosen, kept apart from the widgets' keys (Streamlit drops a widget's state on a page
# that does not draw it, and the clause page needs the pair).
PAIR_KEY = "changes_pair"


def chosen_pair() -> tuple[str, str] | None:
    pair = st.session_state.get(PAIR_KEY)
    if isinstance(pair, tuple) and len(pair) == 2:
        return str(pair[0]), str(pair[1])
    return None


def choose(old_key: str, new_key: str) -> None:
    st.session_state[PAIR_KEY] = (old_key, new_key)


@dataclass(frozen=True)
class Choice:
    """A version a window can compare: its key (a stored id, BUILTIN or WINDOW), how it is named
    in the list, and its index."""

    key: str
    label: str
    index: RulesIndex

    @property
    def name(self) -> str:
        return self.index.version_label or self.index.version or "версия без отметки"


def _stored(vid: str) -> RulesIndex | None:
    try:
        return common.stored_index(str(common.store().root), vid)
    except rules_index.VersionError:
        return None


def remember(vid: str) -> None:
    """A version this window uploaded on «Что изменилось»: listed here for this window only."""
    mine = [str(v) for v in st.session_state.get(MINE_KEY, [])]
    if vid not in mine:
        st.session_state[MINE_KEY] = [*mine, vid]


def choices() -> list[Choice]:
    """The built-in rules, the shared stored versions, this window's version and its uploads."""
    base = common.base_rules()
    out = [Choice(BUILTIN, f"Встроенные: {common.version_text(base.index)}", base.index)]
    shop = common.store()
    current = common.current_version()
    wanted: list[str] = [v.id for v in shop.versions(shared_only=True)]
    wanted += [current] if current not in (BUILTIN, WINDOW) else []
    wanted += [str(v) for v in st.session_state.get(MINE_KEY, [])]
    for vid in dict.fromkeys(wanted):
        info = shop.get(vid)
        index = _stored(vid) if info is not None else None
        if info is None or index is None:
            continue
        where = "доступна всем" if info.shared else "загружена вами"
        out.append(Choice(vid, f"{common.version_text(index)} ({where}, {info.uploaded_text})", index))
    if current == WINDOW:
        index = common.current_index()
        out.append(Choice(WINDOW, f"Только в этом окне: {common.version_text(index)}", index))
    return out


def choice(key: str) -> Choice | None:
    return next((c for c in choices() if c.key == key), None)


def fingerprint(index: RulesIndex) -> int:
    """Equal for indexes of the same text (within this process)."""
    return hash((index.version, tuple((p.id, p.text, p.bullets, p.examples) for p in index.paragraphs)))


class _Diffs:
    """The process's diffs by the fingerprints of both sides, the KEPT_DIFFS last used; a pair
    being made has a lock, so that windows asking for the same diff at once wait for one."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._done: collections.OrderedDict[tuple[int, int], RulesDiff] = collections.OrderedDict()
        self._making: dict[tuple[int, int], threading.Lock] = {}

    def get(self, key: tuple[int, int]) -> RulesDiff | None:
        with self._lock:
            found = self._done.get(key)
            if found is not None:
                self._done.move_to_end(key)
            return found

    def put(self, key: tuple[int, int], diff: RulesDiff) -> None:
        with self._lock:
            self._done[key] = diff
            self._making.pop(key, None)  # a window still waiting on it finds the diff done
            while len(self._done) > KEPT_DIFFS:
                self._done.popitem(last=False)

    def making(self, key: tuple[int, int]) -> threading.Lock:
        with self._lock:
            return self._making.setdefault(key, threading.Lock())


@st.cache_resource(show_spinner=False)
def _diffs() -> _Diffs:
    return _Diffs()


def diff_of(old: RulesIndex, new: RulesIndex, progress: Callable[[float], None] | None = None) -> RulesDiff:
    """What changed from `old` to `new`: kept, or made in the worker (`progress` hears the share
    done while this window waits for it).

    Raises:
        storage.worker.LimitError: the diff passed a limit, or the window went away (Russian).
    """
    key = (fingerprint(old), fingerprint(new))
    diffs = _diffs()
    found = diffs.get(key)
    if found is not None:
        return found
    with diffs.making(key):
        found = diffs.get(key)
        if found is None:
            found = uploads.parse(
                diff_paragraphs,
                tuple(old.paragraphs),
                tuple(new.paragraphs),
                limits=DIFF_LIMITS,
                progress=progress,
                old_side=side_of(old),
                new_side=side_of(new),
            ).value
            diffs.put(key, found)
    return found


def diff_shown(old: RulesIndex, new: RulesIndex, what: str) -> RulesDiff | None:
    """The diff with a bar while it is made («what»: what the page makes it for); None, with the
    reason said on the page, when it could not be made."""
    bar = st.empty()

    def moved(share: float) -> None:
        bar.progress(min(max(share, 0.0), 1.0), text=f"Сравниваю версии правил ({what}): {share:.0%}")

    try:
        return diff_of(old, new, progress=moved)
    except worker.LimitError as err:
        st.warning(f"Версии не сравнены ({what}): {_why(err)}", icon=common.ICON_WARNING)
        return None
    finally:
        bar.empty()


# What a limit means for a diff (the worker's own messages speak of parsing a file).
_ONE = "это предел для одного сравнения."
_LIMIT_WORDS = types.MappingProxyType(
    {
        "cpu": f"сравнение заняло больше {DIFF_LIMITS.cpu_s} с процессорного времени — {_ONE}",
        "memory": f"сравнению не хватило {DIFF_LIMITS.memory_mb} МБ памяти — {_ONE}",
        "wall": f"сравнение не закончилось за {DIFF_LIMITS.wall_s:.0f} с — {_ONE}",
        "output": f"результат сравнения больше {DIFF_LIMITS.output_mb} МБ — {_ONE}",
        "crash": "процесс сравнения прервался; чаще всего так кончается память.",
    }
)


def _why(err: worker.LimitError) -> str:
    return common.escape_md(_LIMIT_WORDS.get(err.limit, str(err)))


def clause_query(c: Choice, cid: str) -> dict[str, str]:
    """`?p=…&v=…` opening `cid` in version `c` (this window's own rules: no `v=`)."""
    params = {common.CLAUSE_PARAM: cid}
    if c.key != WINDOW:
        params[common.VERSION_PARAM] = common.version_value(c.key)
    return params


def side_link(c: Choice, cid: str) -> None:
    """A link to `cid`'s clause page in version `c`."""
    registry.link(
        registry.ROOT,
        label=f"{common.escape_md(c.name)}: п. {common.escape_md(cid)}",
        icon=":material/description:",
        query_params=clause_query(c, cid),
        width="content",
    )


def _partner(index: RulesIndex) -> tuple[Choice, Choice] | None:
    """(old, new) of the comparison this clause page belongs to: the one chosen on «Что изменилось»
    when the page shows one of its sides, else the built-in rules against the version shown."""
    found = choices()
    if len(found) < 2:
        return None
    by_key = {c.key: c for c in found}
    pair = chosen_pair() or ("", "")
    old, new = by_key.get(pair[0]), by_key.get(pair[1])
    if old is not None and new is not None and old.key != new.key and index in (old.index, new.index):
        return old, new
    shown = next((c for c in found if c.index is index), None)
    if shown is None or shown.key == BUILTIN:
        return None
    return by_key[BUILTIN], shown


def render_other_side(index: RulesIndex, cid: str) -> None:
    """On a clause page: what the clause is in the other version compared, with a link."""
    pair = _partner(index)
    if pair is None:
        return
    old, new = pair
    reading = "old" if index is old.index else "new"
    other = new if reading == "old" else old
    diff = diff_shown(old.index, new.index, "что стало с пунктом")
    if diff is None:
        return
    said = other_side(diff, cid, reading=reading)
    if said is None:
        return
    text, targets = said
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
        registry.link(registry.CHANGES, label="Все изменения между версиями", icon=":material/difference:")


def ruling_notice(ruling: Ruling) -> None:
    """In the journal: the clauses a ruling cites that changed in the rules this window reads,
    when the ruling names another version the server has. The ruling itself is not touched."""
    current = common.current_index()
    version = ruling.current.rules_version
    written: Sequence[Choice] = [
        c
        for c in choices()
        if c.index is not current
        and c.index.version_label != current.version_label
        and affected.written_for(version, side_of(c.index))
    ]
    if not written or not ruling.current.clauses:
        return
    diff = diff_shown(written[0].index, current, "пункты решения")
    if diff is None:
        return
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

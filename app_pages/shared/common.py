"""What every page of the rules browser shares: the loaded rules, links, safe text rendering.

The built-in rules (embedded, or `--corpus`) are built once per process with `st.cache_resource`;
so is each stored version (rules_index.versions: content-addressed, so its index never changes).
Which version a window reads lives in its `st.session_state`; no other judge's view changes.

URLs: the app's root page answers `/?q=<query>` (a search) and `/?p=<clause id>` (a clause);
every link also carries `v=<version>`: a stored version's id, or the built-in rules' label
(«РП 4.1-2»). A link opens the version it names; one made on rules this server does not have
says so. A window reading anything but the default keeps `v=` in its address, so a reload
keeps it too.
"""

from __future__ import annotations

import argparse
import functools
import gc
import re
import sys
import time
import types
import weakref
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal, TypeVar

import streamlit as st

import lexicon
import rules_index
from app_pages import registry
from app_pages.shared import linklist, uploads
from rules_index import Paragraph, RulesIndex, numbers, versions
from rulings import limits
from storage import clean, worker

T = TypeVar("T")

QUERY_PARAM = "q"
CLAUSE_PARAM = "p"
VERSION_PARAM = "v"
SECTION_PARAM = "s"
# Which of several entries with the same number (1 = the first); only for doubled ids.
OCCURRENCE_PARAM = "n"

# Session keys: the version this window reads (never shared between sessions), and the link
# version this window could not open (said once on the page).
_VERSION_KEY = "rules_version"
_MISSING_KEY = "rules_version_missing"
# Rules parsed for this window alone when the server could not store them: (the ticket of the
# index, held under the server's budget for windows' uploads (uploads.hold), the file names).
WINDOW = "window"
_WINDOW_KEY = "rules_window_index"

# How a query word matched, in the judge's words.
HOW_LABELS: Mapping[str, str] = types.MappingProxyType(
    {
        "number": "номер пункта",
        "exact": "точное слово",
        "form": "другая форма слова",
        "typo": "с опечаткой",
        "jargon": "жаргон",
        "translit": "транслит",
        "card": "название карты",
        "term": "термин правил",
        "phrase": "фраза",
    }
)


# Icons come from the Material Symbols font Streamlit ships (no emoji font needed, no request).
ICON_ABSENT = ":material/block:"
ICON_WARNING = ":material/warning:"
ICON_ERROR = ":material/error:"
ICON_OK = ":material/check_circle:"
ICON_INFO = ":material/info:"


# Streamlit writes a few words of its own in English and offers no setting for them: the hint
# «Press Enter to apply» and the «53/500» counter inside a text box (hidden: pages say in Russian what
# Enter does, over-long input gets a Russian message, and on a 390 px phone both covered the typed
# text), «No results» in a select box, the file uploader's «Upload» and its «5MB per file • TXT» line
# (hidden: our labels give the limits in Russian). A static style of ours replaces them; nothing a
# judge typed goes into it.
RUSSIAN_CSS = """<style>
[data-testid="InputInstructions"] { display: none; }
[role="listbox"][data-empty="true"] [role="option"] span { font-size: 0; }
[role="listbox"][data-empty="true"] [role="option"] span::after {
  content: "Ничего не найдено"; font-size: 1rem;
}
[data-testid="stFileUploaderDropzone"] button [data-testid="stMarkdownContainer"] p { font-size: 0; }
[data-testid="stFileUploaderDropzone"] button [data-testid="stMarkdownContainer"] p::after {
  content: "Выбрать файл"; font-size: 0.875rem;
}
[data-testid="stFileUploaderDropzoneInstructions"] { display: none; }
[data-testid="stFileChip"] [role="alert"] {
  position: static !important; width: auto !important; height: auto !important; clip: auto !important;
  clip-path: none !important; overflow: visible !important; white-space: normal !important;
  margin: 0 0 0 0.5rem !important; color: #b91c1c; font-size: 0.85rem;
}
</style>"""

# What CSS cannot reach: Streamlit's own English sentences in the browser («Page not found» on a
# wrong address, an uploader's refusal, «Choose an option» in an empty select box). A static script
# of ours rewrites them in Russian as they appear; nothing a judge typed goes into it.
RUSSIAN_JS = r"""<script>
(() => {
  if (window.__berserkRussian) return;
  window.__berserkRussian = true;
  const doc = document;
  const main = "Открыта главная страница.";
  const sentences = [
    [/^Skip to main content$/, () => "Перейти к содержимому"],
    [/^Page not found$/, () => "Страница не найдена"],
    [/^You have requested page \/(.*), but no corresponding file was found in the app's pages\/ directory\./,
     (m) => "Страницы «/" + m[1] + "» в приложении нет. " + main],
    [/^The page that you have requested does not seem to exist\./,
     () => "Такой страницы в приложении нет. " + main],
    [/^(?:Error: )?(.*) files are not allowed\.$/, (m) => "Файлы типа " + m[1] + " здесь не принимаются."],
    [/^(?:Error: )?File must be (.*) or smaller\.$/,
     (m) => "Файл больше " + m[1].replace("MB", " МБ").replace("KB", " КБ") + ": не загружен."],
    [/^(?:Error: )?Only one file is allowed\.$/, () => "Можно загрузить только один файл."],
    [/^(?:Error: )?File size is too small\.$/, () => "Файл пуст."],
    [/^Error:$/, () => "Ошибка:"],
    [/^(\d+(?:\.\d+)?)(B|KB|MB|GB)$/, (m) => m[1] + " " + {B: "Б", KB: "КБ", MB: "МБ", GB: "ГБ"}[m[2]]],
  ];
  const placeholders = {"Choose an option": "Выберите…", "Choose options": "Выберите…"};
  const fix = (root) => {
    if (!root) return;
    const walker = doc.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.nodeValue.trim();
      for (const [re, say] of sentences) {
        const m = text.match(re);
        if (m) { node.nodeValue = say(m); break; }
      }
    }
    if (root.querySelectorAll) {
      root.querySelectorAll("input[placeholder]").forEach((el) => {
        const ru = placeholders[el.getAttribute("placeholder")];
        if (ru) el.setAttribute("placeholder", ru);
      });
    }
  };
  fix(doc.body);
  new MutationObserver((changes) => {
    for (const c of changes) {
      if (c.type === "characterData") fix(c.target.parentNode);
      c.addedNodes.forEach((n) => fix(n.nodeType === 1 ? n : n.parentNode));
      if (c.type === "attributes") fix(c.target.parentNode);
    }
  }).observe(doc.body, {childList: true, subtree: true, characterData: true,
                        attributes: true, attributeFilter: ["placeholder"]});
})();
</script>"""


def russian_widgets() -> None:
    """Replace Streamlit's own English words in widgets (see RUSSIAN_CSS); app.py calls it every run."""
    st.html(RUSSIAN_CSS)
    st.html(RUSSIAN_JS, unsafe_allow_javascript=True)


@dataclass(frozen=True)
class SharedRules:
    """The rules every session starts with, and why they may not be the ones asked for."""

    index: RulesIndex
    origin: str
    problem: str | None = None


def corpus_argument(argv: Sequence[str]) -> str | None:
    """The `--corpus PATH` given after `--` on the `streamlit run` line (make run ARGS=...)."""
    return _corpus_of(tuple(argv))


@functools.lru_cache(maxsize=4)
def _corpus_of(argv: tuple[str, ...]) -> str | None:
    """Parsed once per command line: building the parser (and its gettext look-ups) on each of
    the dozens of `current_index()` calls of a desk run was 4% of its script time (issue 24)."""
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--corpus", default=None)
    known, _ = parser.parse_known_args(list(argv))
    corpus = known.corpus
    return str(corpus) if corpus else None


def kept_for_good(value: T, *, collect_all: bool = True) -> T:
    """`value`, built once for the life of the process, moved out of the cycle collector's way
    with everything else alive now (gc.freeze). Python's full collection walks every object it
    tracks; with Streamlit's collection after each run off (.streamlit/config.toml), the one the
    interpreter still starts now and then walked the whole index and the library's scenarios, a
    pause of one window's run in about sixty (issue 24). Only for what the process never lets go:
    a frozen object is still freed when nothing refers to it, but a frozen cycle never is; so the
    garbage goes first: the young generations always, all of them with `collect_all`. Without it
    for the base rules, built in the process's first run (the cold first window, issue 24): there
    the full collection found 36 unreachable objects left by the imports and took 44 ms."""
    gc.collect(2 if collect_all else 1)
    gc.freeze()
    return value


@st.cache_resource(show_spinner="Загружаю правила…")
def shared_rules(corpus: str | None) -> SharedRules:
    """The process-wide rules: `--corpus` when given and readable, else the embedded text."""
    return kept_for_good(_shared_rules(corpus), collect_all=False)


def _shared_rules(corpus: str | None) -> SharedRules:
    if corpus:
        try:
            return SharedRules(rules_index.load_paths([corpus]), origin=f"файл(ы) «{corpus}» (--corpus)")
        except rules_index.CorpusError as err:
            problem = f"Правила из --corpus не загружены: {err} Показаны встроенные правила."
            return SharedRules(rules_index.load_default(), origin="встроенные правила", problem=problem)
    return SharedRules(rules_index.load_default(), origin="встроенные правила")


def base_rules() -> SharedRules:
    return shared_rules(corpus_argument(sys.argv[1:]))


def store() -> versions.VersionStore:
    """The server's stored rules versions (data/rules/, or $BERSERK_RULES_DIR)."""
    return versions.default_store()


@st.cache_resource(show_spinner="Загружаю версию правил…", max_entries=8)
def stored_index(root: str, vid: str) -> RulesIndex:
    """A stored version's index, shared read-only by every window that reads it. Built in the
    server's bounded worker: a full rules text is a second or more of CPU that every other
    window's run would otherwise wait through."""
    try:
        return versions.VersionStore(root).load(vid, build=_built_in_worker)
    except worker.LimitError as err:
        raise rules_index.VersionError(f"Версия правил не открыта: {err}") from None


def _built_in_worker(files: list[tuple[str, bytes]], *, berserk: bool) -> RulesIndex:
    return uploads.parse(rules_index.load_texts, files, limits=uploads.RULES, berserk=berserk).value


def builtin_id() -> str:
    """What `v=` says for the built-in rules: their label («РП 4.1-2»), or «builtin»."""
    return base_rules().index.version_label or versions.BUILTIN


def _resolve(wanted: str) -> str | None:
    """The version a `v=` value names: a stored id, the built-in label, or a shared version's
    label (the default first); None when this server has no such version."""
    if wanted in (versions.BUILTIN, builtin_id()):
        return versions.BUILTIN
    shop = store()
    if shop.get(wanted) is not None:
        return wanted
    default = shop.default_id()
    shared = shop.versions(shared_only=True)
    for info in sorted(shared, key=lambda v: v.id != default):
        if wanted in (info.label, info.stamp):
            return info.id
    return None


# What this run has already worked out about the window's rules (see `_once_per_run`).
_RUN_MEMO_KEY = "rules_run_memo"


def new_run() -> None:
    """app.py calls this first in every run: the store (settings.json, meta.json) is read afresh
    once per run, whatever another judge changed since the last one."""
    st.session_state.pop(_RUN_MEMO_KEY, None)


def _inputs() -> tuple[str, object, object]:
    return (
        str(st.query_params.get(VERSION_PARAM, "")),
        st.session_state.get(_VERSION_KEY),
        st.session_state.get(_WINDOW_KEY),
    )


def _once_per_run(name: str, compute: Callable[[], T]) -> T:
    """compute(), once per run while what it reads of this window stays the same (the link's `v=`,
    the window's choice and its own upload; a change of any recomputes). A desk run asked for
    the window's rules dozens of times, each reading settings.json and meta.json from disk (8% of
    its script time, issue 24). Kept in the tab's state: never shared between windows."""
    memo = st.session_state.get(_RUN_MEMO_KEY)
    if not isinstance(memo, dict):
        memo = {}
        st.session_state[_RUN_MEMO_KEY] = memo
    held = memo.get(name)
    if held is not None:
        link, chosen, window, kept = held
        now = _inputs()
        value = kept() if isinstance(kept, weakref.ref) else kept
        if link == now[0] and chosen == now[1] and window is now[2] and value is not None:
            return value  # type: ignore[no-any-return]
    value = compute()
    # An index is kept by reference only: its owner (the process's cache, or the server's budget
    # for players' uploads, uploads.hold) decides how long it lives, not a memo left in a session.
    memo[name] = (*_inputs(), weakref.ref(value) if isinstance(value, RulesIndex) else value)
    return value


def per_run(name: str, compute: Callable[[], T]) -> T:
    """compute() once per run of this tab (see `_once_per_run`): a handle the run uses in several
    places (the journal: the sign-in in the menu and the search's ready answers)."""
    return _once_per_run("per_run:" + name, compute)


def current_version() -> str:
    """The version this window reads: the link's `v=` if this server has it, else the window's
    choice, else the server's default (versions.BUILTIN for the built-in rules)."""
    return _once_per_run("version", _current_version)


def _current_version() -> str:
    wanted = st.query_params.get(VERSION_PARAM)
    held = _window() if st.session_state.get(_VERSION_KEY) == WINDOW else None
    if wanted and held is not None and str(wanted) == held[0].version_label:
        # A link made in this window names its upload by label (it has no id on the server): keep
        # reading the upload, even when the built-in or a shared version has the same label.
        return WINDOW
    if wanted:
        found = _resolve(str(wanted))
        if found is not None:
            st.session_state[_VERSION_KEY] = found
            st.session_state.pop(_MISSING_KEY, None)
            return found
        st.session_state[_MISSING_KEY] = str(wanted)
    chosen = st.session_state.get(_VERSION_KEY)
    if chosen == WINDOW and _window() is not None:
        return WINDOW
    if isinstance(chosen, str) and (chosen == versions.BUILTIN or store().get(chosen) is not None):
        return chosen
    return store().default_id()


def _window() -> tuple[RulesIndex, list[str]] | None:
    held = st.session_state.get(_WINDOW_KEY)
    if not (isinstance(held, tuple) and len(held) == 2):
        return None
    index = uploads.redeem(held[0])
    if not isinstance(index, RulesIndex):  # dropped for room: the window is told, once
        st.session_state.pop(_WINDOW_KEY, None)
        st.session_state["rules_version_problem"] = uploads.dropped(_names(held[1]))
        return None
    return index, list(held[1])


def _names(names: Sequence[str]) -> str:
    return ", ".join(f"«{n}»" for n in names)


def use_window_index(index: RulesIndex, names: Sequence[str], size: int) -> str | None:
    """Rules for this window alone (a reload loses them): the path when the server cannot store
    an upload. Held under the server's budget for windows' uploads (`size`: the parse's pickled
    size); None, or why they could not be held (nothing changes then)."""
    ticket = uploads.hold(worker.Parsed(index, size), _names(names))
    if ticket is None:
        return uploads.too_big_to_hold(_names(names))
    st.session_state[_WINDOW_KEY] = (ticket, list(names))
    st.session_state[_VERSION_KEY] = WINDOW
    st.query_params.pop(VERSION_PARAM, None)
    return None


def use_version(vid: str) -> None:
    """Make this window read version vid (after it loaded without error); the address keeps it."""
    st.session_state[_VERSION_KEY] = vid
    st.session_state.pop(_MISSING_KEY, None)
    st.query_params[VERSION_PARAM] = version_value(vid)


def version_value(vid: str) -> str:
    """The `v=` value of a version."""
    return builtin_id() if vid == versions.BUILTIN else vid


def _load(vid: str) -> RulesIndex | None:
    if vid == versions.BUILTIN:
        return base_rules().index
    if vid == WINDOW:
        held = _window()
        return held[0] if held else None
    try:
        return stored_index(str(store().root), vid)
    except rules_index.VersionError as err:
        st.session_state["rules_version_problem"] = str(err)
        return None


def current_index() -> RulesIndex:
    """The rules this window reads (see `current_version`); the built-in ones if that version
    cannot be read (the reason is kept for `version_problem`)."""
    return _once_per_run("index", _current_index)


def _current_index() -> RulesIndex:
    vid = current_version()
    index = _load(vid)
    if index is None:
        st.session_state[_VERSION_KEY] = versions.BUILTIN
        return base_rules().index
    if vid not in (WINDOW, store().default_id()) and not st.query_params.get(VERSION_PARAM):
        st.query_params[VERSION_PARAM] = version_value(vid)
    return index


def version_problem() -> str | None:
    """Why the version this window asked for could not be read, once."""
    problem = st.session_state.pop("rules_version_problem", None)
    return str(problem) if problem else None


def current_info() -> versions.VersionInfo | None:
    """The stored version this window reads (None for the built-in rules or a window's own)."""
    vid = current_version()
    return None if vid in (versions.BUILTIN, WINDOW) else store().get(vid)


def current_origin() -> str:
    held = _window() if current_version() == WINDOW else None
    if held is not None:
        return "загружены вами только в это окно: " + _names(held[1])
    info = current_info()
    if info is None:
        return base_rules().origin
    shared = "доступна всем" if info.shared else "открыта по ссылке, в общем списке её нет"
    return f"загружены {info.uploaded_text}: {info.names} ({shared})"


def has_upload() -> bool:
    """Whether this window reads something other than the server's default."""
    return current_version() != store().default_id()


def forget_upload() -> None:
    """Back to the server's default version."""
    st.session_state[_VERSION_KEY] = store().default_id()
    st.session_state.pop(_MISSING_KEY, None)
    st.query_params.pop(VERSION_PARAM, None)


def version_text(index: RulesIndex) -> str:
    return index.version or "версия не указана в тексте"


def _link_version(index: RulesIndex) -> str | None:
    """What `v=` a link made on `index` carries."""
    if index is base_rules().index:
        return builtin_id()
    vid = current_version()
    if vid not in (versions.BUILTIN, WINDOW) and _load(vid) is index:
        return vid
    return index.version_label


def entry(index: RulesIndex, cid: str) -> Paragraph | None:
    """The entry a link opens: for a doubled id, the one its `n=` names (the first by default)."""
    found = index.occurrences(cid)
    if not found:
        return None
    k = (numbers.whole(st.query_params.get(OCCURRENCE_PARAM, "1"), 1, len(found)) or 1) - 1
    return found[k]


def duplicate_notice(index: RulesIndex, cid: str, shown: Paragraph) -> None:
    """Say that the number is doubled, where the other entries are, and link them."""
    found = index.occurrences(cid)
    if len(found) < 2:
        return
    number = next(k for k, p in enumerate(found, 1) if p is shown)
    times = lexicon.plural(len(found), "раз", "раза", "раз")
    st.warning(
        f"Номер {escape_md(cid)} в тексте правил встречается {times}; показан "
        f"{number}-й ({escape_md(shown.where)}).",
        icon=ICON_WARNING,
    )
    for k, p in enumerate(found, 1):
        if p is not shown:
            clause_link(
                index,
                cid,
                label=f"{k}-й пункт {escape_md(cid)} — {escape_md(p.where)}",
                icon=":material/content_copy:",
                occurrence=k - 1,
            )


# Safe text ---------------------------------------------------------------------------------

# Every ASCII punctuation character may be backslash-escaped in CommonMark; escaping all of them
# defuses links, images, emphasis, HTML, Streamlit's «:color[...]» directives and «$» maths in
# rules text that may come from an uploaded file.
_MD_SPECIAL = re.compile(r"([!-/:-@\[-`{-~])")
# GFM turns bare «www.x», «http://x» and «a@b.c» into links after escapes are resolved, so an
# invisible word joiner (U+2060) goes where those patterns need adjacent characters.
_AUTOLINK = re.compile(r"(?i)www(?=\.)|(?:https?|ftp|mailto|xmpp)(?=:)|@")
_JOINER = "\u2060"


def escape_md(text: str) -> str:
    """Text that Streamlit's Markdown shows literally, whatever it contains."""
    text = _AUTOLINK.sub(lambda m: m.group(0) + _JOINER, text)
    return _MD_SPECIAL.sub(r"\\\1", text)


def show_text(text: str) -> None:
    """Rules text as plain text: no Markdown or HTML is parsed at all."""
    lines = [" ".join(line.split()) for line in text.splitlines()]
    st.text("\n".join(line for line in lines if line))


def short(text: str, limit: int = 90) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1].rstrip() + "…"


# Links ------------------------------------------------------------------------------------


def clause_id(raw: str) -> str:
    """A clause id as people write it in a link or a box: «п. 211,4.» means 211.4 (the one
    grammar: rules_index.ids.parse_typed); the text itself when it holds no number."""
    raw = clean.scrub(raw)  # a link's parameter is whatever the sender wrote
    typed = rules_index.ids.parse_typed(raw)
    return typed[0] if typed else raw.strip()


def clause_params(index: RulesIndex, cid: str, occurrence: int = 0) -> dict[str, str]:
    params = {CLAUSE_PARAM: cid}
    version = _link_version(index)
    if version:
        params[VERSION_PARAM] = version
    if occurrence:
        params[OCCURRENCE_PARAM] = str(occurrence + 1)
    return params


def search_params(index: RulesIndex, query: str) -> dict[str, str]:
    params = {QUERY_PARAM: query}
    version = _link_version(index)
    if version:
        params[VERSION_PARAM] = version
    return params


def version_params(index: RulesIndex) -> dict[str, str]:
    """`v=` for a page's own address (the graph page's section choice, for instance)."""
    version = _link_version(index)
    return {VERSION_PARAM: version} if version else {}


def clause_label(index: RulesIndex, cid: str, text: str | None = None) -> str:
    """`clause_list_label` as Markdown, for a page link: «**211.3** — Если в результате…»."""
    return "".join(
        f"**{escape_md(t)}**" if bold else escape_md(t) for t, bold in clause_list_label(index, cid, text)
    )


def _absent(index: RulesIndex, cid: str) -> bool:
    """A clause the loaded text cites but lacks."""
    return index.is_absent(cid) and not index.has(cid)


def clause_link(
    index: RulesIndex,
    cid: str,
    label: str | None = None,
    icon: str | None = None,
    width: Literal["stretch", "content"] = "stretch",
    occurrence: int = 0,
) -> None:
    """A link to the clause view on the app's root (`/?p=cid&v=version`, `&n=2` for the second
    entry of a doubled number). A page link, not a Markdown one: following it does not reload
    the app."""
    absent = _absent(index, cid)
    registry.link(
        registry.ROOT,
        label=label if label is not None else clause_label(index, cid),
        icon=ICON_ABSENT if absent else icon,
        query_params=clause_params(index, cid, occurrence),
        width=width,
    )


def clause_list_label(index: RulesIndex, cid: str, text: str | None = None) -> tuple[tuple[str, bool], ...]:
    """A clause's label as text pieces, each bold or not: «211.3» (bold) « — Если в результате…»;
    an absent clause says so in words, not by colour (its number not bold). `clause_label` writes
    it as Markdown for a page link."""
    if _absent(index, cid):
        return ((cid, False), (" — нет в загруженном тексте правил", False))
    para = index.get(cid)
    if text is None and para is not None:
        # short enough that a link fits one line on a 390 px phone
        text = short(para.text, 36)
    return ((cid, True), (f" — {text}", False)) if text else ((cid, True),)


def clause_list_link(
    index: RulesIndex,
    cid: str,
    label: tuple[tuple[str, bool], ...] | None = None,
    occurrence: int = 0,
    icon: str = ":material/description:",
) -> linklist.Link:
    """The same link as `clause_link`, for a list drawn as one element (linklist): a clause the
    loaded text lacks is marked by its icon, as there."""
    absent = _absent(index, cid)
    label = label if label is not None else clause_list_label(index, cid)
    name = linklist.icon_name(ICON_ABSENT if absent else icon)
    return linklist.Link(registry.ROOT, clause_params(index, cid, occurrence), label, name)


def clause_chip(index: RulesIndex, cid: str) -> None:
    """A short «п. 211.3.1» link, for a row of links (st.container(horizontal=True))."""
    clause_link(index, cid, label=f"п. {escape_md(cid)}", icon=":material/description:", width="content")


def version_notice(index: RulesIndex) -> None:
    """Warn when a link made on rules this server does not have is opened on these."""
    problem = version_problem()
    if problem:
        st.error(escape_md(problem), icon=ICON_ERROR)
    wanted = st.session_state.get(_MISSING_KEY)
    if not wanted or wanted != st.query_params.get(VERSION_PARAM):
        return
    loaded = index.version_label or "без указания версии"
    st.warning(
        f"Ссылка сделана по правилам «{escape_md(str(wanted))}», а на этом сервере такой версии нет "
        f"(удалена или не загружалась); показаны «{escape_md(loaded)}». "
        "Текст и номера пунктов могут отличаться.",
        icon=ICON_WARNING,
    )


# Uploads ----------------------------------------------------------------------------------

_UPLOADS_KEY = "tab_upload_budget"  # this tab's rulings.limits.UploadBudget


def take_upload(names: Sequence[str], size: int) -> str | None:
    """Count files against this tab's upload budget (rulings.limits) before they are parsed: the
    Russian reason they are refused now, or None — and then they are counted."""
    budget = st.session_state.get(_UPLOADS_KEY)
    if not isinstance(budget, limits.UploadBudget):
        budget = limits.UploadBudget()
    now = time.time()
    refused = budget.refusal(list(names), size, now)
    if refused is None:
        st.session_state[_UPLOADS_KEY] = budget.spend(len(names), size, now)
    return refused


def rules_line(index: RulesIndex) -> str:
    """«Правила: <version> · <where they come from>», the line under a page's title."""
    return f"Правила: {escape_md(version_text(index))} · {escape_md(current_origin())}"


def rules_caption(index: RulesIndex) -> None:
    st.caption(rules_line(index))


def fragment_rules(drawn_key: str, alone: bool) -> RulesIndex:
    """The rules a page's `st.fragment` reads, as a whole run would read them now. A fragment's own
    run (`alone`: a tap or Enter in it) does not go through app.py, which reads the store once per
    run, so it reads it afresh here: another judge may have made another version the default or
    removed this window's, the server's budget may have dropped this window's own upload. When the
    window's rules are then not those the page around the fragment was drawn for (the version and
    its rules line, kept under `drawn_key` by the last whole run), the whole page is asked for, so
    nothing on it names other rules than the fragment reads. A window whose address or choice names
    a version keeps it (`current_version`); only one following the default follows a new one. The
    search page and the desk both call this first in their fragment."""
    if alone:
        new_run()
    index = current_index()
    drawn = (current_version(), rules_line(index))
    if alone and drawn != st.session_state.get(drawn_key):
        st.rerun(scope="app")  # other rules than the page names: the whole page's to draw
    st.session_state[drawn_key] = drawn
    return index

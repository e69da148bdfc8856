"""What every page of the rules browser shares: the loaded rules, links, safe text rendering.

The embedded (or `--corpus`) rules are built once per process with `st.cache_resource` and only
read afterwards. A rules text a judge uploads is parsed for that judge alone and lives in their
`st.session_state`; no other judge's view changes.

URLs: the app's root page answers `/?q=<query>` (a search) and `/?p=<clause id>` (a clause);
every link also carries `v=<rules version>` so that a link opened on other rules can say so.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

import streamlit as st

import rules_index
from rules_index import RulesIndex

# The page served at the app's root: it shows a search (?q=) or a clause (?p=).
ROOT_PAGE = "app_pages/search.py"
CLAUSE_PAGE = "app_pages/clause.py"
GRAPH_PAGE = "app_pages/graph.py"
RULES_PAGE = "app_pages/rules.py"

QUERY_PARAM = "q"
CLAUSE_PARAM = "p"
VERSION_PARAM = "v"
SECTION_PARAM = "s"

# Session keys of the judge's own uploaded rules (never shared between sessions).
_UPLOADED_INDEX = "rules_uploaded_index"
_UPLOADED_NAMES = "rules_uploaded_names"

# How a query word matched, in the judge's words.
HOW_LABELS: Mapping[str, str] = {
    "number": "номер пункта",
    "exact": "точное слово",
    "form": "другая форма слова",
    "typo": "с опечаткой",
    "jargon": "жаргон",
    "card": "название карты",
    "term": "термин правил",
    "phrase": "фраза",
}


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
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--corpus", default=None)
    known, _ = parser.parse_known_args(list(argv))
    corpus = known.corpus
    return str(corpus) if corpus else None


@st.cache_resource(show_spinner="Загружаю правила…")
def shared_rules(corpus: str | None) -> SharedRules:
    """The process-wide rules: `--corpus` when given and readable, else the embedded text."""
    if corpus:
        try:
            return SharedRules(rules_index.load_paths([corpus]), origin=f"файл(ы) «{corpus}» (--corpus)")
        except rules_index.CorpusError as err:
            problem = f"Правила из --corpus не загружены: {err} Показаны встроенные правила."
            return SharedRules(rules_index.load_default(), origin="встроенные правила", problem=problem)
    return SharedRules(rules_index.load_default(), origin="встроенные правила")


def base_rules() -> SharedRules:
    return shared_rules(corpus_argument(sys.argv[1:]))


def current_index() -> RulesIndex:
    """The rules this judge is reading: their own upload if any, else the shared rules."""
    uploaded = st.session_state.get(_UPLOADED_INDEX)
    if isinstance(uploaded, RulesIndex):
        return uploaded
    return base_rules().index


def current_origin() -> str:
    names = st.session_state.get(_UPLOADED_NAMES)
    if isinstance(st.session_state.get(_UPLOADED_INDEX), RulesIndex) and isinstance(names, list):
        return "загружены вами: " + ", ".join(f"«{n}»" for n in names)
    return base_rules().origin


def has_upload() -> bool:
    return isinstance(st.session_state.get(_UPLOADED_INDEX), RulesIndex)


def use_upload(index: RulesIndex, names: Sequence[str]) -> None:
    """Make an uploaded rules text this judge's rules (only after it parsed without error)."""
    st.session_state[_UPLOADED_INDEX] = index
    st.session_state[_UPLOADED_NAMES] = list(names)


def forget_upload() -> None:
    st.session_state.pop(_UPLOADED_INDEX, None)
    st.session_state.pop(_UPLOADED_NAMES, None)


def version_text(index: RulesIndex) -> str:
    return index.version or "версия не указана в тексте"


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


def marked_md(spans: Sequence[tuple[str, bool]]) -> str:
    """A search snippet with the matched words in bold (not colour: a phone in sunlight)."""
    out: list[str] = []
    for piece, marked in spans:
        flat = " ".join(piece.split("\n"))
        if marked and flat.strip():
            lead = flat[: len(flat) - len(flat.lstrip())]
            trail = flat[len(flat.rstrip()) :]
            out.append(f"{lead}**{escape_md(flat.strip())}**{trail}")
        else:
            out.append(escape_md(flat))
    return "".join(out)


def short(text: str, limit: int = 90) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1].rstrip() + "…"


# Links ------------------------------------------------------------------------------------


def clause_id(raw: str) -> str:
    """A clause id as people write it in a link or a box: «п. 211.4.» means 211.4."""
    cid = raw.strip()
    for prefix in ("п.", "П.", "п ", "пункт"):
        cid = cid.removeprefix(prefix).strip()
    return cid.rstrip(".").strip()


def clause_params(index: RulesIndex, cid: str) -> dict[str, str]:
    params = {CLAUSE_PARAM: cid}
    if index.version_label:
        params[VERSION_PARAM] = index.version_label
    return params


def search_params(index: RulesIndex, query: str) -> dict[str, str]:
    params = {QUERY_PARAM: query}
    if index.version_label:
        params[VERSION_PARAM] = index.version_label
    return params


def clause_label(index: RulesIndex, cid: str, text: str | None = None) -> str:
    """«211.3 — Если в результате…»; an absent clause says so in words, not by colour."""
    if index.is_absent(cid) and not index.has(cid):
        return f"{escape_md(cid)} — нет в загруженном тексте правил"
    para = index.get(cid)
    if text is None and para is not None:
        # short enough that a link fits one line on a 390 px phone
        text = short(para.text, 36)
    return f"**{escape_md(cid)}**" + (f" — {escape_md(text)}" if text else "")


def clause_link(
    index: RulesIndex,
    cid: str,
    label: str | None = None,
    icon: str | None = None,
    width: Literal["stretch", "content"] = "stretch",
) -> None:
    """A link to the clause view on the app's root (`/?p=cid&v=version`). A page link, not a
    Markdown one: following it does not reload the app, so a judge's uploaded rules stay."""
    absent = index.is_absent(cid) and not index.has(cid)
    st.page_link(
        ROOT_PAGE,
        label=label if label is not None else clause_label(index, cid),
        icon=ICON_ABSENT if absent else icon,
        query_params=clause_params(index, cid),
        width=width,
    )


def clause_chip(index: RulesIndex, cid: str) -> None:
    """A short «п. 211.3.1» link, for a row of links (st.container(horizontal=True))."""
    clause_link(index, cid, label=f"п. {escape_md(cid)}", icon=":material/description:", width="content")


def version_notice(index: RulesIndex) -> None:
    """Warn when a link made on other rules is opened on these."""
    wanted = st.query_params.get(VERSION_PARAM)
    if not wanted or wanted == index.version_label:
        return
    loaded = index.version_label or "без указания версии"
    st.warning(
        f"Ссылка сделана по правилам «{escape_md(wanted)}», а сейчас загружены «{escape_md(loaded)}». "
        "Текст и номера пунктов могут отличаться.",
        icon=ICON_WARNING,
    )


def rules_caption(index: RulesIndex) -> None:
    st.caption(f"Правила: {escape_md(version_text(index))} · {escape_md(current_origin())}")

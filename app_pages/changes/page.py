"""«Что изменилось» — two rules versions compared clause by clause (rules_index.diff).

A judge picks «Было» and «Стало»; the changes come grouped by section, the changed words marked
[+вставлено+] and [−удалено−] (bold and struck through as well: readable without colour), each
side linking to its clause page in its version. «Только изменения» hides the clauses that did not
change; a long diff is paged (a full rules text has some 3,000 entries), so the page never draws
more than one page of changes at a time.
"""

from __future__ import annotations

import math

import streamlit as st

import lexicon
import rules_index
from app_pages import rules as rules_page
from app_pages.changes import affected as changes_affected
from app_pages.journal import form as journal_form
from app_pages.shared import common, version_diff
from app_pages.shared.version_diff import Choice
from rules_index import diff_groups, uploads
from rules_index.diff import Change, RulesDiff, kind_word, part_word
from rules_index.diff_cli import headline, ref_lines, summary
from rules_index.diff_groups import ALL_SECTIONS, Moved, Same
from rules_index.wordiff import DELETE_MARKS, INSERT_MARKS, OP_EQUAL, OP_INSERT, Word, compact

UPLOAD_KEY = "changes_upload"
ONLY_KEY = "changes_only"
SECTION_KEY = "changes_section"
PAGE_KEY = "changes_page"
_DONE_KEY = "changes_upload_done"
_RESULT_KEY = "changes_upload_result"
PAGE_SIZE = 30
WINDOW_ONLY = (
    "Они открыты только в этом окне (и читаются в нём вместо прежних правил); сохранить на сервере "
    "может судья (войдите как судья в «Загрузить другую версию правил» и загрузите файл снова)."
)


def _handle_upload() -> None:
    files = st.session_state.get(UPLOAD_KEY) or []
    uploaded = [(f.file_id, f.name, f.getvalue()) for f in files]
    done = tuple(file_id for file_id, _, _ in uploaded)
    if not uploaded or st.session_state.get(_DONE_KEY) == done:
        return
    st.session_state[_DONE_KEY] = done
    pairs = [(name, data) for _, name, data in uploaded]
    problem = uploads.check_upload(pairs) or common.take_upload(
        [n for n, _ in pairs], sum(len(d) for _, d in pairs)
    )
    if problem is None:
        try:
            index = rules_index.load_texts(pairs, berserk=True)
        except rules_index.CorpusError as err:
            problem = str(err)
        else:
            _keep(pairs, index)
            return
    st.session_state[_RESULT_KEY] = ("error", f"Файл не загружен: {problem} Сравнение осталось прежним.")


def _keep(pairs: list[tuple[str, bytes]], index: rules_index.RulesIndex) -> None:
    """Make the upload the «Стало» side: stored unshared (this window lists it) for a signed-in
    judge, through rulings.guard; for a player in this window alone (players only read)."""
    clauses = lexicon.plural(len(index.paragraphs), "пункт", "пункта", "пунктов")
    counts = f"{common.version_text(index)} ({clauses})"
    info, why = rules_page.store_or_window(pairs, index, True)
    if info is None:
        key, note = version_diff.WINDOW, f"{why} {WINDOW_ONLY}"
    else:
        version_diff.remember(info.id)
        key, note = (
            info.id,
            " Они сохранены на сервере; в общем списке версий их нет, пока судья не откроет их всем.",
        )
    old = st.session_state.get(version_diff.OLD_KEY)
    old = version_diff.BUILTIN if old in (None, key) else str(old)
    st.session_state[version_diff.OLD_KEY] = old
    st.session_state[version_diff.NEW_KEY] = key
    version_diff.choose(old, key)
    st.session_state[_RESULT_KEY] = ("ok", f"Загружены правила {counts} для сравнения.{note}")


def _render_upload(expanded: bool) -> None:
    with st.expander("Загрузить другую версию правил", expanded=expanded, icon=":material/upload_file:"):
        st.caption(
            f"Правила «Берсерк» (РП) в файле {rules_index.KINDS_TEXT}: PDF и .docx до "
            f"{uploads.MAX_FILE_MB} МБ, текст до {uploads.MAX_TEXT_MB} МБ. "
            "Версия станет «Стало» в сравнении; правила, которые читает ваше окно, не меняются."
        )
        if journal_form.current_judge() is None:
            st.caption("Сохранить версию на сервере может судья: войдите перед загрузкой.")
        journal_form.sign_in_panel("changes_signin")
        st.file_uploader(
            "Файлы правил",
            type=[suffix.lstrip(".") for suffix in rules_index.SUFFIXES],
            accept_multiple_files=True,
            max_upload_size=uploads.MAX_FILE_MB,
            key=UPLOAD_KEY,
            on_change=_handle_upload,
        )
    result = st.session_state.pop(_RESULT_KEY, None)
    if isinstance(result, tuple) and len(result) == 2:
        show = st.success if result[0] == "ok" else st.error
        show(
            common.escape_md(str(result[1])), icon=common.ICON_OK if result[0] == "ok" else common.ICON_ERROR
        )


def _pick(found: list[Choice]) -> tuple[Choice, Choice] | None:
    keys = [c.key for c in found]
    labels = {c.key: c.label for c in found}
    kept = version_diff.chosen_pair() or (keys[0], keys[-1])
    if st.session_state.get(version_diff.OLD_KEY) not in keys:
        st.session_state[version_diff.OLD_KEY] = kept[0] if kept[0] in keys else keys[0]
    if st.session_state.get(version_diff.NEW_KEY) not in keys:
        st.session_state[version_diff.NEW_KEY] = kept[1] if kept[1] in keys else keys[-1]
    left, right = st.columns(2)
    old_key = left.selectbox("Было", keys, format_func=labels.__getitem__, key=version_diff.OLD_KEY)
    new_key = right.selectbox("Стало", keys, format_func=labels.__getitem__, key=version_diff.NEW_KEY)
    version_diff.choose(str(old_key), str(new_key))
    if old_key == new_key:
        st.info("Выберите две разные версии: «Было» и «Стало» сейчас одна и та же.", icon=common.ICON_INFO)
        return None
    by_key = {c.key: c for c in found}
    return by_key[str(old_key)], by_key[str(new_key)]


def _word_md(w: Word) -> str:
    text = " ".join(w.text.split())
    if not text:
        return " " if w.text else ""
    lead = " " if w.text[:1].isspace() else ""
    trail = " " if w.text[-1:].isspace() else ""
    if w.op == OP_EQUAL:
        return lead + common.escape_md(text) + trail
    left, right = (common.escape_md(m) for m in (INSERT_MARKS if w.op == OP_INSERT else DELETE_MARKS))
    # The marks stay outside the bold and the strike-through: beside a mark (punctuation) the
    # emphasis opens and closes even inside a word («игрок[+, чей сейчас ход,+]»), where «**»
    # between a letter and a bracket would show as two stars; and the «−» is not hidden by the line.
    body = (
        f"{left}**{common.escape_md(text)}**{right}"
        if w.op == OP_INSERT
        else f"{left}~~{common.escape_md(text)}~~{right}"
    )
    return lead + body + trail


def words_md(words: list[Word]) -> list[str]:
    """One Markdown line per changed part: «_текст_: … [+вставка+] … [−удаление−] …»."""
    lines: list[str] = []
    part = None
    current: list[str] = []
    for w in compact(words, context=10):
        if w.part != part and current:
            lines.append(f"_{part_word(part or 'text')}_: " + "".join(current).strip())
            current = []
        part = w.part
        current.append(_word_md(w))
    if current:
        lines.append(f"_{part_word(part or 'text')}_: " + "".join(current).strip())
    return lines


def _text_of(index: rules_index.RulesIndex, cid: str) -> str:
    p = index.get(cid)
    return common.short(p.full_text, 300) if p is not None else ""


def change_key(change: Change) -> str:
    """The card's key: «change_534-6» by its old ids; «change_added_535-2» for an added clause."""
    ids = change.old or change.new
    return ("change_" if change.old else "change_added_") + "_".join(ids).replace(".", "-")


def _render_change(change: Change, old: Choice, new: Choice, result: RulesDiff) -> None:
    with st.container(border=True, key=change_key(change)):
        st.markdown(f"**{common.escape_md(headline(change))}**")
        with st.container(horizontal=True, gap="small"):
            for cid in change.old:
                version_diff.side_link(old, cid)
            for cid in change.new:
                version_diff.side_link(new, cid)
        if change.words:
            st.markdown("  \n".join(words_md(list(change.words))))
        elif change.kind == "added":
            st.markdown("_новый текст_: " + common.escape_md(_text_of(new.index, change.new[0])))
        elif change.kind == "removed":
            st.markdown("_прежний текст_: " + common.escape_md(_text_of(old.index, change.old[0])))
        elif change.kind in ("split", "merged"):
            st.caption(f"Текст {kind_word(change.kind)} без других изменений.")
        for line in ref_lines(change, result.new.name):
            st.caption(":material/link: " + common.escape_md(line))


def _render_moved(item: Moved, old: Choice, new: Choice) -> None:
    first, last = item.changes[0], item.changes[-1]
    key = "moved_" + first.old[0].replace(".", "-")
    with st.container(border=True, key=key):
        st.markdown(
            f"**→ {common.escape_md(first.old[0])}–{common.escape_md(last.old[0])} → "
            f"{common.escape_md(first.new[0])}–{common.escape_md(last.new[0])} — "
            f"перенумерованы ({len(item.changes)}), текст тот же**"
        )
        with st.expander("Старые и новые номера", icon=":material/format_list_numbered:"):
            st.markdown(
                "  \n".join(
                    f"{common.escape_md(c.old[0])} → {common.escape_md(c.new[0])}" for c in item.changes
                )
            )
        with st.container(horizontal=True, gap="small"):
            version_diff.side_link(old, first.old[0])
            version_diff.side_link(new, first.new[0])


def _section_title(result: RulesDiff, new: Choice, old: Choice, section: str) -> str:
    title = new.index.section_title(section) or old.index.section_title(section)
    return f"Раздел {section}" + (f" «{title}»" if title else "")


def render_diff(old: Choice, new: Choice) -> None:
    result = version_diff.diff_of(old.index, new.index)
    st.markdown(
        f"**{common.escape_md(result.old.name)} → {common.escape_md(result.new.name)}:** "
        + common.escape_md(summary(result))
    )
    if result.identical:
        st.success("Тексты совпадают: изменений нет.", icon=common.ICON_OK)
        return
    changes_affected.render(result, new)
    st.subheader("Изменения по разделам")
    only = st.toggle("Только изменения", value=True, key=ONLY_KEY)
    sections = [sec for sec, _ in result.sections(changed_only=only)]
    counts = {sec: sum(c.changed for c in group) for sec, group in result.sections()}
    options = [ALL_SECTIONS, *sections]
    if st.session_state.get(SECTION_KEY) not in options:
        st.session_state[SECTION_KEY] = ALL_SECTIONS
    section = st.selectbox(
        "Раздел",
        options,
        format_func=lambda s: s if s == ALL_SECTIONS else f"{s} (изменений: {counts.get(s, 0)})",
        key=SECTION_KEY,
    )
    items = diff_groups.items(result, only, str(section))
    pages = max(1, math.ceil(len(items) / PAGE_SIZE))
    page = 1
    if pages > 1:
        if int(st.session_state.get(PAGE_KEY, 1)) > pages:
            st.session_state[PAGE_KEY] = 1
        page = int(
            st.selectbox(
                "Страница", list(range(1, pages + 1)), key=PAGE_KEY, format_func=lambda k: f"{k} из {pages}"
            )
        )
    shown = items[(page - 1) * PAGE_SIZE : page * PAGE_SIZE]
    last_section = None
    for item in shown:
        sec = item.section
        if sec != last_section:
            st.subheader(common.escape_md(_section_title(result, new, old, sec)))
            last_section = sec
        if isinstance(item, Same):
            with st.expander(f"Без изменений: {len(item.ids)}", icon=":material/check:"):
                st.caption(common.escape_md(", ".join(item.ids)))
        elif isinstance(item, Moved):
            _render_moved(item, old, new)
        else:
            _render_change(item, old, new, result)
    if pages > 1:
        st.caption(f"Показаны {len(shown)} из {len(items)}; страница {page} из {pages}.")


def main() -> None:
    st.title("Что изменилось")
    st.caption(
        "Сравнение двух версий правил. Пункты сопоставлены по тексту, а не по номеру: вставленный пункт "
        "не превращает все следующие в «изменённые». Вставки — [+так+], удаления — [−так−]."
    )
    found = version_diff.choices()
    _render_upload(expanded=len(found) < 2)
    found = version_diff.choices()
    if len(found) < 2:
        st.info(
            "Для сравнения нужна вторая версия правил: загрузите её выше или на странице «Правила».",
            icon=common.ICON_INFO,
        )
        return
    pair = _pick(found)
    if pair is not None:
        render_diff(*pair)


if __name__ == "__main__":
    main()

"""«Журнал решений»: find, open, record, amend, lock and export judges' rulings.

Storing, searching, exporting and every write's checks live in the `rulings` package; the forms
are `app_pages.journal_form` (the desk uses `ruling_form` from here too). Reading needs no sign-in;
writing does. Judge-typed text is shown with st.text or in data tables (never as Markdown or
HTML) and reaches SQLite only as bound values. The page lists one page of rulings at a time and
builds the whole journal's export only when asked. No server path is shown to players.
"""

from __future__ import annotations

import math

import streamlit as st

import lexicon
from app_pages.journal.form import open_journal, ruling_form, sign_in_panel
from app_pages.shared import common, version_diff
from rules_index import ids
from rulings import accounts, export, model, search, store

__all__ = ["clause_refs", "open_journal", "render", "ruling_form"]

PAGE_SIZE = 20
SEARCH_WINDOW = 2_000  # a query scores at most the latest this many rulings
_SHORT_FIELDS = ("event", "round", "table_no", "players", "outcome", "rules_version")


def clause_refs(clauses: tuple[str, ...]) -> None:
    """The cited clauses as page links into the rules browser (no reload: a judge's uploaded rules
    stay); an assumption id as a word; anything not shaped like an id is left out."""
    index = common.current_index()
    with st.container(horizontal=True, gap="small"):
        for cid in clauses:
            if ids.is_assumption_id(cid):
                st.caption(common.escape_md(lexicon.cite(cid)))
            elif ids.is_clause_id(cid):
                common.clause_chip(index, cid)


def _answer_view(data: model.RulingInput) -> None:
    """The judge's answer, and beside it the engine's verdict of every step."""
    facts = export.answer_facts(data)
    said = facts[0][1]
    icon = lexicon.verdict_icon(data.judge_verdict) if data.judge_verdict else ":material/draft:"
    st.markdown(f"{icon} **Ответ судьи: {common.escape_md(said)}**")
    for label, value in facts[1:]:
        st.caption(common.escape_md(f"{label}: {value}"))


def _history(ruling: model.Ruling) -> None:
    with st.expander(f"История правок ({len(ruling.revisions)} редакции)", key=f"journal_hist_{ruling.id}"):
        previous: model.RulingInput | None = None
        for rev in ruling.revisions:
            who = f", {rev.author}" if rev.author else ""
            st.markdown(
                common.escape_md(f"**Редакция {rev.rev}** — {export.human_time(rev.created_at)}{who}")
            )
            if rev.data.note:
                st.text("Причина правки: " + rev.data.note)
            if previous is None:
                st.caption("Первая запись.")
            else:
                changed = model.changes(previous, rev.data)
                if not changed:
                    st.caption("Поля не изменились.")
                for ch in changed:
                    if ch.field in ("scenario_yaml", "trace_json"):
                        st.caption(common.escape_md(f"{ch.label}: вложение изменено"))
                        continue
                    old = lexicon.verdict(ch.old) if ch.field == "judge_verdict" and ch.old else ch.old or "—"
                    new = lexicon.verdict(ch.new) if ch.field == "judge_verdict" and ch.new else ch.new or "—"
                    st.caption(common.escape_md(ch.label))
                    st.text(f"было: {old}\nстало: {new}")
            previous = rev.data


def _show_ruling(ruling: model.Ruling, who: accounts.SignedIn | None) -> None:
    cur = ruling.current
    st.subheader(f"Решение № {ruling.id}")
    created, updated = export.human_time(ruling.created_at), export.human_time(ruling.updated_at)
    author = f", {ruling.author}" if ruling.author else ""
    last = ruling.revisions[-1].author if ruling.revisions else ""
    st.caption(
        common.escape_md(
            f"Записано {created}{author}; редакция {ruling.rev} от {updated}{', ' + last if last else ''}"
        )
    )
    if ruling.locked_by:
        when = export.human_time(ruling.locked_at)
        st.info(
            f"Закреплено главным судьёй: {ruling.locked_by}, {when}. Правки не принимаются.",
            icon=":material/lock:",
        )
    st.markdown("**Вопрос**")
    st.text(cur.title)
    _answer_view(cur)
    st.markdown("**Решение судьи**")
    st.text(cur.decision)
    facts = [(model.FIELD_LABELS[n], getattr(cur, n)) for n in _SHORT_FIELDS if getattr(cur, n)]
    if not ruling.author and cur.judge:
        facts.append(("Судья (записано текстом)", cur.judge))
    if facts:
        st.dataframe(
            {"Поле": [f for f, _ in facts], "Значение": [v for _, v in facts]},
            hide_index=True,
            key=f"journal_facts_{ruling.id}",
        )
    if cur.clauses:
        version = f" ({cur.rules_version})" if cur.rules_version else ""
        st.markdown("**Пункты правил**" + export.md_text(version))
        clause_refs(cur.clauses)
        version_diff.ruling_notice(ruling)
    if cur.trace_json.strip():
        with st.expander("Трассировка движка", key=f"journal_trace_{ruling.id}"):
            # Escaped Markdown (rulings.export.md_text): names typed by judges cannot form markup.
            st.markdown("\n".join(export.trace_markdown(cur.trace_json)))
            if st.toggle("Показать как JSON", key=f"journal_trace_json_{ruling.id}"):
                st.code(cur.trace_json, language="json")
    if cur.scenario_yaml.strip():
        with st.expander("Сценарий (позиция со стола судьи)", key=f"journal_scn_{ruling.id}"):
            st.code(cur.scenario_yaml, language="yaml")
            st.download_button(
                "Скачать сценарий (YAML)",
                data=cur.scenario_yaml,
                file_name=f"reshenie-{ruling.id}.yaml",
                mime="application/x-yaml",
                key=f"journal_yaml_{ruling.id}",
                on_click="ignore",  # a download changes nothing: no rerun
            )
    if len(ruling.revisions) > 1:
        _history(ruling)
    st.download_button(
        "Выгрузить это решение (Markdown)",
        data=export.ruling_markdown(ruling),
        file_name=f"reshenie-{ruling.id}.md",
        mime="text/markdown",
        key=f"journal_md_{ruling.id}",
        on_click="ignore",  # a download changes nothing: no rerun
    )
    if who is not None and who.role == "head":
        _lock_button(ruling, who)
    if ruling.locked_by:
        return
    amend_key = f"journal_amend_{ruling.id}"
    with st.expander("Править решение", key=f"{amend_key}_open", on_change="rerun"):
        ruling_form(amend_key, amend_of=ruling)


def _lock_button(ruling: model.Ruling, who: accounts.SignedIn) -> None:
    label = "Снять закрепление" if ruling.locked_by else "Закрепить решение (запретить правки)"
    if st.button(label, key=f"journal_lock_{ruling.id}", icon=":material/lock:"):
        try:
            open_journal().set_locked(ruling.id, who, locked=not ruling.locked_by)
        except (model.NotSignedInError, model.RulingLockedError) as exc:
            st.error(common.escape_md(str(exc)))
        except model.JournalError as exc:
            st.error(common.escape_md(exc.public))
        else:
            st.rerun()


def _listing(book: store.Journal, query: str) -> tuple[list[model.Ruling], int]:
    """The rulings to list (one page, or the search's hits) and how many the journal holds."""
    total = book.count()
    if query.strip():
        window = book.rulings(limit=SEARCH_WINDOW)
        stop = search.stopwords()
        found = [h.ruling for h in search.search_rulings(window, query, top=PAGE_SIZE * 5, stopwords=stop)]
        more = f" (искали среди последних {SEARCH_WINDOW})" if total > SEARCH_WINDOW else ""
        st.caption(f"Найдено: {len(found)} из {total}{more}.")
        return found, total
    pages = max(1, math.ceil(total / PAGE_SIZE))
    page = 1
    if pages > 1:
        page = int(
            st.number_input(
                f"Страница (из {pages}, по {PAGE_SIZE} решений)",
                min_value=1,
                max_value=pages,
                step=1,
                key="journal_page_no",
            )
        )
    first, last = PAGE_SIZE * (page - 1) + 1, min(PAGE_SIZE * page, total)
    st.caption(
        f"Решений в журнале: {total}." + (f" Показаны {first}–{last}, новые сначала." if pages > 1 else "")
    )
    found = book.rulings(limit=PAGE_SIZE, offset=PAGE_SIZE * (page - 1))
    return found, total


def _export_all(book: store.Journal) -> None:
    """The whole journal's Markdown, built only when the judge asks (not on every rerun)."""
    if st.button("Подготовить выгрузку всего журнала (Markdown для печати)", key="journal_export_build"):
        try:
            everything = book.rulings()
        except model.JournalError as exc:
            st.error(common.escape_md(exc.public))
            return
        st.download_button(
            f"Скачать журнал: решений {len(everything)}",
            data=export.journal_markdown(everything),
            file_name="zhurnal-resheniy.md",
            mime="text/markdown",
            key="journal_export_all",
            on_click="ignore",  # a download changes nothing: no rerun
        )


def render() -> None:
    st.title("Журнал решений")
    book = open_journal()
    with st.sidebar:
        who = sign_in_panel("journal_sidebar", book)
        if who is not None and who.role == "head":
            where = f"Файл журнала: {book.path} (другой файл — переменная окружения {store.ENV_VAR})."
            st.caption(common.escape_md(where))
    wanted = str(st.query_params.get("r", ""))
    if wanted.isdigit() and st.session_state.get("journal_r_seen") != wanted:
        # A link /journal?r=3 opens ruling 3 once; afterwards the judge picks freely.
        st.session_state["journal_r_seen"] = wanted
        st.session_state["journal_open_request"] = int(wanted)
    tab_find, tab_new = st.tabs(["Найти и открыть", "Записать решение"], key="journal_tabs")
    with tab_new:
        ruling_form("journal_new")
    with tab_find:
        query = st.text_input(
            "Поиск по вопросу, решению, игрокам, судье, номеру пункта",
            key="journal_query",
            max_chars=500,
            placeholder="слова или номер пункта, затем Enter",
        )
        try:
            found, total = _listing(book, query)
        except model.JournalError as exc:
            st.error(common.escape_md(exc.public))
            return
        requested = st.session_state.pop("journal_open_request", None)
        if isinstance(requested, int) and requested not in [r.id for r in found]:
            extra = book.get(requested)
            if extra is not None:
                found = [extra, *found]
        if not found:
            st.info("Пока ничего нет." if not total else "Ничего не найдено: попробуйте другие слова.")
        else:
            st.dataframe(
                {
                    "№": [r.id for r in found],
                    "Вопрос": [r.current.title for r in found],
                    "Ответ судьи": [lexicon.verdict(r.current.judge_verdict) for r in found],
                    "Стол": [r.current.table_no for r in found],
                    "Тур": [r.current.round for r in found],
                    "Записал": [r.author or r.current.judge for r in found],
                    "Пункты": [", ".join(r.current.clauses) for r in found],
                    "Изменено": [export.human_time(r.updated_at) for r in found],
                },
                hide_index=True,
                key="journal_table",
            )
            found_ids = [r.id for r in found]
            if requested in found_ids:
                st.session_state["journal_pick"] = requested
            elif st.session_state.get("journal_pick") not in found_ids:
                st.session_state.pop("journal_pick", None)
            by_id = {r.id: r for r in found}
            chosen = st.selectbox(
                "Открыть решение",
                found_ids,
                format_func=lambda rid: f"№ {rid}: {by_id[rid].current.title[:80]}",
                key="journal_pick",
            )
            if chosen is not None:
                _show_ruling(by_id[chosen], who)
        if total:
            st.divider()
            _export_all(book)


if __name__ == "__main__":
    render()

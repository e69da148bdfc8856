"""«Журнал решений»: record, find, open, amend and export judges' rulings.

Storing, searching and exporting live in the `rulings` package; this page only renders. Judge-typed
text is shown with st.text or in data tables (never as Markdown or HTML) and reaches SQLite only as
bound values.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import streamlit as st

import lexicon
from app_pages import common
from rules_index import ids
from rulings import export, model, search, store

_SHORT_FIELDS = ("event", "round", "table_no", "players", "judge", "outcome", "rules_version")


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


def open_journal() -> store.Journal:
    """A journal handle for this request (it holds only the path, so no state is shared)."""
    return store.Journal()


def ruling_form(
    prefix: str, prefill: Mapping[str, Any] | None = None, amend_of: model.Ruling | None = None
) -> None:
    """The record (or amend) form. `prefix` keeps its widget keys apart from other forms'.

    `prefill` may carry title, decision, clauses (list), verdict, rules_version, scenario_yaml,
    trace_json and the short fields; on an amendment the current text fills the form.
    """
    pre: dict[str, Any] = dict(prefill or {})
    if amend_of is not None:
        cur = amend_of.current
        pre = {name: getattr(cur, name) for name in model.TEXT_FIELDS}
        pre["clauses"] = list(cur.clauses)
        pre["note"] = ""
    label = "Сохранить правку" if amend_of is not None else "Записать решение"
    shown = dict(pre)
    shown["clauses"] = ", ".join(str(c) for c in pre.get("clauses", []))
    for name in (
        "title",
        "decision",
        "clauses",
        "event",
        "round",
        "table_no",
        "players",
        "judge",
        "outcome",
        "rules_version",
    ):
        # A field follows the prefill (the desk's title, its cited clauses) until the judge edits it;
        # what the judge typed is never overwritten.
        key = f"{prefix}_{name}"
        value = str(shown.get(name, "") or "")
        last = st.session_state.get(f"{key}__prefill", "")
        if st.session_state.get(key, "") in ("", last) and value != last:
            st.session_state[key] = value
        st.session_state[f"{key}__prefill"] = value
    with st.form(key=f"{prefix}_form", clear_on_submit=False):
        title = st.text_input("Вопрос (о чём спор)", key=f"{prefix}_title")
        decision = st.text_area("Решение судьи (своими словами)", key=f"{prefix}_decision")
        clauses_text = st.text_input(
            "Пункты правил через запятую",
            key=f"{prefix}_clauses",
            help="Например: 211.3.1, 535.8. Допущения движка: A1, A2 …",
        )
        col1, col2, col3 = st.columns(3)
        event = col1.text_input("Турнир", key=f"{prefix}_event")
        round_ = col2.text_input("Тур", key=f"{prefix}_round")
        table_no = col3.text_input("Стол", key=f"{prefix}_table_no")
        col4, col5 = st.columns(2)
        players = col4.text_input("Игроки", key=f"{prefix}_players")
        judge = col5.text_input("Судья", key=f"{prefix}_judge")
        col6, col7 = st.columns(2)
        outcome = col6.text_input("Итог (что сделали за столом)", key=f"{prefix}_outcome")
        rules_version = col7.text_input("Версия правил", key=f"{prefix}_rules_version")
        verdict = str(pre.get("verdict", ""))
        scenario_yaml = str(pre.get("scenario_yaml", ""))
        trace_json = str(pre.get("trace_json", ""))
        if scenario_yaml or trace_json:
            st.caption(
                "К решению приложены позиция со стола судьи (сценарий) и трассировка движка"
                + (f" (вердикт: {lexicon.verdict(verdict)})." if verdict else ".")
            )
        note = ""
        if amend_of is not None:
            note = st.text_input("Причина правки (обязательно)", key=f"{prefix}_note")
        submitted = st.form_submit_button(label, type="primary", key=f"{prefix}_submit")
    if not submitted:
        return
    if amend_of is not None and not note.strip():
        st.error("Укажите причину правки: прежняя редакция сохранится, а причина останется в истории.")
        return
    data = model.RulingInput(
        title=title,
        decision=decision,
        clauses=model.parse_clauses(clauses_text),
        outcome=outcome,
        event=event,
        table_no=table_no,
        round=round_,
        players=players,
        judge=judge,
        rules_version=rules_version,
        verdict=verdict,
        scenario_yaml=scenario_yaml,
        trace_json=trace_json,
        note=note,
    )
    book = open_journal()
    try:
        if amend_of is not None:
            rev = book.amend(amend_of.id, data)
            st.success(f"Правка сохранена: решение № {amend_of.id}, редакция {rev}.")
        else:
            rid = book.record(data)
            st.session_state["journal_open_request"] = rid
            st.success(f"Решение записано в журнал под № {rid}.")
    except model.RulingInputError as exc:
        st.error(common.escape_md(str(exc)))
    except (model.JournalError, KeyError) as exc:
        message = str(exc) if isinstance(exc, model.JournalError) else f"Решения № {exc} в журнале нет."
        st.error(common.escape_md(message))
        _offer_unsaved_copy(prefix, data)


def _offer_unsaved_copy(prefix: str, data: model.RulingInput) -> None:
    """When the file cannot take the ruling, the judge still leaves with it: form kept, file offered."""
    st.warning("Текст формы сохранён на экране. Можно скачать решение файлом, чтобы не потерять его.")
    now = model.now_iso()
    draft = model.Ruling(id=0, created_at=now, updated_at=now, current=data, revisions=())
    st.download_button(
        "Скачать несохранённое решение (Markdown)",
        data=export.ruling_markdown(draft, with_history=False),
        file_name="reshenie-ne-sohraneno.md",
        mime="text/markdown",
        key=f"{prefix}_unsaved_download",
        on_click="ignore",  # a download changes nothing: no rerun
    )


def _show_ruling(ruling: model.Ruling) -> None:
    cur = ruling.current
    st.subheader(f"Решение № {ruling.id}")
    created, updated = export.human_time(ruling.created_at), export.human_time(ruling.updated_at)
    st.caption(f"Записано {created}; редакция {ruling.rev} от {updated}")
    st.markdown("**Вопрос**")
    st.text(cur.title)
    st.markdown("**Решение судьи**")
    st.text(cur.decision)
    facts = [(model.FIELD_LABELS[n], getattr(cur, n)) for n in _SHORT_FIELDS if getattr(cur, n)]
    if cur.verdict:
        facts.append((model.FIELD_LABELS["verdict"], lexicon.verdict(cur.verdict)))
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
    if cur.trace_json.strip():
        with st.expander("Трассировка движка"):
            # Escaped Markdown (rulings.export.md_text): names typed by judges cannot form markup.
            st.markdown("\n".join(export.trace_markdown(cur.trace_json)))
            if st.toggle("Показать как JSON", key=f"journal_trace_json_{ruling.id}"):
                st.code(cur.trace_json, language="json")
    if cur.scenario_yaml.strip():
        with st.expander("Сценарий (позиция со стола судьи)"):
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
        with st.expander(f"История правок ({len(ruling.revisions)} редакции)"):
            for rev in reversed(ruling.revisions):
                st.markdown(f"**Редакция {rev.rev}** — {export.human_time(rev.created_at)}")
                if rev.data.note:
                    st.text("Причина правки: " + rev.data.note)
                st.text(rev.data.decision)
    st.download_button(
        "Выгрузить это решение (Markdown)",
        data=export.ruling_markdown(ruling),
        file_name=f"reshenie-{ruling.id}.md",
        mime="text/markdown",
        key=f"journal_md_{ruling.id}",
        on_click="ignore",  # a download changes nothing: no rerun
    )
    with st.expander("Править решение"):
        ruling_form(f"journal_amend_{ruling.id}_{ruling.rev}", amend_of=ruling)


def render() -> None:
    st.title("Журнал решений")
    book = open_journal()
    where = f"Файл журнала: {book.path} (другой файл — переменная окружения {store.ENV_VAR})."
    st.caption(common.escape_md(where))
    wanted = str(st.query_params.get("r", ""))
    if wanted.isdigit() and st.session_state.get("journal_r_seen") != wanted:
        # A link /journal?r=3 opens ruling 3 once; afterwards the judge picks freely.
        st.session_state["journal_r_seen"] = wanted
        st.session_state["journal_open_request"] = int(wanted)
    tab_find, tab_new = st.tabs(["Найти и открыть", "Записать решение"])
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
            all_rulings = book.rulings()
        except model.JournalError as exc:
            st.error(common.escape_md(str(exc)))
            return
        if query.strip():
            stop = search.stopwords()
            found = [h.ruling for h in search.search_rulings(all_rulings, query, top=100, stopwords=stop)]
            st.caption(f"Найдено: {len(found)} из {len(all_rulings)}.")
        else:
            found = all_rulings
            st.caption(f"Решений в журнале: {len(all_rulings)}.")
        if not found:
            st.info("Пока ничего нет." if not all_rulings else "Ничего не найдено: попробуйте другие слова.")
        else:
            st.dataframe(
                {
                    "№": [r.id for r in found],
                    "Вопрос": [r.current.title for r in found],
                    "Стол": [r.current.table_no for r in found],
                    "Тур": [r.current.round for r in found],
                    "Судья": [r.current.judge for r in found],
                    "Пункты": [", ".join(r.current.clauses) for r in found],
                    "Изменено": [export.human_time(r.updated_at) for r in found],
                },
                hide_index=True,
                key="journal_table",
            )
            found_ids = [r.id for r in found]
            wanted = st.session_state.pop("journal_open_request", None)
            if wanted in found_ids:
                st.session_state["journal_pick"] = wanted
            by_id = {r.id: r for r in all_rulings}
            chosen = st.selectbox(
                "Открыть решение",
                found_ids,
                format_func=lambda rid: f"№ {rid}: {by_id[rid].current.title[:80]}",
                key="journal_pick",
            )
            if chosen is not None:
                _show_ruling(by_id[chosen])
        if all_rulings:
            st.divider()
            st.download_button(
                "Выгрузить весь журнал (Markdown для печати)",
                data=export.journal_markdown(all_rulings),
                file_name="zhurnal-resheniy.md",
                mime="text/markdown",
                key="journal_export_all",
                on_click="ignore",  # a download changes nothing: no rerun
            )


if __name__ == "__main__":
    render()

"""«Журнал решений»: find, open, record, amend, lock and export judges' rulings.

Storing, searching, exporting and every write's checks live in the `rulings` package; the forms
are `app_pages.journal_form` (the desk uses `ruling_form` from here too). Reading needs no sign-in;
writing does. Judge-typed text is shown with st.text or in data tables (never as Markdown or
HTML) and reaches SQLite only as bound values. The page lists one page of rulings at a time and
builds the whole journal's export only when asked. No server path is shown to players.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import streamlit as st

import engine
import lexicon
from app_pages.journal.form import open_journal, ruling_form, sign_in_panel, when
from app_pages.shared import common, version_diff
from casebook import wording
from rules_index import ids, numbers, yamlread
from rulings import accounts, export, model, search, store
from storage import clean

__all__ = ["clause_refs", "open_journal", "render", "ruling_form"]

PAGE_SIZE = 20
_ALL = "— все —"
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
    revisions = lexicon.plural(len(ruling.revisions), "редакция", "редакции", "редакций")
    with st.expander(f"История правок ({revisions})", key=f"journal_hist_{ruling.id}"):
        previous: model.RulingInput | None = None
        for rev in ruling.revisions:
            who = f", {rev.author}" if rev.author else ""
            where = f", {rev.hall}" if rev.hall else ""
            st.markdown(  # the heading bold, the judge's name and hall escaped
                f"**Редакция {rev.rev}** — " + common.escape_md(f"{when(rev.created_at)}{who}{where}")
            )
            if rev.replaced:
                st.caption(
                    common.escape_md(f"Записана поверх правки коллеги ({rev.replaced}): {rev.author}.")
                )
            if rev.damaged:
                st.error("Текст этой редакции повреждён в файле журнала.", icon=":material/broken_image:")
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
    created, updated = when(ruling.created_at), when(ruling.updated_at)
    author = f", {ruling.author}" if ruling.author else ""
    last = ruling.revisions[-1].author if ruling.revisions else ""
    st.caption(
        common.escape_md(
            f"Записано {created}{author}; редакция {ruling.rev} от {updated}{', ' + last if last else ''}"
        )
    )
    if ruling.hall:
        st.caption(common.escape_md(f"Зал: {ruling.hall}"))
    if ruling.damaged:
        revs = ", ".join(map(str, ruling.damaged))
        st.error(
            f"Решение повреждено в файле журнала: текст редакции {revs} не совпадает с её контрольной "
            "суммой и показан так, как прочитался (знак «�» — испорченные байты). Не опирайтесь на него; "
            "главный судья может вернуть журнал из резервной копии (python -m rulings restore).",
            icon=":material/broken_image:",
        )
    if ruling.conflict:
        _conflict_view(ruling)
    if ruling.locked_by:
        locked_when = when(ruling.locked_at)
        st.info(
            f"Закреплено главным судьёй: {ruling.locked_by}, {locked_when}. Правки не принимаются.",
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
            st.markdown("\n".join(export.trace_markdown(cur.trace_json, action_words(cur.scenario_yaml))))
            if st.toggle("Показать как JSON", key=f"journal_trace_json_{ruling.id}"):
                st.code(cur.trace_json, language="json")
    if cur.scenario_yaml.strip():
        with st.expander("Сценарий (позиция со стола судьи)", key=f"journal_scn_{ruling.id}"):
            st.code(cur.scenario_yaml, language="yaml")
            st.download_button(
                "Скачать сценарий (файл .yaml)",
                data=cur.scenario_yaml,
                file_name=f"reshenie-{ruling.id}.yaml",
                mime="application/x-yaml",
                key=f"journal_yaml_{ruling.id}",
                on_click="ignore",  # a download changes nothing: no rerun
            )
    if len(ruling.revisions) > 1:
        _history(ruling)
    st.download_button(
        "Выгрузить это решение (файл .md)",
        data=export.ruling_markdown(ruling, words=action_words(cur.scenario_yaml)),
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
    # An amendment the judge left unsaved (a reload, another tab) opens the form at once.
    unsaved = (
        who is not None and f"{amend_key}_draft_id" not in st.session_state and _has_draft(who, amend_key)
    )
    with st.expander("Править решение", key=f"{amend_key}_open", on_change="rerun", expanded=unsaved):
        ruling_form(amend_key, amend_of=ruling)


def _conflict_view(ruling: model.Ruling) -> None:
    """Both texts of a ruling two journals amended apart (a sync kept both)."""
    other = ruling.conflict[-1]
    where = f", {other.hall}" if other.hall else ""
    st.warning(
        "Конфликт: это решение исправили в двух журналах независимо, сохранены обе версии. Выше — "
        "последняя, ниже — другая. Чтобы выбрать, исправьте решение: правка заменит обе.",
        icon=":material/call_split:",
    )
    with st.container(border=True, key=f"journal_conflict_{ruling.id}"):
        st.caption(common.escape_md(f"Другая версия: {other.author}{where}, {when(other.created_at)}"))
        st.text(other.data.title)
        st.text(other.data.decision)


def action_words(scenario_yaml: str) -> Callable[[str], str]:
    """An action's stored line in the judge's words, cards by the names the attached position
    gives them; a line the engine cannot read stays as it was."""
    names: dict[str, dict[str, object]] = {}
    try:
        loaded = yamlread.load_text(scenario_yaml) if scenario_yaml.strip() else None
    except yamlread.YamlError:
        loaded = None
    cards = loaded.get("setup", {}).get("cards", []) if isinstance(loaded, dict) else []
    for card in cards if isinstance(cards, list) else []:
        if isinstance(card, dict) and isinstance(card.get("id"), str):
            named = card.get("card")
            name = named.get("name") if isinstance(named, dict) else named
            names[card["id"]] = {"name": str(name or card["id"])}

    def words(line: str) -> str:
        try:
            data = yamlread.load_text(line)
            (kind, args), *_ = data.items()
            return wording.action_words(engine.parse_action(str(kind), args), names)
        except Exception:
            return line

    return words


def _has_draft(who: accounts.SignedIn, form: str) -> bool:
    try:
        return open_journal().draft(who, form) is not None
    except model.JournalError:
        return False


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


def _filters(book: store.Journal) -> tuple[str | None, str | None]:
    """The hall and tournament to show (None: all), offered only when the journal names some."""
    halls, events = book.halls_and_events()
    if not halls and not events:
        return None, None
    with st.container(horizontal=True):
        hall = st.selectbox("Зал", [_ALL, *halls], key="journal_hall") if halls else _ALL
        event = st.selectbox("Турнир", [_ALL, *events], key="journal_event") if events else _ALL
    return (None if hall == _ALL else hall), (None if event == _ALL else event)


def _listing(
    book: store.Journal, query: str, hall: str | None = None, event: str | None = None
) -> tuple[list[model.Ruling], int]:
    """The rulings to list (one page, or the search's hits) and how many the journal holds."""
    total = book.count(hall=hall, event=event)
    if query.strip():
        hits = book.search(query, top=PAGE_SIZE * 5, stopwords=search.stopwords())
        found = [
            h.ruling
            for h in hits
            if (hall is None or h.ruling.hall == hall) and (event is None or h.ruling.current.event == event)
        ]
        st.caption(f"Найдено: {len(found)} из {total}.")
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
    found = book.rulings(limit=PAGE_SIZE, offset=PAGE_SIZE * (page - 1), hall=hall, event=event)
    return found, total


def _words_for(rulings: list[model.Ruling]) -> Callable[[str], str]:
    """One wording for a whole export (each ruling's cards are named by its own position)."""
    by_line: dict[str, str] = {}
    for r in rulings:
        words = action_words(r.current.scenario_yaml)
        for line, _verdict in model.step_verdicts(r.current.trace_json):
            by_line.setdefault(line, words(line))
    return lambda line: by_line.get(line, line)


def _export_all(book: store.Journal) -> None:
    """The whole journal's Markdown, built only when the judge asks (not on every rerun)."""
    if st.button("Подготовить выгрузку всего журнала (файл .md для печати)", key="journal_export_build"):
        try:
            everything = book.rulings()
        except model.JournalError as exc:
            st.error(common.escape_md(exc.public))
            return
        st.download_button(
            f"Скачать журнал: решений {len(everything)}",
            data=export.journal_markdown(everything, words=_words_for(everything)),
            file_name="zhurnal-resheniy.md",
            mime="text/markdown",
            key="journal_export_all",
            on_click="ignore",  # a download changes nothing: no rerun
        )


def _cards(found: list[model.Ruling]) -> None:
    """The listed rulings as stacked cards: one per ruling, its question and its facts in a line,
    so they read on a phone (390 px) as on a laptop, with nothing scrolling sideways."""
    with st.container(key="journal_list", gap="small"):
        for r in found:
            cur = r.current
            facts = [lexicon.verdict(cur.judge_verdict) if cur.judge_verdict else "ответ не указан"]
            facts += [f"стол {cur.table_no}"] if cur.table_no else []
            facts += [f"тур {cur.round}"] if cur.round else []
            facts += [v for v in (cur.event, r.hall, r.author or cur.judge) if v]
            facts.append(when(r.updated_at))
            marks = (" · повреждено" if r.damaged else "") + (" · конфликт версий" if r.conflict else "")
            with st.container(border=True, key=f"journal_card_{r.id}"):
                st.markdown(f"**№ {r.id}.** " + common.escape_md(cur.title))
                st.caption(common.escape_md(" · ".join(facts) + marks))


def render() -> None:
    st.title("Журнал решений")
    book = open_journal()
    with st.sidebar:
        who = sign_in_panel("journal_sidebar", book)
        if who is not None and who.role == "head":
            place = "Файл журнала" if book.engine == "sqlite" else "Журнал на сервере"
            where = f"{place}: {book.shown} (другой — переменная окружения {store.ENV_VAR})."
            if book.hall:
                where += f" Зал: {book.hall} ({store.HALL_ENV})."
            st.caption(common.escape_md(where))
    wanted = str(st.query_params.get("r", ""))
    number = numbers.whole(wanted, 1)  # ASCII digits within SQLite's integers: «²» or 26 digits are none
    if number is not None and st.session_state.get("journal_r_seen") != wanted:
        # A link /journal?r=3 opens ruling 3 once; afterwards the judge picks freely.
        st.session_state["journal_r_seen"] = wanted
        st.session_state["journal_open_request"] = number
    elif wanted and number is None:
        shown = common.escape_md(clean.scrub(wanted[:30]))
        st.warning(
            f"В ссылке r=«{shown}» — не номер решения журнала: нужно целое число, например /journal?r=3.",
            icon=common.ICON_WARNING,
        )
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
            hall, event = _filters(book)
            found, total = _listing(book, query, hall, event)
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
            _cards(found)
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

"""«Карты»: find a card of the loaded base, read what it is and what the engine makes of it, load a
base of real cards.

`/cards?card=<id>&base=<base id>` opens one card. Importing, finding and explaining live in the
`cardbase` package; this page only renders. Card texts come from a judge's file: they are shown
with st.text or escaped Markdown, never as markup.
"""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

import cardbase
from app_pages import registry
from app_pages.desk import trace as desk_trace
from app_pages.journal import form as journal_form
from app_pages.shared import card_base, common, linklist, uploads
from cardbase import constants, explain, find, importer, links, readers, related, store
from rulings import guard
from rulings import model as rulings_model
from rulings import store as rulings_store
from storage import worker

UPLOAD_KEY = "cards_upload"
_DONE_KEY = "cards_upload_done"
_PENDING_KEY = (
    "cards_upload_pending"  # the ticket of (CardBase, files, size) imported with errors, awaiting the judge
)
_RESULT_KEY = "cards_upload_result"
_REMOVE_KEY = "cards_remove_confirm"  # the base a «Удалить» click asks to confirm
MAX_RESULTS = 30
ALL = "все"


@st.cache_resource(show_spinner=False)
def _scenario_texts() -> tuple[related.ScenarioText, ...]:
    """The scenario library's texts, read once per process (read-only)."""
    return related.scenario_texts()


def _base_caption(loaded: cardbase.Loaded) -> None:
    base = loaded.base
    if base.id == cardbase.BUILTIN:
        what = f"встроенная библиотека движка (карт: {len(base.records)} — из примеров правил)"
    else:
        what = f"«{base.label}» (карт: {len(base.records)}, выпусков: {len(base.sets())})"
    st.caption(common.escape_md(f"База карт: {what}"))


# Search ----------------------------------------------------------------------------------


def _filters(loaded: cardbase.Loaded) -> find.Filters | None:
    """The filter widgets; None when the typed cost is not a number (the message is shown)."""
    base = loaded.base
    with st.expander("Отбор: стихия, класс, выпуск, стоимость", expanded=False):
        element = st.selectbox("Стихия", [ALL, *base.elements()], key="cards_f_element")
        card_class = st.selectbox("Класс", [ALL, *base.classes()], key="cards_f_class")
        sets = dict(base.sets())
        set_id = st.selectbox(
            "Выпуск", [ALL, *sets], format_func=lambda s: s if s == ALL else sets[s], key="cards_f_set"
        )
        cost_text = st.text_input("Стоимость", key="cards_f_cost", placeholder="3 или 3-5", max_chars=20)
    try:
        cost = find.parse_cost(cost_text)
    except ValueError as exc:
        st.error(common.escape_md(f"Отбор не применён: {exc}."), icon=common.ICON_ERROR)
        return None
    return find.Filters(
        element="" if element == ALL else element,
        card_class="" if card_class == ALL else card_class,
        set_id="" if set_id == ALL else set_id,
        cost=cost,
    )


def render_search(loaded: cardbase.Loaded) -> None:
    query = st.text_input(
        "Название карты",
        key="cards_query",
        max_chars=100,
        placeholder="можно с опечаткой или часть названия, затем Enter",
    )
    filters = _filters(loaded)
    if filters is None:
        return
    if not query.strip() and filters.empty:
        st.caption("Введите название или выберите отбор.")
        return
    hits = loaded.finder.find(query, filters, limit=MAX_RESULTS)
    if not hits:
        st.info("Ничего не найдено. Проверьте отбор или напишите часть названия.", icon=common.ICON_INFO)
        return
    more = " (показаны первые)" if len(hits) == MAX_RESULTS else ""
    st.caption(f"Найдено: {len(hits)}{more}")
    # one element for the whole list (linklist, issue 24): the name on the link, the facts under it
    entries = []
    for h in hits:
        how = "" if h.how in ("exact", "filter") else f" · найдено: {find.HOW[h.how]}"
        card = links.card_params(loaded.base.id, h.record.id)
        link = linklist.Link(registry.CARDS, card, ((h.record.name, True),), "style")
        entries.append(
            linklist.Entry(link, (linklist.Para(((explain.brief(h.record) + how, False),), muted=True),))
        )
    linklist.draw("cards_hits", entries, compact=True)


# One card --------------------------------------------------------------------------------


def _render_modelled(loaded: cardbase.Loaded, r: cardbase.CardRecord) -> None:
    st.subheader("Что моделирует движок")
    if loaded.base.id == cardbase.BUILTIN and r.modelled:
        st.caption("Особенности этой карты описаны вручную в библиотеке движка (карты из примеров правил).")
    on_desk = loaded.desk.get(r.id, r)  # a card named like an embedded one: as the desk has it
    if not on_desk.modelled:
        st.caption("Ни одной особенности этой карты движок не моделирует.")
    for m in on_desk.modelled:
        st.markdown(card_base.modelled_markdown(m))
    note = loaded.shadowed.get(r.id)
    if note:
        st.info(common.escape_md(note[0].upper() + note[1:] + "."), icon=common.ICON_INFO)
    if r.unmodelled:
        st.warning("Не смоделировано: решайте по тексту карты", icon=common.ICON_WARNING)
        st.text("\n".join(r.unmodelled))


def _render_rules(r: cardbase.CardRecord) -> None:
    st.subheader("Правила для карт этого вида")
    applies = related.rules_for(r)
    if not applies:
        st.caption("Особых правил для карт этого вида в таблице нет: действуют общие правила.")
    index = common.current_index()
    # The table names clauses as РП 4.1-2 numbers them (as the engine does): under other rules each
    # is named and linked in their numbering, or said to be gone.
    cites = desk_trace.citations()
    if applies and cites.other_rules:
        st.caption(
            f"Таблица составлена по {cites.written_for()}; пункты названы по открытым правилам "
            f"({common.escape_md(cites.loaded_name())})."
        )
    for a in applies:
        st.caption(common.escape_md(a.label))
        with st.container(horizontal=True, gap="small"):
            for cid in a.clauses:
                target, label = cites.target(cid), common.escape_md(cites.cite(cid))
                if target is None:  # the open rules no longer have it
                    st.caption(label)
                else:
                    icon = ":material/description:"  # as common.clause_chip
                    common.clause_link(index, target, label=label, icon=icon, width="content")


def _render_mentions(r: cardbase.CardRecord) -> None:
    st.subheader("Сценарии и решения")
    scenarios = related.scenarios_mentioning(r.name, _scenario_texts())
    if scenarios:
        st.caption(f"Сценарии библиотеки с этой картой: {len(scenarios)} (щелчок открывает на столе)")
        on_desk = [
            linklist.Link(
                registry.DESK, {"scn": e.path}, ((f"{e.title} ({e.group_label})", False),), "grid_on"
            )
            for e in scenarios
        ]
        linklist.draw("cards_scenarios", [linklist.Entry(link) for link in on_desk], compact=True)
    else:
        st.caption("В сценариях библиотеки эта карта не встречается.")
    try:
        # The journal's index hands over the rulings holding the name's words; the order is checked here.
        named = rulings_store.Journal().mentioning(related.name_keys(r.name))
        rulings = related.rulings_mentioning(r.name, named)
    except rulings_model.JournalError as exc:
        st.caption(common.escape_md(f"Журнал решений не прочитан: {exc}"))
        return
    if rulings:
        st.caption(f"Решения журнала, где названа эта карта: {len(rulings)}")
        in_journal = [
            linklist.Link(
                registry.JOURNAL,
                {"r": str(ruling.id)},
                ((f"№ {ruling.id} · {common.short(ruling.current.title, 70)}", False),),
                "edit_note",
            )
            for ruling in rulings[:20]
        ]
        linklist.draw("cards_rulings", [linklist.Entry(link) for link in in_journal], compact=True)
    else:
        st.caption("В журнале решений эта карта не названа.")


def render_card(loaded: cardbase.Loaded, card_id: str) -> None:
    r = loaded.base.get(card_id)
    if r is None:
        st.warning(
            common.escape_md(
                f"Такой карты («{card_id}») нет в базе «{loaded.base.label}»: ссылка сделана на другой "
                "базе или устарела. Найдите карту по названию."
            ),
            icon=common.ICON_WARNING,
        )
        render_search(loaded)
        return
    st.header(common.escape_md(r.name), anchor=False)
    if r.banned:
        st.warning("В базе карта отмечена как запрещённая.", icon=common.ICON_WARNING)
    st.markdown("  \n".join(f"**{k}:** {common.escape_md(v)}" for k, v in explain.facts(r)))
    registry.link(
        registry.DESK,
        label="Поставить на стол",
        icon=":material/add_box:",
        query_params=links.desk_params(loaded.base.id, r),
    )
    st.subheader("Текст карты")
    if r.text:
        common.show_text(r.text)
    else:
        st.caption("Текста нет (карта без особенностей).")
    _render_modelled(loaded, r)
    _render_rules(r)
    _render_mentions(r)


# Import ----------------------------------------------------------------------------------


WINDOW_ONLY = (
    "База открыта только в этом окне; сохранить на сервере может судья (войдите как судья ниже и "
    "загрузите файл снова). После перезагрузки страницы в окне снова будет прежняя база."
)


def _stored(base: cardbase.CardBase, files: list[tuple[str, bytes]], accept: bool, size: int) -> str:
    """Use an imported base in this window: stored on the server first when a judge is signed in
    (through rulings.guard), in this window alone for a player (players only read), held under the
    server's budget for windows' uploads (`size`: the import's pickled size).
    Returns the Russian line to show.

    Raises:
        storage.worker.LimitError: a player's base alone is larger than that budget.
    """
    report = base.report
    assert report is not None
    cards = card_base.card_store()
    known = cards.get(importer.base_id(files))
    if known is not None:  # the same files are on the server already: open them, store nothing
        card_base.use(known.id)
        return f"{report.summary()} Эта база уже есть на сервере; она открыта в этом окне."
    who = journal_form.current_judge()
    if who is None:
        card_base.use_unstored(cardbase.Loaded.of(base), size)
        return f"{report.summary()} {WINDOW_ONLY}"
    try:
        _, info = guard.change_card_base(who, lambda: cards.save(base, files, accept_skipped=accept))
    except (cardbase.CardBaseError, rulings_model.NotSignedInError, rulings_model.JournalError) as exc:
        if isinstance(exc, cardbase.CardBaseError) and report.errors and not accept:
            raise
        card_base.use_unstored(cardbase.Loaded.of(base), size)
        why = exc.public if isinstance(exc, rulings_model.JournalError) else str(exc)
        return f"{report.summary()} {why} {WINDOW_ONLY}"
    card_base.use(info.id)
    return (
        f"{report.summary()} База сохранена на сервере и открыта в этом окне; у других судей — их база, "
        "пока её не сделают базой по умолчанию."
    )


def _chosen_files() -> tuple[tuple[str, bytes, str] | None, tuple[str, bytes, str] | None, str]:
    """The base and its codes file among the files chosen (together or one after the other, in any
    order): (base, constants, why they cannot be used)."""
    chosen = [
        (uploads.file_name(u), bytes(u.getvalue()), str(u.file_id))
        for u in st.session_state.get(UPLOAD_KEY) or []
    ]
    consts = [f for f in chosen if constants.is_constants_file(f[1], f[0])]
    bases = [f for f in chosen if f not in consts]
    if len(bases) > 1 or len(consts) > 1:
        many = bases if len(bases) > 1 else consts
        what = "базы карт" if len(bases) > 1 else "файла кодов"
        names = ", ".join(f"«{f[0]}»" for f in many)
        return None, None, f"Выбрано два {what} ({names}): оставьте один (крестик у лишнего файла)."
    return (bases[0] if bases else None), (consts[0] if consts else None), ""


def _handle_upload(loaded: cardbase.Loaded) -> None:
    main, consts, problem = _chosen_files()
    if problem:
        st.session_state[_RESULT_KEY] = ("error", problem)
        return
    if main is None:
        if consts is not None:
            st.session_state[_RESULT_KEY] = (
                "info",
                f"Файл кодов «{consts[0]}» получен: выберите файл базы — она загрузится с этими кодами.",
            )
        return
    ids = (main[2], consts[2] if consts is not None else "")
    if st.session_state.get(_DONE_KEY) == ids:
        return
    st.session_state[_DONE_KEY] = ids
    st.session_state.pop(_PENDING_KEY, None)
    files = [(main[0], main[1])] + ([(consts[0], consts[1])] if consts else [])
    kept = f"Осталась прежняя база: {loaded.base.label}."
    refused = common.take_upload([n for n, _ in files], sum(len(d) for _, d in files))
    if refused:
        st.session_state[_RESULT_KEY] = ("error", f"{refused} {kept}")
        return
    try:
        parsed = uploads.parse(
            cardbase.import_base,
            files[0][1],
            files[0][0],
            limits=uploads.CARDS,
            constants=files[1] if consts else None,
        )
        base = parsed.value
        report = base.report
        assert report is not None
        if report.errors:  # the base and its files wait for the judge, under the server's budget
            waiting = worker.Parsed((base, files, parsed.size), parsed.size)
            pending = uploads.hold(waiting, f"«{base.label}»", raw_bytes=sum(len(d) for _, d in files))
            if pending is None:
                raise worker.LimitError("held", uploads.too_big_to_hold(f"«{base.label}»"))
            st.session_state[_PENDING_KEY] = pending
            st.session_state[_RESULT_KEY] = ("pending", f"{report.summary()} База пока не загружена. {kept}")
            return
        with_codes = f" Коды — из «{consts[0]}»." if consts else ""
        st.session_state[_RESULT_KEY] = (
            "ok",
            _stored(base, files, accept=False, size=parsed.size) + with_codes,
        )
    except (cardbase.CardBaseError, worker.LimitError) as exc:
        st.session_state[_RESULT_KEY] = ("error", f"База не загружена. {exc} {kept}")
        return
    st.rerun()  # the page above (its caption, the search) now reads the new base


def _render_report(report: cardbase.ImportReport) -> None:
    if report.errors:
        st.markdown("**Пропущенные записи (ошибки):**")
        st.text("\n".join(str(p) for p in report.errors[:200]))
    if report.notes:
        with st.expander(f"Замечания ({len(report.notes)}): карты загружены", expanded=False):
            st.text("\n".join(str(p) for p in report.notes[:300]))


def render_import(loaded: cardbase.Loaded) -> None:
    st.subheader("База карт")
    builtin = loaded.base.id == cardbase.BUILTIN
    with st.expander("Загрузить базу карт", expanded=builtin):
        records = f"{readers.MAX_RECORDS:,}".replace(",", " ")
        st.caption(
            "JSON сообщества (с файлом кодов const.json или без него), CSV с заголовком или YAML; до "
            f"{readers.MAX_FILE_BYTES // (1024 * 1024)} МБ и {records} записей. Плохой файл не заменяет "
            "загруженную базу. Без входа база открывается только в вашем окне; на сервере её сохраняет "
            "судья (вход — в разделе «Для судей» ниже)."
        )
        st.file_uploader(
            "Файл базы карт и, если есть, её файл кодов (const.json): оба сразу или по одному, в любом "
            "порядке",
            type=["json", "csv", "yaml", "yml"],
            key=UPLOAD_KEY,
            max_upload_size=20,
            accept_multiple_files=True,
        )
    _handle_upload(loaded)
    # What the import said stays outside the expander: it must be seen when the expander folds
    # (a loaded base opens the page with it folded).
    result = st.session_state.get(_RESULT_KEY)
    ticket = st.session_state.get(_PENDING_KEY)
    pending = uploads.redeem(ticket)
    if ticket is not None and pending is None:  # dropped for room while the judge was reading
        st.session_state.pop(_PENDING_KEY, None)
        st.session_state[_RESULT_KEY] = ("error", uploads.dropped(getattr(ticket, "label", "")))
        result = st.session_state[_RESULT_KEY]
    if isinstance(result, tuple) and len(result) == 2:
        kind, message = result
        show = {"ok": st.success, "error": st.error, "pending": st.warning, "info": st.info}[str(kind)]
        show(common.escape_md(str(message)))
        if kind == "ok":  # said once; the report stays under «Отчёт о загрузке»
            st.session_state.pop(_RESULT_KEY, None)
    if isinstance(pending, tuple):
        base, files, size = pending
        _render_report(base.report)
        n = len(base.report.errors)
        if st.button(
            f"Загрузить без записей с ошибками ({n})",
            key="cards_accept_skipped",
            icon=":material/done_all:",
        ):
            st.session_state.pop(_PENDING_KEY, None)
            try:
                st.session_state[_RESULT_KEY] = ("ok", _stored(base, files, accept=True, size=size))
            except worker.LimitError as exc:
                st.session_state[_RESULT_KEY] = ("error", f"База не загружена. {exc}")
            st.rerun()
    elif not builtin and loaded.base.report is not None:
        with st.expander("Отчёт о загрузке этой базы", expanded=False):
            st.text("\n".join(loaded.base.report.lines()[:400]))
    _render_choice(loaded)


def _render_choice(loaded: cardbase.Loaded) -> None:
    cards = card_base.card_store()
    bases = cards.bases()
    default = cards.default_id()
    options = [cardbase.BUILTIN, *(b.id for b in bases)]
    labels = {cardbase.BUILTIN: "встроенная библиотека движка"}
    labels.update({b.id: f"«{b.label}» — карт {b.cards}, загружена {b.uploaded_text}" for b in bases})
    shown = dict(labels)
    if loaded.base.id not in options:  # a base open in this window alone (not stored)
        options.append(loaded.base.id)
        shown[loaded.base.id] = f"«{loaded.base.label}» — карт {len(loaded.base.records)}, только в этом окне"
    current = loaded.base.id
    chosen = st.selectbox(
        "Открыть базу",
        options,
        index=options.index(current),
        format_func=lambda b: shown[b] + (" (по умолчанию)" if b == default else ""),
        key=f"cards_choose_{current}",
    )
    if chosen != current:
        card_base.use(chosen)
        st.rerun()
    # Always drawn: a judge signs in here to store uploads on the server, even before any base is.
    with st.expander("Для судей: вход, база по умолчанию для всех, удаление", key="cards_manage"):
        _render_manage(cards, current, default, labels)


def _guarded(change: Callable[[], object]) -> bool:
    """Run a change of what everyone sees for this tab's signed-in judge; False (and the reason
    shown in Russian) when it is refused or fails."""
    try:
        guard.change_card_base(journal_form.current_judge(), change)
    except (rulings_model.NotSignedInError, rulings_model.RulingLockedError, cardbase.CardBaseError) as exc:
        st.error(common.escape_md(str(exc)), icon=common.ICON_ERROR)
        return False
    except rulings_model.JournalError as exc:  # who is signed in cannot be read: nothing changed
        st.error(common.escape_md(exc.public), icon=common.ICON_ERROR)
        return False
    return True


def _render_manage(cards: store.CardStore, current: str, default: str, labels: dict[str, str]) -> None:
    """Making the open base everyone's default and removing it: a signed-in judge's acts (the
    buttons show only after the sign-in above them)."""
    if journal_form.current_judge() is None:
        st.caption(
            "Сохраняет загруженную базу на сервере, выбирает базу по умолчанию для всех и удаляет базы "
            "с сервера судья, вошедший под своим именем. Загрузить базу и открыть её в своём окне можно "
            "без входа."
        )
    if journal_form.sign_in_panel("cards_signin") is None:
        return
    if (
        current != default
        and current in labels
        and st.button(
            "Открывать эту базу у всех по умолчанию", key="cards_make_default", icon=":material/public:"
        )
        and _guarded(lambda: store.make_default(cards, current))
    ):
        st.rerun()
    if current == cardbase.BUILTIN or current not in labels:
        return
    if st.session_state.get(_REMOVE_KEY) != current:
        st.button(
            "Удалить эту базу с сервера",
            key="cards_remove",
            icon=":material/delete:",
            on_click=st.session_state.__setitem__,
            args=(_REMOVE_KEY, current),
        )
        return
    st.warning(
        common.escape_md(
            f"Удалить базу {labels[current]} с сервера? У всех, кто её открыл, она пропадёт при следующем "
            "выборе базы; ссылки на её карты перестанут открываться."
        ),
        icon=common.ICON_WARNING,
    )
    c1, c2 = st.columns(2)
    c2.button("Отмена", key="cards_remove_no", on_click=lambda: st.session_state.pop(_REMOVE_KEY, None))
    if c1.button("Да, удалить", key="cards_remove_yes", type="primary") and _guarded(
        lambda: store.remove_base(cards, current)
    ):
        st.session_state.pop(_REMOVE_KEY, None)
        card_base.use(cardbase.BUILTIN)
        card_base.forget_cache()
        st.rerun()


def render() -> None:
    # A link followed inside the app (a hit, «Найти другую карту») leaves its parameters in the
    # address bar: the judge can send the card's page to another judge, and back works.
    st.query_params.from_dict(st.query_params.to_dict())
    st.title("Карты")
    card_base.follow_link()
    loaded = card_base.current()
    problem = card_base.problem()
    if problem:
        st.warning(common.escape_md(problem), icon=common.ICON_WARNING)
    _base_caption(loaded)
    card_id = str(st.query_params.get(links.CARD_PARAM, "")).strip()
    if card_id:
        render_card(loaded, card_id)
        registry.link(
            registry.CARDS,
            label="Найти другую карту",
            icon=":material/search:",
            query_params=links.search_params(loaded.base.id),
        )
        return
    render_search(loaded)
    render_import(loaded)


if __name__ == "__main__":
    render()

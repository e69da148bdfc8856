"""The journal's forms: a judge's sign-in, and recording or amending a ruling (also on the desk).

Rendering only: who may write, what a write checks (sign-in, draft, base revision, rate, clauses)
and every message's substance live in `rulings`; this module keeps the tab's own state in
`st.session_state` (the sign-in token, the draft, the revision an amendment started from) and shows
each result next to the button that caused it.

A draft survives moving to another page of the app in the same tab: its fields are widgets with
`persist_state="session"` (their values stay while the page is away), and the draft's id and base
revision are plain session keys. A second press of the button submits the same draft id, which the
journal recognises, so no duplicate is ever recorded.
"""

from __future__ import annotations

import contextlib
import uuid
from collections.abc import Mapping
from typing import Any, Literal

import streamlit as st

import engine
import lexicon
from app_pages.shared import common
from rules_index import RulesIndex
from rulings import accounts, export, model, store

JUDGE_KEY = "judge_signin"  # the tab's rulings.accounts.SignedIn (a token, never the password)
# The device keeps the sign-in's token in this cookie, so a reload or a new tab resumes it (never a
# token in the URL). Streamlit reads cookies (`st.context.cookies`, sent with the page's request) but
# cannot set one from a script run; a line of JavaScript in the page does (st.html with scripts,
# our own text only: the token is URL-safe base64). Not HttpOnly, since a script sets it: what we
# render from users is escaped, so no page of ours runs a script a player wrote. SameSite=Strict:
# another site cannot send it. Lifetime: the journal's sign-in inactivity limit (12 h by default).
COOKIE = "berserk_judge"
_COOKIE_TODO = "judge_cookie_todo"  # ("set", token) or ("clear", "") for the next run to write
_RESUMED = "judge_cookie_resumed"  # this tab has tried the device's cookie (once per tab)
_EXPIRED_KEY = "judge_signin_expired"
_TAB_KEY = "judge_signin_tab"  # a random id of this tab: the sign-in's source where no address is known
# The form's fields in screen order: (field, label, widget, max_chars).
_FIELDS = (
    ("title", "Вопрос (о чём спор)", "input"),
    ("decision", "Решение судьи (своими словами)", "area"),
    ("clauses", "Пункты правил через запятую", "input"),
    ("event", "Турнир", "input"),
    ("round", "Тур", "input"),
    ("table_no", "Стол", "input"),
    ("players", "Игроки", "input"),
    ("outcome", "Что сделали за столом", "input"),
    ("rules_version", "Версия правил", "input"),
)
_CLAUSES_CHARS = 400


def open_journal() -> store.Journal:
    """A journal handle for this request (it holds only the path and settings: nothing shared)."""
    return store.Journal()


# -- signing in ---------------------------------------------------------------------------------


def current_judge(book: store.Journal | None = None) -> accounts.SignedIn | None:
    """This tab's signed-in judge, checked against the journal (an expired sign-in is dropped); a new
    tab or a reload resumes the device's sign-in from its cookie."""
    book = book or open_journal()
    _write_cookie(book.idle_s)
    who = st.session_state.get(JUDGE_KEY)
    if not isinstance(who, accounts.SignedIn):
        return _resume(book)
    try:
        account = book.signed_in(who)
    except model.JournalError:
        return who  # the file cannot say; the write itself will check and explain
    if account is None:
        del st.session_state[JUDGE_KEY]
        st.session_state[_EXPIRED_KEY] = True
        return None
    return accounts.SignedIn(name=account.name, role=account.role, token=who.token)


def _resume(book: store.Journal | None) -> accounts.SignedIn | None:
    if st.session_state.get(_RESUMED):
        return None
    st.session_state[_RESUMED] = True
    token = st.context.cookies.get(COOKIE) if st.context.cookies else None
    if not token:
        return None
    try:
        who = (book or open_journal()).resume(str(token))
    except model.JournalError:
        return None
    if who is None:
        st.session_state[_COOKIE_TODO] = ("clear", "")  # ended (passwd, remove, expiry): forget it
        return None
    st.session_state[JUDGE_KEY] = who
    return who


def _write_cookie(idle_s: float) -> None:
    """Carry out the cookie change a sign-in or sign-out asked for (once: the script runs on mount)."""
    todo = st.session_state.pop(_COOKIE_TODO, None)
    if not isinstance(todo, tuple):
        return
    action, token = todo
    if action == "set" and token.replace("-", "").replace("_", "").isalnum():
        value, age = token, int(idle_s)
    else:
        value, age = "", 0
    secure = "; Secure" if str(st.context.url or "").startswith("https:") else ""
    cookie = f"{COOKIE}={value}; Max-Age={age}; Path=/; SameSite=Strict{secure}"
    st.html(
        f"<script>document.cookie = '{cookie}';</script>",
        unsafe_allow_javascript=True,
        width="content",
    )


def sign_in_source() -> str:
    """Where a sign-in attempt comes from, for the journal's throttle (`rulings.throttle`): the
    client's address as the server sees it, or this tab when there is none (a tab on the laptop)."""
    address = st.context.ip_address
    if address:
        return f"ip:{address}"
    tab = st.session_state.get(_TAB_KEY)
    if not isinstance(tab, str):
        tab = st.session_state[_TAB_KEY] = uuid.uuid4().hex
    return f"tab:{tab}"


def sign_in_panel(where: str, book: store.Journal | None = None) -> accounts.SignedIn | None:
    """«Вход для судей»: who is signed in with a «Выйти» button, or the sign-in form.

    `where` keeps the widget keys apart (the sidebar, a form on the desk). Returns the judge.
    """
    book = book or open_journal()
    who = current_judge(book)
    if who is not None:
        st.caption(common.escape_md(f"Вы вошли: {who.label}."))
        if st.button("Выйти", key=f"{where}_signout", icon=":material/logout:"):
            with contextlib.suppress(model.JournalError):  # the token dies with the tab's state anyway
                book.sign_out(who)
            st.session_state.pop(JUDGE_KEY, None)
            st.session_state[_COOKIE_TODO] = ("clear", "")
            st.rerun()
        return who
    if st.session_state.pop(_EXPIRED_KEY, False):
        st.warning("Вход истёк после перерыва без действий. Войдите снова: введённый текст сохранён.")
    with st.form(key=f"{where}_signin", clear_on_submit=True, border=True):
        st.markdown("**Вход для судей**")
        name = st.text_input("Имя судьи", key=f"{where}_signin_name", max_chars=40, autocomplete="username")
        password = st.text_input(
            "Пароль",
            type="password",
            key=f"{where}_signin_password",
            max_chars=256,
            autocomplete="current-password",
        )
        pressed = st.form_submit_button("Войти", type="primary", key=f"{where}_signin_submit")
    if pressed:
        try:
            signed = st.session_state[JUDGE_KEY] = book.sign_in(name, password, sign_in_source())
            st.session_state[_COOKIE_TODO] = ("set", signed.token)
        except model.SignInError as exc:
            st.error(common.escape_md(str(exc)))
        except model.JournalError as exc:
            st.error(common.escape_md(exc.public))
        else:
            st.rerun()
    st.caption("Читать журнал, правила и стол судьи можно без входа. Учётные записи создаёт главный судья.")
    return None


# -- the ruling form ----------------------------------------------------------------------------


def _key(prefix: str, name: str) -> str:
    return f"{prefix}_{name}"


def _limit(name: str) -> int:
    return _CLAUSES_CHARS if name == "clauses" else model.FIELD_LIMITS[name]


def _fill(prefix: str, values: Mapping[str, str], force: bool = False) -> None:
    """Put values into the form's fields. A field follows its prefill (the desk's title, its cited
    clauses) until the judge edits it; what the judge typed is never overwritten unless `force`."""
    for name, value in values.items():
        key = _key(prefix, name)
        mark = f"{key}__prefill"
        last = st.session_state.get(mark, "")
        typed = st.session_state.get(key, "")
        if force or (typed in ("", last, None) and value != last) or key not in st.session_state:
            st.session_state[key] = value
        st.session_state[mark] = value


def _reset(prefix: str, values: Mapping[str, str], base_rev: int | None) -> None:
    """A fresh draft: new id, fields from `values`, the base revision of an amendment."""
    st.session_state[_key(prefix, "draft_id")] = uuid.uuid4().hex
    st.session_state[_key(prefix, "base_rev")] = base_rev
    st.session_state.pop(_key(prefix, "conflict"), None)
    _fill(prefix, values, force=True)


def _values_of(data: model.RulingInput) -> dict[str, str]:
    values = {name: str(getattr(data, name)) for name, _l, _w in _FIELDS if name != "clauses"}
    values["clauses"] = ", ".join(data.clauses)
    values["judge_verdict"] = data.judge_verdict
    values["note"] = ""
    return values


def _typed(prefix: str, attached: Mapping[str, str]) -> model.RulingInput:
    def get(name: str) -> str:
        value = st.session_state.get(_key(prefix, name))
        return value if isinstance(value, str) else ""

    return model.RulingInput(
        title=get("title"),
        decision=get("decision"),
        clauses=model.parse_clauses(get("clauses")),
        judge_verdict=get("judge_verdict"),
        outcome=get("outcome"),
        event=get("event"),
        table_no=get("table_no"),
        round=get("round"),
        players=get("players"),
        rules_version=get("rules_version"),
        verdict=attached.get("verdict", ""),
        scenario_yaml=attached.get("scenario_yaml", ""),
        trace_json=attached.get("trace_json", ""),
        note=get("note"),
    )


def ruling_form(
    prefix: str, prefill: Mapping[str, Any] | None = None, amend_of: model.Ruling | None = None
) -> None:
    """The record (or amend) form. `prefix` keeps its widget keys apart from other forms'.

    `prefill` may carry title, decision, clauses (list), verdict, rules_version, scenario_yaml,
    trace_json and the short fields; on an amendment the current text fills the form. Writing
    needs a signed-in judge: without one the form shows the sign-in instead (the draft waits).
    """
    book = open_journal()
    who = current_judge(book)
    if who is None:
        st.info("Записывать и править решения могут только судьи, вошедшие под своим именем.")
        sign_in_panel(f"{prefix}_auth", book)
        return
    pre: dict[str, Any] = dict(prefill or {})
    if amend_of is not None:
        values = _values_of(amend_of.current)
        attached = {n: getattr(amend_of.current, n) for n in ("verdict", "scenario_yaml", "trace_json")}
    else:
        values = {name: str(pre.get(name, "") or "") for name, _l, _w in _FIELDS if name != "clauses"}
        values["clauses"] = ", ".join(str(c) for c in pre.get("clauses", []) or [])
        attached = {n: str(pre.get(n, "") or "") for n in ("verdict", "scenario_yaml", "trace_json")}
    if not isinstance(st.session_state.get(_key(prefix, "draft_id")), str):
        _reset(prefix, values, amend_of.rev if amend_of is not None else None)
    elif amend_of is None:
        _fill(prefix, values)
    st.caption(common.escape_md(f"Записываете как: {who.label}. Судья решения — ваша учётная запись."))
    base = st.session_state.get(_key(prefix, "base_rev"))
    conflict = amend_of is not None and st.session_state.get(_key(prefix, "conflict")) == amend_of.rev
    _fields(prefix, attached, amend_of is not None)
    label = "Сохранить правку" if amend_of is not None else "Записать решение"
    pressed = st.button(label, type="primary", key=_key(prefix, "submit"), disabled=conflict)
    feedback = st.container()  # errors and results right under the button that caused them
    flash = st.session_state.pop(_key(prefix, "flash"), None)
    if isinstance(flash, tuple) and not pressed:
        kind, text = flash
        (feedback.success if kind == "ok" else feedback.info)(text)
        if amend_of is None and kind in ("ok", "repeat"):
            feedback.button(
                "Новое решение (очистить форму)",
                key=_key(prefix, "new"),
                on_click=_reset,
                args=(prefix, values, None),
            )
    if conflict and amend_of is not None:
        _conflict_panel(prefix, amend_of, int(base or 0), attached, values, who, feedback)
        return
    if pressed:
        _submit(prefix, book, who, attached, amend_of, base, values, feedback)


def _fields(prefix: str, attached: Mapping[str, str], amending: bool) -> None:
    keep: Literal["session"] = "session"  # the draft stays when the judge visits another page of the app
    for name, label, widget in _FIELDS[:3]:
        if widget == "area":
            st.text_area(label, key=_key(prefix, name), max_chars=_limit(name), persist_state=keep)
        else:
            st.text_input(
                label,
                key=_key(prefix, name),
                max_chars=_limit(name),
                persist_state=keep,
                help="Например: 211.3.1, 535.8. Допущения движка: A1, A2 …" if name == "clauses" else None,
            )
    st.radio(
        "Ответ судьи на вопрос",
        list(lexicon.VERDICTS),
        index=None,
        format_func=lexicon.verdict,
        horizontal=True,
        key=_key(prefix, "judge_verdict"),
        persist_state=keep,
    )
    steps = model.step_verdicts(attached.get("trace_json", ""))
    if steps:
        shown = export.engine_steps_text(
            model.RulingInput(title="", decision="", trace_json=attached["trace_json"])
        )
        st.caption(common.escape_md(f"Вердикт движка по шагам: {shown}. Приложены позиция и трассировка."))
    elif attached.get("verdict"):
        st.caption(
            common.escape_md(f"Вердикт движка (последний шаг): {lexicon.verdict(attached['verdict'])}.")
        )
    cols = st.columns(3)
    for col, (name, label, _w) in zip(cols, _FIELDS[3:6], strict=True):
        col.text_input(label, key=_key(prefix, name), max_chars=_limit(name), persist_state=keep)
    cols = st.columns(3)
    for col, (name, label, _w) in zip(cols, _FIELDS[6:], strict=True):
        col.text_input(label, key=_key(prefix, name), max_chars=_limit(name), persist_state=keep)
    if amending:
        st.text_input(
            "Причина правки (обязательно)",
            key=_key(prefix, "note"),
            max_chars=model.FIELD_LIMITS["note"],
            persist_state=keep,
        )


def _known_ids() -> tuple[RulesIndex, frozenset[str]]:
    return common.current_index(), frozenset(engine.assumptions.wordings())


def _submit(
    prefix: str,
    book: store.Journal,
    who: accounts.SignedIn,
    attached: Mapping[str, str],
    amend_of: model.Ruling | None,
    base: object,
    values: Mapping[str, str],
    feedback: Any,
    on_top_of: int | None = None,
) -> None:
    data = _typed(prefix, attached)
    if amend_of is not None and not data.note.strip():
        feedback.error("Укажите причину правки: прежняя редакция сохранится, а причина останется в истории.")
        return
    rules, assumed = _known_ids()
    draft = str(st.session_state.get(_key(prefix, "draft_id")))
    try:
        if amend_of is not None:
            base_rev = on_top_of if on_top_of is not None else int(str(base or amend_of.rev))
            done = book.write(
                amend_of.id,
                data,
                who,
                base_rev=base_rev,
                draft_id=draft,
                rules=rules,
                assumptions=assumed,
                overwrites=on_top_of is not None,  # the revision records whose text it replaced
            )
        else:
            done = book.write(None, data, who, draft_id=draft, rules=rules, assumptions=assumed)
    except model.RulingConflictError as exc:
        st.session_state[_key(prefix, "conflict")] = exc.current.rev
        st.rerun()
    except (model.RulingInputError, model.RateLimitError, model.RulingLockedError) as exc:
        feedback.error(common.escape_md(str(exc)))
    except model.NotSignedInError as exc:
        st.session_state.pop(JUDGE_KEY, None)
        feedback.error(common.escape_md(str(exc)))
    except KeyError:
        feedback.error("Этого решения в журнале нет.")
    except model.JournalError as exc:
        feedback.error(common.escape_md(exc.public))
        _offer_unsaved_copy(prefix, data, feedback)
    else:
        if amend_of is not None:
            text = f"Правка сохранена: решение № {done.ruling_id}, редакция {done.rev}."
            if done.repeated:
                text = (
                    f"Эта правка уже сохранена (решение № {done.ruling_id}, редакция {done.rev}): "
                    "повтор не записан."
                )
            # The card re-reads the journal at once; the form starts from the new revision.
            for name in (*values, "judge_verdict", "note"):
                st.session_state.pop(_key(prefix, name), None)
            st.session_state.pop(_key(prefix, "draft_id"), None)
        else:
            text = f"Решение записано в журнал под № {done.ruling_id}."
            if done.repeated:
                text = (
                    f"Это решение уже записано под № {done.ruling_id}: повторное нажатие ничего не добавило. "
                    "Изменить его — «Править решение» в журнале."
                )
            st.session_state["journal_open_request"] = done.ruling_id
        st.session_state[_key(prefix, "flash")] = ("repeat" if done.repeated else "ok", text)
        st.rerun()


def _conflict_panel(
    prefix: str,
    amend_of: model.Ruling,
    base_rev: int,
    attached: Mapping[str, str],
    values: Mapping[str, str],
    who: accounts.SignedIn,
    feedback: Any,
) -> None:
    """A colleague saved first: both versions side by side, the typed text kept, the judge chooses."""
    mine = _typed(prefix, attached)
    start = next((r.data for r in amend_of.revisions if r.rev == base_rev), amend_of.current)
    theirs = amend_of.revisions[-1]
    feedback.warning(
        f"Пока вы правили (с редакции {base_rev}), коллега{' ' + theirs.author if theirs.author else ''} "
        f"сохранил редакцию {theirs.rev}. Ваш текст не потерян: сравните и выберите."
    )
    left, right = feedback.columns(2)
    with left, st.container(border=True, key=f"{prefix}_mine"):
        st.markdown("**Ваша правка** (не сохранена)")
        _changes_view(start, mine)
    with right, st.container(border=True, key=f"{prefix}_theirs"):
        when = export.human_time(theirs.created_at)
        who_else = f", {theirs.author}" if theirs.author else ""
        st.markdown("**Правка коллеги** — " + common.escape_md(f"редакция {theirs.rev}, {when}{who_else}"))
        _changes_view(start, theirs.data)
    c1, c2 = feedback.columns(2)
    if c1.button("Сохранить мою правку поверх", type="primary", key=_key(prefix, "overwrite")):
        st.session_state.pop(_key(prefix, "conflict"), None)
        _submit(
            prefix, open_journal(), who, attached, amend_of, base_rev, values, feedback, on_top_of=theirs.rev
        )
    if c2.button("Отказаться от моей правки", key=_key(prefix, "discard")):
        for name in (*values, "judge_verdict", "note"):
            st.session_state.pop(_key(prefix, name), None)
        st.session_state.pop(_key(prefix, "draft_id"), None)
        st.session_state.pop(_key(prefix, "conflict"), None)
        st.session_state[_key(prefix, "flash")] = ("info", f"Форма показывает редакцию {theirs.rev} коллеги.")
        st.rerun()


def _changes_view(old: model.RulingInput, new: model.RulingInput) -> None:
    # The attachments are the desk's, and «Судья» is always the account that saves: not compared.
    hidden = ("scenario_yaml", "trace_json", "verdict", "judge")
    shown = [c for c in model.changes(old, new) if c.field not in hidden]
    if not shown:
        st.caption("Поля не изменены.")
    for ch in shown:
        st.caption(common.escape_md(ch.label))
        st.text(f"было: {_word(ch.field, ch.old)}\nстало: {_word(ch.field, ch.new)}")
    if new.note:
        st.text("Причина правки: " + new.note)


def _word(field: str, value: str) -> str:
    if field == "judge_verdict":
        return lexicon.verdict(value) if value else "не указан"
    return value or "—"


def _offer_unsaved_copy(prefix: str, data: model.RulingInput, where: Any) -> None:
    """When the file cannot take the ruling, the judge still leaves with it: form kept, file offered."""
    where.warning("Текст формы сохранён на экране. Можно скачать решение файлом, чтобы не потерять его.")
    now = model.now_iso()
    draft = model.Ruling(id=0, created_at=now, updated_at=now, current=data, revisions=())
    where.download_button(
        "Скачать несохранённое решение (Markdown)",
        data=export.ruling_markdown(draft, with_history=False),
        file_name="reshenie-ne-sohraneno.md",
        mime="text/markdown",
        key=f"{prefix}_unsaved_download",
        on_click="ignore",  # a download changes nothing: no rerun
    )

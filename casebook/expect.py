"""Checking one step's outcome against what its `expect` says should come of it.

Each expectation becomes one `Expectation`: what was expected (in Russian, citing clauses as
`lexicon.cite` names them), whether it held, and what the engine did instead.
"""

from __future__ import annotations

from collections.abc import Sequence

import engine
import lexicon
from casebook.model import Expectation, StepExpect, walk


def check_step(
    e: StepExpect,
    verdict: str,
    trace: Sequence[engine.TraceStep],
    state: engine.GameState,
    asked: Sequence[engine.Pending],
) -> list[Expectation]:
    """Every expectation of `e` checked against a step's verdict, trace, resulting state and the
    choices it raised."""
    steps = list(walk(trace))
    return [
        *_verdict(e, verdict),
        *_clauses(e, steps),
        *_trace(e, steps),
        *_asked(e, asked),
        *_cards(e, state),
    ]


def _verdict(e: StepExpect, verdict: str) -> list[Expectation]:
    if e.verdict is None:
        return []
    ok = verdict == e.verdict
    return [
        Expectation(
            f"вердикт: {lexicon.verdict(e.verdict)} ({e.verdict})",
            ok,
            "" if ok else f"получено: {lexicon.verdict(verdict)} ({verdict})",
        )
    ]


def _clauses(e: StepExpect, steps: Sequence[engine.TraceStep]) -> list[Expectation]:
    out: list[Expectation] = []
    seen = [t.clause for t in steps]
    for cid in e.fired:
        ok = cid in seen
        out.append(Expectation(f"в трассе есть {lexicon.cite(cid)}", ok, "" if ok else _seen(seen)))
    for cid in e.not_fired:
        ok = cid not in seen
        out.append(Expectation(f"в трассе нет {lexicon.cite(cid)}", ok, "" if ok else "пункт есть в трассе"))
    for what, kind, ids in (
        ("запрещает", "forbidden", e.forbidden_by),
        ("не определено из-за", "undetermined", e.undetermined_by),
        ("не проверено по", "unchecked", e.unchecked_by),
        ("применено", "assumption", e.assumptions),
    ):
        have = [t.clause for t in steps if t.kind == kind]
        for cid in ids:
            ok = cid in have
            detail = "" if ok else f"шаги вида {kind}: {', '.join(have) or 'нет'}"
            out.append(Expectation(f"{what} {lexicon.cite(cid)}", ok, detail))
    return out


def _trace(e: StepExpect, steps: Sequence[engine.TraceStep]) -> list[Expectation]:
    out: list[Expectation] = []
    for t in e.trace:
        match = [
            s
            for s in steps
            if s.clause == t.clause
            and (t.kind is None or s.kind == t.kind)
            and (t.reason_has is None or t.reason_has.casefold() in s.reason.casefold())
        ]
        what = f"шаг трассы {lexicon.cite(t.clause)}" + (f" вида {t.kind}" if t.kind else "")
        if t.reason_has:
            what += f" с «{t.reason_has}» в объяснении"
        found = [f"{s.kind}: {s.reason}" for s in steps if s.clause == t.clause]
        detail = "" if match else ("; ".join(found) or _seen([s.clause for s in steps]))
        out.append(Expectation(what, bool(match), detail))
    return out


def _asked(e: StepExpect, asked: Sequence[engine.Pending]) -> list[Expectation]:
    out: list[Expectation] = []
    for a in e.asked:
        what = (
            "спрошен выбор"
            + (f" по {lexicon.cite(a.clause)}" if a.clause else "")
            + (f" у игрока {a.who}" if a.who else "")
        )
        if a.options:
            what += f" с вариантами {', '.join(a.options)}"
        hit = [
            p
            for p in asked
            if (a.clause is None or p.clause == a.clause)
            and (a.who is None or p.who == a.who)
            and all(any(opt in (o.key, o.label) for o in p.options) for opt in a.options)
        ]
        detail = "; ".join(
            f"{lexicon.cite(p.clause)}, игрок {p.who}: {', '.join(o.key for o in p.options)}" for p in asked
        )
        missing = f"спрошено: {detail}" if detail else "выборов не было"
        out.append(Expectation(what, bool(hit), "" if hit else missing))
    return out


def _cards(e: StepExpect, state: engine.GameState) -> list[Expectation]:
    out: list[Expectation] = []
    for c in e.cards:
        try:
            props = engine.card_props(state, c.card)
        except (KeyError, ValueError) as exc:
            out.append(Expectation(f"карта {c.card}", False, f"карта не найдена: {exc}"))
            continue
        for key, want in c.props:
            got = props.get(key)
            ok = _same(got, want)
            out.append(
                Expectation(
                    f"карта {c.card}: {lexicon.card_prop(key)} ({key}) = {_show(want)}",
                    ok,
                    "" if ok else f"получено: {_show(got)}",
                )
            )
    return out


def _same(got: object, want: object) -> bool:
    if isinstance(want, bool) or isinstance(got, bool):
        return got is want
    if want is None or got is None:
        return got is want
    return str(got) == str(want)


def _show(value: object) -> str:
    """A value as the judge reads it, with the file's spelling in brackets where they differ:
    «нет (null)», «да (true)», «паразит (parasite)», «в руке (hand)»."""
    if value is None:
        return "нет (null)"
    if isinstance(value, bool):
        return "да (true)" if value else "нет (false)"
    code = str(value)
    word = lexicon.enum_word(code)
    if word == code and code in lexicon.ZONES:
        word = lexicon.zone(code)
    return code if word == code else f"{word} ({code})"


def _seen(seen: Sequence[str]) -> str:
    unique = list(dict.fromkeys(seen))
    return f"в трассе: {', '.join(unique)}" if unique else "трасса пуста"

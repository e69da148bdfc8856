"""`python -m engine cards …`: import a card base, list the stored ones, find and show a card.

Exit codes: 0 — done; 1 — the import skipped records with errors and was not stored (the report
says which; `--accept-skipped` stores it without them), or nothing was found; 2 — the file cannot
be read at all, or the command line is wrong. Output is Russian; no tracebacks.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

import lexicon
from cardbase import Loaded, find, open_base, related, store
from cardbase.importer import import_base
from cardbase.model import BUILTIN, CardBaseError, CardRecord

EXIT_OK, EXIT_SKIPPED, EXIT_INVALID = 0, 1, 2

USAGE = """\
Использование:
  python -m engine cards import ФАЙЛ [--constants ФАЙЛ_КОДОВ] [--accept-skipped] [--keep-default] [--json]
      загрузить базу карт (JSON сообщества, CSV с заголовком или наш YAML) и сделать её базой
      по умолчанию для приложения (--keep-default: только сохранить)
  python -m engine cards list [--json]                     сохранённые базы
  python -m engine cards find [ЗАПРОС] [--element СТИХИЯ] [--class КЛАСС] [--set ВЫПУСК]
                              [--cost 3|3-5] [--base ID] [--top N] [--json]
  python -m engine cards show НАЗВАНИЕ_ИЛИ_ID [--base ID] [--json]
База по умолчанию — та, что выбрана для приложения (или встроенная библиотека движка).
Хранилище: data/cards/ (другое: переменная BERSERK_CARDS_DIR).
Коды выхода: 0 — готово; 1 — в файле есть записи с ошибками и база не сохранена (или ничего не
найдено); 2 — файл не читается или неверная командная строка.
"""

_FLAGS = {"--json", "--accept-skipped", "--keep-default"}
_OPTIONS = {"--constants", "--element", "--class", "--set", "--cost", "--base", "--top"}


class UsageError(Exception):
    """A wrong command line (Russian message)."""


def _parse(args: Sequence[str]) -> tuple[list[str], dict[str, str], set[str]]:
    positional: list[str] = []
    options: dict[str, str] = {}
    flags: set[str] = set()
    it = iter(args)
    for a in it:
        if a in _FLAGS:
            flags.add(a)
        elif a in _OPTIONS:
            value = next(it, None)
            if value is None:
                raise UsageError(f"после {a} нужно значение")
            options[a] = value
        elif a.startswith("--"):
            raise UsageError(f"неизвестный ключ {a}")
        else:
            positional.append(a)
    return positional, options, flags


def main(argv: Sequence[str], out: TextIO | None = None, err: TextIO | None = None) -> int:
    """`argv` without the leading «cards»; returns the exit code."""
    out = out or sys.stdout
    err = err or sys.stderr
    try:
        positional, options, flags = _parse(argv)
        if not positional:
            raise UsageError("не указана команда (import, list, find, show)")
        command, rest = positional[0], positional[1:]
        if command == "import":
            return _import(rest, options, flags, out)
        if command == "list":
            return _list(flags, out)
        if command == "find":
            return _find(rest, options, flags, out)
        if command == "show":
            return _show(rest, options, flags, out)
        raise UsageError(f"неизвестная команда «{command}»")
    except UsageError as exc:
        print(f"Ошибка: {exc}\n", file=err)
        print(USAGE, file=err, end="")
        return EXIT_INVALID
    except CardBaseError as exc:
        print(f"Ошибка: {exc}", file=err)
        return EXIT_INVALID
    except Exception as exc:  # the last guard: a user gets a message, not a traceback
        print(f"Внутренняя ошибка: {type(exc).__name__}: {exc}", file=err)
        return EXIT_INVALID


def _read(path: str) -> tuple[str, bytes]:
    p = Path(path)
    try:
        return p.name, p.read_bytes()
    except OSError as exc:
        raise CardBaseError(f"Файл «{path}» не читается: {exc.strerror or exc}.") from None


def _import(rest: list[str], options: dict[str, str], flags: set[str], out: TextIO) -> int:
    if len(rest) != 1:
        raise UsageError("cards import ждёт один файл базы")
    name, data = _read(rest[0])
    consts = _read(options["--constants"]) if "--constants" in options else None
    base = import_base(data, name, constants=consts)
    report = base.report
    assert report is not None
    accept = "--accept-skipped" in flags
    stored = None
    if report.ok or accept:
        cards = store.default_store()
        stored = cards.save(base, [(name, data), *([consts] if consts else [])], accept_skipped=accept)
        if "--keep-default" not in flags:
            store.make_default(cards, stored.id)
    if "--json" in flags:
        payload = {"report": report.to_dict(), "stored": stored.to_dict() if stored else None}
        print(json.dumps(payload, ensure_ascii=False, indent=2), file=out)
    else:
        for line in report.lines():
            print(line, file=out)
        if stored is None:
            print(
                "База НЕ сохранена: в файле есть записи с ошибками (выше). Прежняя база остаётся. "
                "Исправьте файл или повторите с --accept-skipped, чтобы загрузить без этих записей.",
                file=out,
            )
        else:
            tail = "" if "--keep-default" in flags else "; приложение открывает её по умолчанию"
            print(f"Сохранена как база {stored.id}{tail}.", file=out)
    return EXIT_OK if stored is not None else EXIT_SKIPPED


def _list(flags: set[str], out: TextIO) -> int:
    cards = store.default_store()
    bases = cards.bases()
    default = cards.default_id()
    if "--json" in flags:
        rows = [{**b.to_dict(), "default": b.id == default} for b in bases]
        print(json.dumps({"default": default, "bases": rows}, ensure_ascii=False, indent=2), file=out)
        return EXIT_OK
    mark = " (по умолчанию)" if default == BUILTIN else ""
    print(f"{BUILTIN}: встроенная библиотека движка{mark}", file=out)
    for b in bases:
        mark = " (по умолчанию)" if b.id == default else ""
        print(
            f"{b.id}: «{b.label}», {b.format}, карт {b.cards}, выпусков {b.sets}, "
            f"загружена {b.uploaded_text}{mark}",
            file=out,
        )
    return EXIT_OK


def _loaded(options: dict[str, str]) -> Loaded:
    bid = options.get("--base") or store.default_store().default_id()
    return Loaded.of(open_base(bid))


def _filters(options: dict[str, str]) -> find.Filters:
    try:
        cost = find.parse_cost(options.get("--cost", ""))
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    return find.Filters(
        element=options.get("--element", ""),
        card_class=options.get("--class", ""),
        set_id=options.get("--set", ""),
        cost=cost,
    )


def _find(rest: list[str], options: dict[str, str], flags: set[str], out: TextIO) -> int:
    loaded = _loaded(options)
    try:
        top = int(options.get("--top", "20"))
    except ValueError:
        raise UsageError("--top ждёт число") from None
    filters = _filters(options)
    if filters.set_id:
        sets = {lexicon.fold(n): sid for sid, n in loaded.base.sets()}
        filters = find.Filters(
            filters.element,
            filters.card_class,
            sets.get(lexicon.fold(filters.set_id), filters.set_id),
            filters.cost,
        )
    hits = loaded.finder.find(" ".join(rest), filters, limit=top)
    if "--json" in flags:
        rows = [
            {"id": h.record.id, "name": h.record.name, "how": h.how, "score": round(h.score, 1)} for h in hits
        ]
        print(json.dumps(rows, ensure_ascii=False, indent=2), file=out)
    else:
        for h in hits:
            print(f"{h.record.name} [{h.record.id}] — {_facts_line(h.record)} ({find.HOW[h.how]})", file=out)
        if not hits:
            print("Ничего не найдено.", file=out)
    return EXIT_OK if hits else EXIT_SKIPPED


def _facts_line(r: CardRecord) -> str:
    bits = [lexicon.class_of_card(r.type, r.subtype)]
    if r.elements:
        bits.append(", ".join(r.elements))
    if r.cost is not None:
        bits.append(f"стоимость {r.cost}")
    if r.life is not None:
        bits.append(f"жизнь {r.life}")
    if r.set_name:
        bits.append(f"{r.set_name}" + (f", №{r.number}" if r.number is not None else ""))
    return "; ".join(bits)


def _show(rest: list[str], options: dict[str, str], flags: set[str], out: TextIO) -> int:
    if not rest:
        raise UsageError("cards show ждёт название или id карты")
    loaded = _loaded(options)
    wanted = " ".join(rest)
    record = loaded.base.get(wanted) or loaded.finder.best(wanted)
    if record is None:
        near = ", ".join(f"«{h.record.name}»" for h in loaded.finder.find(wanted, limit=3))
        print(f"Карта «{wanted}» не найдена." + (f" Похожие: {near}." if near else ""), file=out)
        return EXIT_SKIPPED
    applies = related.rules_for(record)
    if "--json" in flags:
        payload = {
            "id": record.id,
            "name": record.name,
            "library_name": record.library_name,
            "facts": _facts_line(record),
            "text": record.text,
            "abilities": [m.ability.to_dict() for m in record.modelled if m.ability],
            "properties": [m.prop for m in record.modelled if m.prop],
            "unmodelled": list(record.unmodelled),
            "clauses": related.clauses_for(record),
        }
        print(json.dumps(payload, ensure_ascii=False, indent=2), file=out)
        return EXIT_OK
    print(f"{record.name} [{record.id}] — {_facts_line(record)}", file=out)
    if record.text:
        print(f"Текст: {record.text}", file=out)
    for m in record.modelled:
        what = m.ability.kind if m.ability else m.prop
        print(f"  моделируется: {what} ← {m.source}" + (f" ({m.caveat})" if m.caveat else ""), file=out)
    for s in record.unmodelled:
        print(f"  не смоделировано: решайте по тексту карты — {s}", file=out)
    for a in applies:
        print(f"  правила ({a.label}): {', '.join(a.clauses)}", file=out)
    return EXIT_OK

"""`python -m engine cards …`: import a card base, list the stored ones, find and show a card.

Exit codes: 0 — done; 1 — the import skipped records with errors and was not stored (the report
says which; `--accept-skipped` stores it without them), or nothing was found; 2 — the file cannot
be read at all, or the command line is wrong. Output is Russian; no tracebacks.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

import engine
import lexicon
from cardbase import Loaded, coverage, explain, find, open_base, related, sources, store
from cardbase.importer import import_base
from cardbase.model import BUILTIN, CardBaseError
from casebook.model import CardBases
from rules_index import cliparse

EXIT_OK, EXIT_SKIPPED, EXIT_INVALID = cliparse.EXIT_OK, cliparse.EXIT_FAILED, cliparse.EXIT_BAD_INPUT

DESCRIPTION = """\
База карт: загрузить (JSON сообщества, CSV с заголовком или наш YAML), перечислить сохранённые,
найти и показать карту. База по умолчанию — та, что выбрана для приложения (или встроенная
библиотека движка). Хранилище: data/cards/ (другое: переменная BERSERK_CARDS_DIR)."""
EXIT_CODES = """\
Коды выхода: 0 — готово; 1 — в файле есть записи с ошибками и база не сохранена (или ничего не
найдено); 2 — файл не читается или неверная командная строка."""


def add_commands(cards: cliparse.Parser) -> None:
    """`import`, `list`, `find`, `show` under `cards` (`python -m engine cards …`)."""
    cards.description, cards.epilog = DESCRIPTION, EXIT_CODES
    commands = cards.commands(dest="action")
    json_only = cliparse.Parser(add_help=False)
    json_only.add_argument("--json", action="store_true", help="вывести JSON")
    in_base = cliparse.Parser(add_help=False)
    in_base.add_argument("--base", metavar="ID", help="в какой базе (по умолчанию — база приложения)")

    load = commands.add_parser(
        "import",
        parents=[json_only],
        help="загрузить базу карт и сделать её базой приложения",
        epilog=EXIT_CODES,
    )
    load.add_argument("file", metavar="ФАЙЛ", help="файл базы: .json, .csv или .yaml")
    load.add_argument("--constants", metavar="ФАЙЛ_КОДОВ", help="файл кодов (const.json) к базе JSON")
    load.add_argument(
        "--accept-skipped", action="store_true", help="сохранить и при записях с ошибками (без этих записей)"
    )
    load.add_argument(
        "--keep-default", action="store_true", help="только сохранить, базу приложения не менять"
    )

    commands.add_parser("list", parents=[json_only], help="сохранённые базы")

    search = commands.add_parser(
        "find", parents=[json_only, in_base], help="найти карты по названию и отбору", epilog=EXIT_CODES
    )
    search.add_argument(
        "query", nargs="*", metavar="ЗАПРОС", help="название или его часть (можно с опечатками)"
    )
    search.add_argument("--element", metavar="СТИХИЯ", default="", help="стихия")
    search.add_argument("--class", dest="card_class", metavar="КЛАСС", default="", help="класс карты")
    search.add_argument(
        "--set", dest="set_id", metavar="ВЫПУСК", default="", help="выпуск (название или код)"
    )
    search.add_argument("--cost", metavar="3|3-5", default="", help="стоимость или диапазон")
    search.add_argument("--top", type=int, default=20, metavar="N", help="сколько карт показать (20)")

    show = commands.add_parser(
        "show", parents=[json_only, in_base], help="показать карту: данные, текст, что моделирует движок"
    )
    show.add_argument("card", nargs="+", metavar="НАЗВАНИЕ_ИЛИ_ID")

    cover = commands.add_parser(
        "coverage",
        parents=[json_only],
        help="что движок понимает в картах базы, по разделам правил 211, 534, 535",
        description="По разделам правил (211, 534, 535 и прочее): сколько фраз карт движок моделирует, что\n"
        "оставлено судье («решайте по тексту карты») и какие карты поняты полностью, частично, никак.",
        epilog="Коды выхода: 0 — отчёт выведен; 2 — база не открывается или неверная командная строка.",
    )
    cover.add_argument(
        "base", metavar="БАЗА", help="файл карт (JSON, CSV, YAML), id или имя базы на сервере, или builtin"
    )
    cover.add_argument("--constants", metavar="ФАЙЛ_КОДОВ", help="файл кодов (const.json) к файлу карт")


def card_bases() -> CardBases:
    """How `python -m engine run|check` opens `--cards` and the scenarios' own `card_base`."""

    def named(name: str, constants: str | None) -> engine.CardLibrary:
        try:
            return sources.library_named(name, constants)
        except CardBaseError as exc:
            raise ValueError(str(exc)) from None

    return CardBases(named=named, source=sources.scenario_cards())


def build_parser() -> cliparse.Parser:
    cards = cliparse.Parser(prog="python -m engine cards")
    add_commands(cards)
    return cards


def main(argv: Sequence[str], out: TextIO | None = None, err: TextIO | None = None) -> int:
    """`argv` without the leading «cards»; returns the exit code."""
    out = out or sys.stdout
    err = err or sys.stderr
    return cliparse.run(build_parser(), argv, lambda args: dispatch(args, out, err), out, err)


def dispatch(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Run the parsed `cards` action; a user gets a message, never a traceback."""
    try:
        if args.action == "import":
            return _import(args, out)
        if args.action == "list":
            return _list(args, out)
        if args.action == "find":
            return _find(args, out)
        if args.action == "coverage":
            return _coverage(args, out)
        return _show(args, out)
    except (cliparse.UsageError, BrokenPipeError):  # the command line's own, and `| head`
        raise
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


def _import(args: argparse.Namespace, out: TextIO) -> int:
    name, data = _read(args.file)
    consts = _read(args.constants) if args.constants is not None else None
    base = import_base(data, name, constants=consts)
    report = base.report
    assert report is not None
    accept = bool(args.accept_skipped)
    stored = None
    if report.ok or accept:
        cards = store.default_store()
        stored = cards.save(base, [(name, data), *([consts] if consts else [])], accept_skipped=accept)
        if not args.keep_default:
            store.make_default(cards, stored.id)
    if args.json:
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
            tail = "" if args.keep_default else "; приложение открывает её по умолчанию"
            print(f"Сохранена как база {stored.id}{tail}.", file=out)
    return EXIT_OK if stored is not None else EXIT_SKIPPED


def _list(args: argparse.Namespace, out: TextIO) -> int:
    cards = store.default_store()
    bases = cards.bases()
    default = cards.default_id()
    if args.json:
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


def _loaded(args: argparse.Namespace) -> Loaded:
    bid = args.base or store.default_store().default_id()
    return Loaded.of(open_base(bid))


def _filters(args: argparse.Namespace) -> find.Filters:
    try:
        cost = find.parse_cost(args.cost)
    except ValueError as exc:
        raise cliparse.UsageError(str(exc)) from None
    return find.Filters(element=args.element, card_class=args.card_class, set_id=args.set_id, cost=cost)


def _find(args: argparse.Namespace, out: TextIO) -> int:
    filters = _filters(args)
    loaded = _loaded(args)
    if filters.set_id:
        sets = {lexicon.fold(n): sid for sid, n in loaded.base.sets()}
        filters = find.Filters(
            filters.element,
            filters.card_class,
            sets.get(lexicon.fold(filters.set_id), filters.set_id),
            filters.cost,
        )
    hits = loaded.finder.find(" ".join(args.query), filters, limit=args.top)
    if args.json:
        rows = [
            {"id": h.record.id, "name": h.record.name, "how": h.how, "score": round(h.score, 1)} for h in hits
        ]
        print(json.dumps(rows, ensure_ascii=False, indent=2), file=out)
    else:
        for h in hits:
            print(
                f"{h.record.name} [{h.record.id}] — {explain.brief(h.record)} ({find.HOW[h.how]})", file=out
            )
        if not hits:
            print("Ничего не найдено.", file=out)
    return EXIT_OK if hits else EXIT_SKIPPED


def _show(args: argparse.Namespace, out: TextIO) -> int:
    loaded = _loaded(args)
    wanted = " ".join(args.card)
    record = loaded.base.get(wanted) or loaded.finder.best(wanted)
    if record is None:
        near = ", ".join(f"«{h.record.name}»" for h in loaded.finder.find(wanted, limit=3))
        print(f"Карта «{wanted}» не найдена." + (f" Похожие: {near}." if near else ""), file=out)
        return EXIT_SKIPPED
    applies = related.rules_for(record)
    if args.json:
        payload = {
            "id": record.id,
            "name": record.name,
            "library_name": record.library_name,
            "facts": explain.brief(record),
            "text": record.text,
            "abilities": [m.ability.to_dict() for m in record.modelled if m.ability],
            "properties": [m.prop for m in record.modelled if m.prop],
            "unmodelled": list(record.unmodelled),
            "clauses": related.clauses_for(record),
        }
        print(json.dumps(payload, ensure_ascii=False, indent=2), file=out)
        return EXIT_OK
    print(f"{record.name} [{record.id}] — {explain.brief(record)}", file=out)
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


def _coverage(args: argparse.Namespace, out: TextIO) -> int:
    report = coverage.coverage(sources.open_named(args.base, args.constants))
    if args.json:
        print(json.dumps(report.to_dict(), ensure_ascii=False, indent=2), file=out)
    else:
        for line in report.lines():
            print(line, file=out)
    return EXIT_OK

"""Command line for scenarios: `python -m engine run|check|coverage|affected` (also `python -m casebook …`).

Exit codes (a contract other tools rely on): 0 when every expectation holds; 1 when one fails,
the engine fails on a step, or a choice is left unanswered; 2 when a file is invalid or the
command line is wrong (2 wins over 1). Output is Russian; users never see a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

import engine
import lexicon
from casebook import affected, impact
from casebook.catalogue import LIBRARY, scenario_files
from casebook.loader import load_scenario
from casebook.model import CardBases, CardSource, Scenario, ScenarioResult, StepResult
from casebook.nodes import Problem, ScenarioError
from casebook.runner import run_scenario
from rules_index import cliparse

if TYPE_CHECKING:
    from rules_index import RulesIndex

EXIT_OK = cliparse.EXIT_OK
EXIT_FAILED = cliparse.EXIT_FAILED
EXIT_INVALID = cliparse.EXIT_BAD_INPUT

EXIT_CODES = """\
Коды выхода: 0 — все ожидания выполнены; 1 — есть невыполненные ожидания или выбор без
ответа; 2 — файл сценария с ошибкой или неверная командная строка. У affected: 0 — списки
выведены; 2 — правила не загрузились, журнал не прочитан или неверная командная строка.
Формат сценариев: docs/scenarios.md"""


def add_commands(commands: argparse._SubParsersAction[cliparse.Parser]) -> None:
    """`run`, `check`, `coverage` and `affected`, for `python -m casebook` and `python -m engine`."""
    json_help = "вывести JSON"
    cards = cliparse.Parser(add_help=False)
    cards.add_argument(
        "--cards",
        metavar="БАЗА",
        help="база карт: файл (JSON сообщества, CSV, YAML), id или имя базы на сервере; её карты — "
        "первыми, запись базы важнее одноимённой карты движка",
    )
    cards.add_argument("--constants", metavar="ФАЙЛ_КОДОВ", help="файл кодов (const.json) к файлу карт")
    run = commands.add_parser(
        "run", parents=[cards], help="прогнать сценарии и проверить ожидания", epilog=EXIT_CODES
    )
    run.add_argument("files", nargs="+", metavar="ФАЙЛ", help="файл сценария (YAML)")
    run.add_argument("--json", action="store_true", help=json_help)
    check = commands.add_parser(
        "check",
        parents=[cards],
        help="прогнать все сценарии в папке (по умолчанию scenarios/)",
        description="Прогнать все сценарии в папке. С --corpus — то же под другой версией правил:\n"
        "какие сценарии опираются на изменённые пункты.",
        epilog=EXIT_CODES,
    )
    check.add_argument("folder", nargs="?", metavar="ПАПКА", help="папка сценариев (по умолчанию scenarios/)")
    check.add_argument("--corpus", metavar="ПРАВИЛА", help="файл или папка с другой версией правил")
    check.add_argument("--json", action="store_true", help=json_help)
    coverage = commands.add_parser("coverage", help="какие пункты правил срабатывают в сценариях")
    coverage.add_argument(
        "folder", nargs="?", metavar="ПАПКА", help="папка сценариев (по умолчанию scenarios/)"
    )
    coverage.add_argument("--json", action="store_true", help=json_help)
    affected = commands.add_parser(
        "affected",
        help="решения журнала и сценарии, которые ссылаются на изменившиеся пункты",
        description="Какие решения журнала и сценарии ссылаются на пункты, изменившиеся от СТАРЫХ\n"
        "к НОВЫМ правилам, и что цитировать теперь.",
        epilog=EXIT_CODES,
    )
    for name, what in (("old", "СТАРЫЕ"), ("new", "НОВЫЕ")):
        affected.add_argument(name, metavar=what, help="файл или папка с правилами, или builtin (встроенные)")
    affected.add_argument(
        "--journal", metavar="ФАЙЛ", help="файл журнала решений (по умолчанию журнал приложения)"
    )
    affected.add_argument("--json", action="store_true", help=json_help)


def build_parser(prog: str = "python -m casebook") -> cliparse.Parser:
    parser = cliparse.Parser(
        prog=prog, description="Сценарии: прогон, проверка, покрытие пунктов.", epilog=EXIT_CODES
    )
    add_commands(parser.commands())
    return parser


def main(argv: Sequence[str] | None = None, out: TextIO | None = None, err: TextIO | None = None) -> int:
    """Run the command line; returns the exit code. (`python -m casebook` opens no card base:
    `python -m engine`, which has the card base package, does.)"""
    out = out or sys.stdout
    err = err or sys.stderr
    return cliparse.run(build_parser(), argv, lambda args: dispatch(args, out, err), out, err)


def dispatch(args: argparse.Namespace, out: TextIO, err: TextIO, bases: CardBases | None = None) -> int:
    """Run the parsed `run|check|coverage|affected`; a user gets a message, never a traceback.
    `bases` opens the card bases of `--cards` and of the scenarios' `card_base`."""
    try:
        return _dispatch(args, out, err, bases)
    except (cliparse.UsageError, BrokenPipeError):  # the command line's own, and `| head`
        raise
    except Exception as exc:  # the last guard
        print(f"Внутренняя ошибка: {type(exc).__name__}: {exc}", file=err)
        return EXIT_INVALID


def _cards(
    args: argparse.Namespace, bases: CardBases | None, err: TextIO
) -> tuple[engine.CardLibrary | None, CardSource | None] | None:
    """The library of `--cards` (None without it) and how scenarios open their own bases; None
    when the base cannot be opened (said on `err`)."""
    name, constants = getattr(args, "cards", None), getattr(args, "constants", None)
    if constants and not name:
        raise cliparse.UsageError("--constants — файл кодов к базе --cards: укажите и её")
    if bases is None:
        if name:
            raise cliparse.UsageError("базы карт открывает python -m engine run|check --cards")
        return None, None
    if not name:
        return None, bases.source
    try:
        library = bases.named(name, constants)
    except ValueError as exc:
        print(f"Ошибка: база карт «{name}»: {exc}", file=err)
        return None
    # --cards wins over what a scenario names: every scenario runs on this base
    return library, lambda _ref: library


def _dispatch(args: argparse.Namespace, out: TextIO, err: TextIO, bases: CardBases | None) -> int:
    command = args.command
    if command == "affected":
        where = Path(args.journal) if args.journal is not None else None
        source = bases.source if bases is not None else None
        return impact.command(args.old, args.new, where, args.json, out, err, source)
    opened = _cards(args, bases, err)
    if opened is None:
        return EXIT_INVALID
    library, source = opened
    if command == "run":
        return _run_files([Path(p) for p in args.files], args.json, out, library, source)
    folder = Path(args.folder) if args.folder else _default_dir()
    if not folder.is_dir():
        raise cliparse.UsageError(f"папки {folder} нет")
    files = scenario_files(folder)
    if command == "check":
        if not files:
            print(f"В папке {folder} не найдено ни одного сценария (*.yaml).", file=out)
            return EXIT_OK
        if args.corpus is not None:
            if library is not None:
                raise cliparse.UsageError("--corpus и --cards вместе не работают: проверьте по очереди")
            return affected.check_under(files, args.corpus, args.json, out, source)
        return _run_files(files, args.json, out, library, source)
    return _coverage(files, args.json, out, source)


def _default_dir() -> Path:
    here = Path("scenarios")
    return here if here.is_dir() else LIBRARY


def _load_all(
    files: Sequence[Path], index: RulesIndex, library: engine.CardLibrary, cards: CardSource | None = None
) -> list[tuple[Path, Scenario | ScenarioError]]:
    loaded: list[tuple[Path, Scenario | ScenarioError]] = []
    for path in files:
        try:
            loaded.append((path, load_scenario(path, index=index, library=library, cards=cards)))
        except ScenarioError as exc:
            loaded.append((path, exc))
        except (RecursionError, MemoryError, ValueError, TypeError) as exc:
            # The loader names every problem it knows; anything else still stays with its file,
            # so one strange file never hides the report on the others.
            what = f"файл не удалось прочитать ({type(exc).__name__}); проверьте его вложенность и значения"
            loaded.append((path, ScenarioError([Problem(str(path), None, None, what)])))
    return loaded


def _resources() -> tuple[RulesIndex, engine.CardLibrary]:
    import rules_index

    return rules_index.load_default(), engine.load_library()


def _run_files(
    files: Sequence[Path],
    as_json: bool,
    out: TextIO,
    cards_library: engine.CardLibrary | None = None,
    cards: CardSource | None = None,
) -> int:
    index, library = _resources()
    library = cards_library or library
    code = EXIT_OK
    report: list[dict[str, object]] = []
    counts = {"ok": 0, "failed": 0, "invalid": 0, "xfail": 0}
    for path, item in _load_all(files, index, library, cards):
        if isinstance(item, ScenarioError):
            code = EXIT_INVALID
            counts["invalid"] += 1
            report.append(
                {
                    "file": str(path),
                    "ok": False,
                    "error": str(item),
                    "problems": [
                        {"file": p.file, "line": p.line, "key": p.key, "message": p.message}
                        for p in item.problems
                    ],
                    "steps": [],
                }
            )
            if not as_json:
                print(f"== {path}\nОШИБКА В ФАЙЛЕ СЦЕНАРИЯ:", file=out)
                for problem in item.problems:
                    print(f"  {problem}", file=out)
                print(file=out)
            continue
        result = run_scenario(item, index, library)
        counts["ok" if result.ok else "failed"] += 1
        counts["xfail"] += len(result.xfailed)
        if not result.ok and code == EXIT_OK:
            code = EXIT_FAILED
        report.append(result.to_dict())
        if not as_json:
            print(render_result(result), file=out)
    if as_json:
        print(json.dumps(report, ensure_ascii=False, indent=2), file=out)
    else:
        line = (
            f"Итого сценариев: {len(files)}; выполнены: {counts['ok']}; не выполнены: {counts['failed']};"
            f" с ошибкой в файле: {counts['invalid']}"
        )
        if counts["xfail"]:
            line += f"; известных пробелов движка (xfail): {counts['xfail']}"
        print(line, file=out)
    return code


def render_result(result: ScenarioResult) -> str:
    """A scenario run as Russian text: each step, its trace, then its expectations."""
    s = result.scenario
    lines = [f"== {s.name}", f"Вопрос: {s.title}"]
    if s.source:
        lines.append(f"Источник: {s.source}")
    if s.answer:
        lines.append(f"Ответ судьи: {s.answer}")
    lines.extend(f"Внимание: {note}" for note in result.notes)
    for step in result.steps:
        lines.append("")
        lines.append(f"Шаг {step.number} (строка {step.line}): {step.action!r}")
        if step.verdict is not None:
            lines.append(f"  Вердикт: {lexicon.verdict(step.verdict)}")
        if step.trace:
            lines.append("  Трасса:")
            lines.extend("    " + ln for ln in engine.render_trace(step.trace).splitlines())
        if step.error:
            lines.append(f"  ✗ {step.error}")
        if step.expectations:
            lines.append("  Ожидания:")
            for e in step.expectations:
                mark = "✓" if e.ok else "✗"
                lines.append(f"    {mark} {e.what}" + (f" — {e.detail}" if e.detail else ""))
        if step.pending_unanswered is not None:
            lines.append("  Прогон остановлен: выбор остался без ответа (добавьте ответ в choices).")
        if step.status == "xfail":
            lines.append(f"  ⚠ известный пробел движка (xfail): {step.xfail}")
        elif step.status == "xpass":
            lines.append(f"  ✗ шаг помечен xfail («{step.xfail}»), но все ожидания выполнены: уберите xfail")
    lines.append("")
    if result.ok and not result.xfailed:
        lines.append("Итог: все ожидания выполнены.")
    elif result.ok:
        lines.append(
            f"Итог: выполнено, кроме известных пробелов движка (xfail) в шагах {_numbers(result.xfailed)}."
        )
    else:
        lines.append(f"Итог: НЕ ВЫПОЛНЕНО в шагах {_numbers(result.failures)}.")
    lines.append("")
    return "\n".join(lines)


def _numbers(steps: Sequence[StepResult]) -> str:
    return ", ".join(str(s.number) for s in steps)


def coverage_table(results: Sequence[ScenarioResult], index: RulesIndex) -> list[dict[str, object]]:
    """For every clause of the index: its engine handlers and the scenarios in which it fired."""
    handlers = engine.handlers_by_clause()
    fired: dict[str, list[str]] = {}
    for r in results:
        for cid in sorted(r.fired_clauses()):
            fired.setdefault(cid, []).append(r.scenario.name)
    ids = [p.id for p in index.paragraphs]
    return [
        {"id": cid, "handlers": list(handlers.get(cid, [])), "scenarios": fired.get(cid, [])} for cid in ids
    ]


def _coverage(files: Sequence[Path], as_json: bool, out: TextIO, cards: CardSource | None = None) -> int:
    index, library = _resources()
    results: list[ScenarioResult] = []
    invalid: list[ScenarioError] = []
    for _path, item in _load_all(files, index, library, cards):
        if isinstance(item, ScenarioError):
            invalid.append(item)
        else:
            results.append(run_scenario(item, index, library))
    table = coverage_table(results, index)
    if as_json:
        print(json.dumps(table, ensure_ascii=False, indent=2), file=out)
    else:
        for row in table:
            handlers = row["handlers"]
            scen = row["scenarios"]
            assert isinstance(handlers, list) and isinstance(scen, list)
            print(
                f"{row['id']:<12} обработчиков: {len(handlers):<3} сценариев: {len(scen):<3}"
                + (f" {', '.join(handlers)}" if handlers else ""),
                file=out,
            )
        handled = [r for r in table if r["handlers"]]
        uncovered = [str(r["id"]) for r in handled if not r["scenarios"]]
        fired_any = [r for r in table if r["scenarios"]]
        print(
            f"\nПунктов в правилах: {len(table)}; встречаются в сценариях: {len(fired_any)};"
            f" с обработчиками в движке: {len(handled)}, из них без сценария: {len(uncovered)}"
            + (f" ({', '.join(uncovered)})" if uncovered else ""),
            file=out,
        )
    for exc in invalid:
        print(f"Сценарий с ошибкой пропущен: {exc}", file=sys.stderr)
    return EXIT_INVALID if invalid else EXIT_OK

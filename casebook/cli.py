"""Command line for scenarios: `python -m engine run|check|coverage` (also `python -m casebook …`).

Exit codes (a contract other tools rely on): 0 when every expectation holds; 1 when one fails,
the engine fails on a step, or a choice is left unanswered; 2 when a file is invalid or the
command line is wrong (2 wins over 1). Output is Russian; users never see a traceback.
"""

from __future__ import annotations

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
from casebook.model import Scenario, ScenarioResult, StepResult
from casebook.nodes import Problem, ScenarioError
from casebook.runner import run_scenario

if TYPE_CHECKING:
    from rules_index import RulesIndex

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_INVALID = 2

USAGE = """\
Использование:
  python -m engine run ФАЙЛ... [--json]    прогнать сценарии и проверить ожидания
  python -m engine check [ПАПКА] [--json]  прогнать все сценарии в папке (по умолчанию scenarios/)
  python -m engine check [ПАПКА] --corpus ПРАВИЛА [--json]
                                           то же под другой версией правил: какие сценарии
                                           опираются на изменённые пункты
  python -m engine affected СТАРЫЕ НОВЫЕ [--json] [--journal ФАЙЛ]
                                           какие решения журнала и сценарии ссылаются на
                                           пункты, изменившиеся от СТАРЫХ к НОВЫМ правилам
                                           (файл, папка или builtin), и что цитировать теперь
  python -m engine coverage [ПАПКА] [--json]
                                           какие пункты правил срабатывают в сценариях
  python -m engine abilities               словарь особенностей карт (docs/abilities.md)
Коды выхода: 0 — все ожидания выполнены; 1 — есть невыполненные ожидания или выбор без
ответа; 2 — файл сценария с ошибкой или неверная командная строка. У affected: 0 — списки
выведены; 2 — правила не загрузились, журнал не прочитан или неверная командная строка.
Формат сценариев: docs/scenarios.md
"""


class UsageError(Exception):
    """A wrong command line (Russian message)."""


def main(argv: Sequence[str] | None = None, out: TextIO | None = None, err: TextIO | None = None) -> int:
    """Run the command line; returns the exit code."""
    out = out or sys.stdout
    err = err or sys.stderr
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        return _dispatch(args, out, err)
    except UsageError as exc:
        print(f"Ошибка: {exc}\n", file=err)
        print(USAGE, file=err, end="")
        return EXIT_INVALID
    except Exception as exc:  # the last guard: a user gets a message, not a traceback
        print(f"Внутренняя ошибка: {type(exc).__name__}: {exc}", file=err)
        return EXIT_INVALID


def _dispatch(args: list[str], out: TextIO, err: TextIO) -> int:
    if not args:
        raise UsageError("не указана команда (run, check, coverage или affected)")
    if args[0] in ("-h", "--help", "help"):
        print(USAGE, file=out, end="")
        return EXIT_OK
    command, rest = args[0], args[1:]
    if command == "affected":
        return _affected(rest, out, err)
    corpus, rest = _corpus_option(rest)
    if corpus is not None and command != "check":
        raise UsageError("--corpus работает только с командой check")
    as_json = "--json" in rest
    positional = [a for a in rest if a != "--json"]
    unknown = [a for a in positional if a.startswith("-")]
    if unknown:
        raise UsageError(f"неизвестный ключ командной строки: {unknown[0]}")
    if command == "run":
        if not positional:
            raise UsageError("укажите хотя бы один файл сценария: python -m engine run ФАЙЛ...")
        return _run_files([Path(p) for p in positional], as_json, out)
    if command in ("check", "coverage"):
        if len(positional) > 1:
            raise UsageError(f"команде {command} нужна одна папка, а указано: {' '.join(positional)}")
        folder = Path(positional[0]) if positional else _default_dir()
        if not folder.is_dir():
            raise UsageError(f"папки {folder} нет")
        files = scenario_files(folder)
        if command == "check":
            if not files:
                print(f"В папке {folder} не найдено ни одного сценария (*.yaml).", file=out)
                return EXIT_OK
            if corpus is not None:
                return affected.check_under(files, corpus, as_json, out)
            return _run_files(files, as_json, out)
        return _coverage(files, as_json, out)
    raise UsageError(f"неизвестная команда «{command}»; команды: run, check, coverage, affected")


def _affected(rest: list[str], out: TextIO, err: TextIO) -> int:
    journal, rest = _path_option(rest, "--journal", "файл журнала решений")
    as_json = "--json" in rest
    positional = [a for a in rest if a != "--json"]
    unknown = [a for a in positional if a.startswith("-")]
    if unknown:
        raise UsageError(f"неизвестный ключ командной строки: {unknown[0]}")
    if len(positional) != 2:
        raise UsageError("команде affected нужны две версии правил: python -m engine affected СТАРЫЕ НОВЫЕ")
    where = Path(journal) if journal is not None else None
    return impact.command(positional[0], positional[1], where, as_json, out, err)


def _path_option(rest: list[str], name: str, what: str) -> tuple[str | None, list[str]]:
    """`NAME PATH` (or `NAME=PATH`) taken out of the arguments."""
    for k, arg in enumerate(rest):
        if arg.startswith(name + "="):
            return arg.split("=", 1)[1], rest[:k] + rest[k + 1 :]
        if arg == name:
            if k + 1 >= len(rest):
                raise UsageError(f"после {name} укажите {what}")
            return rest[k + 1], rest[:k] + rest[k + 2 :]
    return None, rest


def _corpus_option(rest: list[str]) -> tuple[str | None, list[str]]:
    """`--corpus PATH` (or `--corpus=PATH`) taken out of the arguments."""
    return _path_option(rest, "--corpus", "файл или папку с правилами")


def _default_dir() -> Path:
    here = Path("scenarios")
    return here if here.is_dir() else LIBRARY


def _load_all(
    files: Sequence[Path], index: RulesIndex, library: engine.CardLibrary
) -> list[tuple[Path, Scenario | ScenarioError]]:
    loaded: list[tuple[Path, Scenario | ScenarioError]] = []
    for path in files:
        try:
            loaded.append((path, load_scenario(path, index=index, library=library)))
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


def _run_files(files: Sequence[Path], as_json: bool, out: TextIO) -> int:
    index, library = _resources()
    code = EXIT_OK
    report: list[dict[str, object]] = []
    counts = {"ok": 0, "failed": 0, "invalid": 0, "xfail": 0}
    for path, item in _load_all(files, index, library):
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


def _coverage(files: Sequence[Path], as_json: bool, out: TextIO) -> int:
    index, library = _resources()
    results: list[ScenarioResult] = []
    invalid: list[ScenarioError] = []
    for _path, item in _load_all(files, index, library):
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

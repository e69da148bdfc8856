"""One convention for every command line (issue 19): each command and subcommand answers
`--help` with a Russian usage and exit 0, and a wrong command line with a Russian message,
the usage of the command it was given to, and exit 2 — without running anything."""

from __future__ import annotations

import io
import subprocess
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TextIO

import pytest

import engine.__main__ as engine_main
from cardbase import cli as cards_cli
from casebook import cli as casebook_cli
from rules_index import cli as rules_cli
from rules_index import cliparse
from rulings import cli as rulings_cli
from tests import helpers

ROOT = Path(__file__).resolve().parent.parent

Main = Callable[[Sequence[str], TextIO, TextIO], int]
ENTRY_POINTS: dict[str, tuple[Callable[[], cliparse.Parser], Main]] = {
    "python -m rules_index": (rules_cli.build_parser, lambda a, o, e: rules_cli.main(a, o, e)),
    "python -m engine": (engine_main.build_parser, lambda a, o, e: engine_main.main(a, o, e)),
    "python -m casebook": (casebook_cli.build_parser, lambda a, o, e: casebook_cli.main(a, o, e)),
    "python -m rulings": (rulings_cli.build_parser, lambda a, o, e: rulings_cli.main(a, o, e)),
    # cardbase.cli.main takes the arguments after «cards», as `python -m engine cards` passes them
    "python -m engine cards": (cards_cli.build_parser, lambda a, o, e: cards_cli.main(a, o, e)),
}
# What argparse says when a message slipped past the translation.
ENGLISH = (
    "usage:",
    "options:",
    "positional arguments",
    "show this help",
    "error:",
    "invalid",
    "unrecogni",
    "required",
    "expected",
    "choose from",
    "argument ",
)


def _paths(parser: cliparse.Parser, path: tuple[str, ...] = ()) -> Iterator[tuple[str, ...]]:
    yield path
    for name, sub in parser.subcommands().items():
        yield from _paths(sub, (*path, name))


COMMANDS = [(prog, path) for prog, (build, _) in ENTRY_POINTS.items() for path in _paths(build())]


def _run(prog: str, argv: Sequence[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = ENTRY_POINTS[prog][1](list(argv), out, err)
    return code, out.getvalue(), err.getvalue()


def _russian(text: str) -> bool:
    return any("а" <= ch <= "я" for ch in text.lower()) and not any(e in text for e in ENGLISH)


def test_the_walk_finds_every_documented_command() -> None:
    found = {" ".join((prog, *path)) for prog, path in COMMANDS}
    documented = {"python -m rules_index " + c for c in ("search", "show", "check", "graph", "diff")} | {
        "python -m engine " + c for c in ("run", "check", "coverage", "affected", "implemented", "abilities")
    }
    documented |= {"python -m engine cards " + c for c in ("import", "list", "find", "show")}
    documented |= {"python -m rulings users " + c for c in ("add", "list", "remove", "passwd")}
    documented |= {"python -m casebook " + c for c in ("run", "check", "coverage", "affected")}
    assert documented <= found, sorted(documented - found)


@pytest.mark.parametrize(("prog", "path"), COMMANDS, ids=[" ".join((p, *c)) for p, c in COMMANDS])
def test_help_exits_0_with_a_russian_usage(prog: str, path: tuple[str, ...]) -> None:
    code, out, err = _run(prog, [*path, "--help"])
    assert (code, err) == (0, "")
    assert out.startswith(f"Использование: {' '.join((prog, *path))}"), out[:200]
    assert _russian(out) and "показать эту справку" in out, out


@pytest.mark.parametrize(("prog", "path"), COMMANDS, ids=[" ".join((p, *c)) for p, c in COMMANDS])
def test_a_wrong_command_line_exits_2_with_a_russian_message(prog: str, path: tuple[str, ...]) -> None:
    code, out, err = _run(prog, [*path, "--нет-такого-ключа"])
    assert (code, out) == (2, "")
    first, _, usage = err.partition("\n")
    assert first.startswith("Ошибка: ") and _russian(err), err
    assert usage.startswith("Использование: python -m "), err


@pytest.mark.parametrize(
    ("prog", "argv", "says", "usage_of"),
    [
        ("python -m rules_index", [], "не указана команда (search, show, check, graph, diff)", ""),
        ("python -m rules_index", ["fly"], "неизвестная команда «fly»; команды: search", ""),
        ("python -m rules_index", ["search"], "не хватает аргументов: ЗАПРОС", "search"),
        (
            "python -m rules_index",
            ["search", "хост", "--top", "много"],
            "--top: «много» — не целое число",
            "search",
        ),
        ("python -m rules_index", ["search", "хост", "--top"], "после --top нужно значение", "search"),
        ("python -m rules_index", ["search", "хост", "--j"], "ключ --j неоднозначен", "search"),
        ("python -m rules_index", ["search", "хост", "лишнее"], "лишние аргументы: лишнее", "search"),
        ("python -m rules_index", ["graph", "--format", "svg"], "недопустимое значение «svg»", "graph"),
        ("python -m rulings", ["users"], "не указана команда (add, list, remove, passwd)", "users"),
        ("python -m rulings", ["users", "add", "Орлов", "--role", "admin"], "«admin»", "users add"),
        ("python -m engine cards", ["find", "--cost"], "после --cost нужно значение", "find"),
    ],
)
def test_wrong_command_lines_say_what_is_wrong(prog: str, argv: list[str], says: str, usage_of: str) -> None:
    code, out, err = _run(prog, argv)
    assert (code, out) == (2, "")
    assert says in err and _russian(err), err
    assert f"Использование: {prog} {usage_of}".rstrip() in err, err


@pytest.mark.parametrize(
    "argv",
    [
        ["rules_index", "--help"],
        ["engine", "cards", "--help"],
        ["rulings", "users", "--help"],
        ["casebook", "-h"],
    ],
)
def test_help_as_a_process_exits_0(argv: list[str]) -> None:
    done = subprocess.run(
        [sys.executable, "-m", *argv],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=helpers.PROCESS_TIMEOUT,
        check=False,
    )
    assert (done.returncode, done.stderr) == (0, ""), done.stderr
    assert done.stdout.startswith("Использование: python -m " + " ".join(argv[:-1]))


@pytest.mark.parametrize(
    "argv",
    [
        ["engine", "abilities"],
        ["engine", "coverage"],
        ["engine", "cards", "coverage", "scenarios/cards/border.json"],
        ["rules_index", "show", "211"],
        ["rulings", "--help"],
        ["casebook", "check", "scenarios"],
    ],
)
def test_output_cut_off_by_its_reader_ends_quietly(argv: list[str]) -> None:
    """`python -m engine … | head`: the reader leaves before the output ends; the command stops
    with exit 0 and says nothing on stderr (no Python traceback, no «внутренняя ошибка»)."""
    proc = subprocess.Popen(
        [sys.executable, "-m", *argv], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()  # the reader is gone before the first line is written
    try:
        err = proc.stderr.read().decode("utf-8", "replace")
        code = proc.wait(timeout=helpers.PROCESS_TIMEOUT)
    finally:
        proc.kill()
        proc.stderr.close()
    assert (code, err) == (0, ""), err

"""`python -m engine …`: the command line documented in the README, one parser for all of it.

`abilities` prints the ability vocabulary as Markdown (docs/abilities.md is its output);
`implemented [--write]` checks (or regenerates) engine/data/implemented.yaml, the rules text each
handler implements; `cards` (import a card base, find and show a card) is the card base's
(cardbase/cli.py); the scenario commands (`run`, `check`, `coverage`, `affected`) belong to the
scenario format and are casebook's. Each keeps its own exit codes (see its `--help`).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import TextIO

from cardbase import cli as cards_cli
from casebook import cli as scenarios_cli
from engine import implemented
from engine.model import abilities
from rules_index import cliparse


def build_parser() -> cliparse.Parser:
    parser = cliparse.Parser(
        prog="python -m engine",
        description="Движок правил «Берсерка»: сценарии, база карт, словарь особенностей.",
        epilog=scenarios_cli.EXIT_CODES,
    )
    commands = parser.commands()
    scenarios_cli.add_commands(commands)
    cards_cli.add_commands(commands.add_parser("cards", help="база карт: загрузить, найти, показать карту"))
    check = commands.add_parser(
        "implemented",
        help="какой текст правил реализует каждый обработчик (engine/data/implemented.yaml)",
        epilog="Коды выхода: 0 — файл соответствует обработчикам и правилам (или записан); 1 — устарел.",
    )
    check.add_argument("--write", action="store_true", help="записать файл заново")
    commands.add_parser("abilities", help="словарь особенностей карт в Markdown (docs/abilities.md)")
    return parser


def main(argv: Sequence[str] | None = None, out: TextIO | None = None, err: TextIO | None = None) -> int:
    """Run the command line; returns the exit code."""
    out = out or sys.stdout
    err = err or sys.stderr
    return cliparse.run(build_parser(), argv, lambda args: _dispatch(args, out, err), out, err)


def _dispatch(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    if args.command == "abilities":
        out.write(abilities.describe_markdown())
        return cliparse.EXIT_OK
    if args.command == "implemented":
        return implemented.command(out, err, write=args.write)
    if args.command == "cards":
        return cards_cli.dispatch(args, out, err)
    # the scenarios' card bases (`--cards`, `card_base`) are opened by the card base package
    return scenarios_cli.dispatch(args, out, err, cards_cli.card_bases())


if __name__ == "__main__":
    sys.exit(main())

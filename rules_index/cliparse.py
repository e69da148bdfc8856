"""The one convention of our command lines: argparse, speaking Russian.

Every `python -m …` command (`rules_index`, `engine` with `cards`, `rulings users`, `casebook`)
builds its parser from `Parser` and runs it through `run`, so they all behave alike:
`--help` (at any level) prints a Russian usage and exits 0; a wrong command line prints
«Ошибка: …» with what is wrong and the usage of the command that was mistyped on stderr, and
exits 2; a command with subcommands given none is a wrong command line. Exit codes: 0 done,
1 an expectation not met (each command documents when), 2 bad input.

A new subcommand is `commands.add_parser(name, help=…)` on its parent's `Parser.commands()`;
it inherits the convention (the Russian `-h`, titles and messages). A check that argparse cannot
express («the folder does not exist») raises `UsageError` from the handler: `run` reports it
the same way, with that subcommand's usage.

It lives in `rules_index`, the lowest layer every command imports; it imports nothing of ours.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import sys
from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import Any, NoReturn, TextIO

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_BAD_INPUT = 2


class UsageError(ValueError):
    """A wrong command line; the message is Russian, `usage` the mistyped command's usage line."""

    def __init__(self, message: str, usage: str = "") -> None:
        super().__init__(message)
        self.usage = usage


class _HelpShown(Exception):
    """`--help` was answered (argparse would call sys.exit here)."""


def _named(match: re.Match[str], key: str) -> str:
    """A value argparse quoted with repr ('x'), in Russian quotes («x»)."""
    value = match.group(key).strip()
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        value = value[1:-1]
    return f"«{value}»"


def _extras(extras: Sequence[str]) -> str:
    options = [a for a in extras if a.startswith("-")]
    if options:
        return f"неизвестный ключ командной строки: {options[0]}"
    return f"лишние аргументы: {' '.join(extras)}"


# argparse's English messages (3.11) and ours, most specific first; the last one keeps the
# argument's name and passes on a message of ours (raised by a `type=` function).
_MESSAGES: tuple[tuple[re.Pattern[str], Callable[[re.Match[str]], str]], ...] = tuple(
    (re.compile(pattern, re.DOTALL), say)
    for pattern, say in (
        (
            r"the following arguments are required: (?P<args>.*)",
            lambda m: f"не хватает аргументов: {m['args']}",
        ),
        (r"unrecognized arguments: (?P<args>.*)", lambda m: _extras(m["args"].split())),
        (
            r"one of the arguments (?P<args>.*) is required",
            lambda m: f"нужен один из аргументов: {m['args']}",
        ),
        (
            r"ambiguous option: (?P<opt>\S+) could match (?P<args>.*)",
            lambda m: f"ключ {m['opt']} неоднозначен, подходят: {m['args']}",
        ),
        (r"argument (?P<arg>.+?): expected one argument", lambda m: f"после {m['arg']} нужно значение"),
        (
            r"argument (?P<arg>.+?): expected at least one argument",
            lambda m: f"после {m['arg']} нужно хотя бы одно значение",
        ),
        (
            r"argument (?P<arg>.+?): expected at most one argument",
            lambda m: f"после {m['arg']} — не больше одного значения",
        ),
        (
            r"argument (?P<arg>.+?): expected (?P<n>\d+) arguments?",
            lambda m: f"после {m['arg']} нужно значений: {m['n']}",
        ),
        (
            r"argument (?P<arg>.+?): invalid int value: (?P<value>.*)",
            lambda m: f"{m['arg']}: {_named(m, 'value')} — не целое число",
        ),
        (
            r"argument (?P<arg>.+?): invalid float value: (?P<value>.*)",
            lambda m: f"{m['arg']}: {_named(m, 'value')} — не число",
        ),
        (
            r"argument (?P<arg>.+?): invalid \S+ value: (?P<value>.*)",
            lambda m: f"{m['arg']}: недопустимое значение {_named(m, 'value')}",
        ),
        (
            r"argument (?P<arg>.+?): not allowed with argument (?P<other>.*)",
            lambda m: f"{m['arg']} нельзя вместе с {m['other']}",
        ),
        (
            r"argument (?P<arg>.+?): ignored explicit argument (?P<value>.*)",
            lambda m: f"{m['arg']} не принимает значения ({_named(m, 'value')})",
        ),
        (r"argument (?P<arg>.+?): (?P<message>.*)", lambda m: f"{m['arg']}: {m['message']}"),
    )
)


def translate(message: str) -> str:
    """argparse's English error message in Russian (one of ours passes unchanged)."""
    for pattern, say in _MESSAGES:
        found = pattern.fullmatch(message)
        if found:
            return say(found)
    return message


class Formatter(argparse.RawDescriptionHelpFormatter):
    """Russian «Использование:»; descriptions and epilogs keep the line breaks written for them."""

    def add_usage(self, usage: str | None, actions: Any, groups: Any, prefix: str | None = None) -> None:
        super().add_usage(usage, actions, groups, "Использование: " if prefix is None else prefix)


class Parser(argparse.ArgumentParser):
    """An ArgumentParser with Russian titles, help option and messages; errors raise UsageError."""

    def __init__(self, **kwargs: Any) -> None:
        parents: Sequence[argparse.ArgumentParser] = kwargs.pop("parents", ())
        add_help = kwargs.pop("add_help", True)
        kwargs.setdefault("formatter_class", Formatter)
        super().__init__(add_help=False, **kwargs)
        # Retitled before the parents' arguments join, so that theirs (also a Parser's) merge in.
        self._positionals.title = "аргументы"
        self._optionals.title = "параметры"
        self._commands: tuple[str, argparse._SubParsersAction[Parser]] | None = None
        if add_help:
            self.add_argument("-h", "--help", action="help", help="показать эту справку и выйти")
        for parent in parents:
            self._add_container_actions(parent)
            self._defaults.update(parent._defaults)

    def commands(self, dest: str = "command") -> argparse._SubParsersAction[Parser]:
        """This parser's subcommands: `.add_parser(name, help=…)` gives a `Parser` for each."""
        sub = self.add_subparsers(title="команды", dest=dest, metavar="КОМАНДА", parser_class=Parser)
        self._commands = (dest, sub)
        return sub

    def subcommands(self) -> Mapping[str, Parser]:
        """This parser's subcommands by name (empty for a command without them)."""
        return MappingProxyType(self._commands[1].choices if self._commands else {})

    def _check_value(self, action: argparse.Action, value: Any) -> None:
        choices = action.choices
        if choices is None or value in choices:
            return
        names = ", ".join(map(str, choices))
        if isinstance(action, argparse._SubParsersAction):
            raise argparse.ArgumentError(None, f"неизвестная команда «{value}»; команды: {names}")
        raise argparse.ArgumentError(action, f"недопустимое значение «{value}»; возможные значения: {names}")

    def error(self, message: str) -> NoReturn:
        raise UsageError(translate(message), self.format_usage())

    def exit(self, status: int = 0, message: str | None = None) -> NoReturn:
        # argparse exits only after printing the help (errors come through `error`).
        raise _HelpShown

    def chosen(self, args: argparse.Namespace) -> tuple[Parser, str]:
        """The innermost command the arguments name, and what it lacks: "" or its subcommands."""
        parser = self
        while parser._commands is not None:
            dest, sub = parser._commands
            name = getattr(args, dest, None)
            if name is None:
                return parser, ", ".join(sub.choices)
            parser = sub.choices[name]
        return parser, ""


def run(
    parser: Parser,
    argv: Sequence[str] | None,
    dispatch: Callable[[argparse.Namespace], int],
    out: TextIO | None = None,
    err: TextIO | None = None,
) -> int:
    """Parse `argv` (sys.argv[1:] when None) and `dispatch` the result; returns the exit code.

    The help goes to `out`; a wrong command line (argparse's or a UsageError the handler raises)
    to `err`, with the usage of the command it concerns. Output cut off by its reader (a pipe into
    `head`) ends the command quietly with exit 0. Whatever else `dispatch` raises is the caller's
    (each command has its own last guard against tracebacks, which lets BrokenPipeError through).
    """
    out = out or sys.stdout
    err = err or sys.stderr
    chosen = parser
    try:
        with contextlib.redirect_stdout(out):
            args, extras = parser.parse_known_args(sys.argv[1:] if argv is None else list(argv))
        chosen, lacking = parser.chosen(args)
        if extras:  # said with the usage of the command they were given to
            raise UsageError(_extras(extras), chosen.format_usage())
        if lacking:
            raise UsageError(f"не указана команда ({lacking})", chosen.format_usage())
        return dispatch(args)
    except _HelpShown:
        return EXIT_OK
    except UsageError as exc:
        return complain(exc, err, chosen)
    except BrokenPipeError:  # the reader of our output left (`… | head`): the rest is not wanted
        _output_dropped()
        return EXIT_OK


def _output_dropped() -> None:
    """After the reader of standard output left: point it at /dev/null, so what is still buffered
    (and Python's own flush at exit) goes nowhere instead of raising again as a traceback."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)


def complain(exc: UsageError, err: TextIO, parser: Parser | None = None) -> int:
    """Report a wrong command line on `err`; returns EXIT_BAD_INPUT."""
    print(f"Ошибка: {exc}", file=err)
    usage = exc.usage or (parser.format_usage() if parser is not None else "")
    if usage:
        print(usage.rstrip(), file=err)
    return EXIT_BAD_INPUT

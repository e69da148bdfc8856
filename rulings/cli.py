"""Command line for the journal's accounts: `python -m rulings users add|list|remove|passwd`.

Whoever can run this on the head judge's laptop can manage accounts: the file's owner is the
authority, so these commands need no sign-in. Passwords are asked twice on a terminal, or read
from the first line of standard input for scripts (`echo "пароль" | python -m rulings users add …`);
they are never taken from the command line, where other users of the machine could see them.
Exit codes: 0 done; 2 a wrong command line, a bad name, role or password, or an unusable file.
"""

from __future__ import annotations

import argparse
import getpass
import sys
from collections.abc import Callable, Sequence
from typing import TextIO

from rules_index import cliparse
from rulings import accounts
from rulings.model import JournalError
from rulings.store import Journal

EXIT_OK = cliparse.EXIT_OK
EXIT_INVALID = cliparse.EXIT_BAD_INPUT

NOTES = """\
Пароль спрашивается дважды; в скриптах — первая строка стандартного ввода.
Роли: judge — судья (записывает и правит решения), head — главный судья (ещё закрепляет решения).
Коды выхода: 0 — готово; 2 — неверная командная строка, имя, роль, пароль или файл журнала."""


def build_parser() -> cliparse.Parser:
    parser = cliparse.Parser(prog="python -m rulings", description="Журнал решений судей.", epilog=NOTES)
    journal = cliparse.Parser(add_help=False)
    journal.add_argument(
        "--file",
        metavar="ПУТЬ",
        default=argparse.SUPPRESS,
        help="другой файл журнала (по умолчанию $BERSERK_JOURNAL или data/rulings.sqlite3)",
    )
    users = parser.commands().add_parser(
        "users",
        parents=[journal],
        help="учётные записи судей",
        description="Учётные записи судей журнала.",
        epilog=NOTES,
    )
    actions = users.commands(dest="action")
    add = actions.add_parser("add", parents=[journal], help="создать учётную запись судьи", epilog=NOTES)
    add.add_argument("name", metavar="ИМЯ", help="имя судьи (с пробелом — в кавычках)")
    add.add_argument("--role", choices=accounts.ROLES, help="judge — судья, head — главный судья")
    actions.add_parser("list", parents=[journal], help="перечислить учётные записи")
    remove = actions.add_parser(
        "remove", parents=[journal], help="удалить учётную запись (её решения остаются)"
    )
    remove.add_argument("name", metavar="ИМЯ")
    passwd = actions.add_parser(
        "passwd", parents=[journal], help="сменить пароль (все её входы завершатся)", epilog=NOTES
    )
    passwd.add_argument("name", metavar="ИМЯ")
    return parser


def _ask_password(stdin: TextIO, err: TextIO, prompt: Callable[[str], str]) -> str:
    if not stdin.isatty():
        line = stdin.readline()
        return line.rstrip("\r\n")
    first = prompt("Пароль: ")
    second = prompt("Пароль ещё раз: ")
    if first != second:
        raise accounts.AccountError("Пароли не совпали; ничего не изменено.")
    return first


def main(
    argv: Sequence[str] | None = None,
    out: TextIO | None = None,
    err: TextIO | None = None,
    stdin: TextIO | None = None,
    prompt: Callable[[str], str] = getpass.getpass,
) -> int:
    """Run the command line; returns the exit code."""
    out, err, stdin = out or sys.stdout, err or sys.stderr, stdin or sys.stdin

    def dispatch(args: argparse.Namespace) -> int:
        try:
            return _users(args, out, err, stdin, prompt)
        except (accounts.AccountError, JournalError) as exc:
            print(f"Ошибка: {exc}", file=err)
            return EXIT_INVALID
        except (KeyboardInterrupt, EOFError):
            print("\nПрервано; ничего не изменено.", file=err)
            return EXIT_INVALID

    return cliparse.run(build_parser(), argv, dispatch, out, err)


def _users(
    args: argparse.Namespace, out: TextIO, err: TextIO, stdin: TextIO, prompt: Callable[[str], str]
) -> int:
    book = Journal(getattr(args, "file", None))
    if args.action == "list":
        found = book.accounts()
        if not found:
            print(
                "Учётных записей нет. Первую создаёт главный судья: "
                "python -m rulings users add ИМЯ --role head",
                file=out,
            )
        for a in found:
            print(
                f"{a.name}\t{accounts.ROLE_LABELS[a.role]}\t"
                f"создана {a.created_at[:16].replace('T', ' ')} UTC",
                file=out,
            )
        return EXIT_OK
    name = accounts.check_name(args.name)
    if args.action == "add":
        if args.role is None:
            raise cliparse.UsageError("укажите роль: --role judge (судья) или --role head (главный судья)")
        created = book.add_account(name, args.role, _ask_password(stdin, err, prompt))
        print(f"Учётная запись создана: {created.label}.", file=out)
    elif args.action == "remove":
        book.remove_account(name)
        print(f"Учётная запись «{name}» удалена; её решения остались в журнале под этим именем.", file=out)
    else:
        book.set_password(name, _ask_password(stdin, err, prompt))
        print(f"Пароль «{name}» сменён; все её входы завершены.", file=out)
    return EXIT_OK

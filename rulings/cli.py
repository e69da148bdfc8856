"""Command line for the journal's accounts: `python -m rulings users add|list|remove|passwd`.

Whoever can run this on the head judge's laptop can manage accounts: the file's owner is the
authority, so these commands need no sign-in. Passwords are asked twice on a terminal, or read
from the first line of standard input for scripts (`echo "пароль" | python -m rulings users add …`);
they are never taken from the command line, where other users of the machine could see them.
Exit codes: 0 done; 2 a wrong command line, a bad name, role or password, or an unusable file.
"""

from __future__ import annotations

import getpass
import sys
from collections.abc import Callable, Sequence
from typing import TextIO

from rulings import accounts
from rulings.model import JournalError
from rulings.store import Journal

EXIT_OK = 0
EXIT_INVALID = 2

USAGE = """\
Использование:
  python -m rulings users add ИМЯ --role judge|head   создать учётную запись судьи
  python -m rulings users list                        перечислить учётные записи
  python -m rulings users remove ИМЯ                  удалить учётную запись (её решения остаются)
  python -m rulings users passwd ИМЯ                  сменить пароль (все её входы завершатся)
  Ключ --file ПУТЬ — другой файл журнала (по умолчанию $BERSERK_JOURNAL или data/rulings.sqlite3).
Пароль спрашивается дважды; в скриптах — первая строка стандартного ввода.
Роли: judge — судья (записывает и правит решения), head — главный судья (ещё закрепляет решения).
"""


class UsageError(Exception):
    """A wrong command line (Russian message)."""


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
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        return _dispatch(args, out, err, stdin, prompt)
    except UsageError as exc:
        print(f"Ошибка: {exc}\n", file=err)
        print(USAGE, file=err, end="")
        return EXIT_INVALID
    except (accounts.AccountError, JournalError) as exc:
        print(f"Ошибка: {exc}", file=err)
        return EXIT_INVALID
    except (KeyboardInterrupt, EOFError):
        print("\nПрервано; ничего не изменено.", file=err)
        return EXIT_INVALID


def _take(args: list[str], flag: str) -> str | None:
    if flag not in args:
        return None
    at = args.index(flag)
    if at + 1 >= len(args):
        raise UsageError(f"после {flag} нужно значение")
    value = args[at + 1]
    del args[at : at + 2]
    return value


def _dispatch(args: list[str], out: TextIO, err: TextIO, stdin: TextIO, prompt: Callable[[str], str]) -> int:
    if not args or args[0] in ("-h", "--help", "help"):
        print(USAGE, file=out, end="")
        return EXIT_OK if args else EXIT_INVALID
    if args[0] != "users":
        raise UsageError(f"неизвестная команда «{args[0]}»; есть только users")
    rest = args[1:]
    path = _take(rest, "--file")
    role = _take(rest, "--role")
    if not rest:
        raise UsageError("укажите действие: add, list, remove или passwd")
    action, names = rest[0], rest[1:]
    unknown = [a for a in names if a.startswith("-")]
    if unknown:
        raise UsageError(f"неизвестный ключ командной строки: {unknown[0]}")
    book = Journal(path)
    if action == "list":
        if names:
            raise UsageError("users list не принимает имён")
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
    if action not in ("add", "remove", "passwd"):
        raise UsageError(f"неизвестное действие «{action}»: add, list, remove или passwd")
    if len(names) != 1:
        raise UsageError(f"users {action} нужно одно имя (имя с пробелом — в кавычках)")
    name = accounts.check_name(names[0])
    if action == "add":
        if role is None:
            raise UsageError("укажите роль: --role judge (судья) или --role head (главный судья)")
        accounts.check_role(role)
        created = book.add_account(name, role, _ask_password(stdin, err, prompt))
        print(f"Учётная запись создана: {created.label}.", file=out)
    elif action == "remove":
        book.remove_account(name)
        print(f"Учётная запись «{name}» удалена; её решения остались в журнале под этим именем.", file=out)
    else:
        book.set_password(name, _ask_password(stdin, err, prompt))
        print(f"Пароль «{name}» сменён; все её входы завершены.", file=out)
    return EXIT_OK

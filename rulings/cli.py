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
from pathlib import Path
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
    commands = parser.commands()
    users = commands.add_parser(
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
    sync = commands.add_parser(
        "sync",
        help="скопировать решения из одного журнала в другой",
        description=(
            "Копирует решения и их историю, которых нет в КУДА, из ОТКУДА (файл или postgresql://…). "
            "Повторный запуск ничего не меняет; решения, исправленные в обоих журналах, становятся "
            "конфликтами с обоими текстами."
        ),
        epilog=SYNC_NOTES,
    )
    sync.add_argument("source", metavar="ОТКУДА", help="файл журнала или адрес postgresql://")
    sync.add_argument("target", metavar="КУДА", help="файл журнала или адрес postgresql://")
    sync.add_argument("--both", action="store_true", help="и обратно: зал получает решения лиги")
    sync.add_argument("--accounts", action="store_true", help="скопировать и учётные записи судей")
    init = commands.add_parser(
        "init", parents=[journal], help="создать новый журнал (или обновить схему существующего)"
    )
    init.set_defaults(action="init")
    backup = commands.add_parser("backup", parents=[journal], help="сделать резервную копию журнала сейчас")
    backup.set_defaults(action="backup")
    restore = commands.add_parser(
        "restore",
        parents=[journal],
        help="вернуть журнал из резервной копии (без аргумента — список копий)",
        epilog="Остановите приложение перед восстановлением. Заменённый файл не удаляется: он "
        "переименовывается в «….before-restore-ВРЕМЯ».",
    )
    restore.add_argument("copy", metavar="КОПИЯ", nargs="?", help="файл копии или latest — самая новая")
    return parser


SYNC_NOTES = """Зал, который весь день работал без сети, вечером одной командой:
  python -m rulings sync data/rulings.sqlite3 postgresql://судья@сервер/лига --both
Коды выхода: 0 — готово (конфликты перечислены); 2 — журнал недоступен или повреждён."""


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
            if args.command == "sync":
                return _sync(args, out, err)
            if args.command in ("init", "backup", "restore"):
                return _keep(args, out)
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


def _sync(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from rulings import sync

    source, target = Journal(args.source), Journal(args.target)
    legs = [(source, target)] + ([(target, source)] if args.both else [])
    for a, b in legs:
        done = sync.sync(a, b, with_accounts=args.accounts)
        for line in done.lines(a.shown, b.shown):
            print(line, file=out)
    return EXIT_OK


def _keep(args: argparse.Namespace, out: TextIO) -> int:
    from rulings import backup

    book = Journal(getattr(args, "file", None))
    if args.command == "init":
        print(book.initialise(), file=out)
        return EXIT_OK
    if args.command == "backup":
        print(f"Резервная копия: {backup.make(book.path)}", file=out)
        return EXIT_OK
    copies = backup.listed(book.path)
    if args.copy is None:
        if not isinstance(book.path, Path):
            print(backup.PG_HINT, file=out)
        elif not copies:
            print(f"Резервных копий нет (папка {backup.folder(book.path)}).", file=out)
        for copy in copies:
            print(copy, file=out)
        return EXIT_OK
    chosen = copies[0] if args.copy == "latest" and copies else Path(args.copy)
    aside = backup.restore(book.path, chosen, lambda p: Journal(p).problems())
    print(f"Журнал восстановлен из {chosen}. Прежний файл сохранён как {aside}.", file=out)
    return EXIT_OK

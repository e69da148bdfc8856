"""Command line: `python -m rules_index search|show|check|graph [--corpus PATH]…` and
`python -m rules_index diff OLD NEW [--json]` (what changed between two rules versions).

A contract other tools rely on: JSON shapes as documented per command; exit 0 on success
(an empty search result included), 2 on bad input (query, id, corpus) with a Russian
message on stderr, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import Any, TextIO

from rules_index import cliparse, diff_cli, ids, recovered, understood
from rules_index.errors import CorpusError, QueryError
from rules_index.index import RulesIndex, load_default, load_paths
from rules_index.text import plural

EXIT_OK = cliparse.EXIT_OK
EXIT_BAD_INPUT = cliparse.EXIT_BAD_INPUT
EXIT_INTERNAL = 3


def build_parser() -> cliparse.Parser:
    common = cliparse.Parser(add_help=False)
    common.add_argument(
        "--corpus",
        action="append",
        default=argparse.SUPPRESS,
        metavar="PATH",
        help="файл или папка с правилами (.txt/.md/.rst/.pdf/.html/.docx); можно повторять. "
        "По умолчанию — встроенные РП 4.1-2",
    )
    common.add_argument(
        "--jargon",
        action="append",
        default=argparse.SUPPRESS,
        metavar="YAML",
        help="свой файл жаргона (как rules_index/data/jargon.yaml); можно повторять",
    )
    common.add_argument(
        "--other-game",
        action="store_true",
        default=argparse.SUPPRESS,
        help="правила из --corpus — не «Берсерк»: наш жаргон, термины и имена карт к ним не применять",
    )
    parser = cliparse.Parser(
        prog="python -m rules_index",
        description="Правила «Берсерка»: поиск, пункты, ссылки, проверка текста.",
        epilog="Коды выхода: 0 — готово (и когда ничего не найдено); 2 — неверный запрос, пункт, "
        "файл правил\nили командная строка.",
        parents=[common],
    )
    sub = parser.commands()

    search = sub.add_parser(
        "search", parents=[common], help="найти пункты по номеру, словам, жаргону или названию карты"
    )
    search.add_argument("query", metavar="ЗАПРОС")
    search.add_argument("--top", type=int, default=10, metavar="N", help="сколько пунктов показать (10)")
    search.add_argument("--json", action="store_true", help="вывести JSON")

    show = sub.add_parser("show", parents=[common], help="показать пункт: текст, примеры, подпункты, ссылки")
    show.add_argument("id", metavar="ПУНКТ")
    show.add_argument("--json", action="store_true", help="вывести JSON")

    check = sub.add_parser(
        "check",
        parents=[common],
        help="проверить текст правил: пропуски, обрывы, повторы, ссылки на отсутствующие пункты",
    )
    check.add_argument("--json", action="store_true", help="вывести JSON")

    graph = sub.add_parser("graph", parents=[common], help="граф пунктов и ссылок (DOT или JSON)")
    graph.add_argument("--format", choices=("dot", "json"), default="dot", help="формат вывода (dot)")
    graph.add_argument("--id", metavar="ПУНКТ", help="только окрестность этого пункта")
    graph.add_argument("--radius", type=int, default=1, metavar="R", help="радиус окрестности (1)")

    diff = sub.add_parser(
        "diff",
        parents=[common],
        help="что изменилось между двумя версиями правил (файл, папка или builtin)",
    )
    diff.add_argument("old", metavar="СТАРАЯ", help="файл или папка с правилами, или builtin (встроенные)")
    diff.add_argument("new", metavar="НОВАЯ", help="файл или папка с правилами, или builtin (встроенные)")
    diff.add_argument("--json", action="store_true", help="вывести JSON")
    diff.add_argument("--all", action="store_true", help="показать и пункты без изменений")
    return parser


def main(argv: Sequence[str] | None = None, out: TextIO | None = None, err: TextIO | None = None) -> int:
    """Run one command; returns the exit code (never raises for bad input)."""
    out = out or sys.stdout
    err = err or sys.stderr
    return cliparse.run(build_parser(), argv, lambda args: _dispatch(args, out, err), out, err)


def _dispatch(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    try:
        if args.command == "diff":
            return diff_cli.run(args, out)
        corpus = getattr(args, "corpus", None)
        jargon = getattr(args, "jargon", None) or ()
        berserk = not getattr(args, "other_game", False)
        if not berserk and not corpus:
            print("Ошибка: --other-game относится к правилам из --corpus; встроенные — «Берсерк».", file=err)
            return EXIT_BAD_INPUT
        index = load_paths(corpus, jargon=jargon, berserk=berserk) if corpus else load_default(jargon=jargon)
        handler = _COMMANDS[args.command]
        return handler(index, args, out, err)
    except (CorpusError, QueryError) as e:
        print(f"Ошибка: {e}", file=err)
        return EXIT_BAD_INPUT
    except BrokenPipeError:
        raise  # `… | head`: cliparse.run ends the command quietly
    except Exception as e:  # a bug of ours: still no traceback for the user
        print(f"Внутренняя ошибка ({type(e).__name__}): {e}. Сообщите разработчикам.", file=err)
        return EXIT_INTERNAL


def _dump(data: object, out: TextIO) -> None:
    json.dump(data, out, ensure_ascii=False, indent=2)
    out.write("\n")


def _cmd_search(index: RulesIndex, args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    if args.top < 1:
        print("Ошибка: --top должен быть не меньше 1.", file=err)
        return EXIT_BAD_INPUT
    result = index.lookup(args.query, top=args.top)
    if args.json:
        _dump([h.to_dict() for h in result.hits], out)
        return EXIT_OK
    said = (understood.understood(result.words), understood.not_found(result.words))
    lines = [line for line in said if line]
    if result.nothing:
        lines.append(understood.NOTHING + " Попробуйте другие слова или номер пункта.")
    lines += understood.answer_lines(result.answer)
    if result.nothing and result.hits:
        lines.append(understood.POINTERS)
    for rank, h in enumerate(result.hits, 1):
        title = f" — {h.title}" if h.title else ""
        lines.append(f"{rank}. {h.id}{title}  (оценка {h.score:.2f})")
        lines.append("   " + "".join(f"[{text}]" if marked else text for text, marked in h.spans))
        lines.append("   " + understood.hit_notes(h.matched))
    out.write("\n".join(lines) + "\n")
    return EXIT_OK


def _clause_id(raw: str) -> str:
    """The clause id a judge typed («п. 211,4.» → 211.4); as typed when it holds no number."""
    typed = ids.parse_typed(raw)
    return typed[0] if typed else raw.strip()


def _cmd_show(index: RulesIndex, args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    cid = _clause_id(str(args.id))
    if not ids.is_clause_id(cid):
        print(f"Ошибка: «{args.id}» — не номер пункта (ожидается вида 211.3.1).", file=err)
        return EXIT_BAD_INPUT
    cid = index.resolve(cid) or cid  # «210.11a» typed on a Latin keyboard is «210.11а»
    data = index.show(cid)
    if data is None:
        nearest = index.nearest_ids(cid)
        gap = " (пропуск в нумерации: подпункты есть, самого пункта в тексте нет)"
        note = gap if cid in index.integrity().gaps else ""
        print(f"Ошибка: нет такого пункта: {cid}{note}. Ближайшие: {', '.join(nearest)}.", file=err)
        if args.json:
            _dump({"error": f"нет такого пункта: {cid}", "nearest": nearest}, out)
        return EXIT_BAD_INPUT
    if args.json:
        _dump(data, out)
        return EXIT_OK
    out.write(_render_show(index, cid, data))
    return EXIT_OK


def _render_show(index: RulesIndex, cid: str, data: dict[str, Any]) -> str:
    lines: list[str] = []
    title = f" — {data['title']}" if data["title"] else ""
    lines.append(f"{cid}{title}")
    if data["absent"]:
        lines.append("Этого пункта нет в тексте правил; на него ссылаются:")
    else:
        source = data["source"]
        lines.append(f"[{source['file']}, строка {source['line']}]")
        lines.append(data["text"])
        lines.extend(f"  ● {b}" for b in data["bullets"])
        if data["cut_off"]:
            lines.append("(!) Текст пункта обрывается на полуслове — в источнике он неполон.")
        for example in data["examples"]:
            lines.append(f"ПРИМЕР: {example}")
        for dup in data["duplicates"]:
            where = f"«{dup['source']['file']}», строка {dup['source']['line']}"
            lines.append(f"(!) Номер {cid} повторяется: {where}: {dup['text']}")
        if data["children"]:
            lines.append("Подпункты: " + ", ".join(data["children"]))
        if data["cites"]:
            lines.append(
                "Ссылается на: "
                + ", ".join(
                    c["target"] + (" (нет в тексте)" if c["target_absent"] else "") for c in data["cites"]
                )
            )
    if data["cited_by"]:
        label = "На него ссылаются" if not data["absent"] else ""
        for c in data["cited_by"]:
            lines.append(f"{label + ': ' if label else '  '}{c['source']} — «{c['sentence']}»")
    return "\n".join(lines) + "\n"


def _cmd_check(index: RulesIndex, args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    facts = index.integrity()
    if args.json:
        data = facts.to_dict()
        data["sources"] = [s.to_dict() for s in index.sources]
        _dump(data, out)
        return EXIT_OK
    files = [
        f"{s.name} ({plural(s.paragraphs, 'пункт', 'пункта', 'пунктов')}, {s.encoding}"
        + "".join(f"; {note}" for note in s.notes)
        + ")"
        for s in index.sources
    ]
    lines = [
        f"Версия правил: {facts.version or 'не указана'}",
        "Файлы: " + "; ".join(files),
        f"Пунктов: {facts.paragraphs}, из них заголовков разделов: {facts.headings}; "
        f"примеров: {facts.examples}",
        *recovered.summary(facts),
        "Ссылки на отсутствующие пункты: " + (", ".join(facts.absent_cited) or "нет"),
        "Пропуски нумерации: " + (", ".join(facts.gaps) or "нет"),
        "Оборванные пункты: " + (", ".join(facts.cut_off) or "нет"),
        "Повторы номеров: " + (", ".join(d.id for d in facts.duplicates) or "нет"),
    ]
    # A doubled id is listed once above and explained once here.
    lines.extend(f"Предупреждение: {w}" for w in facts.warnings)
    out.write("\n".join(lines) + "\n")
    return EXIT_OK


def _cmd_graph(index: RulesIndex, args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    graph = index.graph
    if args.id:
        cid = _clause_id(str(args.id))
        if cid not in graph:
            nearest = ", ".join(index.nearest_ids(cid))
            print(f"Ошибка: нет такого пункта: {cid}. Ближайшие: {nearest}.", file=err)
            return EXIT_BAD_INPUT
        if args.radius < 0:
            print("Ошибка: радиус не может быть отрицательным.", file=err)
            return EXIT_BAD_INPUT
        graph = index.neighbourhood(cid, args.radius)
    if args.format == "dot":
        out.write(index.to_dot(graph))
        return EXIT_OK
    nodes = [{"id": n, **attrs} for n, attrs in graph.nodes(data=True)]
    edges = [{"source": s, "target": t, **attrs} for s, t, attrs in graph.edges(data=True)]
    _dump({"version": index.version, "nodes": nodes, "edges": edges}, out)
    return EXIT_OK


_Handler = Callable[[RulesIndex, argparse.Namespace, TextIO, TextIO], int]
_COMMANDS: Mapping[str, _Handler] = MappingProxyType(
    {"search": _cmd_search, "show": _cmd_show, "check": _cmd_check, "graph": _cmd_graph}
)

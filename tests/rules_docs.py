"""Rules documents made by the tests themselves from the embedded rules: PDFs printed by Debian's
chromium, Word files written with python-docx, web pages written here. No pytest import.

The PDF has the traps a publisher's file has: small pages with running headers and page
numbers, page breaks inside clauses and examples, words hyphenated at line ends (soft hyphens)
next to real hyphens («по-прежнему», «какой-либо»), and a wrapped line in 534.7 that starts with
«536. Эффекты…», a citation, not a section.
"""

from __future__ import annotations

import html
import io
import re
import subprocess
import tempfile
from collections.abc import Sequence
from pathlib import Path

import docx
from docx.oxml import OxmlElement
from docx.oxml.ns import qn

from tests import helpers

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "rules_index" / "data" / "corpus"
CHROMIUM = "/usr/bin/chromium"
VERSION = "РП 4.1-2"
CITATION_TRAP = "описанном в 536. Эффекты"

_LONG_WORD = re.compile(r"[А-Яа-яЁё]{11,}")


def corpus_lines() -> list[str]:
    """The embedded rules' non-empty lines, in the order load_default reads them."""
    out: list[str] = []
    for f in sorted(CORPUS.glob("*.txt")):
        out.extend(line for line in f.read_text(encoding="utf-8").splitlines() if line.strip())
    return out


def _soft_hyphens(text: str) -> str:
    """Long words get a soft hyphen in the middle: chromium breaks them there at a line end and
    prints a hyphen, as a typesetter's hyphenation does."""
    return _LONG_WORD.sub(lambda m: m.group(0)[:5] + "\u00ad" + m.group(0)[5:], text)


def print_html(*, page: str = "100mm 140mm", font_pt: float = 9.0) -> str:
    """The embedded rules as a page to print: one <p> per line of the text, headers and footers
    in the page margins, the 534.7 citation trap, soft hyphens in long words."""
    # A table of contents first, as publishers print one: its lines must not become entries.
    body: list[str] = [
        '<p class="toc">Содержание</p>',
        '<p class="toc">211. Симбиоты. ........................ 1</p>',
        '<p class="toc" style="break-after: page">535. Взятие карт в отряд. ........... 5</p>',
    ]
    for line in corpus_lines():
        text = html.escape(_soft_hyphens(line))
        if CITATION_TRAP in line:
            # The line before the break is justified to the full width, as a wrap would leave it.
            head, tail = html.escape(line).split("536. Эффекты", 1)
            body.append(f'<p style="text-align-last: justify">{head.rstrip()}<br>536. Эффекты{tail}</p>')
        elif line.startswith("●"):
            body.append(f'<p class="bullet">{text}</p>')
        else:
            body.append(f"<p>{text}</p>")
    css = f"""
@page {{ size: {page}; margin: 16mm 9mm 14mm 9mm;
  @top-center {{ content: "Правила игры «Берсерк» · {VERSION}"; font-size: 7pt; }}
  @bottom-right {{ content: "стр. " counter(page) " из " counter(pages); font-size: 7pt; }} }}
body {{ font-family: "DejaVu Sans", "Liberation Sans", sans-serif; font-size: {font_pt}pt; }}
p {{ margin: 0 0 4pt 0; text-align: justify; hyphens: manual; orphans: 1; widows: 1; }}
p.bullet {{ margin-left: 6mm; }}
"""
    return (
        '<!doctype html><html lang="ru"><head><meta charset="utf-8">'
        f"<style>{css}</style></head><body>{''.join(body)}</body></html>"
    )


def print_pdf(page_html: str, chromium: str = CHROMIUM) -> bytes:
    """A PDF of the page, printed by headless chromium (no network, no profile left behind)."""
    with tempfile.TemporaryDirectory(prefix="rules-pdf-") as tmp:
        src = Path(tmp) / "page.html"
        out = Path(tmp) / "page.pdf"
        src.write_text(page_html, encoding="utf-8")
        subprocess.run(
            [
                chromium,
                *helpers.CHROMIUM_ARGS,
                f"--user-data-dir={tmp}/profile",
                "--no-pdf-header-footer",
                f"--print-to-pdf={out}",
                src.as_uri(),
            ],
            check=True,
            capture_output=True,
            timeout=helpers.PROCESS_TIMEOUT,
        )
        return out.read_bytes()


def blank_pages_html() -> str:
    """A «scan»: pages with only a picture (a grey box), no text at all."""
    box = '<div style="width:60mm;height:80mm;background:#888;break-after:page"></div>'
    return f'<!doctype html><html><head><meta charset="utf-8"></head><body>{box * 2}</body></html>'


def prose_html() -> str:
    return (
        '<!doctype html><html lang="ru"><head><meta charset="utf-8"></head><body>'
        "<p>Письмо организатору турнира: столы, время начала, призы. Номеров пунктов здесь нет.</p>"
        "</body></html>"
    )


def encrypt(pdf: bytes, password: str = "секрет") -> bytes:
    import pypdf

    writer = pypdf.PdfWriter(clone_from=io.BytesIO(pdf))
    writer.encrypt(user_password=password, owner_password=password + "!", algorithm="RC4-128")
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


# Word --------------------------------------------------------------------------------------------


def _numbering_definition(document: docx.document.Document, formats: Sequence[tuple[str, str]]) -> str:
    """Add a multi-level list definition (numFmt, lvlText per level) and a list using it; returns
    the list's numId. python-docx writes no numbering of its own, so the XML is built here."""
    numbering = document.part.numbering_part.element
    abstract_ids = [int(a.get(qn("w:abstractNumId"))) for a in numbering.iterchildren(qn("w:abstractNum"))]
    num_ids = [int(n.get(qn("w:numId"))) for n in numbering.iterchildren(qn("w:num"))]
    abstract_id = str(max(abstract_ids, default=0) + 1)
    num_id = str(max(num_ids, default=0) + 1)
    abstract = OxmlElement("w:abstractNum")
    abstract.set(qn("w:abstractNumId"), abstract_id)
    for ilvl, (fmt, text) in enumerate(formats):
        lvl = OxmlElement("w:lvl")
        lvl.set(qn("w:ilvl"), str(ilvl))
        for tag, value in (("w:start", "1"), ("w:numFmt", fmt), ("w:lvlText", text)):
            el = OxmlElement(tag)
            el.set(qn("w:val"), value)
            lvl.append(el)
        abstract.append(lvl)
    # abstractNum elements must precede num elements in numbering.xml.
    first_num = next(numbering.iterchildren(qn("w:num")), None)
    if first_num is not None:
        first_num.addprevious(abstract)
    else:
        numbering.append(abstract)
    num = OxmlElement("w:num")
    num.set(qn("w:numId"), num_id)
    ref = OxmlElement("w:abstractNumId")
    ref.set(qn("w:val"), abstract_id)
    num.append(ref)
    numbering.append(num)
    return num_id


def _number(paragraph: object, num_id: str, ilvl: int) -> None:
    ppr = paragraph._p.get_or_add_pPr()  # type: ignore[attr-defined]
    num_pr = OxmlElement("w:numPr")
    for tag, value in (("w:ilvl", str(ilvl)), ("w:numId", num_id)):
        el = OxmlElement(tag)
        el.set(qn("w:val"), value)
        num_pr.append(el)
    ppr.append(num_pr)


def corpus_docx(*, automatic: bool) -> bytes:
    """The embedded rules as a Word file: clause numbers typed, or (automatic) drawn by Word's
    list numbering (levels «%1.», «%1.%2.» …) with the numbers taken out of the text. Each
    section is one list whose levels start where the section's first clause does (534.4)."""
    document = docx.Document()
    definition = _numbering_definition(
        document,
        [("decimal", "%1."), ("decimal", "%1.%2."), ("decimal", "%1.%2.%3."), ("decimal", "%1.%2.%3.%4.")],
    )
    entry = re.compile(r"^(\d+(?:\.\d+)*)\.\s+(.*)$")
    section: int | None = None
    num_id = definition
    for line in corpus_lines():
        found = entry.match(line) if automatic else None
        if found is None:
            if line.startswith("●"):
                document.add_paragraph(line.removeprefix("●").strip(), style="List Bullet")
            else:
                document.add_paragraph(line)
            continue
        parts = [int(x) for x in found.group(1).split(".")]
        if parts[0] != section:
            num_id = _restart(document, definition, parts)
            section = parts[0]
        paragraph = document.add_paragraph(found.group(2))
        _number(paragraph, num_id, len(parts) - 1)
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def _restart(document: docx.document.Document, num_id: str, parts: Sequence[int]) -> str:
    """A new list of the same definition whose levels start at `parts` (w:lvlOverride)."""
    numbering = document.part.numbering_part.element
    base = next(n for n in numbering.iterchildren(qn("w:num")) if n.get(qn("w:numId")) == num_id)
    abstract_id = base.find(qn("w:abstractNumId")).get(qn("w:val"))
    new_id = str(max(int(n.get(qn("w:numId"))) for n in numbering.iterchildren(qn("w:num"))) + 1)
    num = OxmlElement("w:num")
    num.set(qn("w:numId"), new_id)
    ref = OxmlElement("w:abstractNumId")
    ref.set(qn("w:val"), abstract_id)
    num.append(ref)
    for ilvl, value in enumerate(parts):
        override = OxmlElement("w:lvlOverride")
        override.set(qn("w:ilvl"), str(ilvl))
        start = OxmlElement("w:startOverride")
        start.set(qn("w:val"), str(value))
        override.append(start)
        num.append(override)
    numbering.append(num)
    return new_id


# Web pages ---------------------------------------------------------------------------------------

COMMUNITY_PAGE = """<!DOCTYPE html>
<html lang="ru"><head><meta charset="utf-8"><title>Правила «Берсерк» — симбиоты</title>
<style>.rules li { margin: 2px } body::before { content: "210.99. из стиля" }</style>
<script>var notRules = "210.50. Пункт из скрипта";</script></head>
<body>
<nav class="top"><ul><li><a href="/">Главная</a></li><li><a href="/rules">210.77. Меню</a></li></ul></nav>
<div class="sidebar-menu"><p>Популярное: 210.88. Ссылка из боковой колонки</p></div>
<header><h1>Правила игры: симбиоты (сайт сообщества)</h1></header>
<main>
<h2>210. Симбиоты и Паразиты.</h2>
<ol class="rules">
  <li>У симбиотов вместо символа &laquo;запаса движения&raquo; ставится символ для компаньонов
      или для паразитов &mdash; см. 210.11а.</li>
  <li>До вскрытия симбиот помещается на отдельную клетку поля боя.</li>
  <li>Симбиота можно помещать только на наземное существо &amp; не на летающее.
    <p>Пример: Карлик Унд является паразитом Вайла противника.</p></li>
  <li value="11">Симбиот не может перемещаться отдельно от хозяина.
    <ol type="a">
      <li>Если перемещается хозяин, симбиот перемещается вместе с ним.</li>
      <li>Особенности, запрещающие симбиоту перемещаться, ограничивают и хозяина (см. 210.11а).</li>
    </ol>
  </li>
</ol>
<h2>220. Отряд.</h2>
<ul><li>из своей колоды;</li><li>под своим контролем.</li></ul>
<p>220.1. Отряд игрока собирается до начала игры.</p>
<h2>290. Глоссарий.</h2>
<table>
  <tr><th>Термин</th><th>Определение</th></tr>
  <tr><td>Хозяин</td><td>существо, на которое помещён симбиот</td></tr>
  <tr><td>Паразит</td><td>симбиот, помещённый на существо противника</td></tr>
</table>
</main>
<form action="/search"><label>Поиск</label><input name="q" value="210.66. из формы">
<button>Найти</button></form>
<footer><p>&copy; 2026 Сайт любителей. 210.55. Подвал сайта</p></footer>
</body></html>
"""

LATIN_LETTERS_PAGE = """<html><body><h2>100. Основы.</h2>
<ol><li>Первый пункт, см. 100.1a.<ol type="a"><li>Подпункт с латинской буквой.</li></ol></li></ol>
</body></html>"""


def corpus_html() -> str:
    """The embedded rules as a plain web page: one <p> per line, with a menu and a footer."""
    body = "".join(f"<p>{html.escape(line)}</p>" for line in corpus_lines())
    return (
        '<!doctype html><html lang="ru"><head><meta charset="utf-8"><title>Правила</title></head>'
        '<body><nav><a href="/">Главная</a> · <a href="/x">211.99. Меню</a></nav>'
        f"<article>{body}</article><footer>Сайт сообщества · 999.1. не пункт</footer></body></html>"
    )


# Generated documents: full size and adversarial shapes (tests and tests/bench/bench_build.py) ---


def full_rules(scale: float = 1.0) -> bytes:
    """A rules text shaped like a full document: about 3,000 entries × scale in sections of
    subclauses, with examples, bullets and citations back and forth (about 1 MB × scale)."""
    sections = max(1, round(30 * scale))
    out: list[str] = []
    for s in range(100, 100 + sections):
        out.append(f"{s}. Раздел номер {s}: порядок действий и особенности существ.")
        for k in range(1, 61):
            out.append(
                f"{s}.{k}. Если существо с особенностью «{k}» атакует противника, стоящего рядом, то "
                f"контролирующий его игрок выбирает цель; защиты проверяются по общим правилам "
                f"(см. {s}.{k % 60 + 1} и п. {100 + (s + k) % sections}.{(k * 7) % 60 + 1})."
            )
            if k % 6 == 0:
                for j in range(1, 5):
                    out.append(
                        f"{s}.{k}.{j}. Подпункт {j}: эффект применяется один раз за ход, если "
                        "в тексте карты не сказано иного."
                    )
            if k % 10 == 0:
                out.append(f"ПРИМЕР: Карлик Унд нападает на Вайла; применяется {s}.{k}, а не {s}.{k - 1}.")
            if k % 15 == 0:
                out.extend(["● на свободную клетку;", "● под своим контролем."])
    out.append("РП 9.9 от 01.01.2030")
    return "\n".join(out).encode("utf-8")


def long_clause(sentences: int = 1500, citations: int = 200) -> bytes:
    """One clause of many sentences, `citations` of them citing other clauses (the old parser
    took minutes on this)."""
    parts = []
    for i in range(sentences):
        cite = f" (см. п. {200 + i % 700}.{i % 9 + 1})" if i < citations else ""
        parts.append(f"Предложение номер {i} о том, как симбиот меняет хозяина{cite}.")
    return ("100. Раздел.\n100.1. " + " ".join(parts)).encode("utf-8")


def huge_gaps(sections: int = 400) -> bytes:
    """«100.9999.», «101.9999.» …: every section skips 9,998 numbers (about 4 KB of text)."""
    return "\n".join(f"{s}.9999. Текст." for s in range(100, 100 + sections)).encode("utf-8")


def deep_numbering(levels: int = 200) -> bytes:
    """One line numbered `levels` levels deep, between two ordinary entries."""
    return ("100. Раздел.\n100.1. Текст.\n" + ".".join(["1"] * levels) + ". Глубоко.\n100.2. Ещё.").encode()


def single_line(size: int = 5 * 1024 * 1024) -> bytes:
    """A file of one line of `size` bytes: a clause that never ends, full of numbers and dots."""
    unit = "211.3 см. п. 211.4. Симбиот и хозяин, по-прежнему "
    return ("211.1. " + unit * (size // len(unit.encode("utf-8")))).encode("utf-8")[:size]


# A clause only the PDF has: the browser test finds it to prove it reads the uploaded version.
PDF_ONLY = "535.10. Проверочный пункт из PDF: гномий фонарь светит только в загруженной версии."


def print_html_with_extra(extra: Sequence[str] = (PDF_ONLY,)) -> str:
    """`print_html()` with more lines at the end (a clause the embedded rules do not have)."""
    page = print_html()
    more = "".join(f"<p>{html.escape(line)}</p>" for line in extra)
    return page.replace("</body>", more + "</body>")

"""Worst-case rules files (run by `make bench`): time and peak memory to read or refuse each.

Issue 26's hostile inputs, generated in memory (tests/hostile_docs.py), each case in a fresh
Python process so one case's memory cannot hide another's:
- PDFs whose lines never end a sentence (every line continues the paragraph: the shape that made
  the old assembly quadratic, 25/50/100/200 pages in 5/22/72/316 s) at 50, 200 and 1,000 pages
  (the page limit), and 2,000 pages (refused at the documented limit);
- a .docx whose document.xml unpacks to about 95 MB at a ratio of about 10;
- a text of 700,000 one-line clauses.
Targets: the 1,000-page PDF ≤ 20× the 50-page time (linear; the issue's 2,000 pages ≤ 40× or
refused within 10 s), the .docx refused or parsed within 1 GB and 30 s, the clauses refused
before the index is built. Numbers are reported, not asserted.
"""

from __future__ import annotations

import json
import resource
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests import helpers  # noqa: E402


def _cases() -> dict[str, Callable[[], tuple[str, bytes]]]:
    from tests import hostile_docs

    return {
        "PDF 50 страниц": lambda: ("endless.pdf", hostile_docs.endless_pdf(50)),
        "PDF 200 страниц": lambda: ("endless.pdf", hostile_docs.endless_pdf(200)),
        "PDF 1 000 страниц": lambda: ("endless.pdf", hostile_docs.endless_pdf(1000)),
        "PDF 2 000 страниц": lambda: ("endless.pdf", hostile_docs.endless_pdf(2000)),
        ".docx, 95 МБ текста": lambda: ("huge.docx", hostile_docs.huge_docx(95)),
        "700 000 пунктов": lambda: ("many.txt", hostile_docs.many_clauses(700_000)),
    }


def run_case(name: str) -> dict[str, object]:
    import rules_index

    file_name, data = _cases()[name]()
    rules_index.load_texts([("warm.txt", b"100. A.\n100.1. B.")])
    baseline = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    start = time.perf_counter()
    try:
        index = rules_index.load_texts([(file_name, data)])
        outcome = f"прочитан: пунктов {len(index.paragraphs)}"
    except rules_index.CorpusError as err:
        outcome = f"отказ: {err}"
    return {
        "case": name,
        "bytes": len(data),
        "seconds": time.perf_counter() - start,
        "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "baseline_mb": baseline,
        "outcome": outcome,
    }


def main() -> None:
    if len(sys.argv) == 3 and sys.argv[1] == "--case":
        print(json.dumps(run_case(sys.argv[2]), ensure_ascii=False))
        return
    results: dict[str, dict[str, object]] = {}
    print(f"{'случай':24} {'размер':>9} {'время, с':>9} {'пик, МБ':>8} (база)  итог")
    for name in _cases():
        r, error = helpers.case_in_fresh_process(__file__, name)
        if r is None:
            print(f"{name:24} ОШИБКА: {error}")
            continue
        results[name] = r
        size = f"{int(str(r['bytes'])) / 1024:.0f} КБ"
        print(
            f"{name:24} {size:>9} {float(str(r['seconds'])):>9.2f} {float(str(r['peak_mb'])):>8.0f} "
            f"({float(str(r['baseline_mb'])):.0f})  {str(r['outcome'])[:90]}"
        )
    fifty, thousand = results.get("PDF 50 страниц"), results.get("PDF 1 000 страниц")
    if fifty and thousand:
        ratio = float(str(thousand["seconds"])) / float(str(fifty["seconds"]))
        print(f"рост: 1 000 страниц — {ratio:.1f}× времени 50 страниц (20× — линейно)")


if __name__ == "__main__":
    main()

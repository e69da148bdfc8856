"""The rules diff at full size: two generated 3,000-entry versions. Target: ≤ 2 s per diff
(reported, not asserted).

The old version is made of the embedded clauses' sentences, reshuffled into 50 sections of 60
entries with examples and bullets, every text distinct. The next version (FICTIONAL, made here)
renumbers each section below an inserted clause near its top, rewords 5 % of the clauses and 2 %
of the examples, removes 1 %, splits 1 % and merges 0.5 % of them. Also measured: a version against
itself, and a worst case where every clause is reworded (no identical entry to anchor on).

Run: .venv/bin/python tests/bench/bench_diff.py [--entries N] [--repeat R]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import rules_index  # noqa: E402
from app_pages import registry  # noqa: E402
from rules_index import Paragraph, ids, versions  # noqa: E402
from rules_index.diff import diff_paragraphs  # noqa: E402

TARGET_S = 2.0
PER_SECTION = 60


def _sentences() -> list[str]:
    out: list[str] = []
    for p in rules_index.load_default().paragraphs:
        for piece in (p.text, *p.examples):
            out.extend(s.strip() + "." for s in piece.replace("\n", " ").split(".") if len(s.split()) >= 4)
    return out


def _para(cid: str, text: str, examples: tuple[str, ...] = (), bullets: tuple[str, ...] = ()) -> Paragraph:
    return Paragraph(cid, ids.parent(cid), ids.level(cid), text, examples, bullets, "." not in cid)


def old_version(entries: int, rng: random.Random) -> list[Paragraph]:
    sentences = _sentences()
    words = " ".join(sentences).split()
    out: list[Paragraph] = []
    sections = max(1, entries // PER_SECTION)
    for s in range(sections):
        top = str(100 + s * 3)
        out.append(_para(top, f"Раздел {top}: " + " ".join(rng.sample(words, 3)) + "."))
        for k in range(1, PER_SECTION):
            text = " ".join(rng.sample(sentences, rng.randint(1, 3)))
            text += " " + " ".join(rng.sample(words, 5)) + f" (№ {s}-{k})."
            examples = (" ".join(rng.sample(sentences, 2)),) if rng.random() < 0.15 else ()
            bullets = (
                tuple(" ".join(rng.sample(words, 4)) + ";" for _ in range(3)) if rng.random() < 0.05 else ()
            )
            out.append(_para(f"{top}.{k}", text, examples, bullets))
    return out


def _reword(text: str, rng: random.Random) -> str:
    words = text.split()
    for _ in range(max(1, len(words) // 10)):
        words[rng.randrange(len(words))] = rng.choice(("ныне", "также", "всегда", "впредь", "иначе"))
    return " ".join(words)


def next_version(old: list[Paragraph], rng: random.Random) -> list[Paragraph]:
    """FICTIONAL: see the module docstring for what changes."""
    out: list[Paragraph] = []
    shift: dict[str, int] = {}
    for p in old:
        top = ids.section(p.id)
        if "." not in p.id:
            out.append(p)
            continue
        number = int(p.id.split(".")[1])
        if number == 2 and top not in shift:
            shift[top] = 1
            out.append(_para(f"{top}.2", "ВЫМЫШЛЕННЫЙ вставленный пункт: " + _reword(p.text, rng)[::-1]))
        cid = f"{top}.{number + shift.get(top, 0)}"
        roll = rng.random()
        if roll < 0.01:
            shift[top] = shift.get(top, 0) - 1
            continue  # removed
        if roll < 0.02:
            half = p.text.split(". ", 1)
            if len(half) == 2:
                out.append(_para(cid, half[0] + ".", p.examples, p.bullets))
                out.append(_para(f"{cid}.1", half[1]))
                continue
        if roll < 0.025 and out and "." in out[-1].id:
            prev = out.pop()
            out.append(_para(prev.id, prev.text + " " + p.text, prev.examples + p.examples, prev.bullets))
            shift[top] = shift.get(top, 0) - 1
            continue
        text = _reword(p.text, rng) if roll < 0.075 else p.text
        examples = tuple(_reword(e, rng) for e in p.examples) if 0.075 <= roll < 0.095 else p.examples
        out.append(_para(cid, text, examples, p.bullets))
    return out


def every_clause_reworded(old: list[Paragraph], rng: random.Random) -> list[Paragraph]:
    return [_para(p.id, _reword(p.text, rng), p.examples, p.bullets) for p in old]


def as_text(paragraphs: list[Paragraph], stamp: str) -> str:
    """A rules text file of these entries (examples and bullets in the plain-text format)."""
    lines: list[str] = []
    for p in paragraphs:
        lines.append(f"{p.id}. {p.text}")
        lines.extend(f"● {b}" for b in p.bullets)
        lines.extend(f"ПРИМЕР: {e}" for e in p.examples)
        lines.append("")
    lines.append(stamp)
    return "\n".join(lines)


def measure(old: list[Paragraph], new: list[Paragraph], repeat: int) -> tuple[float, Counter[str]]:
    times = []
    kinds: Counter[str] = Counter()
    for _ in range(repeat):
        start = time.perf_counter()
        result = diff_paragraphs(old, new)
        times.append(time.perf_counter() - start)
        kinds = Counter(c.kind for c in result.changes)
    return statistics.median(times), kinds


def page_seconds(old: list[Paragraph], new: list[Paragraph]) -> str:
    """The «Что изменилось» page under AppTest: the first run (diff included), then a rerun."""
    import tempfile

    from streamlit.testing.v1 import AppTest

    with tempfile.TemporaryDirectory() as folder:
        old_file = Path(folder) / "old.txt"
        old_file.write_text(as_text(old, "РП 4.1-2 от 09.11.2024"), encoding="utf-8")
        files = [("next.txt", as_text(new, "РП 9.9-1 от 01.01.2099").encode())]
        # The FICTIONAL version goes to a temporary store, never the project's data/rules/.
        os.environ[versions.ENV_VAR] = str(Path(folder) / "store")
        stored = versions.default_store().save(files, rules_index.load_texts(files), berserk=True)
        argv = sys.argv
        sys.argv = ["app.py", "--corpus", str(old_file)]
        try:
            at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=300)
            at.session_state["changes_my_versions"] = [stored.id]
            at.run()
            start = time.perf_counter()
            at = at.switch_page(registry.CHANGES.script).run()
            first = time.perf_counter() - start
            start = time.perf_counter()
            at = at.toggle(key="changes_only").set_value(False).run()
            again = time.perf_counter() - start
        finally:
            sys.argv = argv
            os.environ.pop(versions.ENV_VAR, None)
    if at.exception:
        return f"ошибка: {at.exception[0].message}"
    return f"первый показ {first:.2f} с (со сравнением), повторный {again:.2f} с"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--entries", type=int, default=3000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    rng = random.Random(12)
    old = old_version(args.entries, rng)
    cases = {
        "следующая версия (вымышленная)": next_version(old, rng),
        "та же версия": list(old),
        "переписан каждый пункт": every_clause_reworded(old, rng),
    }
    print(f"Пунктов в старой версии: {len(old)}")
    worst = 0.0
    for name, new in cases.items():
        seconds, kinds = measure(old, new, args.repeat)
        summary = ", ".join(f"{k} {n}" for k, n in sorted(kinds.items()))
        print(f"{name}: {len(new)} пунктов, {seconds:.3f} с (медиана из {args.repeat}); {summary}")
        worst = max(worst, seconds)
    page = page_seconds(old, cases["следующая версия (вымышленная)"])
    print(f"Страница «Что изменилось» на этих версиях: {page}")
    verdict = "в пределах цели" if worst <= TARGET_S else "ЦЕЛЬ НЕ ДОСТИГНУТА"
    print(f"Худшее время: {worst:.3f} с при цели ≤ {TARGET_S:.0f} с — {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

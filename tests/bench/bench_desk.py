"""Benchmark: script time to apply an action and redraw «Стол судьи» with 20 cards (AppTest).

Run with `make bench` (or `.venv/bin/python tests/bench/bench_desk.py`). Prints the median and
the worst of several rounds; the target from the issue is ≤ 200 ms. Numbers are reported, not asserted.
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("BERSERK_JOURNAL", str(Path(tempfile.mkdtemp()) / "bench.sqlite3"))

from streamlit.testing.v1 import AppTest  # noqa: E402

from app_pages import registry  # noqa: E402
from desk import edits, model  # noqa: E402
from tests import helpers  # noqa: E402

ROUNDS = 15
TARGET_MS = 200.0


def twenty_cards() -> model.Desk:
    """Twenty creatures: ten per half, one symbiote on a host, the rest ground creatures."""
    desk = model.Desk(title="Бенчмарк: 20 карт", phase="battle", active="A")
    cells_a = [f"{c}{r}" for r in (1, 2) for c in "abcde"]
    cells_b = [f"{c}{r}" for r in (5, 6) for c in "abcde"]
    for i, cell in enumerate(cells_a[:9]):
        desk = edits.put_card(desk, {"id": f"a{i}", "card": "Вайл", "owner": "A", "at": cell})
    for i, cell in enumerate(cells_b[:10]):
        desk = edits.put_card(desk, {"id": f"b{i}", "card": "Вайл", "owner": "B", "at": cell})
    desk = edits.put_card(desk, {"id": "und", "card": "Карлик Унд", "owner": "B", "host": "a0"})
    assert len(desk.cards) == 20
    return desk


def main() -> int:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.run()
    # the actions are in a fold, drawn once the judge opens it (as the page tests open them)
    helpers.unfold(at).switch_page(registry.DESK.script).run()
    at.session_state["desk"] = twenty_cards()
    at.run()
    if at.exception:
        print("Страница упала:", at.exception)
        return 1
    times: list[float] = []
    for i in range(ROUNDS):
        # Alternate two actions so each round applies a fresh one: wound, then undo-free heal.
        kind = "wound" if i % 2 == 0 else "heal"
        at.selectbox(key="desk_kind").set_value(kind).run()
        at.selectbox(key=f"desk_arg_{kind}_card").set_value("b3").run()
        button = at.button(key="desk_apply")
        start = time.perf_counter()
        at = button.click().run()  # the click run plus the redraw it triggers (st.rerun)
        times.append((time.perf_counter() - start) * 1000)
        if at.exception:
            print("Страница упала:", at.exception)
            return 1
    desk = at.session_state["desk"]
    median, worst = statistics.median(times), max(times)
    print(f"Стол судьи, 20 карт, {len(desk.actions)} действий применено за {ROUNDS} раундов")
    print(
        f"применить действие и перерисовать стол (AppTest): медиана {median:.0f} мс, худшее {worst:.0f} мс "
        f"(цель ≤ {TARGET_MS:.0f} мс: {'да' if median <= TARGET_MS else 'нет'})"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""The journal's Markdown export: judge-typed text prints verbatim and forms no markup; the engine's
words (verdicts, step kinds, citations) are the lexicon's."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import lexicon
from rulings import export
from rulings.model import Revision, Ruling, now_iso
from tests.rulings_samples import HOSTILE, journal_with_judge
from tests.rulings_samples import ruling as _ruling


def _unescape(markdown_text: str) -> str:
    """What a CommonMark renderer shows for md_text output: escapes dropped, hard breaks as newlines."""
    text = markdown_text.replace("  \n", "\n").replace("\u00a0", " ")
    return re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", text)


@pytest.mark.parametrize("text", HOSTILE)
def test_markdown_text_renders_verbatim_and_forms_no_markup(text: str) -> None:
    out = export.md_text(text)
    assert _unescape(out) == "\n".join(line.rstrip() for line in text.replace("\r\n", "\n").split("\n"))
    # No unescaped mark that opens HTML, a link, an image, emphasis or code.
    assert not re.search(r"(?<!\\)[<>\[\]`*_&|]", out.replace("\\\\", ""))
    for line in out.split("  \n"):
        assert not re.match(r"^(#|[-+>]|\d+[.)]\s| {4}|\t)", line), line


def test_code_fence_cannot_be_closed_from_inside() -> None:
    text = "a: 1\n```\n<script>x</script>\n````"
    block = export.md_code(text, "yaml")
    fence = block.split("\n", 1)[0].removesuffix("yaml")
    assert len(fence) == 5 and block.endswith("\n" + fence)
    inner = block.split("\n")[1:-1]
    assert all(not line.startswith(fence) for line in inner)


def test_export_one_and_all_reads_well(tmp_path: Path) -> None:
    j, by = journal_with_judge(tmp_path / "j.sqlite3", max_writes_per_minute=100)
    trace = [
        {
            "clause": "211.3.1",
            "kind": "forbidden",
            "reason": "Вайл может атаковать только Карлика Унда",
            "changes": [],
            "children": [
                {
                    "clause": "A1",
                    "kind": "assumption",
                    "reason": "<b>рядом</b>",
                    "changes": [],
                    "children": [],
                }
            ],
        },
    ]
    rid = j.record(_ruling(trace_json=json.dumps(trace, ensure_ascii=False), scenario_yaml="title: x\n"), by)
    j.amend(rid, _ruling(decision="<b>Нет</b>", note="правка"), by, base_rev=1)
    j.record(_ruling(title=HOSTILE[0]), by)
    one = export.ruling_markdown(j.get(rid))  # type: ignore[arg-type]
    assert one.startswith(f"## Решение № {rid}: Может ли Вайл атаковать не Карлика Унда?")
    assert "- **Пункты правил:** п. 211.3.1 (РП 4.1-2)" in one
    assert "- **Стол:** 7" in one and "- **Тур:** 3" in one
    assert re.search(r"- \*\*Записано:\*\* [^\n]*, Сидорова\n", one)
    assert "  - Решение судьи: было «Нет: Вайл может атаковать только Карлика Унда (п. 211.3.1).»" in one
    assert "  - Трассировка: вложение изменено" in one
    assert "\\<b\\>Нет\\</b\\>" in one and "<b>" not in one
    assert "### История правок" in one and "Редакция 1" in one and "Редакция 2" in one
    everything = export.journal_markdown(j.rulings())
    assert everything.startswith("# Журнал решений")
    assert "Решений: 2." in everything
    assert everything.count("## Решение №") == 2
    assert "\n---\n" in everything
    # The first ruling (with its trace) before the second.
    assert everything.index(f"Решение № {rid}:") < everything.index(f"Решение № {rid + 1}:")
    first = j.get(rid)
    assert first is not None and first.revisions[0].data.trace_json
    exported_first = export.ruling_markdown(
        Ruling(first.id, first.created_at, first.updated_at, first.revisions[0].data, first.revisions[:1])
    )
    assert "- **ЗАПРЕЩЕНО, п. 211.3.1:** Вайл может атаковать только Карлика Унда" in exported_first
    # An assumption step names the assumption once: «допущение A1», not «допущение, A1».
    assert "  - **допущение A1:** \\<b\\>рядом\\</b\\>" in exported_first
    # A printout names the attached position; its YAML keys are not printed for people.
    assert "title: x" not in exported_first and "Позиция со стола судьи приложена" in exported_first


def test_desk_trace_prints_as_numbered_actions_with_verdicts() -> None:
    trace = [
        {
            "action": "take_control: {card: vail, by: A}",
            "verdict": "legal",
            "trace": [
                {
                    "clause": "535.8",
                    "kind": "effect",
                    "reason": "A берёт Вайла под контроль",
                    "changes": [],
                    "children": [],
                }
            ],
        },
        {
            "action": "attack: {attacker: vail, target: orc}",
            "verdict": "illegal",
            "trace": [
                {
                    "clause": "211.3.1",
                    "kind": "forbidden",
                    "reason": "только Карлика Унда",
                    "changes": [],
                    "children": [],
                }
            ],
        },
    ]
    lines = export.trace_markdown(json.dumps(trace, ensure_ascii=False))
    assert lines == [
        "1. take\\_control: {card: vail, by: A} — **законно**",
        "   - **эффект, п. 535.8:** A берёт Вайла под контроль",
        "2. attack: {attacker: vail, target: orc} — **запрещено**",
        "   - **ЗАПРЕЩЕНО, п. 211.3.1:** только Карлика Унда",
    ]
    assert export.trace_markdown("{не json") == ["```\n{не json\n```"]


def test_verdicts_steps_and_citations_read_as_the_lexicon_says() -> None:
    trace = [
        {
            "action": "attack: {attacker: vail, target: und}",
            "verdict": "undetermined",
            "trace": [
                {"clause": "211.3", "kind": "undetermined", "reason": "текст обрывается", "children": []},
                {"clause": "", "kind": "effect", "reason": "без ссылки", "children": []},
            ],
        }
    ]
    lines = export.trace_markdown(json.dumps(trace, ensure_ascii=False))
    assert lines == [
        f"1. attack: {{attacker: vail, target: und}} — **{lexicon.verdict('undetermined')}**",
        "   - **НЕ ОПРЕДЕЛЕНО, п. 211.3:** текст обрывается",
        "   - **эффект, без пункта:** без ссылки",
    ]
    data = _ruling(clauses=("211.3.1", "A3"), verdict="undetermined").validated()
    now = now_iso()
    text = export.ruling_markdown(Ruling(1, now, now, data, (Revision(1, now, data),)))
    # An assumption the judge cites reads as the assumption it is, never as «п. A3».
    assert "- **Пункты правил:** п. 211.3.1, допущение A3 (РП 4.1-2)" in text and "п. A3" not in text
    assert "- **Вердикт движка (последний шаг):** не определено (undetermined)" in text
    odd = export.ruling_markdown(Ruling(1, now, now, _ruling(verdict="странный").validated(), ()))
    # A code the lexicon lacks prints as stored.
    assert "- **Вердикт движка (последний шаг):** странный" in odd


def test_the_judges_answer_stands_beside_every_steps_verdict(tmp_path: Path) -> None:
    """A ruling «Нет… запрещено» whose last step is legal must not print as «законно»."""
    steps = [
        {"action": "attack: {attacker: vail, target: orc}", "verdict": "illegal", "trace": []},
        {"action": "attack: {attacker: vail, target: und}", "verdict": "legal", "trace": []},
    ]
    data = _ruling(judge_verdict="illegal", verdict="legal", trace_json=json.dumps(steps)).validated()
    now = now_iso()
    text = export.ruling_markdown(Ruling(1, now, now, data, (Revision(1, now, data, author="Сидорова"),)))
    assert "- **Ответ судьи:** запрещено" in text
    assert "- **Вердикт движка по шагам:** 1 — запрещено, 2 — законно" in text
    assert "законно (legal)" not in text
    from rulings import model

    assert model.answer_line(data) == "Ответ судьи: запрещено. Движок по шагам: 1 — запрещено, 2 — законно."
    assert model.engine_verdicts(data) == ("illegal", "legal")


def test_times_are_local_with_the_zone_named(monkeypatch: pytest.MonkeyPatch) -> None:
    import time

    monkeypatch.setenv("TZ", "Europe/Moscow")
    time.tzset()
    try:
        assert export.human_time("2024-11-09T11:05:00.000000+00:00") == "09.11.2024 14:05 MSK"
    finally:
        monkeypatch.delenv("TZ")
        time.tzset()
    assert export.human_time("не время") == "не время"

"""Scenario files built to break the reader: each gets a Russian message with file, line and key,
never a traceback; `engine check DIR` reports every file, good and bad. Plus fuzzing of scenario
text (hypothesis): the loader raises ScenarioError or returns a scenario, nothing else."""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine
import rules_index
from casebook import cli
from casebook.loader import load_scenario_text
from casebook.nodes import MAX_DEPTH, ScenarioError

ROOT = Path(__file__).resolve().parent.parent
GOOD = (ROOT / "scenarios" / "official" / "211.3.1_karlik_und.yaml").read_text(encoding="utf-8")
FUZZ_EXAMPLES = int(os.environ.get("FUZZ_SCENARIO_EXAMPLES", "150"))


@pytest.fixture(scope="module")
def resources() -> tuple[rules_index.RulesIndex, engine.CardLibrary]:
    return rules_index.load_default(), engine.load_library()


def _problem(text: str, res: tuple[rules_index.RulesIndex, engine.CardLibrary]) -> ScenarioError:
    with pytest.raises(ScenarioError) as err:
        load_scenario_text(text, "bad.yaml", index=res[0], library=res[1])
    return err.value


CARDS = """\
title: t
setup:
  cards:
    - id: {first}
      card: Вайл
      owner: B
      at: c4
    - id: und
      card: Карлик Унд
      owner: A
      host: vail
      {extra}
steps:
  - take_control: {{card: vail, by: A}}
"""


@pytest.mark.parametrize(
    ("text", "line", "key", "words"),
    [
        ("title: " + "[" * 5000 + "]" * 5000 + "\n", 1, "title", f"глубже {MAX_DEPTH} уровней"),
        ("seed: " + "9" * 4300 + "\n" + GOOD, 1, "seed", "слишком длинное число (4300 цифр)"),
        ('title: "Вайл\x07"\n' + GOOD.split("\n", 1)[1], 1, "title", "управляющий символ U+0007"),
        ('title: "Вайл\\x1b[31m"\n' + GOOD.split("\n", 1)[1], 1, "title", "управляющий символ U+001B"),
        (CARDS.format(first='"vail\\n"', extra=""), 4, "id", "«vail\\n»: id карты"),
        (CARDS.format(first="vail", extra="exiled_by: und"), 12, "exiled_by", "сама на себя"),
        (CARDS.format(first="vail", extra="borrowed: und"), 12, "borrowed", "сама на себя"),
    ],
    ids=["deep", "huge-int", "raw-control", "escaped-control", "id-newline", "exiled-self", "borrowed-self"],
)
def test_hostile_files_get_a_located_russian_message(
    resources: tuple[rules_index.RulesIndex, engine.CardLibrary], text: str, line: int, key: str, words: str
) -> None:
    err = _problem(text, resources)
    assert (err.file, err.line, err.key) == ("bad.yaml", line, key), str(err)
    assert words in str(err)
    assert not any(w in str(err) for w in ("Error", "Traceback", "recursion"))


def test_check_reports_every_file_and_exits_2(tmp_path: Path) -> None:
    (tmp_path / "a_good.yaml").write_text(GOOD, encoding="utf-8")
    (tmp_path / "b_deep.yaml").write_text("title: " + "{a: " * 3000 + "1" + "}" * 3000, encoding="utf-8")
    (tmp_path / "c_seed.yaml").write_text("seed: " + "7" * 4300 + "\n" + GOOD, encoding="utf-8")
    (tmp_path / "d_good.yaml").write_text(GOOD, encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    code = cli.main(["check", str(tmp_path)], out=out, err=err)
    text = out.getvalue()
    assert code == 2 and err.getvalue() == ""
    for name in ("a_good", "b_deep", "c_seed", "d_good"):
        assert f"== {tmp_path / name}.yaml" in text or name.endswith("good"), name
    assert text.count("ОШИБКА В ФАЙЛЕ СЦЕНАРИЯ") == 2
    assert "Итого сценариев: 4; выполнены: 2; не выполнены: 0; с ошибкой в файле: 2" in text


# -- fuzzing ------------------------------------------------------------------------------------

_KEYS = [
    "title",
    "setup",
    "steps",
    "seed",
    "cards",
    "id",
    "card",
    "owner",
    "at",
    "host",
    "wounds",
    "borrowed",
]
_SCALARS = st.one_of(
    st.text(max_size=12),
    st.integers(min_value=-(10**30), max_value=10**30),
    st.booleans(),
    st.none(),
    st.sampled_from(["Вайл", "Карлик Унд", "c4", "A", "B", "vail", "и\n", "\x00", "211.3.1", "&a", "*a"]),
)
_VALUES = st.recursive(
    _SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(st.sampled_from(_KEYS) | st.text(max_size=5), inner, max_size=4),
    ),
    max_leaves=30,
)


def _mutate(text: str, data: st.DataObject) -> str:
    """The good file with a slice replaced by random text, or a byte flipped."""
    at = data.draw(st.integers(0, len(text)), label="at")
    cut = data.draw(st.integers(0, 40), label="cut")
    junk = data.draw(st.text(max_size=20), label="junk")
    return text[:at] + junk + text[at + cut :]


@settings(max_examples=FUZZ_EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(doc=st.dictionaries(st.sampled_from(_KEYS), _VALUES, max_size=6))
def test_fuzzed_documents_are_refused_in_russian_or_read(
    resources: tuple[rules_index.RulesIndex, engine.CardLibrary], doc: dict[str, object]
) -> None:
    text = yaml.safe_dump(doc, allow_unicode=True)
    try:
        load_scenario_text(text, "fuzz.yaml", index=resources[0], library=resources[1])
    except ScenarioError as exc:
        assert str(exc).startswith("fuzz.yaml") and exc.problems
        assert all(p.message and "Traceback" not in p.message for p in exc.problems)


@settings(max_examples=FUZZ_EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_fuzzed_edits_of_a_real_file_are_refused_in_russian_or_read(
    resources: tuple[rules_index.RulesIndex, engine.CardLibrary], data: st.DataObject
) -> None:
    text = _mutate(GOOD, data)
    try:
        load_scenario_text(text, "fuzz.yaml", index=resources[0], library=resources[1])
    except ScenarioError as exc:
        assert str(exc).startswith("fuzz.yaml") and exc.problems

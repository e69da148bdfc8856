"""«Правила»: a new upload replaces the open rules and never joins them (issue 20 item 2).

Files chosen together are one version, read as separate documents in the order shown; a file
chosen later is a new version on its own; rules the window holds unsaved are replaced only after
the page asks.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from app_pages import registry
from tests.apptest import GOOD_RULES, loaded_version, open_page, stored_versions

OTHER_RULES = "800. Другой раздел.\n800.1. Единственный пункт другой версии.\nРП 8.8 от 01.01.2028"
CORPUS = Path(__file__).resolve().parent.parent / "rules_index" / "data" / "corpus"


def choose(at: AppTest, *files: tuple[str, bytes]) -> AppTest:
    """Answer «это РП?» and choose the files in the box, as one choice."""
    from app_pages import rules

    at.radio(key="rules_upload_berserk").set_value(rules.BERSERK_YES)
    values = [(name, data, "text/plain") for name, data in files]
    at.file_uploader(key=rules.upload_key(at.session_state)).set_value(
        values if len(values) > 1 else values[0]
    )
    return at.run()


def entries(at: AppTest) -> int:
    line = next(m.value for m in at.markdown if "Пунктов:" in m.value)
    return int(line.split("Пунктов:**", 1)[1].split("(", 1)[0].strip())


def test_a_second_upload_over_unsaved_rules_asks_and_then_replaces(judge_account: Path) -> None:
    at = choose(open_page(registry.RULES_PAGE.script), ("first.txt", GOOD_RULES.encode()))
    assert not at.exception and "РП 9.9" in loaded_version(at) and entries(at) == 3
    at = choose(at, ("second.txt", OTHER_RULES.encode()))
    assert not at.exception
    asked = " ".join(w.value for w in at.warning).replace("\\", "")
    assert "которых нет на сервере" in asked and "«second.txt»" in asked
    assert "РП 9.9" in loaded_version(at)  # nothing changed before the answer
    at = at.button(key="rules_upload_replace").click().run()
    assert not at.exception
    assert "РП 8.8" in loaded_version(at)
    assert entries(at) == 2  # the second file alone: not 5, the two joined
    said = at.success[0].value.replace("\\", "")
    assert "заменили прежние" in said
    assert stored_versions(judge_account) == []


def test_keeping_the_unsaved_rules_leaves_them_open(judge_account: Path) -> None:
    at = choose(open_page(registry.RULES_PAGE.script), ("first.txt", GOOD_RULES.encode()))
    at = choose(at, ("second.txt", OTHER_RULES.encode()))
    at = at.button(key="rules_upload_keep").click().run()
    assert not at.exception and "РП 9.9" in loaded_version(at) and entries(at) == 3
    assert not any("которых нет на сервере" in w.value for w in at.warning)


def test_a_judges_second_upload_replaces_the_stored_first_without_asking(judge_account: Path) -> None:
    from tests.rulings_samples import PASSWORD

    at = open_page(registry.RULES_PAGE.script)
    at.text_input(key="rules_signin_signin_name").input("Сидорова")
    at.text_input(key="rules_signin_signin_password").input(PASSWORD)
    at = at.button(key="rules_signin_signin_submit").click().run()
    at = choose(at, ("first.txt", GOOD_RULES.encode()))
    assert "РП 9.9" in loaded_version(at)
    at = choose(at, ("second.txt", OTHER_RULES.encode()))
    assert not at.exception and not any("которых нет на сервере" in w.value for w in at.warning)
    assert "РП 8.8" in loaded_version(at) and entries(at) == 2
    assert len(stored_versions(judge_account)) == 2  # two versions, not one merged


@pytest.mark.parametrize("order", [(0, 1), (1, 0)])
def test_files_chosen_together_are_one_version_read_as_separate_documents(
    judge_account: Path, order: tuple[int, int]
) -> None:
    # The seed files end without a newline: joined as one text, 211.11 would run into 534.4.
    seeds = sorted(CORPUS.glob("*.txt"))
    files = [(seeds[i].name, seeds[i].read_bytes()) for i in order]
    assert not files[0][1].endswith(b"\n")
    at = choose(open_page(registry.RULES_PAGE.script), *files)
    assert not at.exception, at.exception
    assert entries(at) == 44
    said = at.success[0].value.replace("\\", "")
    assert f"1. «{files[0][0]}», 2. «{files[1][0]}»" in said

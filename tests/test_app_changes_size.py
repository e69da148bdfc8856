"""«Что изменилось» on two full-size versions (3,000 entries each, generated; the newer FICTIONAL):
the page draws one page of changes at a time, so a huge diff never freezes it."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

import rules_index
from app_pages import registry
from app_pages.changes.page import PAGE_SIZE
from rules_index import versions
from tests.bench import bench_diff

ROOT = Path(__file__).resolve().parent.parent
APP = str(ROOT / "app.py")


@pytest.fixture(scope="module")
def full_size(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    rng = random.Random(7)
    old = bench_diff.old_version(3000, rng)
    new = bench_diff.next_version(old, rng)
    folder = tmp_path_factory.mktemp("full_size")
    old_file = folder / "old.txt"
    old_file.write_text(bench_diff.as_text(old, "РП 4.1-2 от 09.11.2024"), encoding="utf-8")
    files = [("fictional_next.txt", bench_diff.as_text(new, "РП 9.9-1 от 01.01.2099").encode("utf-8"))]
    stored = versions.default_store().save(files, rules_index.load_texts(files), berserk=True)
    return old_file, stored.id


@pytest.mark.timeout(240)
def test_a_full_size_diff_is_paged(full_size: tuple[Path, str], monkeypatch: pytest.MonkeyPatch) -> None:
    old_file, vid = full_size
    monkeypatch.setattr(sys, "argv", ["app.py", "--corpus", str(old_file)])
    at = AppTest.from_file(APP, default_timeout=120)
    at.session_state["changes_my_versions"] = [vid]
    at.run()
    at = at.switch_page(registry.CHANGES.script).run()
    assert not at.exception, at.exception
    drawn = [m for m in at.markdown if m.value.startswith("**") and " — " in m.value]
    assert 0 < len(drawn) <= PAGE_SIZE
    pages = at.selectbox(key="changes_page")
    assert pages.options[0] == "1 из " + pages.options[-1].split(" из ")[1]
    assert len(pages.options) > 10
    at = pages.set_value(len(pages.options)).run()
    assert not at.exception
    assert "страница " + str(len(pages.options)) in " ".join(c.value for c in at.caption)
    # Only one section: fewer pages, the same bound.
    at = at.selectbox(key="changes_section").set_value("103").run()
    assert next(s.value for s in at.subheader if s.value.startswith("Раздел ")).startswith("Раздел 103")
    assert len([m for m in at.markdown if m.value.startswith("**") and " — " in m.value]) <= PAGE_SIZE

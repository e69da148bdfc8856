"""The ground every later feature stands on: imports and the `make run` server."""

from __future__ import annotations

import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_packages_import_without_streamlit() -> None:
    # Make `import streamlit` fail, then import the library packages.
    packages = "rules_index, engine, casebook, casebook.cli"
    code = f"import sys; sys.modules['streamlit'] = None; import {packages}; print('ok')"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"


def test_make_run_serves_health(app_server: str) -> None:
    with urllib.request.urlopen(app_server + "/_stcore/health", timeout=60) as r:
        assert r.read().strip() == b"ok"


def test_embedded_corpus_is_byte_identical_to_seeds() -> None:
    seeds = ROOT.parent / "shared" / "seeds"
    if not seeds.is_dir():
        pytest.skip("../shared/seeds рядом с проектом нет")
    corpus = ROOT / "rules_index" / "data" / "corpus"
    ours = sorted(p.read_bytes() for p in corpus.glob("*.txt"))
    theirs = sorted(p.read_bytes() for p in seeds.glob("*.txt"))
    assert ours == theirs

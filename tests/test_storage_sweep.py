"""Leftovers of interrupted writes (issue 26): a save killed mid-way leaves a hidden staging
folder; it never counts against the store's size and is removed at start and before every save."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

import rules_index
from rules_index import versions
from rules_index.versions import VersionStore

RULES = "900. Пробный раздел.\n900.1. Первый пункт.\nРП 9.9 от 01.01.2030"


def save(store: VersionStore) -> versions.VersionInfo:
    files = [("r.txt", RULES.encode())]
    return store.save(files, rules_index.load_texts(files, berserk=True), berserk=True)


def _leftover(root: Path, name: str, size: int, age_s: float) -> Path:
    folder = root / name
    (folder / "files").mkdir(parents=True)
    (folder / "files" / "00-big.pdf").write_bytes(b"x" * size)
    old = time.time() - age_s
    os.utime(folder, (old, old))
    return folder


def test_a_killed_saves_folder_does_not_fill_the_store(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = VersionStore(tmp_path)
    monkeypatch.setattr(versions, "MAX_STORE_BYTES", 50_000)
    dead = _leftover(tmp_path, ".upload-killed", 60_000, age_s=3600)
    young = _leftover(tmp_path, ".upload-inflight", 60_000, age_s=0)  # another process saving now
    info = save(store)  # would not fit if either leftover counted
    assert store.get(info.id) is not None
    assert not dead.exists()
    assert young.exists()


def test_the_sweep_removes_each_kind_of_leftover_once_it_is_old(tmp_path: Path) -> None:
    store = VersionStore(tmp_path)
    info = save(store)
    for name in (".upload-a", ".removed-0123456789abcdef"):
        _leftover(tmp_path, name, 10, age_s=3600)
    tmp = tmp_path / ".tmp-settings"
    tmp.write_text("{", encoding="utf-8")
    os.utime(tmp, (time.time() - 3600,) * 2)
    assert sorted(store.sweep()) == [".removed-0123456789abcdef", ".tmp-settings", ".upload-a"]
    assert [p.name for p in tmp_path.iterdir()] == [info.id]
    assert store.sweep() == []


def test_a_missing_store_folder_is_nothing_to_sweep(tmp_path: Path) -> None:
    assert VersionStore(tmp_path / "none").sweep() == []

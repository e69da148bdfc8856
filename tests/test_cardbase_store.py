"""Stored card bases: content-addressed, surviving a restart, never replaced by a bad import."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import cardbase
from cardbase import store
from tests import cardbase_cases as cases


def _broken() -> tuple[cardbase.CardBase, list[tuple[str, bytes]]]:
    recs = cases.records()
    recs[0]["type"] = 9
    data = cases.dump(recs)
    return cardbase.import_base(data, "broken.json"), [("broken.json", data)]


def test_a_saved_base_survives_a_restart(tmp_path: Path) -> None:
    base = cases.json_base()
    info = store.CardStore(tmp_path).save(base, cases.files())
    assert info.id == base.id and info.cards == 26 and info.sets == 2 and info.skipped == 0
    assert [f.role for f in info.files] == ["base", "constants"]
    again = store.CardStore(tmp_path)  # a new process: only the folder is known
    assert [b.id for b in again.bases()] == [base.id]
    loaded = again.load(base.id)
    assert loaded.id == base.id
    assert loaded.records == base.records


def test_the_same_import_is_stored_once(tmp_path: Path) -> None:
    cards = store.CardStore(tmp_path)
    first = cards.save(cases.json_base(), cases.files())
    second = cards.save(cases.json_base(), cases.files())
    assert first == second
    assert [d.name for d in tmp_path.iterdir() if not d.name.startswith(".")] == [first.id]


def test_a_base_with_skipped_records_needs_the_judges_consent(tmp_path: Path) -> None:
    cards = store.CardStore(tmp_path)
    good = cards.save(cases.json_base(), cases.files())
    store.make_default(cards, good.id)
    bad, files = _broken()
    with pytest.raises(cardbase.CardBaseError) as exc:
        cards.save(bad, files)
    message = str(exc.value)
    assert (
        "Записей с ошибками: 1" in message
        and "запись 1 (id 90001" in message
        and "прежняя остаётся" in message
    )
    assert [b.id for b in cards.bases()] == [good.id]
    assert cards.default_id() == good.id  # the good base is still what everyone opens
    accepted = cards.save(bad, files, accept_skipped=True)
    assert accepted.skipped == 1 and accepted.cards == 25
    assert cards.default_id() == good.id


def test_default_and_removal(tmp_path: Path) -> None:
    cards = store.CardStore(tmp_path)
    assert cards.default_id() == cardbase.BUILTIN
    info = cards.save(cases.json_base(), cases.files())
    store.make_default(cards, info.id)
    assert cards.default_id() == info.id
    store.remove_base(cards, info.id)
    assert cards.default_id() == cardbase.BUILTIN and cards.bases() == []
    with pytest.raises(cardbase.CardBaseError, match="нет на сервере"):
        cards.load(info.id)
    with pytest.raises(cardbase.CardBaseError, match="Встроенную библиотеку удалить нельзя"):
        store.remove_base(cards, cardbase.BUILTIN)
    with pytest.raises(cardbase.CardBaseError, match="нет на сервере"):
        store.make_default(cards, "0123456789abcdef")


def test_a_damaged_store_says_so_and_hides_only_what_is_damaged(tmp_path: Path) -> None:
    cards = store.CardStore(tmp_path)
    info = cards.save(cases.json_base(), cases.files())
    stored = next((tmp_path / info.id / "files").glob("00-*"))
    stored.write_bytes(stored.read_bytes() + b" ")
    with pytest.raises(cardbase.CardBaseError, match="повреждён"):
        cards.load(info.id)
    stored.unlink()
    with pytest.raises(cardbase.CardBaseError, match="пропал с сервера"):
        cards.load(info.id)
    other = cards.save(*_accepted())
    (tmp_path / info.id / "meta.json").write_text("{", encoding="utf-8")
    assert [b.id for b in cards.bases()] == [other.id]
    (tmp_path / "settings.json").write_text(json.dumps({"default": info.id}), encoding="utf-8")
    assert cards.default_id() == cardbase.BUILTIN  # a default that is unreadable is not used
    assert cards.get("../../etc") is None


def _accepted() -> tuple[cardbase.CardBase, list[tuple[str, bytes]]]:
    data = cases.BASE_CSV.read_bytes()
    return cardbase.import_base(data, "base.csv"), [("base.csv", data)]


def test_a_store_that_cannot_be_written_loses_nothing(tmp_path: Path) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("not a folder", encoding="utf-8")
    with pytest.raises(cardbase.CardBaseError, match="Не удалось сохранить базу карт"):
        store.CardStore(blocked).save(cases.json_base(), cases.files())
    assert blocked.read_text(encoding="utf-8") == "not a folder"


def test_the_stated_store_limits(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cards = store.CardStore(tmp_path)
    cards.save(cases.json_base(), cases.files())
    monkeypatch.setattr(store, "MAX_BASES", 1)
    with pytest.raises(cardbase.CardBaseError, match="больше не помещается"):
        cards.save(*_accepted())
    monkeypatch.setattr(store, "MAX_BASES", 50)
    monkeypatch.setattr(store, "MAX_STORE_BYTES", 100)
    with pytest.raises(cardbase.CardBaseError, match="заполнено"):
        cards.save(*_accepted())
    assert len(cards.bases()) == 1


def test_the_store_folder_comes_from_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(store.ENV_VAR, str(tmp_path / "x"))
    assert store.default_store().root == tmp_path / "x"
    monkeypatch.delenv(store.ENV_VAR)
    assert store.default_store().root == store.DEFAULT_ROOT


def test_open_base_reads_builtin_and_stored(tmp_path: Path) -> None:
    cards = store.CardStore(tmp_path)
    info = cards.save(cases.json_base(), cases.files())
    assert cardbase.open_base(info.id, cards).id == info.id
    builtin = cardbase.open_base(cardbase.BUILTIN, cards)
    assert "Карлик Унд" in builtin.names() and len(builtin.records) == 7

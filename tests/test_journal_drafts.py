"""Judges' unsaved forms kept in the journal (rulings.drafts), on both engines: a draft belongs to
one account and one form, comes back whole, goes when dropped, with the account, or with the sign-in."""

from __future__ import annotations

import pytest

from rulings import model
from rulings.store import Journal
from tests.rulings_samples import PASSWORD, journal_with_judge


def test_a_draft_comes_back_to_its_judge_and_form_only(journal_target: str) -> None:
    book, sidorova = journal_with_judge(journal_target)
    book.add_account("Орлов", "judge", PASSWORD)
    orlov = book.sign_in("Орлов", PASSWORD)
    fields = {"title": "Кто хозяин Унда?", "decision": "Хозяин прежний.\n\nСм. 211.4.", "clauses": "211.4"}
    book.save_draft(sidorova, "journal_new", {**fields, "trace_json": "не поле формы"}, "d-1", None)
    book.save_draft(sidorova, "journal_amend_7", {"note": "опечатка"}, "d-2", 3)
    kept = Journal(journal_target).draft(sidorova, "journal_new")
    assert kept is not None and dict(kept.fields) == fields
    assert kept.draft_id == "d-1" and kept.base_rev is None
    amend = Journal(journal_target).draft(sidorova, "journal_amend_7")
    assert amend is not None and amend.base_rev == 3 and dict(amend.fields) == {"note": "опечатка"}
    assert Journal(journal_target).draft(orlov, "journal_new") is None  # another judge's own forms
    book.save_draft(sidorova, "journal_new", {"title": "Другой вопрос"}, "d-1", None)  # replaced
    again = Journal(journal_target).draft(sidorova, "journal_new")
    assert again is not None and dict(again.fields) == {"title": "Другой вопрос"}
    book.drop_draft(sidorova, "journal_new")
    assert Journal(journal_target).draft(sidorova, "journal_new") is None
    book.save_draft(sidorova, "journal_amend_7", {}, "d-2", 3)  # an emptied form keeps nothing
    assert Journal(journal_target).draft(sidorova, "journal_amend_7") is None


def test_drafts_need_a_valid_sign_in_and_go_with_the_account(journal_target: str) -> None:
    book, sidorova = journal_with_judge(journal_target)
    with pytest.raises(model.NotSignedInError):
        book.save_draft(None, "journal_new", {"title": "Без входа"}, "d", None)
    book.save_draft(sidorova, "journal_new", {"title": "Вопрос"}, "d", None)
    book.sign_out(sidorova)
    assert Journal(journal_target).draft(sidorova, "journal_new") is None
    again = book.sign_in("Сидорова", PASSWORD)
    assert Journal(journal_target).draft(again, "journal_new") is not None  # the account's, not the token's
    book.remove_account("Сидорова")
    book.add_account("Сидорова", "judge", PASSWORD)
    fresh = book.sign_in("Сидорова", PASSWORD)
    assert Journal(journal_target).draft(fresh, "journal_new") is None


def test_a_judge_keeps_a_bounded_number_of_drafts(journal_target: str) -> None:
    from rulings import drafts

    clock = [1_000_000.0]
    book, by = journal_with_judge(journal_target, clock=lambda: clock[0])
    for i in range(drafts.MAX_DRAFTS + 5):
        clock[0] += 1
        book.save_draft(by, f"form_{i}", {"title": "x" * 1000}, str(i), None)
    assert Journal(journal_target, clock=lambda: clock[0]).draft(by, "form_0") is None  # the oldest went
    newest = Journal(journal_target, clock=lambda: clock[0]).draft(by, f"form_{drafts.MAX_DRAFTS + 4}")
    assert newest is not None and len(newest.fields["title"]) == model.FIELD_LIMITS["title"]

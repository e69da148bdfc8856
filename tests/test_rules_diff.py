"""The rules diff: a FICTIONAL next version (tests/fictional_rules.py) against the embedded rules,
renumbering-proof pairing, splits and merges, citations of renumbered clauses, the word diff."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rules_index
from rules_index import Paragraph, diff_groups, ids
from rules_index.diff import KINDS, RulesDiff, diff_indexes, diff_paragraphs
from rules_index.wordiff import Word, compact, marked, word_diff
from tests import fictional_rules as fr


@pytest.fixture(scope="module")
def fictional() -> rules_index.RulesIndex:
    return rules_index.load_texts(fr.as_files(fr.fictional_texts()))


@pytest.fixture(scope="module")
def result(index: rules_index.RulesIndex, fictional: rules_index.RulesIndex) -> RulesDiff:
    return diff_indexes(index, fictional)


def _change(result: RulesDiff, old_id: str):  # type: ignore[no-untyped-def]
    change = result.of_old(old_id)
    assert change is not None, old_id
    return change


def test_fictional_version_gives_exactly_the_expected_changes(result: RulesDiff) -> None:
    found = [(c.kind, c.old, c.new) for c in result.changes]
    assert found == fr.EXPECTED


def test_every_entry_of_either_version_is_in_exactly_one_change(
    result: RulesDiff, index: rules_index.RulesIndex, fictional: rules_index.RulesIndex
) -> None:
    olds = [cid for c in result.changes for cid in c.old]
    news = [cid for c in result.changes for cid in c.new]
    assert sorted(olds, key=ids.sort_key) == sorted((p.id for p in index.paragraphs), key=ids.sort_key)
    assert sorted(news, key=ids.sort_key) == sorted((p.id for p in fictional.paragraphs), key=ids.sort_key)
    assert all(c.kind in KINDS for c in result.changes)


def test_version_stamps_and_the_glued_stamp(result: RulesDiff) -> None:
    assert result.old.version == "РП 4.1-2 от 09.11.2024"
    assert result.new.version == fr.FICTIONAL_VERSION
    # 211.11 carries the glued stamp in both texts; a changed stamp is not an edit.
    assert _change(result, "211.11").kind == "same"


def test_completed_cut_off_clause_shows_the_inserted_words(result: RulesDiff) -> None:
    change = _change(result, "211.5")
    assert change.kind == "edited" and change.parts == ("text",)
    inserted = " ".join(w.text for w in change.words if w.op == "insert")
    assert "помещён на небестелесное существо, он остаётся на нём." in inserted
    assert not [w for w in change.words if w.op == "delete"]
    assert 0.7 < change.similarity < 1.0


def test_reworded_example_makes_its_clause_edited(result: RulesDiff) -> None:
    change = _change(result, "534.5")
    assert change.kind == "edited" and change.parts == ("examples",)
    assert {w.part for w in change.words} == {"examples"}
    deleted = " ".join(w.text for w in change.words if w.op == "delete")
    assert "по-прежнему будут считаться" in deleted


def test_reworded_clause_word_diff(result: RulesDiff) -> None:
    change = _change(result, "534.6")
    text = marked(change.words)
    assert text == (
        "Эффект замещения [−можно применять−] [+может быть применён и+] к эффекту, "
        "[−который получился−] [+полученному+] в результате [−использования−] [+применения+] "
        "другого эффекта замещения."
    )


def test_split_and_citations_of_renumbered_clauses(result: RulesDiff) -> None:
    split = _change(result, "535.3")
    assert split.kind == "split" and split.new == ("535.4", "535.4.1")
    assert split.similarity > 0.95
    cited = _change(result, "535.5.1.3")
    assert cited.kind == "renumbered"
    assert [(r.old, r.new, r.updated) for r in cited.refs] == [("535.5.1.2", "535.6.1.2", True)]
    assert result.counterparts("535.5.1.2") == ("535.6.1.2",)
    assert result.counterparts("534.8") == ()
    assert result.of_new("535.2") is not None and result.of_new("535.2").kind == "added"  # type: ignore[union-attr]


def test_groups_by_section_and_filter(result: RulesDiff) -> None:
    sections = [s for s, _ in result.sections(changed_only=True)]
    assert sections == ["211", "534", "535"]
    changed = [c for _, group in result.sections(changed_only=True) for c in group]
    assert all(c.changed for c in changed)
    assert len(changed) == sum(n for k, n in result.counts().items() if k != "same")


def test_json_contract(result: RulesDiff) -> None:
    data = result.to_dict()
    assert data["old"] == {"version": "РП 4.1-2 от 09.11.2024", "label": "РП 4.1-2", "entries": 44}
    changes = data["changes"]
    assert isinstance(changes, list)
    edited = next(c for c in changes if c["old"] == ["534.6"])
    assert set(edited) >= {"kind", "old", "new", "similarity", "parts", "words"}
    assert edited["parts"] == ["text"]
    assert {w["op"] for w in edited["words"]} == {"equal", "insert", "delete"}


def test_against_itself_only_same(index: rules_index.RulesIndex) -> None:
    result = diff_indexes(index, index)
    assert {c.kind for c in result.changes} == {"same"}
    assert result.identical


def test_renumbering_only_copy_gives_only_renumbered(index: rules_index.RulesIndex) -> None:
    moved = rules_index.load_texts(fr.as_files(fr.renumbered_only_texts(shift=2)))
    result = diff_indexes(index, moved)
    for c in result.changes:
        if c.old == c.new:
            assert c.kind == "same", c
        else:
            assert c.kind == "renumbered", c
            (old,), (new,) = c.old, c.new
            parts = old.split(".")
            assert new == ".".join([parts[0], str(int(parts[1]) + 2), *parts[2:]])
    assert sum(c.kind == "renumbered" for c in result.changes) == 18


def test_stale_citation_after_renumbering_is_reported(index: rules_index.RulesIndex) -> None:
    """The target moved but the citing text still says the old number: the clause reads the same,
    and the diff says its citation now names another clause."""
    texts = fr.renumbered_only_texts(shift=1)
    texts = [(n, t.replace("п. 535.6.1.2", "п. 535.5.1.2")) for n, t in texts]
    moved = rules_index.load_texts(fr.as_files(texts))
    change = diff_indexes(index, moved).of_old("535.5.1.3")
    assert change is not None and change.kind == "renumbered" and change.parts == ()
    assert [(r.old, r.new, r.updated) for r in change.refs] == [("535.5.1.2", "535.6.1.2", False)]


def _para(cid: str, text: str, examples: tuple[str, ...] = ()) -> Paragraph:
    return Paragraph(cid, ids.parent(cid), ids.level(cid), text, examples, is_heading="." not in cid)


SENTENCES = [
    "Симбиот погибает, если у него нет хозяина после подфазы Вскрытия.",
    "Игрок обязан выбрать симбиоту хозяина, если это возможно.",
    "Карта, взятая под контроль, получает маркер контроля.",
    "Маркер контроля исчезает, когда карта возвращается под контроль владельца.",
]


def test_merged_clauses() -> None:
    old = [
        _para("300", "Раздел."),
        _para("300.1", SENTENCES[0]),
        _para("300.2", SENTENCES[1]),
        _para("300.3", SENTENCES[2]),
    ]
    new = [
        _para("300", "Раздел."),
        _para("300.1", SENTENCES[0] + " " + SENTENCES[1]),
        _para("300.2", SENTENCES[2]),
    ]
    result = diff_paragraphs(old, new)
    assert [(c.kind, c.old, c.new) for c in result.changes] == [
        ("same", ("300",), ("300",)),
        ("merged", ("300.1", "300.2"), ("300.1",)),
        ("renumbered", ("300.3",), ("300.2",)),
    ]


def test_inserted_clause_does_not_pair_with_the_number_it_took() -> None:
    """New 300.1 is a different text under an old number; the old 300.1, slightly edited, is 300.2."""
    old = [_para("300.1", SENTENCES[2]), _para("300.2", SENTENCES[3])]
    edited = SENTENCES[2].replace("получает", "сразу получает")
    new = [_para("300.1", SENTENCES[0]), _para("300.2", edited), _para("300.3", SENTENCES[3])]
    result = diff_paragraphs(old, new)
    assert [(c.kind, c.old, c.new) for c in result.changes] == [
        ("added", (), ("300.1",)),
        ("renumbered+edited", ("300.1",), ("300.2",)),
        ("renumbered", ("300.2",), ("300.3",)),
    ]


def test_look_alike_clauses_keep_their_order() -> None:
    """Two near-identical clauses both edited: the pairing keeps them in order (no crossing)."""
    a = "Правила возрождения по умолчанию: со своего кладбища, рядом с картой, в открытом виде."
    b = "Правила инкарнации по умолчанию: со своего кладбища, в третьем ряду, в закрытом виде."
    old = [_para("400.1", a), _para("400.2", b)]
    new = [_para("400.1", a.replace("открытом", "любом")), _para("400.2", b.replace("закрытом", "любом"))]
    result = diff_paragraphs(old, new)
    assert [(c.kind, c.old, c.new) for c in result.changes] == [
        ("edited", ("400.1",), ("400.1",)),
        ("edited", ("400.2",), ("400.2",)),
    ]


def test_word_diff_marks_and_compaction() -> None:
    words = word_diff("один два три четыре пять шесть семь", "один два ТРИ четыре пять шесть семь")
    assert marked(words) == "один два [−три−] [+ТРИ+] четыре пять шесть семь"
    assert marked(compact(words, context=1)) == "… два [−три−] [+ТРИ+] четыре …"
    assert word_diff("то же", "то же") == [Word("equal", "то же")]


# Properties -------------------------------------------------------------------------------------

WORDS = tuple(
    [
        "симбиот",
        "хозяин",
        "карта",
        "игрок",
        "отряд",
        "существо",
        "клетка",
        "поле",
        "бой",
        "ход",
        "рана",
        "удар",
        "особенность",
        "эффект",
        "замещение",
        "вызов",
        "колода",
        "кладбище",
        "контроль",
        "маркер",
        "жетон",
        "инкарнация",
        "возрождение",
        "ряд",
        "зона",
    ]
)
_text = st.lists(st.sampled_from(WORDS), min_size=4, max_size=18).map(
    lambda w: " ".join(w).capitalize() + "."
)


@st.composite
def documents(draw: st.DrawFn) -> list[Paragraph]:
    out: list[Paragraph] = []
    for s in range(draw(st.integers(1, 3))):
        section = str(300 + s)
        out.append(_para(section, f"Раздел {section}."))
        for k in range(1, draw(st.integers(1, 8)) + 1):
            out.append(_para(f"{section}.{k}", draw(_text)))
            for m in range(1, draw(st.integers(0, 2)) + 1):
                example = (draw(_text),) if draw(st.booleans()) else ()
                out.append(_para(f"{section}.{k}.{m}", draw(_text), example))
    return out


def _renumber(doc: list[Paragraph], section: str, start: int, shift: int) -> list[Paragraph]:
    def move(cid: str) -> str:
        parts = cid.split(".")
        if parts[0] == section and len(parts) > 1 and int(parts[1]) >= start:
            parts[1] = str(int(parts[1]) + shift)
        return ".".join(parts)

    return [
        Paragraph(move(p.id), ids.parent(move(p.id)), p.level, p.text, p.examples, p.bullets, p.is_heading)
        for p in doc
    ]


@settings(max_examples=40, deadline=None)
@given(documents())
def test_property_against_itself_only_same(doc: list[Paragraph]) -> None:
    result = diff_paragraphs(doc, list(doc))
    assert [c.kind for c in result.changes] == ["same"] * len(doc)


@settings(max_examples=40, deadline=None)
@given(documents(), st.integers(1, 8), st.integers(1, 5))
def test_property_renumbering_only_gives_only_renumbered(
    doc: list[Paragraph], start: int, shift: int
) -> None:
    moved = _renumber(doc, "300", start, shift)
    result = diff_paragraphs(doc, moved)
    expected = {p.id: q.id for p, q in zip(doc, moved, strict=True)}
    for c in result.changes:
        assert len(c.old) == len(c.new) == 1
        assert c.new[0] == expected[c.old[0]]
        assert c.kind == ("same" if c.old == c.new else "renumbered")


def test_the_page_groups_plain_moves_and_unchanged_clauses(result: RulesDiff) -> None:
    """535's plain renumberings fold into blocks of FOLD_RUN or more; a renumbered clause whose
    citation moved with it (535.5.1.3) stays a card of its own; unchanged clauses are one block a
    section, left out when only changes are asked for."""
    listed = diff_groups.items(result, only_changes=False)
    moved = [i for i in listed if isinstance(i, diff_groups.Moved)]
    assert moved and all(len(m.changes) >= diff_groups.FOLD_RUN for m in moved)
    assert all(diff_groups.plain_move(c) for m in moved for c in m.changes)
    cards = [i for i in listed if not isinstance(i, (diff_groups.Moved, diff_groups.Same))]
    assert "535.5.1.3" in [c.old[0] for c in cards if c.old]
    same = [i for i in listed if isinstance(i, diff_groups.Same)]
    assert [s.section for s in same] == sorted({s.section for s in same}, key=ids.sort_key)
    assert not any(isinstance(i, diff_groups.Same) for i in diff_groups.items(result, only_changes=True))
    only_534 = diff_groups.items(result, only_changes=True, section="534")
    assert only_534 and {i.section for i in only_534} == {"534"}
    # every changed entry is listed exactly once, folded or not
    flat = [
        c
        for i in listed
        if not isinstance(i, diff_groups.Same)
        for c in (i.changes if isinstance(i, diff_groups.Moved) else (i,))
    ]
    assert sorted(map(id, flat)) == sorted(id(c) for c in result.changes if c.changed)


def test_progress_is_heard_in_order_up_to_the_end_and_changes_nothing(
    index: rules_index.RulesIndex, fictional: rules_index.RulesIndex, result: RulesDiff
) -> None:
    """The «Что изменилось» page's bar: shares between 0 and 1, never going back, the last one 1;
    the diff made with a listener is the diff made without."""
    heard: list[float] = []
    many = list(fictional.paragraphs) * 8  # past one report's worth of entries on each side
    listened = diff_paragraphs(list(index.paragraphs) * 8, many, progress=heard.append)
    assert heard and heard[-1] == 1.0
    assert all(0.0 <= s <= 1.0 for s in heard)
    assert heard == sorted(heard)
    assert len(heard) > 3  # reports while the entries are read, not only at the end
    plain = diff_paragraphs(list(index.paragraphs) * 8, many)
    assert listened.changes == plain.changes
    again = diff_paragraphs(index.paragraphs, fictional.paragraphs, progress=heard.append)
    assert again.changes == result.changes

"""The desk as data: edits, undo/redo, sharing as a link or a file, and refusal of bad input."""

from __future__ import annotations

import base64
import json
import zlib

import pytest

import engine
from desk import cases, edits, entries, model, share
from tests.desk_cases import ORC, UND, VAIL


def _desk() -> model.Desk:
    desk = model.Desk(title="Может ли Вайл атаковать Орка?")
    for entry in (VAIL, UND, ORC):
        desk = edits.put_card(desk, entry)
    return desk


def _act(desk: model.Desk, kind: str, **args: object) -> model.Desk:
    return edits.with_action(desk, engine.parse_action(kind, args))


def test_vail_attack_forbidden_after_control_change() -> None:
    desk = _act(_act(_desk(), "take_control", card="vail", by="A"), "attack", attacker="vail", target="orc")
    rp = model.replay(desk)
    assert [o.verdict for o in rp.outcomes] == ["legal", "illegal"]
    assert "211.3.1" in rp.outcomes[1].forbidden_by
    assert rp.states[2] == rp.states[1]  # an illegal action leaves the position as it was
    assert engine.card_props(rp.current, "vail")["controller"] == "A"
    assert "211.3.1" in cases.cited_clauses(rp)
    steps = json.loads(cases.trace_json(rp))
    assert steps[1]["verdict"] == "illegal" and steps[1]["action"] == "attack: {attacker: vail, target: orc}"


def test_undo_redo_restart_and_a_new_action_drops_the_redo_tail() -> None:
    desk = _act(_act(_desk(), "take_control", card="vail", by="A"), "attack", attacker="vail", target="und")
    assert desk.cursor == 2
    back = edits.undo(edits.undo(desk))
    assert back.cursor == 0 and len(back.actions) == 2 and model.replay(back).outcomes == ()
    assert edits.redo(back).cursor == 1 and edits.redo(edits.redo(edits.redo(back))).cursor == 2
    assert edits.restart(desk).cursor == 0
    branched = _act(edits.undo(desk), "lose_control", card="vail")
    assert [next(iter(a)) for a in branched.actions] == ["take_control", "lose_control"]
    assert model.replay(edits.undo(desk)).current == model.replay(edits.redo(edits.restart(desk))).current


def test_setup_edits_only_before_actions_and_illegal_positions_refused() -> None:
    desk = _desk()
    with pytest.raises(engine.SetupError, match="c4"):
        edits.put_card(desk, {"id": "vail2", "card": "Вайл", "owner": "A", "at": "c4"})  # occupied cell
    with pytest.raises(engine.SetupError):
        edits.put_card(desk, {"id": "und2", "card": "Карлик Унд", "owner": "A", "host": "vail"})  # 211.6
    moved = edits.put_card(desk, {**VAIL, "at": "b5"})
    assert [c["id"] for c in moved.cards] == ["vail", "und", "orc"] and moved.cards[0]["at"] == "b5"
    with pytest.raises(engine.SetupError):
        edits.remove_card(desk, "vail")  # its symbiote still sits on it
    assert [c["id"] for c in edits.remove_card(edits.remove_card(desk, "und"), "vail").cards] == ["orc"]
    started = _act(desk, "take_control", card="vail", by="A")
    with pytest.raises(model.DeskError, match="до первого действия"):
        edits.put_card(started, ORC)
    assert entries.new_card_id(desk, "vail") == "vail2" and entries.new_card_id(desk, "../x y") == "xy"


@pytest.mark.parametrize(
    "entry",
    [
        {"id": "../../etc/passwd", "card": "Вайл", "owner": "A", "at": "a1"},
        {"id": "x'); DROP TABLE t;--", "card": "Вайл", "owner": "A", "at": "a1"},
        {"id": "<b>x</b>", "card": "Вайл", "owner": "A", "at": "a1"},
        {"id": "ok", "card": "Вайл", "owner": "A", "at": "a1", "__class__": "x"},
        {"id": "ok", "card": {"name": "x", "python": "!!python/object"}, "owner": "A", "at": "a1"},
    ],
)
def test_hostile_card_entries_refused(entry: dict[str, object]) -> None:
    with pytest.raises(model.DeskError):
        edits.put_card(model.Desk(), entry)


def test_hostile_names_kept_verbatim_as_data() -> None:
    name = "<script>alert(1)</script> '); DROP TABLE x;-- [a](javascript:x) ../../etc"
    desk = edits.put_card(
        model.Desk(),
        {"id": "h", "card": {"template": "Наземное существо", "name": name}, "owner": "A", "at": "a1"},
    )
    again = share.decode(share.encode(desk))
    assert again == dataclasses_replace_scenario(desk)
    assert engine.card_props(model.replay(again).current, "h")["name"] == name


def dataclasses_replace_scenario(desk: model.Desk) -> model.Desk:
    """The URL form leaves the loaded scenario file out (its setup and actions are in the desk)."""
    return model.Desk(**{**desk.__dict__, "scenario_text": ""})


def test_link_and_file_reopen_the_desk_exactly() -> None:
    desk = edits.undo(
        _act(_act(_desk(), "take_control", card="vail", by="A"), "attack", attacker="vail", target="orc")
    )
    assert share.decode(share.encode(desk)) == desk
    assert share.from_file_text(share.to_file_text(desk).encode("utf-8")) == desk
    assert model.replay(share.decode(share.encode(desk))).current == model.replay(desk).current


@pytest.mark.parametrize(
    ("token", "message"),
    [
        ("not-a-desk", "повреждена"),
        (base64.urlsafe_b64encode(zlib.compress(b'{"format": "x"}')).decode(), "не файл стола"),
        (base64.urlsafe_b64encode(zlib.compress(b"[1, 2]")).decode(), "не файл стола"),
        (base64.urlsafe_b64encode(zlib.compress(b" " * 50_000_000)).decode(), "слишком большой"),
    ],
)
def test_bad_links_refused(token: str, message: str) -> None:
    with pytest.raises(model.DeskError, match=message):
        share.decode(token)


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        (b"\xff\xfe garbage", "UTF-8"),
        (b"{not json", "не JSON"),
        (json.dumps({"format": "berserk-desk", "version": 1, "cursor": 5}).encode(), "cursor"),
        (json.dumps({"format": "berserk-desk", "version": 9}).encode(), "версия"),
        (
            json.dumps({"format": "berserk-desk", "version": 1, "actions": [{"a": 1, "b": 2}]}).encode(),
            "actions",
        ),
    ],
)
def test_bad_desk_files_refused(raw: bytes, message: str) -> None:
    with pytest.raises(model.DeskError, match=message):
        share.from_file_text(raw)


def test_scenario_yaml_round_trip() -> None:
    import casebook

    desk = _act(_act(_desk(), "take_control", card="vail", by="A"), "attack", attacker="vail", target="orc")
    rp = model.replay(desk)
    text = cases.to_scenario_yaml(desk, rp, rules="РП 4.1-2")
    sc = casebook.load_scenario_text(text, "stol.yaml")
    assert sc.title == "Может ли Вайл атаковать Орка?"
    result = casebook.run_scenario(sc)
    assert result.ok, [e for s in result.steps for e in s.expectations if not e.ok]
    reopened = cases.from_scenario(sc, text)
    assert reopened.cards == desk.cards and reopened.actions == desk.actions
    assert model.replay(reopened).current == rp.current


def test_an_answer_written_without_yo_is_kept_on_the_desk() -> None:
    # The choice «не нашёл (не захотел найти)» answered as «не нашел …»: `python -m engine run`
    # accepts it, and the desk must replay the same answer, not drop it and leave the choice pending.
    import casebook
    from tests.casebook_cases import not_found_answered_without_yo

    text = not_found_answered_without_yo()
    desk = cases.from_scenario(casebook.load_scenario_text(text, "not_found.yaml"), text)
    assert [next(iter(a)) for a in desk.actions] == ["summon", "choose", "summon"]
    assert desk.actions[1] == {"choose": {"option": "none"}}
    rp = model.replay(desk)
    assert rp.current.pending is None
    assert [o.verdict for o in rp.outcomes] == ["legal", "legal", "illegal"]
    assert rp.current.cards["vail"].zone == "deck"

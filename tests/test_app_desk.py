"""«Стол судьи» through the whole app (AppTest): build a position, apply actions, read the verdict,
load every official example, save and reopen a desk, record a ruling and find it in the journal."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import parse_qs

import pytest
from streamlit.testing.v1 import AppTest

from app_pages import registry
from desk import cases, edits, model, share
from rulings import store
from tests.apptest import (
    field,
    folded,
    form_key,
    open_desk,
    open_fold,
    pick,
    place,
    plain,
    press,
    rows,
    tap,
    targets,
    tile_lines,
    tile_tip,
)
from tests.rulings_samples import PASSWORD, cheap_hasher

ROOT = Path(__file__).resolve().parent.parent
APP = str(ROOT / "app.py")
DESK = registry.DESK.script
JOURNAL = registry.JOURNAL.script
OFFICIAL = sorted((ROOT / "scenarios" / "official").glob("*.yaml"))
HOSTILE = "<img src=x onerror=alert(1)> **Орк** [x](javascript:alert(1))"


@pytest.fixture(autouse=True)
def _journal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "rulings.sqlite3"
    monkeypatch.setenv(store.ENV_VAR, str(path))
    return path


def _symbiote(at: AppTest, host_cell: str, name: str) -> AppTest:
    """Select the host by its cell, type the symbiote, «Положить на …»."""
    if at.session_state["desk_sel"] is None or not any(
        w.key and w.key.startswith("desk_sym_") for w in at.text_input
    ):
        at = tap(at, host_cell)
    key = form_key(at, "desk_sym_")
    at.text_input(key=f"{key}_name").input(name).run()
    at = at.button(key=f"{key}_put").click().run()
    assert not at.exception, at.exception
    return at


def _apply(at: AppTest, kind: str, **args: str) -> AppTest:
    at.selectbox(key="desk_kind").set_value(kind).run()
    for name, value in args.items():
        key = f"desk_arg_{kind}_{name}"
        widget = at.radio(key=key) if name == "by" and value in ("A", "B") else at.selectbox(key=key)
        widget.set_value(value).run()
    at = at.button(key="desk_apply").click().run()
    assert not at.exception, at.exception
    return at


def _texts(at: AppTest) -> list[str]:
    return [t.value for t in at.text]


OK_ICON, BAN_ICON = ":material/check_circle:", ":material/block:"


def _clause_links(at: AppTest) -> list[tuple[str, str]]:
    """(clause id, label) of every page link into the rules browser on the app's root. Page links,
    not Markdown ones: following them keeps the session (and a judge's uploaded rules)."""
    out = []
    for link in at.page_link:
        query = parse_qs(link.proto.query_string)
        if "p" in query:
            assert link.proto.page == "", link.proto.page  # the root page answers ?p=
            out.append((query["p"][0], plain(link.proto.label)))
    return out


def _marks(at: AppTest) -> list[str]:
    return [m.value for m in at.markdown] + [e.value for e in at.error] + [s.value for s in at.success]


def test_vail_under_control_cannot_attack_another_creature() -> None:
    at = open_desk()
    at = place(at, "c4", "Вайл", cid="vail")
    assert [plain(s.value) for s in at.success] == ["«Вайл» (игрок B) — на c4."]  # by name, not by id
    at = _symbiote(at, "c4", "Карлик Унд")
    # An own creature with a hostile name, placed by clicking cell d4.
    at = place(at, "d4", HOSTILE, owner="B", cid="orc", own=True)
    assert not at.error, [e.value for e in at.error]
    c4 = tile_lines(at, "c4")
    assert c4[1:] == ["Вайл", "B · 0/14", "+ Карлик Унд A · 0/8"], c4  # the name in its bold line
    # the typed name as it was typed, in the name's line: the field shows it as text (textContent)
    assert tile_lines(at, "d4")[1] == f"▶ {HOSTILE}"  # just placed: the selected card
    assert all("<img" not in m.replace("\\<img", "") for m in _marks(at))  # escaped wherever it shows

    at = _apply(at, "take_control", card="vail", by="A")
    assert any(s.icon == OK_ICON and s.value.startswith("**Законно**") for s in at.success)
    assert "B · 0/14 · ⚑A" in tile_lines(at, "c4")

    at = _apply(at, "attack", attacker="vail", target="orc")
    banner = [plain(e.value) for e in at.error if e.icon == BAN_ICON and e.value.startswith("**Запрещено**")]
    # the verdict and its reason in one line, where the judge tapped; cards by name, never by id
    assert len(banner) == 1 and banner[0].startswith(
        "**Запрещено** — запрещает п. 211.3.1  \nп. 211.3.1: «Вайл» —"
    )
    assert "(vail)" not in banner[0] and "(orc)" not in banner[0], banner
    forbidden_steps = [
        e.value for e in at.error if e.icon == BAN_ICON and e.value.startswith("**запрещено**")
    ]
    assert any(plain(s).endswith("п. 211.3.1") for s in forbidden_steps), forbidden_steps
    # The clause is a link into the rules browser (banner and step), labelled with its number.
    links = [label for cid, label in _clause_links(at) if cid == "211.3.1"]
    assert len(links) >= 2 and all(label.startswith("п. 211.3.1 — ") for label in links), links
    texts = _texts(at)
    # The action in the judge's words, with the cards' names; the YAML line only for authors, folded.
    said = [plain(c.value) for c in at.caption]
    assert f"Действие: Объявить нападение: атакующий — Вайл; цель — {HOSTILE}" in said, said
    authors = [t.value for t in at.get_by_key("desk_authors").text]
    assert any("- attack: {attacker: vail, target: orc}" in t for t in authors), authors
    assert [t for t in texts if "attack: {" in t] == [t for t in authors if "attack: {" in t]  # nowhere else
    assert not any(ch in "".join(texts) for ch in "✅⛔🚩❓")  # no emoji: boxes without an emoji font
    # The card's tooltip tells its story, the typed name in it as typed (a title: text).
    tip = tile_tip(at, "d4")
    assert tip.startswith("d4: ") and HOSTILE in tip, tip

    # Undo goes back one action; redo returns to the forbidden attack.
    at = press(at, "desk_undo")
    assert not any(e.icon == BAN_ICON and e.value.startswith("**Запрещено**") for e in at.error)
    at = press(at, "desk_redo")
    assert any(e.icon == BAN_ICON and e.value.startswith("**Запрещено**") for e in at.error)


def test_legal_hosts_are_marked_with_icon_word_and_clause() -> None:
    at = open_desk()
    desk = model.Desk(phase="battle")
    for entry in (
        {"id": "vail", "card": "Вайл", "owner": "B", "at": "c4"},
        {"id": "own", "card": "Вайл", "owner": "A", "at": "c2"},
        {"id": "und", "card": "Карлик Унд", "owner": "A", "at": "b3"},
    ):
        desk = edits.put_card(desk, entry)
    at.session_state["desk"] = desk
    at.run()
    at.selectbox(key="desk_phase_0").set_value("reveal").run()  # the judge sets the reveal subphase
    assert at.session_state["desk"].phase == "reveal"
    at = tap(at, "b3")  # select the symbiote
    hosts = targets(at, "place_symbiote")
    # What applying each host gives, by icon, word and clause; the cell tells the two Вайлы apart.
    assert "Вайл (c4) — ✔ можно" in hosts, hosts
    refused = next(label for label in hosts if label.startswith("Вайл (c2)"))
    assert refused == "Вайл (c2) — ✘ нельзя: п. 211.1" and "211.1" in plain(hosts[refused]), hosts
    at = pick(at, "place_symbiote", "Вайл (c4) — ✔ можно")
    assert any(s.icon == OK_ICON and s.value.startswith("**Законно**") for s in at.success)
    assert at.session_state["desk"].actions == ({"place_symbiote": {"card": "und", "host": "vail"}},)


def test_an_empty_desks_panel_opens_an_official_example_in_one_tap() -> None:
    """The empty desk's panel offers the rules' official examples, each one tap (a row of its
    buttons), and the tap puts the example on the desk."""
    at = open_desk()
    row = rows(at)["desk_official"]
    assert row["label"] == "Официальные примеры из правил (один щелчок открывает)"
    assert len(row["items"]) == len(OFFICIAL) and all(i["kind"] == "pill" for i in row["items"])
    at = press(at, row["items"][0]["id"])
    assert not at.exception
    assert any(s.value.startswith("Загружен сценарий") for s in at.success), [e.value for e in at.error]
    assert at.session_state["desk"].cards


@pytest.mark.parametrize("path", OFFICIAL, ids=[p.stem for p in OFFICIAL])
def test_official_example_expectations_hold_on_screen(path: Path) -> None:
    at = open_desk()
    rel = str(path.relative_to(ROOT))
    at.button_group(key="desk_official_pick").set_value(rel).run()  # one click on the example's pill
    assert not at.exception
    assert any(s.value.startswith("Загружен сценарий") for s in at.success), [e.value for e in at.error]
    import casebook

    result = casebook.run_scenario(casebook.load_scenario(path))
    held = sum(1 for s in result.steps for e in s.expectations if e.ok)
    total = sum(len(s.expectations) for s in result.steps)
    labels = [e.label for e in at.expander]
    summary = [label for label in labels if "ожидания сценария" in label]
    # The screen reports exactly what the runner finds, expectation by expectation …
    assert summary and summary[0].endswith(f": {held} из {total}"), summary
    shown = _texts(at)
    for step in result.steps:
        for e in step.expectations:
            assert ("✔ выполнено: " if e.ok else "✘ не выполнено: ") + e.what in " ".join(shown)
    # … and for an official example every expectation holds.
    assert summary[0].startswith("Все ожидания сценария выполняются"), summary
    assert next(e for e in at.expander if e.label == summary[0]).proto.icon == ":material/check_circle:"
    assert f"Файл: {rel}" in _texts(at)


def test_library_scenario_opens_from_a_link_and_bad_links_are_refused() -> None:
    rel = str(OFFICIAL[0].relative_to(ROOT))
    at = open_desk(scn=rel)
    assert any(s.value.startswith("Загружен сценарий") for s in at.success)
    bad = open_desk(scn="../../etc/passwd")
    assert [plain(e.value) for e in bad.error] == ["Такого сценария в библиотеке нет; стол не изменился."]
    broken = open_desk(desk="AAAA-broken")
    assert any(e.value.startswith("Ссылка на стол не открылась") for e in broken.error)


def test_save_and_reload_a_desk() -> None:
    at = open_desk()
    at = place(at, "c4", "Вайл", cid="vail")
    at = _symbiote(at, "c4", "Карлик Унд")
    at = _apply(at, "take_control", card="vail", by="A")
    at.text_input(key="desk_title_0").input("Вайл под контролем").run()
    desk = at.session_state["desk"]
    token = (
        at.query_params["desk"][0] if isinstance(at.query_params["desk"], list) else at.query_params["desk"]
    )
    assert share.decode(str(token)) == model.Desk(**{**desk.__dict__, "scenario_text": ""})
    # Another judge opens the link: the same desk, the same verdict on screen.
    other = open_desk(desk=str(token))
    assert other.session_state["desk"] == share.decode(str(token))
    assert any(s.icon == OK_ICON and s.value.startswith("**Законно**") for s in other.success)
    assert any("Вопрос: Вайл под контролем" in plain(c.value) for c in other.caption)
    # The scenario file saved from the desk loads back into the desk with the same position.
    import casebook

    yaml_text = cases.to_scenario_yaml(desk, model.replay(desk))
    sc = casebook.load_scenario_text(yaml_text, "stol.yaml")
    assert model.replay(cases.from_scenario(sc, yaml_text)).current == model.replay(desk).current


def test_record_a_ruling_from_the_desk_and_find_it_again(_journal: Path) -> None:
    at = open_desk()
    at = place(at, "c4", "Вайл", cid="vail")
    at = _symbiote(at, "c4", "Карлик Унд")
    at = _apply(at, "take_control", card="vail", by="A")
    at.text_input(key="desk_title_0").input("Может ли Вайл атаковать после смены контроля?").run()
    # Writing needs a judge's account: the desk's form asks for the sign-in in place.
    store.Journal(_journal, hasher=cheap_hasher()).add_account("Сидорова", "judge", PASSWORD)
    at.text_input(key="desk_ruling_auth_signin_name").input("Сидорова")
    at.text_input(key="desk_ruling_auth_signin_password").input(PASSWORD)
    at = at.button(key="desk_ruling_auth_signin_submit").click().run()
    at.text_area(key="desk_ruling_decision").input("Нет: только Карлика Унда (211.3.1).")
    at = at.button(key="desk_ruling_submit").click().run()
    assert "Решение записано в журнал под № 1." in [s.value for s in at.success]
    stored = store.Journal(_journal).get(1)
    assert stored is not None
    assert "vail" in stored.current.scenario_yaml and stored.current.verdict == "legal"
    assert "535.8" in stored.current.clauses and stored.current.title.startswith("Может ли Вайл")
    assert stored.current.rules_version == "РП 4.1-2" and stored.author == "Сидорова"
    at.switch_page(JOURNAL).run()
    at.text_input(key="journal_query").input("вайла контроля").run()
    assert at.selectbox(key="journal_pick").value == 1
    assert "Может ли Вайл атаковать после смены контроля?" in _texts(at)
    # The trace reads in words (the stored action line is the engine's, not the judge's).
    trace = [m.value for m in at.markdown if m.value.startswith("1. ")]
    assert trace and trace[0].startswith("1. Взять под контроль: карта — Вайл")
    assert "— **законно**" in trace[0] and "take\\_control" not in trace[0]
    assert "**эффект, п. 535.8:**" in trace[0]


def test_pending_choices_are_asked_on_screen() -> None:
    at = open_desk()
    desk = model.Desk(title="Вожак сатиров лечится")
    desk = edits.put_card(desk, {"id": "vozhak", "card": "Вожак сатиров", "owner": "A", "at": "c3"})
    orc = {
        "id": "orc",
        "card": {"template": "Наземное существо", "name": "Орк", "life": 6},
        "owner": "B",
        "at": "c4",
    }
    at.session_state["desk"] = edits.put_card(desk, orc)
    at.run()
    at.selectbox(key="desk_kind").set_value("heal").run()
    at.selectbox(key="desk_arg_heal_card").set_value("vozhak").run()
    at.number_input(key="desk_arg_heal_amount").set_value(2).run()
    at = at.button(key="desk_apply").click().run()
    asked = []
    for _ in range(3):
        questions = [m.value for m in at.markdown if m.value.startswith(":material/help: **Нужен выбор**")]
        if not questions:
            break
        said = " ".join(plain(c.value) for c in at.get_by_key("desk_pending").caption)
        asked.append((questions[0], [cid for cid, _ in _clause_links(at)], said))
        pending = model.replay(at.session_state["desk"]).current.pending
        assert pending is not None
        keys = [o.key for o in pending.options]
        # one tap per option, each reading as the engine's label with the cards by name
        buttons = [b for b in at.button if b.key and b.key.startswith("desk_choose_")]
        assert len(buttons) == len(keys)
        assert all("(orc)" not in plain(b.label) and "(vozhak)" not in plain(b.label) for b in buttons)
        at = buttons[keys.index("orc") if "orc" in keys else 0].click().run()
        assert not at.exception, at.exception
    # the replacement effect is chosen by A8 (our assumption: named with its words, not linked); the
    # wound's target, the one creature beside him, is no longer asked (a single option is taken)
    assert asked and all("допущение A8: " in said for _, _, said in asked), asked
    final = model.replay(at.session_state["desk"]).current
    from engine import card_props

    assert card_props(final, "orc")["wounds"] == 2 and card_props(final, "vozhak")["wounds"] == 0
    assert [next(iter(a)) for a in at.session_state["desk"].actions].count("choose") == len(asked)


def test_tiles_show_owner_wounds_marker_and_symbiote() -> None:
    rel = str(OFFICIAL[0].relative_to(ROOT))
    at = open_desk(scn=rel)  # the Карлик Унд example, played to its end
    assert tile_lines(at, "c4") == ["c4", "Вайл", "B · 0/14 · ⚑A", "+ Карлик Унд A · 4/8"]
    assert tile_lines(at, "d4") == ["d4", "Орк", "B · 0/5"]
    assert tile_lines(at, "a1") == ["a1"]  # nothing selected: no marks
    halves = field(at)["halves"]
    assert [h["player"] for h in halves] == ["B", "A"]  # B's half on top
    cells = [t["cell"] for h in halves for t in h["tiles"]]
    assert cells[:5] == [f"{c}6" for c in "abcde"] and cells[-5:] == [f"{c}1" for c in "abcde"], cells
    assert len(set(cells)) == 30
    assert halves[0]["caption"] == "Половина игрока B: ряд 4 — первый, 5 — второй, 6 — третий"


def test_an_engine_fault_is_a_message_with_a_way_back(monkeypatch: pytest.MonkeyPatch) -> None:
    import engine

    at = open_desk()
    at = place(at, "c4", "Вайл", cid="vail")
    real_apply = engine.apply

    def faulty(state: object, action: object) -> object:
        if getattr(action, "kind", "") == "destroy":
            raise RuntimeError("сбой для проверки")
        return real_apply(state, action)  # type: ignore[arg-type]

    monkeypatch.setattr(engine, "apply", faulty)
    at.selectbox(key="desk_kind").set_value("destroy").run()
    at.selectbox(key="desk_arg_destroy_card").set_value("vail").run()
    at = at.button(key="desk_apply").click().run()
    assert not at.exception
    assert any("движок не смог его применить" in plain(e.value) for e in at.error)
    at = at.button(key="desk_undo_broken").click().run()
    assert not at.exception and at.session_state["desk"].cursor == 0
    assert tile_lines(at, "c4")[1].removeprefix("▶ ") == "Вайл"  # selected or not


def test_folded_parts_run_only_when_opened() -> None:
    """The text, the files and the trace cost nothing on an action until the judge opens them."""
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["scn"] = str(OFFICIAL[0].relative_to(ROOT))
    at.run()
    at.switch_page(DESK).run()
    assert not [t for t in at.text_area if t.key and t.key.startswith("desk_text_")]
    assert not [b for b in at.button if b.key == "desk_text_read"]
    assert "desk_save_yaml" not in [b.key for b in at.get("download_button")]
    assert folded(at)["desk_text"] == "Позиция текстом: прочитать или скопировать"
    at = open_fold(at, "desk_text")  # the tap on «Позиция текстом»
    (area,) = [t for t in at.text_area if t.key and t.key.startswith("desk_text_")]
    assert "Вайл c4 контроль A" in area.value

"""Positions and actions the engine tests share: card specs and positions, applying an action and
answering its choices, the random action streams (property tests, the fuzzer, the benchmark) and
the engine's structural invariants. No pytest import here; tests/bench uses it too."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

import engine
import lexicon
from engine.model import board

ORC = {"name": "Орк", "type": "creature", "subtype": "ground", "life": 5}
FLYER = {"template": "Летающее существо", "name": "Гарпия"}
COMPANION = {"template": "Компаньон", "name": "Светлячок"}
PARASITE = {"template": "Паразит", "name": "Клещ"}
GHOST = {"template": "Бестелесное существо", "name": "Призрак"}


def spec(cid: str, card: str | Mapping[str, object], owner: str, **kw: Any) -> engine.CardSpec:
    return engine.CardSpec(id=cid, card=card, owner=owner, **kw)


def position(
    *cards: engine.CardSpec, phase: str = "battle", active: str = "A", seed: int = 0
) -> engine.GameState:
    """A position from card specs (in battle the active player's turn has started)."""
    return engine.build_state(engine.Setup(phase=phase, active=active, seed=seed, cards=list(cards)))


def act(gs: engine.GameState, kind: str, /, **args: object) -> engine.Outcome:
    return engine.apply(gs, engine.parse_action(kind, args))


def run(gs: engine.GameState, kind: str, /, *answers: str, **args: object) -> engine.Outcome:
    """Apply and answer the pending choices in order; fails if a choice is left."""
    out = act(gs, kind, **args)
    for answer in answers:
        assert out.pending is not None, f"ожидался выбор перед ответом {answer}"
        out = engine.apply(out.state, engine.parse_action("choose", {"option": answer}))
    assert out.pending is None, f"остался выбор: {out.pending}"
    return out


def props(gs: engine.GameState, cid: str) -> dict[str, object]:
    return engine.card_props(gs, cid)


def kinds(out: engine.Outcome, clause: str) -> set[str]:
    return {s.kind for s in out.steps() if s.clause == clause}


# ---- random streams (property tests and the benchmark) -----------------------------------

PHOENIX = {
    "name": "Феникс",
    "type": "creature",
    "subtype": "ground",
    "life": 4,
    "abilities": [{"kind": "incarnation", "x": 2}],
}
CALLER = {
    "name": "Зовущий",
    "type": "creature",
    "subtype": "ground",
    "life": 6,
    "abilities": [{"kind": "summon", "search": "top_card"}, {"kind": "resurrect"}],
}
SYMBIOTE_CALLER = {
    "name": "Кукловод",
    "type": "creature",
    "subtype": "ground",
    "life": 6,
    "abilities": [{"kind": "summon", "card": "Клещ", "places_on": "enemy_creature"}],
}


def full_board(seed: int = 0) -> engine.GameState:
    """A busy position: the seven example cards, templates, decks, a graveyard."""
    cards = [
        spec("vail", "Вайл", "B", at="c4"),
        spec("und", "Карлик Унд", "A", host="vail"),
        spec("mnogo", "Многоликий", "A", at="b3"),
        spec("suged", "Сугед", "A", host="mnogo"),
        spec("slua", "Выкормыш слуа", "B", at="b4"),
        spec("bul", "Бул'Багур", "A", at="d2"),
        spec("vozhak", "Вожак сатиров", "B", at="d5"),
        spec("orc", ORC, "B", at="e4"),
        spec("orc2", ORC, "A", at="a3"),
        spec("harpy", FLYER, "B", at="aux"),
        spec("ghost", GHOST, "A", at="e2"),
        spec("caller", CALLER, "A", at="c2"),
        spec("puppet", SYMBIOTE_CALLER, "B", at="a5"),
        spec("phoenix", PHOENIX, "A", at="graveyard", tokens=1),
        spec("dead", ORC, "B", at="graveyard"),
        spec("tick", PARASITE, "B", at="deck"),
        spec("dA1", ORC, "A", at="deck"),
        spec("dA2", FLYER, "A", at="deck"),
        spec("dA3", COMPANION, "A", at="deck"),
        spec("dB1", ORC, "B", at="deck"),
        spec("dB2", "Вайл", "B", at="deck"),
        *(spec(f"fa{i}", ORC, "A", at=cell) for i, cell in enumerate(("a1", "b1", "e1", "a2", "b2", "e3"))),
        *(spec(f"fb{i}", ORC, "B", at=cell) for i, cell in enumerate(("a6", "b6", "c6", "e6", "e5", "c5"))),
    ]
    return position(*cards, seed=seed)


KINDS = (
    "move",
    "relocate",
    "attach",
    "attack",
    "wound",
    "heal",
    "destroy",
    "exile",
    "return_to_deck",
    "take_control",
    "lose_control",
    "summon",
    "resurrect",
    "change_type",
    "set_incorporeal",
    "end_turn",
    "start_turn",
    "mark_cells",
    "choose",
)


def random_action(gs: engine.GameState, rng: Any) -> engine.Action:
    """A random action, legal or not, with arguments drawn from the position."""
    from engine.model import board as board_mod

    ids = list(gs.cards)
    if gs.pending is not None and rng.random() < 0.9:
        return engine.parse_action("choose", {"option": rng.choice(gs.pending.options).key})
    if gs.phase != "battle" and rng.random() < 0.85:
        return _preparation_action(gs, rng)
    kind = rng.choice(KINDS)
    plausible = _plausible(gs, kind, rng) if rng.random() < 0.5 else None
    if plausible is not None:
        return engine.parse_action(kind, plausible)
    if kind in ("exile", "return_to_deck", "destroy") and rng.random() < 0.6:
        kind = rng.choice(("move", "attack", "start_turn", "end_turn", "summon", "resurrect"))
    card = rng.choice(ids)
    other = rng.choice(ids)
    cell = rng.choice(board_mod.CELLS)
    # most of the time, plausible arguments: the active player's creatures, nearby cells and targets
    if rng.random() < 0.7:
        mine = [c for c in gs.cards.values() if c.in_play and c.controller == gs.active and c.cell]
        if mine:
            me = rng.choice(mine)
            card = me.id
            near = board_mod.neighbours(me.cell or "a1")
            cell = rng.choice(near)
            close = [
                c.id for c in gs.cards.values() if c.in_play and c.cell in (*near, me.cell) and c.id != me.id
            ]
            if close:
                other = rng.choice(close)
        if kind == "resurrect":
            dead = [c.id for c in gs.cards.values() if c.zone == "graveyard"]
            if dead:
                other = rng.choice(dead)
    args: dict[str, object]
    if kind in ("move", "relocate"):
        args = {"card": card, "to": cell}
        if kind == "relocate" and rng.random() < 0.2:
            args["symbiote_alone"] = True
    elif kind == "attach":
        args = {"card": card, "host": other}
    elif kind == "attack":
        args = {"attacker": card, "target": other}
    elif kind == "wound":
        args = {
            "card": card,
            "amount": rng.randint(0, 4),
            "kind": rng.choice(("strike", "ranged", "poison", "magic", "influence")),
        }
        if rng.random() < 0.7:
            args["source"] = other
    elif kind == "heal":
        args = {"card": card, "amount": rng.randint(0, 3)}
    elif kind in ("destroy", "exile"):
        args = {"card": card}
        if rng.random() < 0.5:
            args["by"] = other
    elif kind == "return_to_deck":
        args = {"card": card, "position": rng.choice(("top", "bottom"))}
    elif kind == "take_control":
        args = {"card": card, "by": rng.choice("AB")}
    elif kind == "lose_control":
        args = {"card": card}
    elif kind == "summon":
        args = {"by": rng.choice(("caller", "puppet", card))}
        if rng.random() < 0.7:
            args["cell"] = cell
        if rng.random() < 0.3:
            args["host"] = other
    elif kind == "resurrect":
        args = {"by": rng.choice(("caller", card)), "card": other}
        if rng.random() < 0.8:
            args["cell"] = cell
    elif kind == "change_type":
        args = {"card": card, "subtype": rng.choice(("ground", "flyer", "companion", "parasite"))}
        if rng.random() < 0.2:
            args = {"card": card, "type": "artifact"}
    elif kind == "set_incorporeal":
        args = {"card": card, "value": rng.random() < 0.5}
    elif kind == "mark_cells":
        args = {"card": rng.choice(("bul", card)), "cells": [cell]}
    elif kind == "choose":
        args = {"option": rng.choice(("1", "2", "none", card, cell))}
    else:
        args = {}
    return engine.parse_action(kind, args)


def _preparation_action(gs: engine.GameState, rng: Any) -> engine.Action:
    """Recruit, placement and reveal: recruit a card onto a free cell of its owner's half, put a
    symbiote on a creature, or move on."""
    from engine.model import board as board_mod

    if gs.phase == "recruit":
        waiting = [c for c in gs.cards.values() if not c.in_play and c.zone != "deck"]
        if waiting and rng.random() < 0.8:
            card = rng.choice(waiting)
            taken = {c.cell for c in gs.cards.values() if c.zone == "battle"}
            free = [c for c in board_mod.CELLS if board_mod.half_of(c) == card.owner and c not in taken]
            return engine.parse_action("recruit", {"card": card.id, "at": rng.choice(free or ["a1"])})
        return engine.parse_action("next_phase", {})
    if gs.phase == "reveal":
        loose = [c for c in gs.cards.values() if c.is_symbiote and c.zone == "battle" and c.host is None]
        creatures = [c for c in gs.cards.values() if c.zone == "battle" and c.is_creature and c.host is None]
        if loose and creatures and rng.random() < 0.7:
            s = rng.choice(loose)
            return engine.parse_action("place_symbiote", {"card": s.id, "host": rng.choice(creatures).id})
        return engine.parse_action("end_reveal", {})
    return engine.parse_action("next_phase", {})


def _plausible(gs: engine.GameState, kind: str, rng: Any) -> dict[str, object] | None:
    """Arguments that often make a legal action of `kind` in this position (so that the random
    streams exercise legal sequences, not only refusals), or None."""
    from engine.model import board as board_mod

    cards = gs.cards
    if kind == "attach":
        if gs.last_attack is not None and rng.random() < 0.7:
            attacker, target = gs.last_attack
            return {"card": target, "host": attacker}
        syms = [
            c for c in cards.values() if c.is_symbiote and c.host is not None and c.controller == gs.active
        ]
        if syms:
            s = rng.choice(syms)
            own = [c.id for c in cards.values() if c.zone == "battle" and c.controller == s.controller]
            return {"card": s.id, "host": rng.choice(own)} if own else None
    if kind == "attack":
        mine = [c for c in cards.values() if c.zone == "battle" and c.controller == gs.active and c.cell]
        if mine:
            me = rng.choice(mine)
            near = [
                c.id
                for c in cards.values()
                if c.zone == "battle"
                and c.id != me.id
                and c.cell
                and board_mod.distance(c.cell, me.cell or "") <= 1
            ]
            return {"attacker": me.id, "target": rng.choice(near)} if near else None
    if kind == "mark_cells":
        lamps = [c for c in cards.values() if c.in_play and c.cell and c.name == "Бул'Багур"]
        if lamps:
            lamp = rng.choice(lamps)
            oc, orow = board_mod.coords(lamp.cell or "a1")
            dc, dr = rng.choice([(dc, dr) for dc in (-1, 0, 1) for dr in (-1, 0, 1) if (dc, dr) != (0, 0)])
            line = [board_mod.cell_at(oc + dc * i, orow + dr * i) for i in range(1, rng.randint(1, 3) + 1)]
            cells = [c for c in line if c is not None]
            return {"card": lamp.id, "cells": cells} if cells else None
    if kind == "resurrect":
        dead = [c for c in cards.values() if c.zone == "graveyard" and c.owner == gs.active]
        callers = [
            c for c in cards.values() if c.in_play and c.card.has("resurrect") and c.controller == gs.active
        ]
        if dead and callers:
            return {"by": rng.choice(callers).id, "card": rng.choice(dead).id}
    if kind == "wound" and gs.marks:
        marked = {cell for m in gs.marks for cell in m.cells}
        lit = [c.id for c in cards.values() if c.zone == "battle" and c.cell in marked and c.is_creature]
        return {"card": rng.choice(lit), "amount": 1, "kind": "ranged"} if lit else None
    if kind == "heal":
        leaders = [c.id for c in cards.values() if c.in_play and c.card.has("replace_heal_with_wound")]
        return {"card": rng.choice(leaders), "amount": rng.randint(1, 2)} if leaders else None
    if kind == "destroy":
        exilers = [c for c in cards.values() if c.in_play and c.card.has("replace_destroy_with_exile")]
        if exilers:
            by = rng.choice(exilers)
            foes = [
                c.id for c in cards.values() if c.in_play and c.is_creature and c.controller != by.controller
            ]
            return {"card": rng.choice(foes), "by": by.id} if foes else None
    if kind == "summon":
        callers = [
            c for c in cards.values() if c.in_play and c.card.has("summon") and c.controller == gs.active
        ]
        return {"by": rng.choice(callers).id} if callers else None
    return None


def reveal_board(seed: int = 0) -> engine.GameState:
    """The reveal subphase: hidden creatures and symbiotes standing on their own cells (211.2)."""
    cards = [
        spec("vail", "Вайл", "B", at="c4", hidden=True),
        spec("orcB", ORC, "B", at="b5", hidden=True),
        spec("harpy", FLYER, "B", at="aux", hidden=True),
        spec("ghost", GHOST, "B", at="e4", hidden=True),
        spec("und", "Карлик Унд", "A", at="a2", hidden=True),
        spec("suged", "Сугед", "A", at="e1", hidden=True),
        spec("tick", PARASITE, "B", at="a6", hidden=True),
        spec("firefly", COMPANION, "B", at="e6", hidden=True),
        spec("mnogo", "Многоликий", "A", at="b3", hidden=True),
        spec("bul", "Бул'Багур", "A", at="d2", hidden=True),
        spec("caller", CALLER, "A", at="c2", hidden=True),
        spec("slua", "Выкормыш слуа", "B", at="d4", hidden=True),
        spec("vozhak", "Вожак сатиров", "B", at="d5", hidden=True),
        spec("orcA", ORC, "A", at="c3", hidden=True),
        spec("dA1", ORC, "A", at="deck"),
        spec("dB1", PARASITE, "B", at="deck"),
        spec("phoenix", PHOENIX, "B", at="graveyard"),
    ]
    return position(*cards, phase="reveal", seed=seed)


def recruit_board(seed: int = 0) -> engine.GameState:
    """The recruit subphase: every card still in hand (then placement and reveal follow)."""
    cards = [
        spec("vail", "Вайл", "B", at="hand"),
        spec("und", "Карлик Унд", "A", at="hand"),
        spec("suged", "Сугед", "A", at="hand"),
        spec("orcA", ORC, "A", at="hand"),
        spec("orcB", ORC, "B", at="hand"),
        spec("harpy", FLYER, "B", at="hand"),
        spec("tick", PARASITE, "B", at="hand"),
        spec("dA1", ORC, "A", at="deck"),
    ]
    return position(*cards, phase="recruit", seed=seed)


# ---- the engine's structural invariants -----------------------------------------------------

ZONES = set(lexicon.ZONES)


def check_invariants(gs: engine.GameState) -> None:
    cards = gs.cards
    hosts = Counter(c.host for c in cards.values() if c.host is not None)
    # at most one symbiote per creature
    assert all(n == 1 for n in hosts.values()), hosts
    cells: dict[str, str] = {}
    for c in cards.values():
        assert c.zone in ZONES
        if c.host is not None:
            h = cards[c.host]
            # a symbiote shares its host's cell; no symbiote on a flyer, a symbiote or a non-creature
            assert c.zone == "battle" and c.cell == h.cell and h.zone == "battle", (c.id, h.id)
            assert h.type == "creature" and h.subtype == "ground", (c.id, h.id, h.type, h.subtype)
            assert c.is_symbiote, c.id
        elif c.zone == "battle":
            # every card in exactly one place: one card per cell
            assert board.is_cell(c.cell), c.id
            assert c.cell not in cells, (c.id, cells.get(c.cell or ""))
            cells[c.cell or ""] = c.id
        else:
            assert c.cell is None, c.id
        # the control marker exactly when owner and controller differ
        assert c.marker == (c.owner != c.controller), c.id
        # incarnation tokens only in graveyards
        assert c.tokens == 0 or c.zone == "graveyard", c.id
        if not c.in_play:
            assert c.controller == c.owner, c.id
        if c.zone == "deck":
            assert c.id in gs.deck(c.owner), c.id
    for player in ("A", "B"):
        deck = gs.deck(player)
        assert len(deck) == len(set(deck))
        assert all(cards[cid].zone == "deck" and cards[cid].owner == player for cid in deck)


def snapshot(gs: engine.GameState) -> tuple[object, ...]:
    return (
        dict(gs.cards), gs.decks, gs.phase, gs.active, gs.turn, gs.started, gs.marks, gs.pending,
        gs.last_attack, gs.shuffles,
    )  # fmt: skip

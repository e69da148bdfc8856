"""Positions: Setup and CardSpec (the scenario's `setup:`), build_state and back (to_setup)."""

from __future__ import annotations

import dataclasses
import types
from collections.abc import Mapping

import lexicon
from engine import errors
from engine.model import board, state
from engine.model import cards as library

PLACES = lexicon.OFF_FIELD_ZONES  # where a card stands off the field: the zones but the battle


@dataclasses.dataclass(frozen=True)
class CardSpec:
    """One card of a setup. `at` is a cell a1–e6 or aux/deck/hand/graveyard/exile; a symbiote on a
    host gives `host` instead. `borrowed` and `exiled_by` are ids (Многоликий's abilities)."""

    id: str
    card: str | Mapping[str, object]
    owner: str
    at: str | None = None
    host: str | None = None
    controller: str | None = None
    closed: bool = False
    hidden: bool = False
    incorporeal: bool | None = None
    wounds: int = 0
    tokens: int = 0
    incarnated: bool = False
    exiled_by: str | None = None
    borrowed: str | None = None


@dataclasses.dataclass(frozen=True)
class Setup:
    phase: str
    active: str
    seed: int = 0
    turn: int = 1
    cards: list[CardSpec] = dataclasses.field(default_factory=list)


def resolve_card(
    spec_card: str | Mapping[str, object], lib: library.CardLibrary, cid: str
) -> library.CardDef:
    """The CardDef of a CardSpec's `card`: a library name, a template name, or an inline mapping."""
    where = f"карта {cid}, ключ card"
    if isinstance(spec_card, str):
        found = lib.get(spec_card)
        if found is None:
            near = ", ".join(f"«{n}»" for n in lib.nearest(spec_card))
            raise errors.SetupError(f"{lib.missing(spec_card)}; похожие: {near}", card=cid, key="card")
        return found
    if isinstance(spec_card, Mapping):
        base = None
        if "template" in spec_card:
            tname = spec_card["template"]
            base = lib.template_defs.get(lexicon.fold(str(tname)))
            if base is None:
                raise errors.SetupError(
                    f"шаблона «{tname}» нет; шаблоны: {', '.join(lib.templates())}", card=cid, key="card"
                )
        try:
            return library.card_from_mapping(dict(spec_card), where, base=base)
        except errors.LibraryError as exc:
            raise errors.SetupError(str(exc).removeprefix(f"{where}: "), card=cid, key="card") from exc
    raise errors.SetupError("ожидалось название карты или словарь с её свойствами", card=cid, key="card")


def _flag(value: object, cid: str, key: str) -> bool:
    if not isinstance(value, bool):
        raise errors.SetupError("нужно true или false", card=cid, key=key)
    return value


def _count(value: object, cid: str, key: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise errors.SetupError("нужно целое число ≥ 0", card=cid, key=key)
    return value


def build_state(setup: Setup, lib: library.CardLibrary | None = None) -> state.GameState:
    """A GameState from a Setup. Raises SetupError naming the card id and the key."""
    lib = lib or library.load_library()
    _check_header(setup)
    cards: dict[str, state.CardState] = {}
    decks: dict[str, list[str]] = {"A": [], "B": []}
    occupied: dict[str, str] = {}
    hosts: dict[str, str] = {}
    for spec in setup.cards:
        card = _card_state(spec, lib, occupied, hosts)
        if card.id in cards:
            raise errors.SetupError("такой id уже есть", card=card.id, key="id")
        cards[card.id] = card
        if card.zone == "deck":
            decks[card.owner].append(card.id)
    _put_on_hosts(cards, hosts)
    for cid, c in cards.items():
        for key, ref in (("borrowed", c.borrowed), ("exiled_by", c.exiled_by)):
            if ref is not None and ref not in cards:
                raise errors.SetupError(f"карты {ref} нет в раскладе", card=cid, key=key)
            if ref == cid:
                raise errors.SetupError("карта не может ссылаться сама на себя", card=cid, key=key)
    return state.GameState(
        phase=setup.phase,
        active=setup.active,
        turn=setup.turn,
        seed=setup.seed,
        cards=types.MappingProxyType(cards),
        decks=(tuple(decks["A"]), tuple(decks["B"])),
        started=setup.phase == "battle",
    )


def _check_header(setup: Setup) -> None:
    if setup.phase not in state.PHASES:
        raise errors.SetupError(f"«{setup.phase}» — допустимы {', '.join(state.PHASES)}", key="phase")
    if setup.active not in board.PLAYERS:
        raise errors.SetupError(f"игрок обозначается A или B, а не «{setup.active}»", key="active")
    if isinstance(setup.turn, bool) or not isinstance(setup.turn, int) or setup.turn < 1:
        raise errors.SetupError("номер хода — целое число ≥ 1", key="turn")
    if isinstance(setup.seed, bool) or not isinstance(setup.seed, int):
        raise errors.SetupError("нужно целое число", key="seed")


def _card_state(
    spec: CardSpec, lib: library.CardLibrary, occupied: dict[str, str], hosts: dict[str, str]
) -> state.CardState:
    """One card of the setup, its place checked (a cell taken is recorded in `occupied`, a host
    wanted in `hosts`; hosts are checked once every card is known)."""
    cid = spec.id
    if not isinstance(cid, str) or not cid.strip():
        raise errors.SetupError("карта без id: у каждой карты должен быть id")
    if spec.owner not in board.PLAYERS:
        raise errors.SetupError("игрок обозначается A или B", card=cid, key="owner")
    controller = spec.controller or spec.owner
    if controller not in board.PLAYERS:
        raise errors.SetupError("игрок обозначается A или B", card=cid, key="controller")
    cdef = resolve_card(spec.card, lib, cid)
    wounds = _count(spec.wounds, cid, "wounds")
    tokens = _count(spec.tokens, cid, "tokens")
    inc = cdef.incorporeal if spec.incorporeal is None else _flag(spec.incorporeal, cid, "incorporeal")
    zone, cell = _place_of(spec, cdef, occupied, hosts)
    in_play = zone in ("battle", "aux")
    if tokens and zone != "graveyard":
        raise errors.SetupError(
            "жетоны инкарнации бывают только на кладбище (535.7.1)", card=cid, key="tokens"
        )
    if controller != spec.owner and not in_play:
        raise errors.SetupError("вне зоны битвы картой управляет владелец (A6)", card=cid, key="controller")
    if cdef.life is not None and wounds >= cdef.life and in_play:
        raise errors.SetupError(
            f"{wounds} ран при жизни {cdef.life} — существо погибло бы (A2)", card=cid, key="wounds"
        )
    return state.CardState(
        id=cid,
        card=cdef,
        owner=spec.owner,
        controller=controller,
        zone=zone,
        cell=cell,
        type=cdef.type,
        subtype=cdef.subtype,
        incorporeal=inc,
        closed=_flag(spec.closed, cid, "closed"),
        hidden=_flag(spec.hidden, cid, "hidden"),
        wounds=wounds,
        tokens=tokens,
        incarnated=_flag(spec.incarnated, cid, "incarnated"),
        marker=controller != spec.owner,
        exiled_by=spec.exiled_by,
        borrowed=spec.borrowed,
    )


def _place_of(
    spec: CardSpec, cdef: library.CardDef, occupied: dict[str, str], hosts: dict[str, str]
) -> tuple[str, str | None]:
    """The zone and cell of a card of the setup (`at` or `host`)."""
    cid = spec.id
    at = spec.at.strip().lower() if isinstance(spec.at, str) else None
    if spec.host is not None:
        if cdef.type != "creature" or cdef.subtype not in library.SYMBIOTE_SUBTYPES:
            raise errors.SetupError("на карту помещаются только симбиоты (211.8.1)", card=cid, key="host")
        hosts[cid] = spec.host
        return "battle", None
    if at is None:
        raise errors.SetupError(f"укажите at (клетка a1–e6 или {', '.join(PLACES)}) или host", card=cid)
    if board.is_cell(at):
        if (cdef.type == "creature" and cdef.subtype == "flyer") or cdef.has("aux_zone"):
            raise errors.SetupError(
                f"«{cdef.name}» находится во вспомогательной зоне — пишите at: aux (A5)", card=cid, key="at"
            )
        if at in occupied:
            raise errors.SetupError(f"клетка {at} уже занята картой {occupied[at]}", card=cid, key="at")
        occupied[at] = cid
        return "battle", at
    if at in PLACES:
        return at, None
    raise errors.SetupError(f"«{spec.at}» — не клетка (a1–e6) и не {', '.join(PLACES)}", card=cid, key="at")


def _put_on_hosts(cards: dict[str, state.CardState], hosts: dict[str, str]) -> None:
    """Put each symbiote of the setup on its host, checking 211.4–211.6."""
    for cid, hid in hosts.items():
        host = cards.get(hid)
        if host is None:
            raise errors.SetupError(f"карты {hid} нет в раскладе", card=cid, key="host")
        if not host.is_ground:
            raise errors.SetupError(
                "симбиота можно поместить только на наземное существо (211.4)", card=cid, key="host"
            )
        if host.zone != "battle" or host.cell is None or host.host is not None or hid in hosts:
            raise errors.SetupError(f"{hid} не стоит на клетке поля", card=cid, key="host")
        if sum(1 for h in hosts.values() if h == hid) > 1:
            raise errors.SetupError(f"на {hid} уже есть симбиот (211.6)", card=cid, key="host")
        if not cards[cid].incorporeal and host.incorporeal:
            raise errors.SetupError(
                "небестелесного симбиота нельзя поместить на бестелесное существо (211.5)",
                card=cid,
                key="host",
            )
        cards[cid] = dataclasses.replace(cards[cid], host=hid, cell=host.cell)


def _card_ref(c: state.CardState, lib: library.CardLibrary) -> str | Mapping[str, object]:
    known = lib.get(c.card.name)
    if known is not None and known == c.card:
        return c.card.name
    out: dict[str, object] = {"name": c.card.name, "type": c.card.type}
    if c.card.subtype:
        out["subtype"] = c.card.subtype
    if c.card.life is not None:
        out["life"] = c.card.life
    if c.card.incorporeal:
        out["incorporeal"] = True
    if c.card.abilities:
        out["abilities"] = [a.to_dict() for a in c.card.abilities]
    return out


def to_setup(gs: state.GameState, lib: library.CardLibrary | None = None) -> Setup:
    """The position as a Setup (deck cards top first). The type/subtype a card gained in play and
    its once-per-battle flags are not part of the notation."""
    lib = lib or library.load_library()
    order = list(gs.decks[0]) + list(gs.decks[1])
    ids = order + [cid for cid in gs.cards if cid not in order]
    specs = []
    for cid in sorted(ids, key=lambda i: (gs.cards[i].zone == "deck", ids.index(i))):
        c = gs.cards[cid]
        at = None if c.host else (c.cell if c.zone == "battle" else c.zone)
        specs.append(
            CardSpec(
                id=cid,
                card=_card_ref(c, lib),
                owner=c.owner,
                at=at,
                host=c.host,
                controller=c.controller if c.controller != c.owner else None,
                closed=c.closed,
                hidden=c.hidden,
                incorporeal=c.incorporeal if c.incorporeal != c.card.incorporeal else None,
                wounds=c.wounds,
                tokens=c.tokens,
                incarnated=c.incarnated,
                exiled_by=c.exiled_by,
                borrowed=c.borrowed,
            )
        )
    return Setup(phase=gs.phase, active=gs.active, seed=gs.seed, turn=gs.turn, cards=specs)

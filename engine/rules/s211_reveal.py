"""Section 211 in the reveal subphase: a symbiote put onto its host (211.1, 211.2) and the end of
the subphase, where each player must give every symbiote of theirs a host if possible and the
hostless ones die (211.7).

211.7 gives the choice to the player who controls the symbiote, for every symbiote of theirs: so
a player with two symbiotes and one possible host chooses which of them takes it, and a host
choice that would leave another of their symbiotes without a host, when another choice hosts
both, is not offered (it would break «обязан выбрать симбиоту хозяина, если это возможно» for the
other). Between the two players the text sets no order. When one player's choice could leave the
other's symbiote without a host, who gets the host is «не определено» (211.7), and nothing
changes: the judge places the symbiotes by hand in the order the full rules give.

Clauses: 211.1, 211.2, 211.7.
"""

from __future__ import annotations

import lexicon
from engine import context
from engine.model import actions, board, state
from engine.rules import s211_hosts as hosts
from engine.rules import zones
from engine.rules.registry import action, arg, rule

Problem = context.Problem


@action(
    "place_symbiote",
    "Поместить симбиота на хозяина (подфаза Вскрытия)",
    arg("card", "card", "симбиот", required=True, pool="unhosted_symbiote"),
    arg("host", "card", "хозяин", required=True, pool="other_in_play"),
    choice=("card", "host"),
)
@rule("211.1", "211.2", "211.8.1", "A4")
def do_place_symbiote(ctx: context.Ctx, action: actions.Action) -> None:
    """place_symbiote: put a symbiote onto its host in the reveal subphase (211.2)."""
    s, h = ctx.get(action.get("card")), ctx.get(action.get("host"))
    if s is None or h is None:
        ctx.forbid("", f"карты {action.get('card') if s is None else action.get('host')} нет в раскладе")
        return
    if ctx.phase != "reveal":
        ctx.forbid(
            "211.2",
            "симбиота помещают на хозяина в подфазу Вскрытия Шага рассадки, а сейчас "
            f"{lexicon.phase(ctx.phase)}",
        )
        return
    if not s.is_symbiote:
        ctx.forbid(
            "211.8.1",
            f"{s.label} — не симбиот ({hosts.kind_words(s)}): на карту могут быть помещены только симбиоты",
        )
        return
    if s.host is not None or s.zone != "battle":
        where = f"уже на хозяине {s.host}" if s.host else lexicon.zone(s.zone)
        ctx.forbid("211.2", f"{s.label} не стоит на отдельной клетке поля ({where})")
        return
    ctx.allow("211.2", f"{s.label} до вскрытия стоит на отдельной клетке {s.cell}")
    reveal = hosts.reveal_problems(ctx, s, h)
    for p in reveal:
        ctx.cite(p)
    if not reveal:
        side = "своего отряда" if s.subtype == "companion" else "противника"
        ctx.allow("211.1", f"{s.label} ({hosts.kind_words(s)}) помещается на существо {side}: {h.label}")
        if s.subtype == "parasite" and h.cell is not None:
            where = (
                f"на половине {lexicon.player(s.controller, 'gen')}, контролирующего паразита"
                if board.half_of(h.cell) == s.controller
                else f"в первом ряду {lexicon.player(h.controller, 'gen')}"
            )
            ctx.assume("A4", f"клетка {h.cell} — {where}")
            ctx.allow("211.2", f"{h.label} стоит на {h.cell}: {where}")
    if not hosts.record(ctx, hosts.host_problems(ctx, s, h), s, h) or ctx.illegal:
        return
    ctx.change(f"{s.label} вскрыт")
    hosts.set_host(ctx, s.id, h.id)


# -- 211.7: who gets a host when the subphase ends --------------------------------------------

Claims = dict[str, tuple[str, ...]]  # symbiote id -> the ids of the cards that may be its host


def _match(claims: Claims, taken: frozenset[str] = frozenset()) -> int:
    """How many of the symbiotes can get a host at once (a maximum matching; a handful of cards)."""
    owner: dict[str, str] = {}

    def place(sid: str, seen: set[str]) -> bool:
        for hid in claims[sid]:
            if hid in taken or hid in seen:
                continue
            seen.add(hid)
            if hid not in owner or place(owner[hid], seen):
                owner[hid] = sid
                return True
        return False

    return sum(place(sid, set()) for sid in sorted(claims))


def _assignments(claims: Claims, size: int, limit: int = 5000) -> list[frozenset[str]] | None:
    """The sets of hosts taken by each way of hosting `size` of the symbiotes (None past `limit`)."""
    found: set[frozenset[str]] = set()
    order = sorted(claims)
    steps = 0

    def walk(i: int, used: frozenset[str], hosted: int) -> bool:
        nonlocal steps
        steps += 1
        if steps > limit:
            return False
        if hosted + (len(order) - i) < size:
            return True
        if i == len(order):
            if hosted == size:
                found.add(used)
            return True
        for hid in claims[order[i]]:
            if hid not in used and not walk(i + 1, used | {hid}, hosted + 1):
                return False
        return walk(i + 1, used, hosted)

    return sorted(found, key=sorted) if walk(0, frozenset(), 0) else None


def _can_hurt(mine: Claims, theirs: Claims) -> bool | None:
    """Can a choice of `mine` that hosts as many of them as possible leave one of `theirs` without
    a host it would otherwise get? None when there are too many ways to tell."""
    if not mine or not theirs:
        return False
    best = _match(theirs)
    ways = _assignments(mine, _match(mine))
    if ways is None:
        return None
    return any(_match(theirs, way) < best for way in ways)


@rule("211.7")
def _collision(ctx: context.Ctx, claims: dict[str, Claims]) -> bool:
    """The two players' symbiotes want the same hosts so that the order of their choices decides
    who gets one, and 211.7 gives no order: undetermined, nothing changes. True when so."""
    a, b = ctx.active, board.other(ctx.active)
    hurts = [_can_hurt(claims[a], claims[b]), _can_hurt(claims[b], claims[a])]
    if not any(h is None or h for h in hurts):
        return False
    wanted = [{h for hs in claims[p].values() for h in hs} for p in (a, b)]
    shared = sorted(wanted[0] & wanted[1])
    names = ", ".join(ctx.c(h).label for h in shared)
    mine = ", ".join(ctx.c(s).label for p in (a, b) for s, hs in claims[p].items() if set(hs) & set(shared))
    ctx.undet(
        "211.7",
        f"хозяевами симбиотов обоих игроков ({mine}) могут стать одни и те же существа ({names}): выбор "
        "одного игрока может оставить без хозяина симбиота другого. 211.7 обязывает каждого игрока выбрать "
        "хозяина своим симбиотам, но не говорит, кто из игроков выбирает первым, — кто получит хозяина, "
        "наш текст не решает. Позиция не изменена: поместите симбиотов действием «Поместить симбиота на "
        "хозяина» в порядке, который дают полные правила, и закончите подфазу снова",
    )
    ctx.keep_state = True
    return True


@rule("211.6", "211.7")
def _choose_hosts(ctx: context.Ctx, player: str, options: dict[str, hosts.Hosts]) -> None:
    """`player` gives a host to every symbiote of theirs that can have one (211.7): which of them,
    when not all can, and which host, among those that keep as many of them hosted as possible."""
    claims: Claims = {}
    for sid, o in options.items():
        free = []
        for h in o.fit:
            taken = ctx.symbiote_of(h.id)
            if taken is None:
                free.append(h.id)
            else:  # the other player chose it first
                ctx.note(Problem("211.6", "forbidden", f"{h.label} уже стал хозяином {taken.label}"))
        claims[sid] = tuple(free)
    while True:
        size = _match(claims)
        if size == 0:
            return
        wanting = [sid for sid in sorted(claims) if claims[sid]]
        hostable = [sid for sid in wanting if _hostable_in_some_best(claims, sid, size)]
        if size < len(wanting):
            ctx.step(
                "211.7",
                "state_check",
                f"хозяина могут получить не все симбиоты {lexicon.player(player, 'gen')} ({size} из "
                f"{len(wanting)}): каким из них, выбирает {lexicon.player(player)}",
            )
            sid = ctx.ask_card(
                player, "211.7", "Какому симбиоту выбрать хозяина?", [ctx.c(x) for x in hostable]
            )
        else:
            sid = hostable[0]
        s = ctx.c(sid)
        keep = [h for h in claims[sid] if _match(_without(claims, sid), frozenset({h})) == size - 1]
        dropped = [h for h in claims[sid] if h not in keep]
        ctx.step(
            "211.7",
            "state_check",
            f"{s.label} без хозяина, а возможные хозяева есть: {lexicon.player(player)} обязан выбрать",
        )
        if dropped:
            ctx.step(
                "211.7",
                "state_check",
                "не предлагаются: " + ", ".join(ctx.c(h).label for h in dropped) + " — тогда без хозяина "
                f"остался бы другой симбиот {lexicon.player(player, 'gen')}, а хозяина обязательно "
                "выбирать каждому, если это возможно",
            )
        hid = ctx.ask_card(player, "211.7", f"Выберите хозяина для {s.label}", [ctx.c(h) for h in keep])
        hosts.set_host(ctx, sid, hid)
        claims = {x: tuple(h for h in hs if h != hid) for x, hs in _without(claims, sid).items()}


def _without(claims: Claims, sid: str) -> Claims:
    return {x: hs for x, hs in claims.items() if x != sid}


def _hostable_in_some_best(claims: Claims, sid: str, size: int) -> bool:
    """Is there a way to host `size` symbiotes with `sid` among them?"""
    return any(_match(_without(claims, sid), frozenset({h})) == size - 1 for h in claims[sid])


@action("end_reveal", "Закончить подфазу Вскрытия")
@rule("211.7", "A11")
def do_end_reveal(ctx: context.Ctx, action: actions.Action) -> None:
    """end_reveal: each player must give a host to each hostless symbiote if possible; the rest
    die; all hidden symbiotes are revealed (211.7)."""
    if ctx.phase != "reveal":
        ctx.forbid("211.7", f"подфаза Вскрытия не идёт (сейчас {lexicon.phase(ctx.phase)})")
        return
    players = (ctx.active, board.other(ctx.active))
    options: dict[str, dict[str, hosts.Hosts]] = {p: {} for p in players}
    for s in _hostless(ctx):

        def check(h: state.CardState, s: state.CardState = s) -> list[hosts.Problem]:
            return hosts.reveal_problems(ctx, s, h) + hosts.host_problems(ctx, s, h)

        o = hosts.host_options(ctx, s, check)
        options[s.controller][s.id] = o
        hosts.note_ruled_out(ctx, o)
        for _h, problem in o.unsure:
            ctx.cite(problem)
    if ctx.keep_state:
        ctx.undet(
            "211.7",
            "подфаза Вскрытия не окончена: пока не известно, может ли симбиот получить хозяина, "
            "не известно и то, погибнет ли он после её окончания",
        )
        return
    claims = {p: {sid: tuple(h.id for h in o.fit) for sid, o in options[p].items() if o.fit} for p in players}
    if _collision(ctx, claims):
        return
    if claims[players[0]] and claims[players[1]]:
        ctx.step(
            "211.7",
            "state_check",
            "хозяев выбирают оба игрока; выбор одного не лишает хозяина симбиотов другого, поэтому "
            "порядок их выбора на исход не влияет",
        )
    for p in players:
        _choose_hosts(ctx, p, {sid: o for sid, o in options[p].items() if o.fit})
    for s in _hostless(ctx):
        with ctx.group(
            "211.7", "effect", f"{s.label} после окончания подфазы Вскрытия не имеет хозяина и погибает"
        ):
            zones.die(ctx, s.id, None, "нет хозяина после Вскрытия", "211.7")
    revealed = [c for c in ctx.cards.values() if c.in_play and c.hidden]
    for c in revealed:
        ctx.update(c.id, hidden=False)
    syms = [c.label for c in revealed if c.is_symbiote]
    if syms:
        ctx.step("211.7", "effect", "скрытые симбиоты вскрыты по окончании Шага рассадки: " + ", ".join(syms))
    others = [c.label for c in revealed if not c.is_symbiote]
    if others:
        ctx.assume("A11", "вскрыты остальные скрытые карты: " + ", ".join(others))
    ctx.phase = "battle"
    ctx.started = False
    ctx.assume("A11", f"подфаза Вскрытия окончена, начинается бой; первым ходит {lexicon.player(ctx.active)}")


def _hostless(ctx: context.Ctx) -> list[state.CardState]:
    """The symbiotes standing on cells of their own (no host yet), by id."""
    return sorted(
        (c for c in ctx.cards.values() if c.is_symbiote and c.zone == "battle" and c.host is None),
        key=lambda c: c.id,
    )

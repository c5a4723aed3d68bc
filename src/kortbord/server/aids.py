"""The table's aids (issue #11 item 7): a hint, the Cribbage discard advisor, the Mulle twin tracker, pile points and
who could take each build -- every one computed here, on the server, from the asking seat's own view only.

WebSocket messages (``docs/protocol.md``; the page's ``web/src/aids.ts``):

* ``{"type": "aids"}`` -- ask whether aids may be used; ``{"type": "aids", "agree": true|false}`` -- this seat
  agrees (or no longer agrees) to aids in a game between people.  Answer, to every connection of the game:
  ``{"type": "aids", "version", "allowed": bool, "agreed": [seats], "humans": [seats]}``.  Aids are allowed when
  at most one seat is a person, or when every person's seat agrees.
* ``{"type": "hint"}`` -- the strong computer's move for the seat to act: ``{"type": "hint", "version", "move":
  notation, "reason": {"code", **data}}``; the reason's words are ``hint.<game>.<code>`` of the ``aids``
  catalogue.  In the Cribbage show under Muggins the count is the player's task: ``"move": null`` and a reason
  that gives no count (:func:`muggins_show_reason`).  The bot's seed is the position's (:func:`position_seed`),
  so the review after the game judges each decision with the same search.  The bot thinks in the table's bot pool (off the event loop) on ``spec.view(state, seat)``; the reason
  comes from stepping the move in a world sampled from that view (``spec.sample``), so it never names a card the
  seat cannot see.
* ``{"type": "advice"}`` -- the numbers of the aids for the seat's view: Cribbage ``{"discards": [...]}`` (see
  :func:`discard_advice`), Mulle ``{"unseen": ..., "pile": ..., "builds": ...}`` (see :func:`mulle_advice`).

Every refusal is an ``error`` message (``aids_off``, ``not_your_turn``, ``spectator``) that changes nothing.
"""

from __future__ import annotations

import asyncio
import hashlib
import math
import random
import weakref
from collections import Counter
from itertools import combinations
from typing import TYPE_CHECKING, Any, Final

from kortbord.cards import Card

if TYPE_CHECKING:  # pragma: no cover
    from kortbord.server.sessions import Session
    from kortbord.server.ws import Connection

__all__ = [
    "MESSAGES",
    "REVIEW_SLOTS",
    "aids_allowed",
    "discard_advice",
    "handle",
    "hint_reason",
    "interval_above_zero",
    "judge",
    "muggins_show_reason",
    "mulle_advice",
    "play_cost",
    "position_seed",
    "review",
    "status_message",
]

#: The message types this module answers.
MESSAGES: Final = frozenset({"aids", "hint", "advice", "review"})
#: The review looks at the seat's last this many decisions (a long Mulle game would take the computer minutes).
REVIEW_DECISIONS: Final = 40
#: Sampled worlds on which the review values the strong player's Mulle move against the move played (the strong
#: player's own playouts, both moves on the same worlds with the same playout seed: common random numbers).
REVIEW_WORLDS: Final = 48
#: The normal quantile of the review's 95% interval: a decision is listed only when the strong move's gain over the
#: move played has a 95% interval above zero (more than the search's own noise).
Z95: Final = 1.96

#: Reviews computed at once in the whole server (each is seconds of CPU in a thread of the default executor, which
#: loading a game and the discard advice use too: more at once would hold those up for every table); the others
#: wait their turn, each still answered.
REVIEW_SLOTS: Final = 2

#: Hints being thought about (a reference keeps each task alive).
_TASKS: set[asyncio.Task[None]] = set()
#: The review slots of each running event loop (a semaphore belongs to one loop).
_REVIEW_GATES: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Semaphore] = weakref.WeakKeyDictionary()

_DECK: Final = tuple(Card.parse(r + s) for r in "A23456789TJQK" for s in "SHDC")


def position_seed(game_id: str, game: str, version: int, seat: int) -> int:
    """The strong computer's generator seed for the hint at one position -- game ``game_id`` of ``game`` at
    ``version`` (moves played), for ``seat`` -- and for the review of the decision made there, so both are one
    judgement: the review's "computer's choice" is the move the hint gave.  A 63-bit int (BLAKE2b of the four)."""
    digest = hashlib.blake2b(f"{game_id}|{game}|{version}|{seat}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


def interval_above_zero(diffs: list[float], weights: list[float] | None = None) -> tuple[float, float]:
    """The (weighted) mean of the paired differences ``diffs`` and the half-width of its 95% interval
    (``Z95`` standard errors, the effective sample size of the weights).  One sample, or differences that are all
    equal (every world the same: the outcome is known), give a half-width of 0."""
    w = weights or [1.0] * len(diffs)
    total = sum(w)
    if not diffs or total <= 0:
        return 0.0, 0.0
    mean = sum(wi * d for wi, d in zip(w, diffs, strict=True)) / total
    n_eff = total * total / sum(wi * wi for wi in w)
    if len(diffs) < 2 or n_eff <= 1.0:
        return mean, 0.0
    var = sum(wi * (d - mean) ** 2 for wi, d in zip(w, diffs, strict=True)) / total * n_eff / (n_eff - 1.0)
    return mean, Z95 * math.sqrt(max(0.0, var) / n_eff)


def aids_allowed(session: Session) -> bool:
    """Aids may be used at ``session``'s table: at most one seat is a person, or every person's seat agreed."""
    humans = [s.seat for s in session.seats if s.kind == "human"]
    return len(humans) <= 1 or all(s in session.aids_agreed for s in humans)


def status_message(session: Session) -> dict[str, Any]:
    """The ``aids`` message of ``session``: ``{"type": "aids", "version", "allowed", "agreed", "humans"}``."""
    return {
        "type": "aids",
        "version": session.version,
        "allowed": aids_allowed(session),
        "agreed": sorted(session.aids_agreed),
        "humans": [s.seat for s in session.seats if s.kind == "human"],
    }


# ----------------------------------------------------------------------------------------------------- Cribbage
def discard_advice(view: Any) -> list[dict[str, Any]]:
    """Every discard of a Cribbage seat's six (or five) cards with its expected points.

    ``hand`` is exact: the mean show value (spec §2.5, :func:`kortbord.cribbage.scoring.show_total`) of the kept
    cards over every starter the seat has not seen (46 with six cards in hand).  ``crib`` is the expected points of
    the crib the thrown cards go to, from the project's crib table (what the strong computer uses,
    :func:`kortbord.bots.cribbage_strong.crib_value`), ``own_crib`` says whose crib it is; ``net`` is ``hand`` plus
    ``crib`` for the own side's crib, minus it (per opposing side) for an opponent's.  Sorted best ``net`` first
    (lowest first in Lowball, spec §2.8).

    Args:
        view: a :class:`kortbord.cribbage.view.View` in the discard phase.
    Returns:
        ``[{"discard": ["5H", "5S"], "keep": [...], "hand": float, "crib": float, "own_crib": bool, "net": float}]``.
    Raises:
        ValueError: the view is not in the discard phase or its hand has no discard to make.
    """
    from kortbord.bots.cribbage_strong import crib_value
    from kortbord.cribbage.scoring import show_total

    if view.phase != "discard" or view.dealer is None:
        raise ValueError("the discard advisor needs a view in the discard phase")
    rules = view.rules
    hand = list(view.hand)
    throw = len(hand) - 4
    if throw < 1:
        raise ValueError("this hand has nothing to discard")
    held = set(hand)
    starters = [c for c in _DECK if c not in held]
    own = rules.side_of(view.dealer) == rules.side_of(view.seat)
    others = max(1, rules.sides - 1)
    out = []
    for thrown in combinations(hand, throw):
        kept = [c for c in hand if c not in thrown]
        mean = sum(show_total(kept, s) for s in starters) / len(starters)
        crib = crib_value(thrown, own)
        net = mean + (crib if own else -crib / others)
        out.append(
            {
                "discard": [str(c) for c in thrown],
                "keep": [str(c) for c in kept],
                "hand": round(mean, 4),
                "crib": round(crib, 4),
                "own_crib": own,
                "net": round(net, 4),
            }
        )
    out.sort(key=lambda d: d["net"], reverse=not rules.lowball)
    return out


# -------------------------------------------------------------------------------------------------------- Mulle
def mulle_advice(view: Any) -> dict[str, Any]:
    """The Mulle aids of a seat's view (rules spec §2.1 values, §2.6 reserve rule, §2.11 scoring).

    Returns:
        ``{"unseen": {card: copies}`` for every card in the seat's hand, on the table and in builds: how many of
        its two copies the seat has not seen (0: its twin is out, 1: the twin is still to come),
        ``"pile": {"cards": n, "card_points": pts, "mulle_points": pts, "tabbe": n, "total": pts}`` of the seat's
        side so far this round (:func:`kortbord.mulle.scoring.score_pile`), and ``"builds": [{"id", "value",
        "owner", "takers": [{"seat", "can": "yes" | "maybe" | "no"}]}]`` -- who could take each build with a card
        of its value: the seat itself from its hand (``yes``/``no``), the owner certainly under the reserve rule
        (``yes``), anyone else while a card of that hand value is unseen (``maybe``)}``.
    """
    from kortbord.mulle.scoring import score_pile
    from kortbord.mulle.state import HV, side_of
    from kortbord.mulle.view import unseen_cards

    unseen: Counter[Card] = unseen_cards(view)
    shown = [*view.hand, *view.table, *(c for b in view.builds for c in b.cards)]
    twins = {str(c): unseen.get(Card(int(c)), 0) for c in shown}
    pile = view.piles[side_of(view.teams, view.seat)]
    score = score_pile(pile.cards, pile.mulles, pile.tabbar, view.rules)
    hand_values = Counter(HV[int(c)] for c in view.hand)
    unseen_values: Counter[int] = Counter()
    for c, k in unseen.items():
        unseen_values[HV[int(c)]] += k
    builds = []
    for b in view.builds:
        takers = []
        for seat in range(view.players):
            if seat == view.seat:
                can = "yes" if hand_values[b.value] else "no"
            elif seat == b.owner and view.rules.reserve_rule:
                can = "yes"
            else:
                can = "maybe" if unseen_values[b.value] else "no"
            takers.append({"seat": seat, "can": can})
        builds.append({"id": b.id, "value": b.value, "owner": b.owner, "takers": takers})
    return {
        "unseen": twins,
        "pile": {k: score[k] for k in ("cards", "card_points", "mulle_points", "tabbe", "total")},
        "builds": builds,
    }


# --------------------------------------------------------------------------------------------------------- hint
def muggins_show_reason(spec: Any, legal: Any) -> dict[str, str]:
    """The hint in the show under Muggins (Cribbage spec §2.10): counting is the player's task there, so the hint
    gives no count and no move -- only the reminder to count (``mugginscount``: the seat announces its own hand or
    crib) or to check the count announced (``mugginscheck``: accept, or call muggins or an overcount), in words
    ``hint.cribbage.<code>`` of the ``aids`` catalogue.  The count helper is off under Muggins for the same reason."""
    kinds = {spec.move_json(m)["kind"] for m in legal}
    return {"code": "mugginscount" if "announce" in kinds else "mugginscheck"}


def hint_reason(spec: Any, view: Any, move: Any, rng: random.Random) -> dict[str, Any]:
    """Why the strong computer plays ``move`` in ``view``, as a reason ``{"code", **data}`` (words:
    ``hint.<game>.<code>`` in the ``aids`` catalogue).

    The move is stepped in a world sampled from the seat's view (``spec.sample(view, rng)``): what it captures,
    pegs or builds depends only on cards the seat sees, so the data name no hidden card.
    """
    data = spec.move_json(move)
    kind = data["kind"]
    if spec.name == "cribbage":
        if kind == "discard":
            advice = discard_advice(view)
            best = next(d for d in advice if sorted(d["discard"]) == sorted(data["cards"]))
            return {
                "code": "discard",
                "cards": data["cards"],
                "hand": round(best["hand"], 1),
                "crib": round(best["crib"], 1),
                "own": best["own_crib"],
            }
        if kind == "announce":
            return {"code": "count", "n": data["points"]}
        if kind == "mugginscall":
            return {"code": "muggins", "n": data["points"]}
        if kind in ("accept", "overcount", "go"):
            return {"code": kind}
        world = spec.sample(view, rng)
        _, events = spec.step(world, move)
        # the card's own pegs follow its play event directly (fifteen, 31, pairs, runs, last card); what comes after
        # (the count starting again, the show of a sampled world) is not the card's doing
        points = 0
        count = None
        after_play = False
        for e in events:
            if e.kind == "play":
                after_play, count = True, e.data.get("count")
            elif after_play and e.kind == "peg":
                if e.data.get("seat") == view.seat:
                    points += int(e.data.get("points", 0))
            elif after_play:
                break
        if points:
            return {"code": "peg", "card": data["card"], "points": points}
        return {"code": "play", "card": data["card"], "count": count}
    # Mulle
    world = spec.sample(view, rng)
    _, events = spec.step(world, move)
    if kind == "capture":
        taken: list[str] = []
        mulle = 0
        tabbe = False
        for e in events:
            if e.kind == "capture":
                taken = list(e.data.get("cards", []))
            elif e.kind == "mulle":
                mulle += int(e.data.get("points", 0))
            elif e.kind == "tabbe":
                tabbe = True
        from kortbord.mulle.scoring import total_card_points

        points = total_card_points([int(Card.parse(c)) for c in taken], view.rules)
        return {
            "code": "capture",
            "card": data["card"],
            "n": len(taken),
            "points": points,
            "mulle": mulle,
            "tabbe": tabbe,
        }
    if kind == "trail":
        return {"code": "trail", "card": data["card"]}
    value = data.get("value")
    if value is None:
        value = next((b.value for b in view.builds if b.id == data.get("build")), None)
    return {"code": kind, "card": data["card"], "value": value, "build": data.get("build")}


# ------------------------------------------------------------------------------------------------------ review
def mulle_values(view: Any, moves: list[Any], rng: random.Random, worlds: int = REVIEW_WORLDS) -> list[list[float]]:
    """The strong Mulle player's value of each of ``moves`` for the view's seat in each of ``worlds`` worlds
    sampled from the view (``SPEC.sample``): its own side's points gained minus the other sides' mean (negated in
    Kryp-mulle, spec §3), each move played out by the strong player's own playout policy with the same generator
    seed in the same world (common random numbers) -- what :class:`kortbord.bots.mulle_strong.StrongBot`
    maximises, in points (spec §2.11).  Returns one list per move, one value per world."""
    from kortbord.bots import mulle_strong
    from kortbord.mulle import engine
    from kortbord.mulle.spec import SPEC
    from kortbord.mulle.state import side_of

    bot = mulle_strong.StrongBot(view.rules)
    tables = mulle_strong._tables(view.rules)
    sign = -1.0 if tables.kryp else 1.0
    side = side_of(view.teams, view.seat)
    out: list[list[float]] = [[] for _ in moves]
    for _ in range(worlds):
        world = SPEC.sample(view, rng)
        base = mulle_strong._side_points(world, tables)
        seed = rng.getrandbits(64)
        by_value = {m: m for m in engine.legal_moves(world)}
        for i, m in enumerate(moves):
            after = bot._playout(engine.apply(world, by_value.get(m, m)), random.Random(seed))
            pts = mulle_strong._side_points(after, tables)
            gain = [pts[k] - base[k] for k in range(len(pts))]
            others = (sum(gain) - gain[side]) / max(1, len(gain) - 1)
            out[i].append(sign * (gain[side] - others))
    return out


def play_cost(bot: Any, view: Any, legal: list[Any], move: Any, seed: int) -> tuple[Any, float, float]:
    """What a Cribbage play ``move`` cost against the strong player ``bot``'s choice in ``view`` (spec §2.4):
    ``(best, points, chance)`` -- the strong choice, searched with ``random.Random(seed)`` exactly as
    :meth:`~kortbord.bots.cribbage_strong.StrongBot.choose` does (the hint's move with the position's seed), the
    expected game points it would have gained over ``move`` to the end of the play (the own side's less the
    opponents'), and how much more likely it makes winning the game (0..1; the search's win bonus is never counted
    as points, :func:`kortbord.bots.cribbage_strong.split_values`).  ``(None, 0.0, 0.0)`` when the choice is
    ``move``, or when its searched value beats ``move``'s by no more than the search's noise: the 95% interval of
    the difference over the same sampled deals (:func:`interval_above_zero`) does not lie above zero."""
    from kortbord.bots.cribbage_strong import _pick, split_values

    rng = random.Random(seed)
    samples: list[tuple[float, list[float]]] = []
    values = bot.play_values(view, legal, rng, samples=samples)
    best = _pick(legal, values, rng)
    if best == move:
        return None, 0.0, 0.0
    i_best, i_mine = legal.index(best), legal.index(move)
    mean, half = interval_above_zero([d[i_best] - d[i_mine] for _, d in samples], [w for w, _ in samples])
    if mean - half <= 0:
        return None, 0.0, 0.0
    _, points, chances = split_values(bot, view, legal, seed, values)
    return best, points[i_best] - points[i_mine], chances[i_best] - chances[i_mine]


def judge(spec: Any, strong: Any, view: Any, legal: list[Any], move: Any, seed: int) -> tuple[str, Any, float, float]:
    """One decision of the review (:func:`review`): ``move`` played in ``view`` against the strong player
    ``strong``'s choice searched with ``random.Random(seed)`` (the hint's seed at that position).

    Returns:
        ``(kind, best, cost, chance)`` -- ``kind`` ``"discard"``/``"play"`` (Cribbage) or ``"move"`` (Mulle);
        ``best`` the strong choice, or None when it is ``move`` or not better by more than the search's noise;
        ``cost`` the expected game points ``move`` gave away; ``chance`` the chance of winning it gave away (0..1,
        Cribbage plays only).
    """
    best: Any = None
    cost = 0.0
    chance = 0.0
    if spec.name == "cribbage":
        if view.phase == "discard":
            choice = strong.choose(view, legal, random.Random(seed))
            if choice != move:
                nets = {tuple(sorted(r["discard"])): r["net"] for r in discard_advice(view)}
                gain = (
                    nets[tuple(sorted(str(c) for c in choice.cards))] - nets[tuple(sorted(str(c) for c in move.cards))]
                )
                best, cost = choice, -gain if view.rules.lowball else gain
            return "discard", best, cost, chance
        if view.phase == "play":
            best, cost, chance = play_cost(strong, view, legal, move, seed)
        return "play", best, cost, chance
    choice = strong.choose(view, legal, random.Random(seed))
    if choice != move:
        v_best, v_mine = mulle_values(view, [choice, move], random.Random(seed ^ 1))
        mean, half = interval_above_zero([b - m for b, m in zip(v_best, v_mine, strict=True)])
        if mean - half > 0:
            best, cost = choice, mean
    return "move", best, cost, chance


def review(session: Session, seat: int, limit: int = REVIEW_DECISIONS) -> dict[str, Any]:
    """The seat's decisions (its last ``limit`` with a choice) where the strong computer would have chosen
    otherwise, each with its expected cost in game points, judged from the seat's view at the time only.

    The game is replayed from its seed and moves.  The hint and the review are one judgement: at each decision
    the "computer's choice" is the strong player's move searched with the hint's seed there
    (:func:`position_seed`), so a player who played every hint has nothing listed.  A decision is listed only
    when that choice is better than the move played by more than the search's noise.  Cribbage: a discard by
    :func:`discard_advice`'s ``net`` (the hand's and the crib's expected points, spec §2.5; exact, so any gain of
    0.1 or more counts), a play by :func:`play_cost` (the searched values over the same deals, the difference's
    95% interval above zero, split into the points to the end of the play, spec §2.4, and the chance of winning
    the game there: the search's win bonus is never counted as points); the show's counts are not reviewed.
    Mulle: the strong player's choice valued against the move played by :func:`mulle_values` on the same
    :data:`REVIEW_WORLDS` sampled worlds (card, mulle and tabbe points, spec §2.11), listed when the mean gain's
    95% interval lies above zero; the cost is that mean gain.

    Returns:
        ``{"checked": decisions looked at, "items": [{"ply", "deal", "round"? (Mulle), "kind", "played", "best",
        "cost", "chance"?}]}`` -- ``kind``: ``"discard"`` or ``"play"`` (Cribbage), ``"move"`` (Mulle); ``cost``: the
        expected game points the decision gave away (the own side's less the opponents'; a Cribbage play
        chosen to win may give some away: then negative); ``chance``: only when the decision changed the chance
        of winning the game by a percentage point or more, that change in percentage points; ``deal``:
        Cribbage the deal number (a string), Mulle the deal of the round (an int, with ``"round"``: the round).  At most 12 items, the costliest (winning chance
        first), in the order played.
    """
    from kortbord.bots import registry
    from kortbord.server.rng import DeterministicCSPRNG
    from kortbord.server.sessions import run_chance

    spec = session.spec
    rng = DeterministicCSPRNG(session.seed)
    state, _ = run_chance(spec, spec.new_game(session.rules, players=session.players, teams=session.teams), rng)
    decisions = []
    for ply, text in enumerate(session.moves, 1):
        move = spec.parse_move(state, text)
        if spec.to_act(state) == seat:
            legal = spec.legal_moves(state)
            if len(set(legal)) > 1:
                decisions.append((ply, state, move, legal))
        state, _ = spec.step(state, move)
        state, _ = run_chance(spec, state, rng)
    strong = registry.make_bot(spec.name, "strong", session.rules)
    items: list[dict[str, Any]] = []
    for ply, st, move, legal in decisions[-limit:]:
        view = spec.view(st, seat)
        seed = position_seed(session.id, spec.name, ply - 1, seat)  # the hint's seed there (version = ply - 1)
        kind, best, cost, chance = judge(spec, strong, view, legal, move, seed)
        deal = str(view.deal_number) if spec.name == "cribbage" else view.deal_no
        percent = round(100 * chance)
        if best is not None and (cost >= 0.1 or percent >= 1):
            item: dict[str, Any] = {
                "ply": ply,
                "deal": deal,
                "kind": kind,
                "played": str(move),
                "best": str(best),
                "cost": round(cost, 1),
            }
            if spec.name == "mulle":
                item["round"] = view.round_no
            if percent >= 1:
                item["chance"] = percent
            items.append(item)
    costliest = sorted(items, key=lambda d: (-d.get("chance", 0), -d["cost"]))[:12]
    return {"checked": min(limit, len(decisions)), "items": sorted(costliest, key=lambda d: d["ply"])}


# ------------------------------------------------------------------------------------------------------ handler
def _error(code: str, message: str, version: int) -> dict[str, Any]:
    return {"type": "error", "code": code, "message": message, "version": version}


async def handle(session: Session, conn: Connection, msg: dict[str, Any]) -> None:
    """Answer one aid message (see the module docstring); errors change nothing."""
    kind = msg.get("type")
    seat = conn.seat
    if kind == "aids":
        agree = msg.get("agree")
        if seat is not None and isinstance(agree, bool) and session.seats[seat].kind == "human":
            if session.manager is not None:  # kept with the game: everyone leaving, a restart, another instance
                try:
                    await session.manager.store.set_aids(session.id, seat, agree)
                except Exception:
                    conn.send_json(
                        _error("server_error", "the agreement could not be saved; try again", session.version)
                    )
                    return
            if agree:
                session.aids_agreed.add(seat)
            else:
                session.aids_agreed.discard(seat)
            status = status_message(session)
            for c in list(session.conns):
                if hasattr(c, "send_json"):
                    c.send_json(status)
        else:
            conn.send_json(status_message(session))
        return
    if seat is None:
        conn.send_json(_error("spectator", "aids are for the players", session.version))
        return
    if not aids_allowed(session):
        conn.send_json(_error("aids_off", "aids are off in this game until every player agrees", session.version))
        return
    spec = session.spec
    state = session.state
    version = session.version
    if kind == "review":
        if not session.over:
            conn.send_json(_error("not_over", "the review comes when the game is over", version))
            return
        _start(session, conn, ("review", seat), _review(session, conn, seat))
        return
    view = spec.view(state, seat)
    if kind == "advice":
        out: dict[str, Any] = {"type": "advice", "version": version, "game": spec.name}
        if spec.name == "cribbage":
            if view.phase == "discard" and len(view.hand) > 4 and view.dealer is not None:
                out["discards"] = await asyncio.to_thread(discard_advice, view)
        else:
            out.update(mulle_advice(view))
        conn.send_json(out)
        return
    _start(session, conn, ("hint", seat), _hint(session, conn, seat, view, version))  # the socket reads on


def _start(session: Session, conn: Connection, key: tuple[str, int], work: Any) -> None:
    """Run ``work`` (a hint or a review) in the background, one at a time per seat and kind: a second request while
    one is being thought about is answered ``busy`` (so no connection can queue work for the shared bot pool or
    thread pool: the computers of every game wait on them)."""
    busy = session.aids_busy
    if key in busy:
        work.close()
        conn.send_json(_error("busy", "one moment: the last request is still being answered", session.version))
        return
    busy.add(key)
    task = asyncio.create_task(work)
    _TASKS.add(task)

    def done(t: asyncio.Task[None]) -> None:
        _TASKS.discard(t)
        busy.discard(key)

    task.add_done_callback(done)


def _review_gate() -> asyncio.Semaphore:
    """The running loop's :data:`REVIEW_SLOTS` semaphore."""
    loop = asyncio.get_running_loop()
    gate = _REVIEW_GATES.get(loop)
    if gate is None:
        gate = _REVIEW_GATES[loop] = asyncio.Semaphore(REVIEW_SLOTS)
    return gate


async def _review(session: Session, conn: Connection, seat: int) -> None:
    cache = session.reviews
    out = cache.get(seat)
    if out is None:  # a finished game never changes: one review per seat
        async with _review_gate():  # at most REVIEW_SLOTS in the whole server; the others wait here, not in a thread
            out = cache.get(seat)
            if out is None:
                out = cache[seat] = await asyncio.to_thread(review, session, seat)
    conn.send_json({"type": "review", "version": session.version, **out})


async def _hint(session: Session, conn: Connection, seat: int, view: Any, version: int) -> None:
    spec = session.spec
    state = session.state
    if session.over or spec.to_act(state) != seat:
        conn.send_json(_error("not_your_turn", "a hint is for the seat to move", version))
        return
    legal = spec.legal_moves(state)
    if spec.name == "cribbage" and view.phase == "show" and view.rules.muggins:
        conn.send_json({"type": "hint", "version": version, "move": None, "reason": muggins_show_reason(spec, legal)})
        return
    assert session.manager is not None
    seed = position_seed(session.id, spec.name, version, seat)  # the review judges this decision with it too
    index = await session.manager.bots.choose(spec.name, "strong", session.rules, view, legal, seed=seed)
    if session.version != version:
        return  # the game moved on while the computer thought: the hint is stale
    move = legal[index]
    reason = await asyncio.to_thread(hint_reason, spec, view, move, random.Random(version))
    conn.send_json({"type": "hint", "version": version, "move": str(move), "reason": reason})

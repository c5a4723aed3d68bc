"""The simple Cribbage computer players (``kortbord.bots.cribbage_simple``).

Expected values come from the rules spec ``../shared/rules/cribbage.md`` and its worked cases
(``cribbage_cases.json``): the AI sanity case ``game-bot-takes-fifteen``, the ``mug-*`` Muggins cases with the
optimal responses of §2.10 (open point 5) and §2a, and the Lowball objective of §2.8.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import Any

import pytest
from bot_helpers import muggins_position

from kortbord.bots.cribbage_simple import GreedyBot, RandomBot, make_bot
from kortbord.cards import Card
from kortbord.cribbage import Game, Rules, engine
from kortbord.cribbage.moves import Accept, Announce, Discard, Go, MugginsCall, Overcount, Play
from kortbord.cribbage.view import View, view

CASES_PATH = Path(os.environ["KORTBORD_RULES_DIR"]) / "cribbage_cases.json"
CASES: list[dict[str, Any]] = json.loads(CASES_PATH.read_text(encoding="utf-8"))
MUGGINS_COUNTS = [c for c in CASES if c["kind"] == "muggins" and "true_count" in c["input"]]

ALL_OPTIONS = [
    {"players": p, "target": t, "muggins": m, "lowball": lb}
    for p in (2, 3, 4)
    for t in (61, 121)
    for m in (False, True)
    for lb in (False, True)
]


def _seat(name: str) -> int:
    return int(name[1:])


def _play_game(options: dict[str, Any], seed: int, levels: list[str], **opts: float) -> Game:
    """A whole game between bots; every move is checked to be one of the engine's legal moves."""
    rules = Rules(**options)
    game = Game(rules, seed=seed)
    bots = [make_bot(level, **(opts if level == "greedy" else {})) for level in levels]
    rngs = [random.Random(seed * 7 + s) for s in range(rules.players)]
    while not game.is_over():
        seat = game.to_act
        assert seat is not None
        legal = game.legal_moves()
        move = bots[seat].choose(game.view(seat), legal, rngs[seat])
        assert move in legal, f"{move} is not legal for P{seat}: {legal}"
        game.play(move, seat=seat)
    return game


@pytest.mark.parametrize("options", ALL_OPTIONS, ids=lambda o: "-".join(f"{k}{v}" for k, v in o.items()))
def test_bots_only_make_legal_moves_with_every_option(options: dict[str, Any]) -> None:
    for seed in range(3):
        levels = [("greedy", "random")[(seed + s) % 2] for s in range(options["players"])]
        game = _play_game(options, seed, levels, miss_rate=0.5, catch_rate=0.5)
        res = game.result()
        # spec §2.6 / §2.8: the game ends when a side reaches the target
        assert max(res.side_scores) >= options["target"]


def test_a_decision_is_reproducible_from_the_seed() -> None:
    options = {"players": 3, "target": 61, "muggins": True, "lowball": False}
    first = _play_game(options, 11, ["greedy", "random", "greedy"]).to_record()
    again = _play_game(options, 11, ["greedy", "random", "greedy"]).to_record()
    assert first == again
    other = _play_game(options, 12, ["greedy", "random", "greedy"]).to_record()
    assert other["moves"] != first["moves"]


def test_a_bot_is_given_only_a_view_and_decides_from_it_alone() -> None:
    def led(opponent: str) -> Any:
        state = engine.position(
            Rules(), phase="play", dealer=0, hands=["7H 2C TS 4H", opponent], crib="AS AD 6C 6D", starter="QH"
        )
        return engine.apply(state, Play(Card.parse("3S")))  # the pone (seat 1) leads 3S

    state = led("3S 9D KC 8S")
    for bot in (RandomBot(), GreedyBot()):
        with pytest.raises(TypeError):
            bot.choose(state, engine.legal_moves(state), random.Random(1))  # type: ignore[arg-type]
    # a position that differs only in the opponent's hidden cards gives the same View, hence the same decisions
    other = led("3S 5D KH 3C")
    v1, v2 = view(state, 0), view(other, 0)
    assert isinstance(v1, View) and v1 == v2
    for seed in range(20):
        assert GreedyBot().choose(v1, v1.legal_moves, random.Random(seed)) == GreedyBot().choose(
            v2, v2.legal_moves, random.Random(seed)
        )


def test_greedy_takes_the_fifteen() -> None:
    """Case ``game-bot-takes-fifteen``: after an 8 lead the bot plays the 7 that makes 15 (spec §2.4 step 3)."""
    case = next(c for c in CASES if c["id"] == "game-bot-takes-fifteen")
    hand = case["input"]["bot_hand"]
    lead = Card.of(int(case["input"]["sequence_ranks"][0]), "D")
    assert case["input"]["count_before"] == 8
    opponent = ["8D", "KC", "QC", "JC"]
    assert lead == Card.parse(opponent[0])
    state = engine.position(
        Rules(), phase="play", dealer=0, hands=[hand, opponent], crib="AS AD 6C 6D", starter="3H"
    )  # seat 1 (pone) leads the 8, seat 0 (the bot) answers
    state = engine.apply(state, Play(lead))
    bot_view = view(state, 0)
    assert bot_view.count == 8
    best = Card.parse(case["expected"]["best_immediate"])
    for seed in range(10):
        assert GreedyBot().choose(bot_view, bot_view.legal_moves, random.Random(seed)) == Play(best)
    immediate = case["expected"]["immediate_points"]
    values = {str(m): GreedyBot().play_value(bot_view, m) for m in bot_view.legal_moves}
    assert max(values, key=values.__getitem__) == max(immediate, key=immediate.__getitem__)


def test_greedy_lowball_inverts_the_objective() -> None:
    """Spec §2.8: in Lowball the computer avoids points -- it never takes the fifteen that it takes normally."""
    hands = ["7H 2C TS 4H", "8D KC QC JC"]
    for lowball, want_fifteen in ((False, True), (True, False)):
        state = engine.position(
            Rules(lowball=lowball), phase="play", dealer=0, hands=hands, crib="AS AD 6C 6D", starter="3H"
        )
        state = engine.apply(state, Play(Card.parse("8D")))
        v = view(state, 0)
        move = GreedyBot().choose(v, v.legal_moves, random.Random(0))
        assert (move == Play(Card.parse("7H"))) is want_fifteen


def test_greedy_discard_keeps_the_best_average_hand() -> None:
    """Spec §5 "average hand": from 5-5-5-J with two ten-cards the bot keeps the 5s and the jack (a 29 layout
    chance) rather than breaking them up, as dealer or as pone."""
    hand = ["5H", "5D", "5C", "JS", "KD", "9C"]
    for dealer in (0, 1):
        state = engine.position(Rules(), phase="discard", dealer=dealer, hands=[hand, "AS 2S 3S 4S 6S 7S"])
        if dealer == 0:
            state = engine.apply(state, engine.legal_moves(state)[0])  # the pone discards first
        v = view(state, 0)
        move = GreedyBot().choose(v, v.legal_moves, random.Random(0))
        assert isinstance(move, Discard)
        kept = {str(c) for c in v.hand if c not in move.cards}
        assert {"5H", "5D", "5C"} <= kept


@pytest.mark.parametrize("case", MUGGINS_COUNTS, ids=[c["id"] for c in MUGGINS_COUNTS])
def test_greedy_muggins_responses_are_optimal_on_every_case(case: dict[str, Any]) -> None:
    """Spec §2.10 open point 5 and §2a: with ``catch_rate=1`` the bot calls muggins with exactly the missed points,
    overcount on an overcount, and accepts a true count; the caller then gains all the rules allow (M5, M7)."""
    state, counter, announced, true = muggins_position(case)
    bot = GreedyBot(miss_rate=0.0, catch_rate=1.0)
    # the counter's own count is the true count (miss_rate 0)
    v = view(state, counter)
    assert bot.choose(v, v.legal_moves, random.Random(0)) == Announce(true)
    state = engine.apply(state, Announce(announced))
    before = list(state.scores)
    if engine.is_over(state):  # M12: a count reaching the target that is not too high ends the game at once
        assert announced <= true and case["expected"].get("game_over")
        return
    responders_seen = []
    while not engine.is_over(state) and state.phase_name == "show" and state.announced >= 0:
        seat = engine.to_act(state)
        assert seat is not None and seat != counter
        responders_seen.append(seat)
        v = view(state, seat)
        move = bot.choose(v, v.legal_moves, random.Random(len(responders_seen)))
        if announced < true:
            assert move == MugginsCall(true - announced)
        elif announced > true:
            assert move == Overcount()
        else:
            assert move == Accept()
        state = engine.apply(state, move)
        if move != Accept():
            break
    first = _seat(case["input"]["responses"][0]["player"])
    assert responders_seen[0] == first  # the responder from the counter's left (M3)
    after = list(state.scores)
    if announced < true:  # M5: the caller takes every missed point
        assert after[first] - before[first] == true - announced and after[counter] == before[counter]
    elif announced > true:  # M7: the excess moves from the counter to the caller
        assert after[counter] - before[counter] == true - announced and after[first] - before[first] == announced - true
    else:
        assert after == before


def test_greedy_own_count_misses_only_with_miss_rate() -> None:
    """Spec §2a: the computer announces the true count; an easier setting sometimes misses a group (never more)."""
    case = next(c for c in MUGGINS_COUNTS if c["id"] == "mug-under-call-6")
    state, counter, _, true = muggins_position(case)
    v = view(state, counter)
    assert true > 0
    honest = GreedyBot(miss_rate=0.0)
    sloppy = GreedyBot(miss_rate=1.0)
    for seed in range(20):
        assert honest.choose(v, v.legal_moves, random.Random(seed)) == Announce(true)
        move = sloppy.choose(v, v.legal_moves, random.Random(seed))
        assert isinstance(move, Announce) and 0 <= move.points < true
    never = GreedyBot(catch_rate=0.0)
    state = engine.apply(state, Announce(true - 2))
    responder = engine.to_act(state)
    assert responder is not None
    w = view(state, responder)
    assert never.choose(w, w.legal_moves, random.Random(0)) == Accept()


def test_make_bot_levels_and_options() -> None:
    assert isinstance(make_bot("random"), RandomBot)
    greedy = make_bot("greedy", miss_rate=0.0, catch_rate=1.0)
    assert isinstance(greedy, GreedyBot) and greedy.miss_rate == 0.0 and greedy.catch_rate == 1.0
    with pytest.raises(ValueError, match="unknown Cribbage bot level"):
        make_bot("strong")
    with pytest.raises(ValueError, match="miss_rate"):
        make_bot("greedy", miss_rate=1.5)
    with pytest.raises(ValueError):
        make_bot("greedy", bluff=0.3)
    with pytest.raises(ValueError):
        make_bot("random", miss_rate=0.1)


def test_a_forced_go_is_returned() -> None:
    state = engine.position(
        Rules(), phase="play", dealer=0, hands=["KH KS KD KC", "QH QS QD 9C"], crib="AS AD 6C 6D", starter="3H"
    )
    for move in ("QH", "KH", "QS"):
        state = engine.apply(state, engine.parse_move(state, move))
    # count 30: seat 0 holds only kings
    v = view(state, 0)
    assert v.legal_moves == (Go(),)
    assert GreedyBot().choose(v, v.legal_moves, random.Random(0)) == Go()
    assert RandomBot().choose(v, v.legal_moves, random.Random(0)) == Go()

"""The expert Mulle bot (``kortbord.bots.mulle_expert``): legal, reproducible, View-only, and sound trail
inference -- what it concludes from an opponent's trail follows from the capture duty (rules spec §2.6, rule A6:
no trail while the mover holds a card that captures) and never excludes a card the opponent really holds.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from kortbord.bots.mulle_expert import ExpertBot
from kortbord.bots.mulle_simple import GreedyBot
from kortbord.cards import Card, full_deck
from kortbord.mulle import Game, Rules, apply, legal_moves, load_position, unseen_cards, view
from kortbord.mulle.state import HV, TV


def _rules(profile: str = "standard", **extra: Any) -> Rules:
    return Rules.from_dict({"profile": profile, "game_length": "single_round", **extra})


def _play_round(
    rules: Rules, players: int, teams: bool, seed: int, expert_seats: set[int], iterations: int = 1
) -> tuple[list[str], list[ExpertBot], int]:
    """One round, an expert at each of ``expert_seats`` and greedy elsewhere.  Every expert choice must be legal,
    and after every expert decision the facts it holds must allow every card the other seats really hold (the
    test reads the state; the bot never does).  Returns the moves, the experts and the facts checked."""
    game = Game(rules, players=players, teams=teams, seed=seed)
    experts = {s: ExpertBot(rules, iterations=iterations) for s in expert_seats}
    greedy = GreedyBot(rules)
    rngs = [random.Random(seed * 10 + s) for s in range(players)]
    checked = 0
    while not game.is_over():
        seat = game.to_act()
        assert seat is not None
        legal = game.legal_moves()
        if seat in experts:
            bot = experts[seat]
            move = bot.choose(game.view(seat), legal, rngs[seat])
            assert move in legal, f"expert chose {move}, not among {[str(m) for m in legal]}"
            for other, allowed in bot.facts.items():
                held = set(game.state._hands[other])
                assert held <= allowed, f"seat {other} holds {sorted(map(str, held - allowed))}, excluded"
                checked += 1
        else:
            move = greedy.choose(game.view(seat), legal, rngs[seat])
        game.play(move)
    return [str(m) for m in game.moves], list(experts.values()), checked


@pytest.mark.parametrize(
    ("profile", "players", "teams"),
    [
        ("standard", 2, False),
        ("cardgames.zone", 2, False),
        ("kryp", 2, False),
        ("standard", 3, False),
        ("standard", 4, True),
    ],
)
def test_expert_only_chooses_legal_moves(profile: str, players: int, teams: bool) -> None:
    rules = _rules(profile)
    moves, experts, _ = _play_round(rules, players, teams, seed=3 + players, expert_seats={0})
    assert len(moves) == 104 - rules.table_size  # every card of the round was played from a hand
    if players > 2:  # the moves between two decisions cannot be told apart: nothing is inferred
        assert experts[0].trails_read == 0 and not experts[0].facts


@pytest.mark.parametrize("profile", ["standard", "cardgames.zone"])
@pytest.mark.parametrize("seed", [1, 2])
def test_trail_facts_never_exclude_a_card_the_opponent_holds(profile: str, seed: int) -> None:
    _, experts, checked = _play_round(_rules(profile), 2, False, seed, expert_seats={0, 1})
    assert all(e.trails_read > 0 for e in experts)  # greedy and expert trail often enough in a round
    assert checked > 0
    assert sum(e.excluded for e in experts) > 0


def test_without_a_capture_duty_a_trail_proves_nothing() -> None:
    _, experts, _ = _play_round(_rules(capture_duty="none"), 2, False, 5, expert_seats={0, 1})
    assert all(e.trails_read > 0 for e in experts)
    assert sum(e.excluded for e in experts) == 0


def _position(table: list[str], p1: list[str], p2: list[str], stock: int, seed: int) -> dict[str, Any]:
    rest = list(full_deck(2))
    for c in table + p1 + p2:
        rest.remove(Card.parse(c))
    random.Random(seed).shuffle(rest)
    names = [str(c) for c in rest]
    return {
        "table": table,
        "hands": {"P1": p1, "P2": p2},
        "stock": names[:stock],
        "piles": {"P1": {"cards": names[stock:]}},
        "to_move": "P1",
    }


def test_a_trail_excludes_exactly_the_cards_that_would_have_captured() -> None:
    """Table 8C 3D; P1 (the expert) holds KS QH and can only trail (K 13, Q 12 capture nothing; neither can build:
    spec §2.6).  P2 holds 9S 7H 4C, trails 9S (no 9, 7 or 4 captures 8, 3 or 8+3 = 11 or the trailed card, and the
    builds 7+3 = 10, 4+8 = 12 ... have no reserve of their value).  The capture duty (A6) then proves P2 holds no
    card whose hand value takes a loose card or a sum of them on the table P2 faced: 3, 8, 11 (8C+3D), and the
    card P1 trailed with its sums (K 13: 3 + 13 = 16, storan TD; Q 12: 3 + 12 = 15, lillan 2S)."""
    state = load_position(_position(["8C", "3D"], ["KS", "QH"], ["9S", "7H", "4C"], stock=0, seed=1))
    bot = ExpertBot(state.rules, iterations=4)
    mine = legal_moves(state)
    assert {str(m) for m in mine} == {"T KS", "T QH"}
    move = bot.choose(view(state, 0), mine, random.Random(0))
    state = apply(state, move)
    theirs = {str(m): m for m in legal_moves(state)}
    assert "T 9S" in theirs and not any(k.startswith("C ") for k in theirs)
    state = apply(state, theirs["T 9S"])
    v = view(state, 0)
    bot.choose(v, legal_moves(state), random.Random(1))
    assert bot.trails_read == 1
    allowed = bot.facts[1]
    trailed = move.card
    table_faced = [Card.parse("8C"), Card.parse("3D"), trailed]
    sums = {TV[a] for a in table_faced} | {
        TV[a] + TV[b] for i, a in enumerate(table_faced) for b in table_faced[i + 1 :]
    }
    sums.add(sum(TV[a] for a in table_faced))
    for c in unseen_cards(v):
        assert (c in allowed) == (HV[c] not in sums), (str(c), HV[c], sorted(sums))
    assert Card.parse("7H") in allowed and Card.parse("4C") in allowed


def test_decisions_are_reproducible_from_the_seed() -> None:
    rules = Rules.from_dict({"hand_size": 4, "table_size": 8, "game_length": "single_round"})
    first, _, _ = _play_round(rules, 2, False, 11, expert_seats={0, 1}, iterations=3)
    again, _, _ = _play_round(rules, 2, False, 11, expert_seats={0, 1}, iterations=3)
    assert first == again


def test_the_choice_is_the_same_whatever_the_hidden_cards_are() -> None:
    """Games that agree on everything seat 0 sees but not on the other hand and the stock give the same View,
    and the same choice: the bot cannot reach the hidden cards."""
    table = ["9H", "4C", "5S", "KD", "7C", "3H", "JD", "6S"]
    mine = ["9H", "9C", "2D", "QS", "8H", "5C", "AH", "TC"]
    rest = list(full_deck(2))
    for c in table + mine:
        rest.remove(Card.parse(c))
    choices = set()
    for seed in range(3):
        random.Random(seed).shuffle(rest)
        names = [str(c) for c in rest]
        state = load_position(
            {"table": table, "hands": {"P1": mine, "P2": names[:8]}, "stock": names[8:], "to_move": "P1"}
        )
        choices.add(str(ExpertBot(Rules(), iterations=8).choose(view(state, 0), legal_moves(state), random.Random(1))))
    assert len(choices) == 1


def test_bad_input_is_refused() -> None:
    game = Game(Rules(), players=2, seed=1)
    bot = ExpertBot(Rules(), iterations=2)
    with pytest.raises(TypeError, match="View"):
        bot.choose(game.state, game.legal_moves(), random.Random(0))  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        bot.choose(game.view(0), [], random.Random(0))
    for bad in ({"iterations": 0}, {"horizon": "game"}, {"epsilon": 1.5}, {"time_budget_ms": 0}):
        with pytest.raises(ValueError):
            ExpertBot(Rules(), **bad)  # type: ignore[arg-type]


def test_without_inference_and_with_the_defaults_it_is_the_strong_search() -> None:
    """The experiments compare against strong: with ``infer=False`` and the default horizon, epsilon and batch the
    expert's choices must be strong's, decision by decision, from the same generator."""
    from kortbord.bots.mulle_strong import StrongBot

    rules = _rules()
    game = Game(rules, players=2, seed=4)
    expert, strong = ExpertBot(rules, iterations=6, infer=False), StrongBot(rules, iterations=6)
    n = 0
    while not game.is_over():
        seat = game.to_act()
        assert seat is not None
        v, legal = game.view(seat), game.legal_moves()
        a = expert.choose(v, legal, random.Random(n))
        assert a == strong.choose(v, legal, random.Random(n)), n
        game.play(a)
        n += 1
    assert n == 104 - rules.table_size


@pytest.mark.parametrize(("profile", "players"), [("standard", 2), ("kryp", 2), ("cardgames.zone", 3)])
def test_the_peek_policy_prior_weight_and_leaf_value_play_legal_rounds(profile: str, players: int) -> None:
    """``peek`` (the playout policy reads the next seat's sampled hand), ``prior`` (the greedy value in the
    ranking) and ``leaf`` (what a playout leaves at a deal's end) only change which legal move is chosen,
    reproducibly."""
    rules = _rules(profile)

    def play() -> list[str]:
        game = Game(rules, players=players, seed=5)
        bots = [ExpertBot(rules, iterations=3, peek=True, prior=0.3, leaf=0.5) for _ in range(players)]
        rngs = [random.Random(s) for s in range(players)]
        while not game.is_over():
            seat = game.to_act()
            assert seat is not None
            legal = game.legal_moves()
            move = bots[seat].choose(game.view(seat), legal, rngs[seat])
            assert move in legal
            game.play(move)
        return [str(m) for m in game.moves]

    first = play()
    assert len(first) == 104 - rules.table_size
    assert first == play()


@pytest.mark.parametrize(("profile", "players"), [("standard", 2), ("kryp", 2), ("cardgames.zone", 3)])
@pytest.mark.parametrize("reply", ["none", "greedy", "policy"])
def test_the_exact_end_of_the_deal_and_the_modelled_reply_play_legal_rounds(
    profile: str, players: int, reply: str
) -> None:
    """``exact`` (alpha-beta over the deal's last plies in each world) and ``reply`` (the next seat's answer
    chosen deterministically) only change which legal move is chosen, reproducibly; the searches stay small."""
    rules = _rules(profile)

    def play() -> tuple[list[str], list[ExpertBot]]:
        game = Game(rules, players=players, seed=6)
        bots = [ExpertBot(rules, iterations=3, exact=5, reply=reply) for _ in range(players)]
        rngs = [random.Random(s) for s in range(players)]
        while not game.is_over():
            seat = game.to_act()
            assert seat is not None
            legal = game.legal_moves()
            move = bots[seat].choose(game.view(seat), legal, rngs[seat])
            assert move in legal
            game.play(move)
        return [str(m) for m in game.moves], bots

    first, bots = play()
    assert len(first) == 104 - rules.table_size
    assert first == play()[0]
    assert sum(b.exact_searches for b in bots) > 0
    assert 0 < max(b.exact_max for b in bots) < 5000


def test_the_exact_and_reply_options_are_checked() -> None:
    with pytest.raises(ValueError):
        ExpertBot(None, exact=-1)
    with pytest.raises(ValueError):
        ExpertBot(None, reply="minimax")


def test_reply_depth_lets_greedy_choose_that_many_opponent_turns_and_no_more() -> None:
    """``reply="greedy", reply_depth=2``: from a position with the opponent (P2) to move, the opponent's next two
    turns are greedy's choices on its View (``GreedyBot.evaluate``, the first best move), the deciding seat's turn
    between them is the playout policy's, and then the modelled plies stop with the deciding seat to move."""
    state = load_position(
        _position(["8C", "3D", "KH"], ["KS", "QH", "5D", "9C"], ["9S", "7H", "4C", "2H", "JC"], stock=0, seed=2)
    )
    rules = state.rules
    bot = ExpertBot(rules, iterations=2, reply="greedy", reply_depth=2)
    bot._me = 0
    state = apply(state, legal_moves(state)[0])  # P1 moves: the opponent P2 is to move
    assert state.to_move == 1
    greedy = GreedyBot(rules)

    def greedy_move(s: Any) -> Any:
        moves = legal_moves(s)
        v = view(s, 1)
        return max(moves, key=lambda m: greedy.evaluate(v, m))

    first = greedy_move(state)
    after = bot._replies(state, random.Random(3), horizon=state.deal_no)
    assert bot.replies == 2
    assert after.to_move == 0
    assert after.hand_size(1) == state.hand_size(1) - 2 and after.hand_size(0) == state.hand_size(0) - 1
    # replay: P2's first reply is greedy's choice, and its second is greedy's choice where it was made
    mid = apply(state, first)
    assert mid.to_move == 0
    plays = [m for m in legal_moves(mid) if apply(apply(mid, m), greedy_move(apply(mid, m))) == after]
    assert plays, "no policy move of P1 followed by greedy's reply reaches the modelled position"
    # depth 1 stops after the first reply (the old behaviour of reply="greedy")
    one = ExpertBot(rules, iterations=2, reply="greedy")
    one._me = 0
    assert one._replies(state, random.Random(3), horizon=state.deal_no) == mid
    with pytest.raises(ValueError):
        ExpertBot(None, reply="greedy", reply_depth=0)

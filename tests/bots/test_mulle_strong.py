"""The strong Mulle bot (``kortbord.bots.mulle_strong``): legal, reproducible, View-only, consistent determinisations
and sound play in positions whose best move follows from the rules.

Expected choices come from the rules spec (``../shared/rules/mulle.md``): mulle value §2.8, tabbe §2.9, the last
capture's sweep §2.10, card points §2.11, Kryp-mulle §3 (the lowest total wins).
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kortbord.bots.mulle_simple import GreedyBot, RandomBot
from kortbord.bots.mulle_strong import StrongBot
from kortbord.cards import Card, full_deck
from kortbord.mulle import SPEC, Game, Rules, View, deal_plan, legal_moves, load_position, unseen_cards, view
from kortbord.mulle.state import HV

CONFIGS = [
    (profile, deal, players, teams)
    for profile in ("standard", "cardgames.zone", "kryp")
    for deal in ((8, 8), (5, 5), (4, 8))
    for players, teams in ((2, False), (3, False), (4, False), (4, True))
]


def _rules(profile: str, deal: tuple[int, int]) -> Rules:
    return Rules.from_dict(
        {"profile": profile, "hand_size": deal[0], "table_size": deal[1], "game_length": "single_round"}
    )


def _play_round(
    rules: Rules, players: int, teams: bool, seed: int, strong_seats: set[int], iterations: int = 1
) -> tuple[list[str], int]:
    """One round, the strong bot at ``strong_seats`` and greedy/random players elsewhere; every strong choice
    must be one of the engine's legal moves.  Returns the moves and the number of strong decisions."""
    game = Game(rules, players=players, teams=teams, seed=seed)
    others = [GreedyBot(rules), RandomBot()]
    strong = StrongBot(rules, iterations=iterations)
    rngs = [random.Random(seed * 10 + s) for s in range(players)]
    decisions = 0
    while not game.is_over():
        seat = game.to_act()
        assert seat is not None
        legal = game.legal_moves()
        if seat in strong_seats:
            move = strong.choose(game.view(seat), legal, rngs[seat])
            assert move in legal, f"strong chose {move}, not among {[str(m) for m in legal]}"
            decisions += 1
        else:
            move = others[seat % 2].choose(game.view(seat), legal, rngs[seat])
        game.play(move)
    return [str(m) for m in game.moves], decisions


@pytest.mark.parametrize(("profile", "deal", "players", "teams"), CONFIGS)
def test_strong_only_chooses_legal_moves_in_every_profile_format_and_player_count(
    profile: str, deal: tuple[int, int], players: int, teams: bool
) -> None:
    rules = _rules(profile, deal)
    moves, decisions = _play_round(rules, players, teams, seed=len(profile) * 7 + deal[0] + players, strong_seats={0})
    assert len(moves) == 104 - rules.table_size  # every card of the round was played from a hand
    # seat 0 chose every card it was dealt (deals go from the dealer's left, spec §2.3)
    dealer = Game(rules, players=players, teams=teams, seed=len(profile) * 7 + deal[0] + players).view(0).dealer
    assert dealer is not None
    assert decisions == sum(d[(0 - dealer - 1) % players] for d in deal_plan(rules, players))


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31 - 1), config=st.sampled_from(CONFIGS))
def test_strong_moves_are_legal_over_random_rounds_with_strong_players_at_every_seat(
    seed: int, config: tuple[str, tuple[int, int], int, bool]
) -> None:
    profile, deal, players, teams = config
    _play_round(_rules(profile, deal), players, teams, seed, strong_seats=set(range(players)))


def test_decisions_are_reproducible_from_the_seed_in_iterations_mode() -> None:
    rules = Rules.from_dict({"hand_size": 4, "table_size": 8, "game_length": "single_round"})
    first, _ = _play_round(rules, 2, False, 11, strong_seats={0, 1}, iterations=3)
    again, _ = _play_round(rules, 2, False, 11, strong_seats={0, 1}, iterations=3)
    assert first == again


def test_one_decision_depends_only_on_the_view_the_moves_and_the_generator_state() -> None:
    game = Game(Rules(), players=2, seed=5)
    seat = game.to_act()
    assert seat is not None
    v, legal = game.view(seat), game.legal_moves()
    picks = {str(StrongBot(Rules(), iterations=6).choose(v, legal, random.Random(3))) for _ in range(3)}
    assert len(picks) == 1


def test_the_bot_accepts_only_a_view_never_the_state() -> None:
    game = Game(Rules(), players=2, seed=1)
    seat = game.to_act()
    assert seat is not None
    bot = StrongBot(Rules(), iterations=2)
    with pytest.raises(TypeError, match="View"):
        bot.choose(game.state, game.legal_moves(), random.Random(0))  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        bot.choose(game.view(seat), [], random.Random(0))
    with pytest.raises(ValueError):
        StrongBot(Rules(), iterations=0)
    with pytest.raises(ValueError):
        StrongBot(Rules(), time_budget_ms=0)


def test_the_choice_is_the_same_whatever_the_hidden_cards_are() -> None:
    """Two games that agree on everything seat 0 can see, but not on the other hand and the stock order, give
    the bot identical Views -- and so the identical choice: it cannot reach the hidden cards."""
    rules = Rules()
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
        v = view(state, 0)
        choices.add(str(StrongBot(rules, iterations=8).choose(v, legal_moves(state), random.Random(1))))
    assert len(choices) == 1


# -- determinisation -----------------------------------------------------------------------------------------
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31 - 1), config=st.sampled_from(CONFIGS), plies=st.integers(0, 60))
def test_a_sampled_world_agrees_with_everything_the_seat_can_see(
    seed: int, config: tuple[str, tuple[int, int], int, bool], plies: int
) -> None:
    profile, deal, players, teams = config
    rules = _rules(profile, deal)
    game = Game(rules, players=players, teams=teams, seed=seed)
    rng = random.Random(seed)
    for _ in range(plies):
        if game.is_over():
            break
        game.play(rng.choice(game.legal_moves()))
    if game.is_over():
        return
    seat = game.to_act()
    assert seat is not None
    v = game.view(seat)
    world = SPEC.sample(v, random.Random(seed + 1))
    me = seat  # the sampled world keeps the view's seats
    w = view(world, me)
    # every card accounted for: 104 in all, twice each
    everything: Counter[int] = Counter(world.table)
    for s in range(players):
        everything.update(view(world, s).hand)
    for b in world.builds:
        everything.update(b.cards)
    for p in world.piles:
        everything.update(p.cards)
    assert sum(everything.values()) + w.stock_size == 104
    assert max(everything.values()) <= 2
    # the public facts and the own hand are the viewer's
    assert w.hand == v.hand and w.table == v.table and w.stock_size == v.stock_size
    assert [b.cards for b in w.builds] == [b.cards for b in v.builds]
    assert [b.value for b in w.builds] == [b.value for b in v.builds]
    assert sorted(sorted(p.cards) for p in w.piles) == sorted(sorted(p.cards) for p in v.piles)
    assert w.is_last_deal == v.is_last_deal and w.deal_no == v.deal_no
    assert sorted(w.hand_sizes) == sorted(v.hand_sizes)
    for k in range(players):  # hand sizes by seat
        assert w.hand_sizes[k] == v.hand_sizes[k]
    assert legal_moves(world) and set(map(str, legal_moves(world))) == set(map(str, v.legal_moves))
    # the owner of a build holds a card of its value (reserve rule, spec §2.6)
    for b in world.builds:
        if any(HV[c] == b.value for c in unseen_cards(v)) or b.owner == me:
            assert any(HV[c] == b.value for c in view(world, b.owner).hand)


def test_unseen_cards_are_the_two_packs_minus_everything_seen() -> None:
    game = Game(Rules(), players=2, seed=3)
    seat = game.to_act()
    assert seat is not None
    v = game.view(seat)
    unseen = unseen_cards(v)
    assert sum(unseen.values()) == 104 - len(v.hand) - len(v.table)
    for c in set(v.hand) | set(v.table):
        assert unseen[c] == 2 - v.hand.count(c) - v.table.count(c)


# -- play that follows from the rules ----------------------------------------------------------------------
def _full_position(
    table: list[str], hands: dict[str, list[str]], sizes: dict[str, int], stock: int, seed: int, **extra: Any
) -> dict[str, Any]:
    """A position with every hand and the stock: the given cards, the rest of the two packs dealt at random to
    the seats of ``sizes`` and ``stock`` cards to the stock (the leftover goes to P1's captured pile)."""
    rest = list(full_deck(2))
    for c in table + [c for h in hands.values() for c in h]:
        rest.remove(Card.parse(c))
    random.Random(seed).shuffle(rest)
    names = [str(c) for c in rest]
    full = {k: list(v) for k, v in hands.items()}
    for seat, n in sizes.items():
        full[seat] = full.get(seat, []) + [names.pop() for _ in range(n)]
    stock_cards = [names.pop() for _ in range(stock)]
    return {
        "table": table,
        "hands": full,
        "stock": stock_cards,
        "piles": {"P1": {"cards": names}},
        "to_move": "P1",
        **extra,
    }


def _strong_choice(position: dict[str, Any], iterations: int = 40) -> str:
    state = load_position(position)
    return str(
        StrongBot(state.rules, iterations=iterations).choose(view(state, 0), legal_moves(state), random.Random(0))
    )


def test_strong_takes_the_nine_point_mulle_rather_than_the_sweep() -> None:
    # MUL-01 table: 9H takes its twin (pure mulle, 9 points, §2.8); 9C would take 4C+5S+9H: 5S 1 point + tabbe 1
    position = _full_position(["9H", "4C", "5S"], {"P1": ["9H", "9C"]}, {"P2": 2}, stock=0, seed=1)
    assert {str(m) for m in legal_moves(load_position(position))} == {"C 9H x {9H}", "C 9C x {4C,5S,9H}"}
    assert _strong_choice(position) == "C 9H x {9H}"


def test_strong_in_kryp_mulle_avoids_the_mulle() -> None:
    position = _full_position(
        ["9H", "4C", "5S"], {"P1": ["9H", "9C"]}, {"P2": 2}, stock=0, seed=1, rules={"profile": "kryp"}
    )
    assert _strong_choice(position) == "C 9C x {4C,5S,9H}"


def test_strong_keeps_the_last_capture_in_the_last_deal_when_the_table_is_rich() -> None:
    """Last deal, stock empty; P1 holds 8H 3D, P2 holds 5C.  Table 5H 3S and four spades KS QS JS TS.

    * ``C 3D x {3S}`` leaves 5H for P2's 5C: P2 becomes the last capturer and the sweep gives P2 the four spades
      (4 points, §2.10/§2.11).
    * ``C 8H x {3S,5H}`` leaves nothing P2's 5C can take; P1's last card cannot capture either, so P1 stays the
      last capturer and sweeps the four spades and 5C: 3S + 4 spades = 5 points against 0.
    * ``B 3D on 5H =8`` is as good: P2's 5C cannot take the build or a loose 5 and is trailed; P1's 8H then takes
      the build and 3S+5C, stays the last capturer and sweeps the spades.
    """
    position = {
        "table": ["5H", "3S", "KS", "QS", "JS", "TS"],
        "hands": {"P1": ["8H", "3D"], "P2": ["5C"]},
        "stock": [],
        "to_move": "P1",
        "is_last_deal": True,
    }
    rest = list(full_deck(2))
    for c in position["table"] + ["8H", "3D", "5C"]:  # type: ignore[operator]
        rest.remove(Card.parse(c))
    position["piles"] = {"P2": {"cards": [str(c) for c in rest]}}
    state = load_position(position)
    assert {str(m) for m in legal_moves(state)} == {"C 3D x {3S}", "C 8H x {3S,5H}", "B 3D on 5H =8"}
    assert _strong_choice(position, iterations=4) in {"C 8H x {3S,5H}", "B 3D on 5H =8"}


def test_a_single_legal_move_is_returned_without_search() -> None:
    position = _full_position(["9H", "4C", "5S"], {"P1": ["9H", "6D"]}, {"P2": 2}, stock=0, seed=2)
    state = load_position(position)
    legal = legal_moves(state)
    assert [str(m) for m in legal] == ["C 9H x {9H}"]  # MUL-01
    bot = StrongBot(state.rules, iterations=50)
    assert bot.choose(view(state, 0), legal, random.Random(0)) is legal[0]
    assert bot.last_stats["worlds"] == 0


def test_time_budget_mode_returns_a_legal_move() -> None:
    game = Game(Rules(), players=3, seed=8)
    seat = game.to_act()
    assert seat is not None
    legal = game.legal_moves()
    move = StrongBot(Rules(), time_budget_ms=30).choose(game.view(seat), legal, random.Random(0))
    assert move in legal
    assert isinstance(game.view(seat), View)


def test_when_not_one_world_fits_the_time_budget_the_greedy_choice_is_returned() -> None:
    game = Game(Rules(), players=2, seed=4)
    seat = game.to_act()
    assert seat is not None
    v, legal = game.view(seat), game.legal_moves()
    assert len(legal) > 1
    bot = StrongBot(Rules(), time_budget_ms=1e-6)
    move = bot.choose(v, legal, random.Random(0))
    assert bot.last_stats["worlds"] == 0
    greedy = GreedyBot(Rules())
    assert greedy.evaluate(v, move) == max(greedy.evaluate(v, m) for m in legal)


@pytest.mark.parametrize("level", ["random", "greedy", "beginner", "casual", "strong", "expert"])
def test_a_move_that_is_not_legal_is_refused_with_a_clear_error_and_nothing_remembered(level: str) -> None:
    """A caller's list with a move the position does not allow (a trail of a card of the other hand) is refused by
    every level with a ValueError naming it -- not played, not an AssertionError from deep in the search -- and
    the bot chooses afterwards as a fresh one does."""
    from kortbord.bots import registry
    from kortbord.mulle.moves import Trail

    game = Game(Rules(), players=2, seed=4)
    seat = game.to_act()
    assert seat is not None
    v, legal = game.view(seat), game.legal_moves()
    other = next(c for c in game.view(1 - seat).hand if c not in v.hand)
    bad = Trail(other)
    assert bad not in legal
    bot = registry.make_bot("mulle", level, Rules())
    for moves in ([bad], [legal[0], bad], [*legal, bad]):
        with pytest.raises(ValueError, match=f"not legal in this view: .*T {other}"):
            bot.choose(v, moves, random.Random(0))
    # the view of a seat that is not to play (it has no legal moves): the other seat's moves or its own cards
    idle = game.view(1 - seat)
    for moves in (legal, [Trail(idle.hand[0])]):
        with pytest.raises(ValueError, match=f"seat {1 - seat} is not to play"):
            bot.choose(idle, moves, random.Random(0))
    # what is not a list of Mulle moves, or not a generator (refused before anything is drawn from the rng)
    rng = random.Random(5)
    for moves in (set(legal), dict.fromkeys(legal), (m for m in legal), [list(legal)], "T 2H", None):
        with pytest.raises(TypeError):
            bot.choose(v, moves, rng)  # type: ignore[arg-type]
    for bad_rng in (None, 5):
        with pytest.raises(TypeError, match=r"random\.Random"):
            bot.choose(v, legal, bad_rng)  # type: ignore[arg-type]
    from kortbord.cribbage import Game as CribbageGame

    with pytest.raises(TypeError, match=r"kortbord\.cribbage"):
        bot.choose(CribbageGame(seed=1).view(0), legal, random.Random(0))  # type: ignore[arg-type]
    fresh = registry.make_bot("mulle", level, Rules())
    assert bot.choose(v, legal, rng) == fresh.choose(v, legal, random.Random(5))

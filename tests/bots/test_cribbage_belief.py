"""The belief search of ``bench/cribbage_belief.py`` (issue #14 item 2's ceiling measurement) against outside
references: BSD cribbage(6)'s published crib tables, the engine's pegging scores and play.  The program's play
rule (``rule_rank``) and discard (``bsd_keeps``) are checked against the program in ``test_bsd_program_rule.py``."""

from __future__ import annotations

import importlib
import random
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kortbord.cards import Card, full_deck
from kortbord.cribbage import Rules, engine
from kortbord.cribbage.moves import Play
from kortbord.cribbage.scoring import card_value, score_play
from kortbord.cribbage.view import view

_BENCH = Path(__file__).resolve().parents[2] / "bench"
sys.path.insert(0, str(_BENCH))
sys.path.insert(0, str(_BENCH.parent / "scripts"))


belief = importlib.import_module("cribbage_belief")
outside = importlib.import_module("cribbage_outside")  # after test_bsd_program_rule's load, the same module

#: from BSD ``games/cribbage/extern.c``: ``crbescr`` (same suit) and ``crbnescr`` (not), the total crib points of
#: the 58,800 ways to complete a crib of two cards, indexed 13 * lower rank + higher rank (ace 0)
PUBLISHED = [
    ((1, 2, True), 271827),
    ((1, 3, True), 278883),
    ((1, 4, True), 332319),
    ((1, 5, True), 347769),
    ((1, 6, True), 261129),
    ((12, 13, True), 244131),
    ((1, 1, False), 325272),
    ((1, 2, False), 260772),
    ((1, 6, False), 250074),
    ((2, 2, False), 342528),
    ((5, 5, False), 528768),
    ((12, 13, False), 233076),
    ((13, 13, False), 295896),
]


@pytest.mark.parametrize(("key", "total"), PUBLISHED)
def test_crib_sums_are_the_programs_tables(key: tuple[int, int, bool], total: int) -> None:
    assert belief.crib_sums()[key] == total


@settings(max_examples=300, deadline=None)
@given(st.randoms(use_true_random=False))
def test_lay_points_are_the_engines(rng: random.Random) -> None:
    deck = list(full_deck())
    rng.shuffle(deck)
    seq: list[Card] = []
    count = 0
    for card in deck:
        if count + card_value(card) > 31:
            break
        want = score_play((*seq, card)).points
        assert belief.lay_points(tuple(c.rank for c in seq), card.rank) == want
        seq.append(card)
        count += card_value(card)


_RULES = Rules.from_dict({"players": 2, "target": 121, "muggins": True})  # the deal stops at the show


def _play_points(state: Any) -> tuple[int, int]:
    return state.scores[0], state.scores[1]


@pytest.mark.parametrize("seed", range(12))
def test_one_known_hand_gives_the_engines_values(seed: int) -> None:
    """With the opponent's hand known (one candidate) the belief search is a search of the true deal in which the
    opponent lays its rule's card: each first card's value is the engine's pegging margin from best play after it
    (``_ProgramSearch`` on the true deal, which maximises over this player's cards and applies the rule)."""
    rng = random.Random(seed)
    cards = rng.sample(list(full_deck()), 13)
    state = engine.position(_RULES, phase="discard", dealer=0, hands=[cards[:6], cards[6:12]], starter=cards[12])
    while state.phase_name == "discard":  # both lay away their last two cards
        seat = engine.to_act(state)
        assert seat is not None
        state = engine.apply(state, engine.legal_moves(state)[-1])
    seat = engine.to_act(state)
    assert seat == 1  # the pone leads
    heels = state.scores
    opp = tuple(sorted(c.rank for c in state._hands[0]))
    search = belief.BeliefSearch(belief.book_model)
    us = tuple(sorted(c.rank for c in state._hands[1]))
    values = search.root(us, [(opp, 1.0)], (), 0)
    truth = outside._ProgramSearch(1, _RULES, state)
    for move in engine.legal_moves(state):
        assert isinstance(move, Play)
        end = truth.value_after(move)
        assert values[move.card.rank] == pytest.approx(end), (move, heels)


def test_the_true_hand_stays_a_candidate() -> None:
    """When the opponent lays the cards of its rule, its true remaining hand keeps a weight at every decision."""
    rng = random.Random(3)
    checked = 0
    for _ in range(30):
        cards = rng.sample(list(full_deck()), 13)
        state = engine.position(_RULES, phase="discard", dealer=0, hands=[cards[:6], cards[6:12]], starter=cards[12])
        while state.phase_name in ("discard", "play"):
            seat = engine.to_act(state)
            assert seat is not None
            moves = engine.legal_moves(state)
            if state.phase_name == "discard":
                state = engine.apply(state, moves[0])
                continue
            plays = [m for m in moves if isinstance(m, Play)]
            if seat == 1 and len(plays) > 1:
                post = belief.Posterior(view(state, 1), keep=False)
                true = tuple(sorted(c.rank for c in state._hands[0]))
                assert dict(post.cands).get((true, 0), 0.0) > 0.0
                checked += 1
            if seat == 0 and len(plays) > 1:
                want = belief.rule_rank(
                    tuple(sorted(c.rank for c in state._hands[0])), tuple(c.rank for c in state.sequence), state.count
                )
                move = next(m for m in plays if m.card.rank == want)
            else:
                move = moves[rng.randrange(len(moves))]
            state = engine.apply(state, move)
    assert checked >= 30


def test_a_go_before_the_count_restarts_is_evidence() -> None:
    """The opponent lays to 29 and we say go; it cannot lay either, so the count restarts and we lead.  Its
    hand then holds no ace or two (spec §2.4: a player who can lay must), though ``view.passed`` is empty again."""
    state = engine.position(
        _RULES, phase="play", dealer=0, hands=["6S KS 8S QS", "9C 4C 7C JC"], crib="2H 3H 5H AH", starter="3D"
    )
    for card in ("9C", "6S", "4C", "KS"):  # 9, 15, 19, 29
        state = engine.apply(state, Play(Card.parse(card)))
    state = engine.apply(state, engine.legal_moves(state)[0])  # we (seat 1, 7 and J left) say go
    state = engine.apply(state, engine.legal_moves(state)[0])  # the opponent (8 and Q left) says go: a restart
    seen = view(state, 1)
    assert seen.count == 0 and seen.passed == () and seen.to_act == 1
    post = belief.Posterior(seen, keep=False)
    assert post.cands and all(min(hand) > 2 for (hand, _), _ in post.cands)
    assert dict(post.cands).get(((8, 12), 0), 0.0) > 0.0  # the true hand stays


@pytest.mark.parametrize("seed", range(8))
def test_the_plays_value_of_a_known_hand_is_the_engines(seed: int) -> None:
    """``play_value`` (the discard's measure of a kept four) with the opponent's four known is the engine's pegging
    margin from best play against its rule's cards: whoever leads (spec §2.4: the pone), the best first card's
    ``_ProgramSearch`` value on the true deal."""
    rng = random.Random(100 + seed)
    cards = rng.sample(list(full_deck()), 13)
    for dealer in (0, 1):  # the searcher is seat 1: the pone, then the dealer
        state = engine.position(
            _RULES, phase="discard", dealer=dealer, hands=[cards[:6], cards[6:12]], starter=cards[12]
        )
        while state.phase_name == "discard":
            state = engine.apply(state, engine.legal_moves(state)[-1])
        opp = tuple(sorted(c.rank for c in state._hands[0]))
        us = tuple(sorted(c.rank for c in state._hands[1]))
        value = belief.play_value(us, [(opp, 1.0)], dealer == 0, [belief.book_model])
        if dealer == 1:  # the opponent leads its rule's card (a lead scores nothing)
            want = belief.rule_rank(opp, (), 0)
            state = engine.apply(state, next(m for m in engine.legal_moves(state) if m.card.rank == want))
        assert engine.to_act(state) == 1
        truth = outside._ProgramSearch(1, _RULES, state)
        assert value == pytest.approx(max(truth.value_after(m) for m in engine.legal_moves(state)))


def _discards(rules: Rules) -> Any:
    """Both discards of 15 random deals (the dealer alternating; strong lays away, so the second sees the first):
    ``(seed, the seat's view, the legal moves)``."""
    from kortbord.bots.cribbage_strong import StrongBot

    strong = StrongBot(rules)
    for seed in range(15):
        rng = random.Random(seed)
        cards = rng.sample(list(full_deck()), 13)
        state = engine.position(
            rules, phase="discard", dealer=seed % 2, hands=[cards[:6], cards[6:12]], starter=cards[12]
        )
        while state.phase_name == "discard":
            seat = engine.to_act(state)
            assert seat is not None
            seen = view(state, seat)
            moves = engine.legal_moves(state)
            yield seed, seen, moves
            state = engine.apply(state, strong.choose(seen, moves, random.Random(seed)))


def test_the_discard_by_the_play_keeps_within_its_margin() -> None:
    """``belief:discard=M`` picks a keep whose show and crib value is within M points of strong's best (the play's
    value only reorders those, though it would often prefer another), as pone and as dealer."""
    from kortbord.bots.cribbage_strong import discard_values

    rules = Rules.from_dict({"players": 2, "target": 121})
    wide = belief.BeliefBot(rules, kt=0.5, discard=0.3, dsamples=30)
    roles = []
    for seed, seen, moves in _discards(rules):
        values = discard_values(seen, moves)
        chosen = wide.choose(seen, moves, random.Random(seed))
        assert values[moves.index(chosen)] >= max(values) - 0.3
        roles.append(seen.dealer == seen.seat)
    assert roles.count(True) == roles.count(False) == 15
    assert len(wide.discard_stats) == 30


def test_the_discard_by_the_play_refuses_a_second_pegging_term() -> None:
    """``discard`` and strong's ``peg_weight`` both value the keep's pegging: the bot refuses both at once."""
    with pytest.raises(ValueError, match="peg_weight"):
        belief.BeliefBot(Rules.from_dict({"players": 2, "target": 121}), discard=2.5, peg_weight=1.0)


def test_the_table_discard_keeps_within_its_margin_and_reads_its_role() -> None:
    """``belief:ptable=w`` picks a keep whose show and crib value is within ``pmargin`` of strong's best, and among
    those the one whose value less strong's small pegging term plus w times the play table's value of the kept
    four -- the pone's column when this player leads (spec §2.4: the pone leads), the dealer's otherwise -- is the
    highest; as pone and as dealer."""
    from kortbord.bots.cribbage_strong import StrongBot, discard_values

    rules = Rules.from_dict({"players": 2, "target": 121})
    bot = belief.BeliefBot(rules, kt=0.5, ptable=1.0, pmargin=1.5)
    strong = StrongBot(rules)
    table = belief.play_table()
    roles, moved = [], 0
    for seed, seen, moves in _discards(rules):
        values = discard_values(seen, moves)
        chosen = bot.choose(seen, moves, random.Random(seed))
        assert values[moves.index(chosen)] >= max(values) - 1.5
        column = table["dealer" if seen.dealer == seen.seat else "pone"]
        scores = {}
        for i, move in enumerate(moves):
            kept = tuple(sorted(c.rank for c in seen.hand if c not in move.cards))
            if values[i] >= max(values) - 1.5:
                scores[i] = values[i] - belief._peg_terms(kept) + column["".join(belief._PIPS[r] for r in kept)]
        assert scores[moves.index(chosen)] == pytest.approx(max(scores.values()))
        moved += chosen != strong.choose(seen, moves, random.Random(seed))
        roles.append(seen.dealer == seen.seat)
    assert roles.count(True) == roles.count(False) == 15
    assert moved > 0  # the table reorders some keeps


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"ptable": 2.5}, "ptable must be"),
        ({"ptable": 1.0, "pmargin": -1}, "pmargin"),
        ({"ptable": 1.0, "discard": 2.5}, "give one"),
        ({"pmargin": 1.0}, "without it"),
        ({"ptable": 1.0, "peg_weight": 1.0}, "give one"),
    ],
)
def test_the_table_discard_refuses_bad_options(options: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        belief.BeliefBot(Rules.from_dict({"players": 2, "target": 121}), **options)


def test_the_play_table_weighs_each_opponents_four_by_the_cards_the_kept_four_leave() -> None:
    """``scripts/make_play_table.py``: an opponent's four drawn from a full pack counts by the ways the 48 cards
    left after the kept four give it over the ways the 52 do -- none when the kept four hold every card of a rank it
    needs (four aces kept: no ace left), 3 of 4 for one ace with an ace kept -- and the value is the belief
    search's over those weights (:func:`play_value`, whose value on a known hand is the engine's)."""
    script = importlib.import_module("make_play_table")
    from kortbord.bots.cribbage_expert import LearntModel, play_prior

    model = [LearntModel(prior=play_prior())]
    aces, mixed = (1, 1, 1, 1), (1, 5, 10, 13)
    impossible, other = (1, 2, 3, 4), (5, 6, 7, 8)
    # four aces kept: the four with an ace is out, the other alone is the opponent's
    _, _, v = script._value((aces, True, [(impossible, 3), (other, 1)]))
    assert v == pytest.approx(belief.play_value(aces, [(other, 1.0)], True, model))
    # one ace, one five, one ten and a king kept: 3/4 of the ace-four's draws, 3/4 of the five-four's
    _, _, v = script._value((mixed, False, [(impossible, 2), (other, 2)]))
    assert v == pytest.approx(belief.play_value(mixed, [(impossible, 1.5), (other, 1.5)], False, model))


def test_the_work_bound_fixes_a_decisions_work_not_its_time() -> None:
    """``hands`` draws of the posterior and a node ``budget``: a first play decision (every hand the opponent may
    hold) searches at most the budget on its last try, and the same rng gives the same choice."""
    rng = random.Random(11)
    search = belief.BeliefSearch([belief.book_model], budget=40)
    with pytest.raises(belief.OverBudget):
        search.root((1, 5, 10, 13), [(((2, 3, 4, 6), 0), 1.0), (((7, 8, 9, 12), 0), 1.0)], (), 0)
    bot = belief.make_belief("belief:hands=16:budget=600", None)
    for _ in range(6):
        cards = rng.sample(list(full_deck()), 13)
        state = engine.position(_RULES, phase="discard", dealer=0, hands=[cards[:6], cards[6:12]], starter=cards[12])
        while state.phase_name == "discard":
            state = engine.apply(state, engine.legal_moves(state)[0])
        seat = engine.to_act(state)
        assert seat is not None
        v = view(state, seat)
        legal = list(engine.legal_moves(state))
        first = bot.play_values(v, legal, random.Random(5))
        again = bot.play_values(v, legal, random.Random(5))
        assert first == again
        k, nodes = bot.last_search
        assert 0 < nodes <= 600 or k == 1  # within the budget, or down to one hand (then unbounded)
        assert bot.stats[-1][0] >= nodes


def _the_lead(rules: Rules, scores: tuple[int, int]) -> tuple[Any, list[Any]]:
    """The pone's lead of one deal (the dealer seat 0; 5 6 J Q against 4 7 9 K, starter T) at ``scores``: the pone's
    view and its legal moves."""
    state = engine.position(
        rules,
        phase="play",
        dealer=0,
        hands=[["5S", "6H", "JD", "QC"], ["4S", "7H", "9D", "KC"]],
        crib=["AS", "2H", "3D", "8C"],
        starter="TS",
        scores=list(scores),
    )
    seat = engine.to_act(state)
    assert seat is not None
    return view(state, seat), list(engine.legal_moves(state))


def _choose_the_lead(bot: Any, rules: Rules, scores: tuple[int, int]) -> None:
    """``bot`` chooses the pone's lead of :func:`_the_lead` at ``scores``, with rng seed 1."""
    bot.choose(*_the_lead(rules, scores), random.Random(1))


@pytest.mark.parametrize(
    ("scores", "near", "searched"),
    [((91, 60), 20, True), ((91, 60), 45, False), ((105, 60), 20, False), ((60, 101), 20, False), ((75, 40), 45, True)],
)
def test_near_is_where_the_end_game_board_takes_over(scores: tuple[int, int], near: int, searched: bool) -> None:
    """``near=N``: the belief search plays for the points until a player (either) is within N points of the target,
    then strong's play to the board (spec §5); the default is strong's own end game, 45 points
    (121 - 91 = 30: inside 45, outside 20; 121 - 105 = 16 and 121 - 101 = 20: inside both)."""
    rules = Rules.from_dict({"players": 2, "target": 121})
    bot = belief.BeliefBot(rules, kt=0.5, near=near, hands=8, budget=2000)
    _choose_the_lead(bot, rules, scores)
    assert len(bot.stats) == (1 if searched else 0)


@pytest.mark.parametrize("near", [-1, 46, 20.5])
def test_near_outside_strongs_end_game_is_refused(near: Any) -> None:
    with pytest.raises(ValueError, match="near must be a whole number from 0 to 45"):
        belief.BeliefBot(Rules.from_dict({"players": 2, "target": 121}), near=near)


@pytest.mark.parametrize("endgame", [2, -1, "0", "yes"])
def test_endgame_is_on_or_off(endgame: Any) -> None:
    with pytest.raises(ValueError, match="endgame must be 0 or 1"):
        belief.BeliefBot(Rules.from_dict({"players": 2, "target": 121}), endgame=endgame)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"endgame": 1, "ehands": -1}, "ehands must be a whole number"),
        ({"endgame": 1, "ebudget": 2.5}, "ebudget must be a whole number"),
        ({"ehands": 64}, "ehands is the end game's"),
        ({"endgame": 0, "ebudget": 1000}, "ebudget is the end game's"),
    ],
)
def test_the_end_games_work_bound_is_refused_when_bad(options: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        belief.BeliefBot(Rules.from_dict({"players": 2, "target": 121}), **options)


@pytest.mark.parametrize(("scores", "draws"), [((60, 60), 4), ((105, 60), 0), ((60, 101), 0)])
def test_the_end_game_searches_with_its_own_draws(scores: tuple[int, int], draws: int) -> None:
    """``ehands``: within 45 points of the target (either player; strong's end game, spec §5) the belief search is
    given ``ehands`` draws of the posterior (0: every hand), elsewhere ``hands`` -- the same position and rng, only
    the scores differ.  The pone leads, so every four of the unseen cards (more than four) is a candidate."""
    rules = Rules.from_dict({"players": 2, "target": 121})
    bot = belief.make_belief("belief:kt=0.5:hands=4:endgame=1:ehands=0", rules)
    _choose_the_lead(bot, rules, scores)
    assert len(bot.stats) == 1
    assert bot.last_search[0] == draws


@pytest.mark.parametrize(
    ("scores", "wide", "to_board", "draws"),
    [((60, 60), 75, True, 4), ((60, 60), 45, False, 4), ((30, 40), 75, False, 4), ((105, 60), 75, True, 0)],
)
def test_wide_values_the_play_to_the_board_from_further_out(
    scores: tuple[int, int], wide: int, to_board: bool, draws: int
) -> None:
    """``wide=N`` (an experiment): from a player within N points of the target the belief search's values are the
    board's -- the pegging margin plus the bonus times twice the chance of the game less one (spec §5), so some card
    is valued beyond the most a play can peg -- with the play's own draws (``hands``); within 45 the end game's
    (``ehands``, here every hand).  121 - 60 = 61: inside 75, outside 45; 121 - 40 = 81: outside both."""
    rules = Rules.from_dict({"players": 2, "target": 121})
    bot = belief.make_belief(f"belief:kt=0.5:hands=4:endgame=1:ehands=0:wide={wide}", rules)
    values = bot.play_values(*_the_lead(rules, scores), random.Random(1))
    assert (max(abs(v) for v in values) > belief.cribbage_strong._PLAY_REACH) == to_board
    assert bot.last_search[0] == draws
    assert bot.discard_near == wide


@pytest.mark.parametrize(
    ("scores", "wide", "to_board"),
    [((60, 60), 75, True), ((60, 60), 45, False), ((30, 40), 75, False), ((80, 40), 45, True)],
)
def test_wide_lays_away_to_the_board_from_further_out(
    scores: tuple[int, int], wide: int, to_board: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``wide=N``: the discard too is strong's to the board (its chance of the game, spec §5) from a player within N
    points of the target; within 45 it always is (strong's end game); further off it is for the points."""
    from kortbord.bots import cribbage_strong

    calls = []
    board = cribbage_strong.board_discard_values
    monkeypatch.setattr(cribbage_strong, "board_discard_values", lambda *a, **k: calls.append(1) or board(*a, **k))
    rules = Rules.from_dict({"players": 2, "target": 121})
    bot = belief.make_belief(f"belief:kt=0.5:hands=4:endgame=1:wide={wide}", rules)
    rng = random.Random(3)
    cards = rng.sample(list(full_deck()), 13)
    state = engine.position(
        rules, phase="discard", dealer=0, hands=[cards[:6], cards[6:12]], starter=cards[12], scores=list(scores)
    )
    seat = engine.to_act(state)
    assert seat is not None
    bot.choose(view(state, seat), engine.legal_moves(state), random.Random(1))
    assert bool(calls) == to_board


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"endgame": 1, "wide": 44}, "wide must be a whole number from 45"),
        ({"endgame": 1, "wide": 122}, "from 45"),
        ({"endgame": 1, "wide": 60.0}, "wide must be"),
        ({"wide": 60}, "wide is the end game's"),
    ],
)
def test_wide_is_refused_when_bad(options: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        belief.BeliefBot(Rules.from_dict({"players": 2, "target": 121}), **options)


def _end(**kw: Any) -> Any:
    args: dict[str, Any] = dict(
        target=121,
        me=100,
        opp=100,
        i_deal=True,
        my_show=0,
        opp_laid=(),
        seen0=(0,) * 14,
        us0=(),
        starter=1,
        crib_shift=0.0,
    )
    args.update(kw)
    return belief.BoardEnd(**args)


@pytest.mark.parametrize(("i_deal", "chance"), [(True, 0.0), (False, 1.0)])
def test_the_board_end_counts_the_pone_first(i_deal: bool, chance: float) -> None:
    """Spec §2.6: after the play the pone's hand is counted first, and the first to reach the target wins -- both
    players at 119 with a two-point hand: the pone wins (this player deals: 0; this player is the pone: 1)."""
    end = _end(me=119, opp=119, i_deal=i_deal, my_show=2)
    assert end.chance(119, 119, 2) == chance


def test_the_board_end_dealer_wins_with_the_crib_only_when_it_is_reached() -> None:
    """The dealer at 110 with a 2-point hand needs 9 from its crib (counted last, spec §2.6), the pone at 115 with
    nothing: the dealer wins outright with a crib of 9 or more; under it the pone deals next, and the board table
    gives the rest -- so its chance lies between the crib's chance of 9 or more and that plus the rest times the
    best next-deal chance."""
    from kortbord.bots.cribbage_board import after_deal_chance

    end = _end(me=110, opp=115, i_deal=True, my_show=2)
    crib = end._crib
    out = float(crib[9:].sum())
    best_next = max(after_deal_chance(121, 112 + c, 115, False) for c in range(9))
    got = end.chance(110, 115, 0)
    assert out < got <= out + (1.0 - out) * best_next + 1e-12
    assert best_next < 1.0


def test_the_board_end_reads_the_opponents_four_at_the_plays_end() -> None:
    """At the play's end the opponent's four are what it laid before the decision and every rank laid since less
    this player's: 5S 6H (ours, held at the decision), the opponent's 4 laid before it, then 7 9 K laid by it."""
    seen0 = [0] * 14
    seen0[4] += 1  # its 4, laid before the decision
    seen0[10] += 1  # the starter, a ten
    end = _end(opp_laid=(4,), seen0=tuple(seen0), us0=(5, 6), starter=10)
    at_end = list(seen0)
    for r in (5, 6, 7, 9, 13):
        at_end[r] += 1
    assert end.opp_hand(tuple(at_end)) == (4, 7, 9, 13)


def test_the_board_search_values_the_card_that_wins_the_game_at_the_whole_bonus() -> None:
    """This player deals at 119 of 121, its hand worth nothing with the starter (8 9 Q K, 2); the pone, at 115,
    counts first (spec §2.6) and leads a 7: this player's 8 makes 15 for two points (§2.4) and the game ends there
    -- worth the two points and strong's whole bonus, whatever the pone holds; a 9, queen or king scores nothing now
    and leaves the pone its chance of counting out first."""
    rules = Rules.from_dict({"players": 2, "target": 121})
    bot = belief.BeliefBot(rules, kt=0.5, endgame=True)  # every hand the pone may hold
    state = engine.position(
        rules,
        phase="play",
        dealer=0,
        hands=[["8S", "9H", "QD", "KC"], ["7H", "7C", "8D", "5S"]],
        crib=["AS", "2H", "3S", "4C"],
        starter="2S",
        scores=[119, 115],
    )
    lead = next(m for m in engine.legal_moves(state) if isinstance(m, Play) and m.card == Card.parse("7H"))
    state = engine.apply(state, lead)
    seen = view(state, 0)
    moves = engine.legal_moves(state)
    values = bot.play_values(seen, moves, random.Random(3))
    by_card = {str(m.card): v for m, v in zip(moves, values, strict=True)}
    assert by_card["8S"] == pytest.approx(2 + belief.cribbage_strong.WIN)
    assert max(by_card["9H"], by_card["QD"], by_card["KC"]) < by_card["8S"]
    assert bot.choose(seen, moves, random.Random(3)).card == Card.parse("8S")
    assert len(bot.stats) == 2  # both searched by the belief search (not strong's)


def test_the_board_search_far_from_the_end_is_the_points_search_plus_the_chance() -> None:
    """Both at 0 (the game cannot end in this deal) the board search's value of a card is its points value plus the
    bonus times twice a chance less one (so within the bonus of it), and it orders the cards as the points do
    whenever their points differ by half a point or more -- away from the end a few points move the chance of the
    game nearly in proportion (spec §5: the points decide there).  Random play positions, mid-count ones too."""
    rules = Rules.from_dict({"players": 2, "target": 121})
    win = belief.cribbage_strong.WIN
    pairs = 0
    for seed in range(12):
        rng = random.Random(seed)
        cards = rng.sample(list(full_deck()), 13)
        state = engine.position(
            rules, phase="play", dealer=seed % 2, hands=[cards[:4], cards[4:8]], crib=cards[8:12], starter=cards[12]
        )
        for _ in range(seed % 3):
            state = engine.apply(state, rng.choice(engine.legal_moves(state)))
        seat = engine.to_act(state)
        assert seat is not None and state.phase_name == "play"
        seen = view(state, seat)
        post = belief.Posterior(seen, True, 0.02, ("greedy",), kt=0.5)
        us = tuple(sorted(c.rank for c in seen.hand))
        seq = tuple(c.rank for c in seen.sequence)
        points = belief.BeliefSearch(post.models).root(us, post.cands, seq, seen.count, post.seen)
        end = belief._board_end(seen, us, post.seen)
        board = belief.BeliefSearch(post.models, 0, end).root(us, post.cands, seq, seen.count, post.seen)
        assert board.keys() == points.keys()
        for r, v in board.items():
            assert abs(v - points[r]) < win
            for r2, v2 in board.items():
                if points[r] >= points[r2] + 0.5:
                    pairs += 1
                    assert v > v2
    assert pairs >= 10


def test_a_series_empties_the_session_memory_every_n_games(monkeypatch: pytest.MonkeyPatch) -> None:
    # learn=session:series=3: a game learns from at most the two before it in this process, then a stranger
    monkeypatch.setattr(belief, "_SERIES_GAMES", [0])
    monkeypatch.setattr(belief, "_SESSION", [])
    monkeypatch.setattr(belief, "_SESSION_KEEPS", [])
    seen = []
    for _ in range(7):
        bot = belief.make_belief("belief:learn=session:series=3", None)
        seen.append(len(bot._decisions))
        bot._decisions.append(((1, 2, 3, 4), (), 0, 1, True))  # one decision learnt in this game
    assert seen == [0, 1, 2, 0, 1, 2, 0]
    for bad in ("belief:learn=game:series=3", "belief:learn=session:series=-1", "belief:learn=session:series=1.5"):
        with pytest.raises(ValueError, match="series"):
            belief.make_belief(bad, None)


def test_the_greedy_keep_is_greedys_own_discard() -> None:
    """``keep=greedy`` (told greedy's discard, an experiment): the best keep by :func:`greedy_keep_values` is the
    one kortbord's ``greedy`` lays away itself (its ``discard_value``: spec §5's mean show plus or minus its rough
    crib value), as dealer and as pone, on random sixes with no four of a suit (the table leaves flushes out) and a
    clear best (by more than the nobs term's rounding)."""
    from kortbord.bots.cribbage_simple import GreedyBot

    rules = Rules.from_dict({"players": 2})
    greedy = GreedyBot()
    checked = 0
    for seed in range(80):
        rng = random.Random(1000 + seed)
        cards = rng.sample(list(full_deck()), 13)
        state = engine.position(
            rules, phase="discard", dealer=seed % 2, hands=[cards[:6], cards[6:12]], starter=cards[12]
        )
        seat = engine.to_act(state)
        assert seat is not None
        seen = view(state, seat)
        six = tuple(sorted(seen.hand))
        if max(sum(c.suit == s for c in six) for s in {c.suit for c in six}) >= 4:
            continue
        values = belief.greedy_keep_values(six, own_crib=state.dealer == seat)
        order = sorted(range(15), key=lambda k: -values[k])
        if values[order[0]] - values[order[1]] < 0.1:
            continue
        move = greedy.choose(seen, engine.legal_moves(state), random.Random(seed))
        laid = set(move.cards)
        _, (i, j) = belief.cribbage_strong._SPLITS[order[0]]
        assert laid == {six[i], six[j]}, (six, move)
        checked += 1
    assert checked >= 40


def test_the_risk_learner_takes_its_own_prior_and_refuses_bad_options() -> None:
    """``belief:learn=...:risk=1`` (the experiment): both learnt models weigh the points a card offers, and
    ``prior=strong`` is then the risk prior (strong's own play, one weight for each of ``FEATURES_RISK``), not the
    level's; risk without a learner, or other than 0 or 1, is refused."""
    from kortbord.bots.cribbage_expert import FEATURES_RISK

    bot = belief.make_belief("belief:learn=game:prior=strong:sd=1:esd=3:risk=1", None)
    assert bot.model.risk and bot.emodel.risk
    assert list(bot.model.prior) == list(belief.risk_prior())
    assert len(belief.risk_prior()) == len(FEATURES_RISK)
    plain = belief.make_belief("belief:learn=game:prior=strong:risk=0", None)
    assert not plain.model.risk and len(plain.model.prior) == len(FEATURES_RISK) - 1
    with pytest.raises(ValueError, match="risk is an option of a learner"):
        belief.make_belief("belief:risk=1", None)
    with pytest.raises(ValueError, match="risk is 1 or 0"):
        belief.make_belief("belief:learn=game:risk=2", None)

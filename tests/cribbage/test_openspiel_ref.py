"""Sanity tests of the OpenSpiel cribbage driver (tests/cribbage/openspiel_ref.py) against the rules text.

Expected values come from the rules specification (``../shared/rules/cribbage.md``: §2.3-§2.6 for the rules,
§4 worked cases by id, §7 for OpenSpiel's documented behaviour and defects), never from the driver's output.
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import pytest

pyspiel = pytest.importorskip("pyspiel")

sys.path.insert(0, str(Path(__file__).resolve().parent))
import openspiel_ref as ref  # noqa: E402

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

RANK_ORDER = "A23456789TJQK"


def value(card: str) -> int:
    """Counting value, spec §2.1: A = 1, 2-9 face value, T/J/Q/K = 10."""
    return min(RANK_ORDER.index(card[0]) + 1, 10)


@pytest.fixture(scope="module")
def random_games() -> dict[int, list[ref.Transcript]]:
    return {n: [ref.play_random_game(n, seed) for seed in range(12)] for n in (2, 3, 4)}


# ---------------------------------------------------------------------------------------------------------------
# Encoding facts


def test_card_index_mapping_matches_openspiel_strings() -> None:
    state = pyspiel.load_game("cribbage").new_initial_state()
    outcomes = [a for a, _ in state.chance_outcomes()]
    assert outcomes == list(range(52))
    for index in range(52):
        assert state.action_to_string(pyspiel.PlayerId.CHANCE, index) == f"Deal {ref.card_string(index)}"
        assert ref.card_index(ref.card_string(index)) == index
    # Suit blocks C, D, H, S; ranks A..K within each (e.g. 9H = 26 + 8).
    assert [ref.card_string(i) for i in (0, 12, 13, 34, 51)] == ["AC", "KC", "AD", "9H", "KS"]
    assert ref.card_index("10D") == ref.card_index("TD") == 22
    assert ref.card_index("q♠") == ref.card_index("QS")
    for bad in ("", "1H", "ZZ", "9X", "TDD"):
        with pytest.raises(ValueError):
            ref.card_index(bad)


def test_two_card_discard_action_matches_openspiel_strings() -> None:
    state = pyspiel.load_game("cribbage").new_initial_state()
    action = ref.discard_action(["6C", "4C"])
    assert state.action_to_string(0, action) == "Choose 4C 6C"
    assert ref.discard_action(["KD", "KC"]) == 52 + 52 * ref.card_index("KC") + ref.card_index("KD")


def test_dealer_rotation_and_dealing_order(random_games: dict[int, list[ref.Transcript]]) -> None:
    """Spec §7: player 0 always deals first and the deal rotates (index + 1)."""
    for n, games in random_games.items():
        per_player, to_crib = {2: (6, 0), 3: (5, 1), 4: (5, 0)}[n]  # spec §2.2 table
        for t in games:
            for k, deal in enumerate(t.deals):
                assert deal.index == k
                assert deal.dealer == k % n
                deal_events = [e for e in deal.events if e.kind == "deal"]
                expected_seats = [p for p in range(n) for _ in range(per_player)] + [None] * to_crib
                assert [e.seat for e in deal_events] == expected_seats
                discarders = [e.seat for e in deal.events if e.kind == "discard"]
                assert discarders == list(range(n))
                assert all(len(d) == (2 if n == 2 else 1) for d in deal.discards)
                if deal.pegging:  # the player to the dealer's left leads (OpenSpiel's left is index + 1)
                    assert deal.pegging[0][0] == (deal.dealer + 1) % n


def test_every_card_accounted_for_and_scores_add_up(random_games: dict[int, list[ref.Transcript]]) -> None:
    for n, games in random_games.items():
        for t in games:
            assert t.terminal and max(t.final_scores) >= 121
            previous = [0] * n
            for deal in t.deals:
                assert deal.scores_before == previous
                dealt = [c for h in deal.hands for c in h] + ([deal.crib_from_pack] if deal.crib_from_pack else [])
                assert len({*dealt, deal.starter}) == len(dealt) + 1
                assert all(len(k) == 4 for k in deal.kept) and len(deal.crib) == 4
                summed = [sum(e.delta[p] for e in deal.events) for p in range(n)]
                assert [a + d for a, d in zip(deal.scores_before, summed, strict=True)] == deal.scores_after
                if deal.show is not None:  # each player laid exactly the 4 cards he kept
                    laid = Counter(s for s, _ in deal.plays())
                    assert all(laid[p] == 4 for p in range(n))
                    assert sorted(deal.plays()) == sorted((p, c) for p in range(n) for c in deal.kept[p])
                previous = deal.scores_after
            assert previous == t.final_scores


def test_four_players_team_points_copied_to_partner(random_games: dict[int, list[ref.Transcript]]) -> None:
    """Spec §7: 4 players are always teams {0,2} v {1,3}; a member's points are copied to the partner."""
    for t in random_games[4]:
        for deal in t.deals:
            for e in deal.events:
                assert e.delta[0] == e.delta[2] and e.delta[1] == e.delta[3]


def test_his_heels_scores_two_for_the_dealer(random_games: dict[int, list[ref.Transcript]]) -> None:
    """Spec §2.3: a jack starter scores 2 for the dealer (his side in partnerships), nothing otherwise."""
    seen = 0
    for n, games in random_games.items():
        for t in games:
            for deal in t.deals:
                (starter_event,) = [e for e in deal.events if e.kind == "starter"]
                side = {deal.dealer, (deal.dealer + 2) % 4} if n == 4 else {deal.dealer}
                heels = 2 if deal.starter[0] == "J" else 0
                seen += heels > 0
                assert starter_event.delta == [heels if p in side else 0 for p in range(n)]
    assert seen > 0


def test_pegging_fifteen_and_thirty_one_in_random_games(random_games: dict[int, list[ref.Transcript]]) -> None:
    """Spec §2.4.3: a card bringing the count to 15 scores 2 (more with a pair or run); 31 scores 2 at once and
    ends the count; only the player who laid the card (and his partner) scores."""
    fifteens = 0
    for n, games in random_games.items():
        for t in games:
            for deal in t.deals:
                count = 0
                for e in deal.events:
                    if e.kind != "play":
                        continue
                    count = e.count
                    assert e.count <= 31
                    side = {e.seat, (e.seat + 2) % 4} if n == 4 else {e.seat}
                    if not e.show:
                        assert all(e.delta[p] == 0 for p in range(n) if p not in side)
                    if e.count == 15:
                        fifteens += 1
                        assert e.delta[e.seat] >= 2
                    if e.count == 31:
                        assert e.count_end == {"seat": e.seat, "points": 2}
                        assert e.delta[e.seat] >= 2
                assert count <= 31
    assert fifteens > 0


def test_show_is_one_action_after_the_last_go_and_breakdown_adds_up(
    random_games: dict[int, list[ref.Transcript]],
) -> None:
    """Spec §7: DoEndOfPlayRound scores go/last, then hands 0..n-1, then the crib, in the same action."""
    for games in random_games.values():
        for t in games:
            for deal in t.deals:
                if deal.show is None:
                    continue
                assert deal.show.event == len(deal.events) - 1
                last = deal.events[-1]
                assert last.show and last.count_end is not None
                assert deal.show.consistent
                assert deal.plays()[-1][0] == last.count_end["seat"]


# ---------------------------------------------------------------------------------------------------------------
# Constructed deals (spec §4 worked cases)


def test_spec_case_peg2_go_after_pair_royal() -> None:
    """Spec §4 case peg2-go-after-pair-royal: P0 pair 2, P1 pair royal 6, P1 go 1, P0 last card 1."""
    deal = {
        "hands": [["KH", "8S", "2D", "7C", "3H", "6H"], ["KS", "KD", "9C", "4D", "AH", "2H"]],
        "discards": [["3H", "6H"], ["AH", "2H"]],
        "starter": "QC",
        "pegging": [[1, "KS"], [0, "KH"], [1, "KD"], [0, "go"], [1, "go"], [0, "8S"], [1, "9C"], [0, "2D"],
                    [1, "4D"], [0, "7C"]],
    }  # fmt: skip
    t = ref.replay_game(2, [deal], strict_gos=True)
    (d,) = t.deals
    assert d.dealer == 0
    assert d.pegging == deal["pegging"]  # OpenSpiel follows the spec's turn order and gos exactly
    by_card = {e.card: e for e in d.events if e.kind == "play"}
    assert by_card["KH"].delta == [2, 0]  # pair
    assert by_card["KD"].delta == [0, 6]  # pair royal
    go_events = [e for e in d.events if e.count_end is not None and not e.show]
    assert [(e.kind, e.delta) for e in go_events] == [("pass", [0, 1])]  # P1's go
    assert d.show is not None and d.show.count_end == {"seat": 0, "points": 1}  # last card
    pegged = [sum(e.delta[p] for e in d.events if e.kind in ("play", "pass") and not e.show) for p in (0, 1)]
    pegged[0] += 1  # the last card, scored inside the show action
    assert pegged == [3, 7]  # expected totals {P1: 7, P0: 3}


def test_spec_case_peg2_continue_after_go_fifteen_and_thirty_one() -> None:
    """Spec §4 case peg2-continue-after-go: 15 for P0 (2), pair + 31 for P0 (4), last card P1 (1)."""
    deal = {
        "hands": [["5H", "4C", "AS", "AD", "2C", "3C"], ["TS", "TD", "9C", "8D", "6S", "7S"]],
        "discards": [["2C", "3C"], ["6S", "7S"]],
        "starter": "KH",
        "pegging": [[1, "TS"], [0, "5H"], [1, "TD"], [0, "4C"], [1, "go"], [0, "AS"], [0, "AD"], [1, "9C"],
                    [1, "8D"]],
    }  # fmt: skip
    t = ref.replay_game(2, [deal], strict_gos=True)
    (d,) = t.deals
    assert d.pegging == deal["pegging"]
    by_card = {e.card: e for e in d.events if e.kind == "play"}
    assert by_card["5H"].count == 15 and by_card["5H"].delta == [2, 0]  # fifteen when the count hits 15
    assert by_card["AD"].count == 31 and by_card["AD"].delta == [4, 0]  # pair 2 + thirty-one 2
    assert by_card["AD"].count_end == {"seat": 0, "points": 2}
    assert d.show is not None and d.show.count_end == {"seat": 1, "points": 1}


def test_known_hand_scores_in_the_show() -> None:
    """Spec §2.5 / §4 case hand-29: 5H 5D 5S JC with starter 5C scores 29 for the pone (P1).

    P0 keeps four kings; the pegging gives P0 the last card, so P1's show delta is his hand alone.
    """
    deal = {
        "hands": [["KH", "KD", "KS", "KC", "2C", "3C"], ["5H", "5D", "5S", "JC", "2H", "3H"]],
        "discards": [["2C", "3C"], ["2H", "3H"]],
        "starter": "5C",
        "pegging": [[1, "5H"], [0, "KH"], [1, "5D"], [0, "KD"], [1, "5S"], [0, "KS"], [1, "JC"], [0, "KC"]],
    }
    t = ref.replay_game(2, [deal])
    (d,) = t.deals
    assert d.show is not None
    assert d.show.count_end["seat"] == 0
    assert d.show.delta[1] == 29
    assert d.show.hands is not None and d.show.hands[1] == 29


@pytest.mark.parametrize(
    ("hand", "starter", "expected"),
    [
        # spec §4 hand cases (ids in comments); OpenSpiel agrees with the rules on hands (spec §7)
        (["5H", "5D", "5S", "JC"], "5C", 29),  # hand-29
        (["5H", "5D", "5S", "5C"], "KS", 28),  # hand-28-four-fives-ten
        (["3D", "4S", "4C", "5H"], "KS", 10),  # hand-double-run-3445
        (["3D", "3S", "4C", "4H"], "5S", 20),  # hand-double-double-run
        (["7C", "7D", "7S", "7H"], "AD", 24),  # hand-A7777
        (["AD", "2S", "3C", "4H"], "5S", 7),  # hand-run-of-five
        (["6D", "7D", "8D", "9D"], "2S", 14),  # hand-4flush-hand
        (["JD", "2S", "4C", "6H"], "9D", 5),  # hand-nobs
        (["2C", "4D", "6S", "8H"], "JH", 0),  # hand-jack-starter-no-nobs
        (["9C", "TC", "JC", "QC"], "KC", 11),  # hand-5flush-run-nobs
    ],
)
def test_openspiel_hand_score_matches_spec_hand_cases(hand: list[str], starter: str, expected: int) -> None:
    assert ref.openspiel_hand_score(hand, starter) == expected


def test_crib_four_card_flush_defect_is_reproducible() -> None:
    """Spec §7: OpenSpiel scores a crib of 4 suited cards with an off-suit starter 4 points higher than the crib
    flush rule of §2.5 (only a 5-card crib flush scores; case crib-4flush-zero: 2D 4D 6D 8D + KS = 0).

    Dealer P0 keeps 3D 4S 4C 5H (case hand-double-run-3445 with starter KS: 10); P1 keeps TH JH QH KH (with KS:
    a double run of 4 = 8, the pair of kings 2, a 4-card hand flush 4, §2.5: 14); P1 lays the last card, so P0's show delta is hand + crib.
    """
    deal = {
        "hands": [["3D", "4S", "4C", "5H", "6D", "8D"], ["KH", "QH", "JH", "TH", "2D", "4D"]],
        "discards": [["6D", "8D"], ["2D", "4D"]],
        "starter": "KS",
        "pegging": [[1, "KH"], [0, "3D"], [1, "QH"], [0, "4S"], [1, "go"], [0, "4C"], [1, "JH"], [0, "5H"],
                    [1, "TH"]],
    }  # fmt: skip
    t = ref.replay_game(2, [deal], strict_gos=True)
    (d,) = t.deals
    assert sorted(d.crib) == sorted(["6D", "8D", "2D", "4D"])
    assert d.pegging == deal["pegging"]
    by_card = {e.card: e for e in d.events if e.kind == "play"}
    assert by_card["4C"].delta == [4, 0]  # pair + 31 (§2.4)
    assert by_card["5H"].delta == [2, 0]  # fifteen
    assert d.show is not None and d.show.count_end == {"seat": 1, "points": 1}
    rules_hand_p0, rules_hand_p1, rules_crib = 10, 8 + 2 + 4, 0
    assert d.show.delta == [rules_hand_p0 + rules_crib + 4, rules_hand_p1 + 1]
    assert d.show.crib == rules_crib + 4
    # Control: a 5-card crib flush (case crib-5flush: 6D 7D 8D 9D + 2D) is worth 15 under both.
    assert ref.openspiel_hand_score(["6D", "7D", "8D", "9D"], "2D") == 15


def test_openspiel_winner_is_lowest_index_over_121() -> None:
    """Spec §7 "wrong winner": the whole show is scored without stopping at 121 and DetermineWinner picks the
    lowest player index with >= 121, so a 2-player game can end with both players over 121 and player 0 winning."""
    both = 0
    for seed in range(60):
        t = ref.play_random_game(2, seed, breakdown=False)
        if min(t.final_scores) >= 121:
            both += 1
            assert t.winner == 0
            assert t.returns == [t.final_scores[0] + 1000, t.final_scores[1] - 1000]
    assert both > 0


def test_replay_rejects_a_play_out_of_turn() -> None:
    deal = {
        "hands": [["KH", "8S", "2D", "7C", "3H", "6H"], ["KS", "KD", "9C", "4D", "AH", "2H"]],
        "discards": [["3H", "6H"], ["AH", "2H"]],
        "starter": "QC",
        "pegging": [[0, "KH"], [1, "KS"]],  # the dealer may not lead (spec §2.4.1)
    }
    with pytest.raises(ref.ReplayMismatch, match="player 1 to play"):
        ref.replay_game(2, [deal])
    with pytest.raises(ref.ReplayMismatch, match="dealer"):
        ref.replay_game(2, [{**deal, "dealer": 1}])


def test_kortbord_seat_mapping_is_a_rotation() -> None:
    assert [ref.openspiel_player(s, 2, 4) for s in range(4)] == [2, 3, 0, 1]
    assert ref.openspiel_player(2, 2, 3) == 0


@settings(max_examples=15, deadline=None)
@given(players=st.sampled_from([2, 3, 4]), seed=st.integers(0, 2**32 - 1))
def test_replaying_a_random_game_gives_the_same_game(players: int, seed: int) -> None:
    """Driving OpenSpiel through a transcript's deals reproduces every event and score change."""
    t = ref.play_random_game(players, seed, breakdown=False)
    replayed = ref.replay_game(players, t.deals, breakdown=False, strict_gos=True)
    expected = t.to_dict()
    expected["seed"] = None
    assert replayed.to_dict() == expected

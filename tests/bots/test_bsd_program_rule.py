"""The outside player's play rule as ``bench/cribbage_outside.py`` writes it (``program_rank``, issue #14 item 2):
the ceiling bench bot ``modelled`` weighs its sampled deals by it, so it must be the program's rule.

The hand-made cases take their answers from the rule as BSD ``games/cribbage`` publishes it (``crib.c``: the card
scoring the most at once, the first of equals in the sorted hand; else ``support.c`` ``cchose``: a count reaching 4,
or 3 on a lead, under 4; a count of 21 - v kept with an answer of v to 31; a count kept with an answer to 15; else
the highest card leaving neither 5, 10 nor 21).  The last test plays six short games against the program itself
through the bridge and checks every card it laid from a choice against the rule.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from bot_helpers import load_bench

from kortbord import core
from kortbord.bots import registry
from kortbord.cards import Card
from kortbord.cribbage import engine
from kortbord.cribbage.moves import Discard, Play
from kortbord.cribbage.scoring import card_value

bridge = load_bench("bsd_cribbage")
outside = load_bench("cribbage_outside")
belief = load_bench("cribbage_belief")  # imported by cribbage_outside


def _cards(text: str) -> list[Card]:
    return [Card.parse(c) for c in text.split()]


@pytest.mark.parametrize(
    ("hand", "seq", "want", "why"),
    [
        ("5S 9H", "TD", 5, "the 5 makes 15 (2 points), the 9 nothing"),
        ("6H 9S", "9D", 6, "the 6 makes 15 and the 9 pairs, 2 points each: the first of equals, the lower"),
        ("4C 9D KS", "", 4, "nothing scores on a lead: a count of 4"),
        ("3C 9D KS", "", 3, "nothing scores on a lead and no 4: a count of 3"),
        ("7H 2S QD", "2C TD", 7, "count 12: the 7 leaves 19 and the 2 in hand answers a 10 to 31"),
        ("5H 6D KC", "", 13, "a lead: the king leaves 10 and the 5 in hand answers a 5 to 15"),
        ("2H 7D 9C", "", 9, "no set-up: the highest card leaving neither 5, 10 nor 21"),
        ("2H 8D KS", "AC", 13, "a count of 3 is sought on a lead only: count 1 keeps the king (11)"),
        ("3H 2S 9C", "6C TD", 3, "count 16 (under 20): the 3 leaves 19 and the 2 answers a 10 to 31"),
        ("5H 8S KC", "AC TD", 8, "the 5 leaves 16 but is its own only answer of 5: the 8, leaving 19"),
        ("5H 5D KC", "AC TD", 5, "the 5 leaves 16 and the other 5 answers a 5 to 31"),
        ("6H 7D QS", "3C", 12, "the 6 leaves 9 but is its own only answer of 6 to 15: the queen, leaving 13"),
        ("6H 6D QS", "3C", 6, "the 6 leaves 9 and the other 6 answers to 15"),
        ("TH KS", "AC", 10, "count 1: a ten leaves 11, the other ten answers to 31; the first of the sorted hand"),
    ],
)
def test_the_rule_on_hand_made_positions(hand: str, seq: str, want: int, why: str) -> None:
    cards = _cards(seq)
    count = sum(card_value(c) for c in cards)
    assert outside.program_rank(_cards(hand), tuple(cards), count) == want, why


def _six_games(rules: Any, label: str) -> None:
    """Six games against the program through the bridge, greedy in seat 0 then 1 in turn."""
    for game in range(6):
        plan = bridge.Plan.draw(rules, random.Random(f"{label}:{game}"))
        bot = registry.make_bot("cribbage", "greedy", rules)
        bridge.play_game(bot, game % 2, rules, plan, random.Random(game))


needs_program = pytest.mark.skipif(not bridge.available(), reason="needs /usr/games/cribbage (bsdgames) and gcc")


@needs_program
def test_the_program_lays_the_card_of_the_rule(monkeypatch: pytest.MonkeyPatch) -> None:
    spec = core.get("cribbage")
    rules = spec.make_rules({"target": 61}, players=2, teams=False)
    checked: list[tuple[str, int, int]] = []
    step = bridge._Game.step

    def watched(game: Any, move: Any) -> None:
        state = game.state
        if isinstance(move, Play) and engine.to_act(state) == game.them:
            held = list(state._hands[game.them])
            if sum(state.count + card_value(c) <= 31 for c in held) > 1:
                want = outside.program_rank(held, tuple(state.sequence), state.count)
                checked.append((" ".join(map(str, held)), want, move.card.rank))
        step(game, move)

    monkeypatch.setattr(bridge._Game, "step", watched)
    _six_games(rules, "program-rule")
    assert len(checked) >= 50
    assert [c for c in checked if c[1] != c[2]] == []


@needs_program
def test_the_program_lays_away_as_modelled(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every discard the program makes in six games to 61 is one of the keeps ``bench/cribbage_belief.py``'s
    ``bsd_keeps`` values best (its ``cdiscard``, whose crib sums ``test_cribbage_belief.py`` checks against the
    program's published tables)."""
    spec = core.get("cribbage")
    rules = spec.make_rules({"target": 61}, players=2, teams=False)
    checked: list[tuple[str, list[str], bool]] = []
    step = bridge._Game.step

    def watched(game: Any, move: Any) -> None:
        state = game.state
        theirs = state._hands[game.them]
        if isinstance(move, Discard) and len(theirs) == 6 and set(move.cards) <= set(theirs):
            six = sorted(theirs)
            keeps = belief.bsd_keeps([(c.rank, c.suit) for c in six], state.dealer == game.them)
            thrown = sorted(c.rank for c in move.cards)
            ok = any(sorted((six[i].rank, six[j].rank)) == thrown for i, j in keeps)
            checked.append((" ".join(map(str, six)), [str(c) for c in move.cards], ok))
        step(game, move)

    monkeypatch.setattr(bridge._Game, "step", watched)
    _six_games(rules, "program-discard")
    assert len(checked) >= 30
    assert [c for c in checked if not c[2]] == []

"""Cribbage words (a client of the engine's codes): :mod:`kortbord.i18n.cribbage` says the spoken count from the
show's ordered groups and words every event and illegal-move reason in English and Swedish.  The English words
that the engine's events and errors used to carry are checked here, rendered from the codes and data."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kortbord.cards import Card
from kortbord.contract import Reason
from kortbord.cribbage import engine
from kortbord.cribbage.moves import Announce, Discard, Go, MugginsCall, Overcount, Play
from kortbord.cribbage.rules import Rules
from kortbord.cribbage.scoring import score_play, score_show
from kortbord.errors import IllegalMoveError
from kortbord.i18n import LANGS, catalogue, render
from kortbord.i18n.cribbage import callout, event_text, peg_text

# -- the spoken count (spec §2.5), from the groups --------------------------------------------------------------

#: (hand, starter, crib, English, Swedish): the spoken count as the engine's scoring module said it before the
#: words moved to kortbord.i18n (the same output, checked hand by hand).
SPOKEN = [
    (["3D", "4S", "4C", "5H"], "KS", False, ["fifteen two", "a pair is four", "two runs of three is ten"],
     ["femton två", "ett par blir fyra", "två följder på tre blir tio"]),
    (["5S", "5H", "5D", "JC"], "5C", False,
     ["fifteen two", "fifteen four", "fifteen six", "fifteen eight", "fifteen ten", "fifteen twelve", "fifteen fourteen",
      "fifteen sixteen", "a double pair royal is twenty-eight", "nobs is twenty-nine"],
     ["femton två", "femton fyra", "femton sex", "femton åtta", "femton tio", "femton tolv", "femton fjorton",
      "femton sexton", "fyrtal blir tjugoåtta", "nobs blir tjugonio"]),
    (["2C", "4D", "6S", "8H"], "TC", False, ["nineteen"], ["noll"]),
    (["7H", "7D", "7S", "8C"], "8H", False,
     ["fifteen two", "fifteen four", "fifteen six", "fifteen eight", "fifteen ten", "fifteen twelve",
      "a pair royal is eighteen", "a pair is twenty"],
     ["femton två", "femton fyra", "femton sex", "femton åtta", "femton tio", "femton tolv", "tretal blir arton",
      "ett par blir tjugo"]),
    (["2H", "4H", "6H", "8H"], "KH", True, ["a flush of five is five"], ["färg på fem blir fem"]),
    (["2H", "4H", "6H", "8H"], "KS", False, ["a flush of four is four"], ["färg på fyra blir fyra"]),
    (["4S", "5S", "6S", "6H"], "6D", False,
     ["fifteen two", "fifteen four", "fifteen six", "a pair royal is twelve", "three runs of three is twenty-one"],
     ["femton två", "femton fyra", "femton sex", "tretal blir tolv", "tre följder på tre blir tjugoett"]),
    (["AS", "2S", "3S", "JD"], "KD", False, ["fifteen two", "fifteen four", "a run of three is seven", "nobs is eight"],
     ["femton två", "femton fyra", "en följd på tre blir sju", "nobs blir åtta"]),
]  # fmt: skip


@pytest.mark.parametrize(("hand", "starter", "crib", "en", "sv"), SPOKEN)
def test_spoken_count(hand: list[str], starter: str, crib: bool, en: list[str], sv: list[str]) -> None:
    groups = score_show(hand, starter, crib=crib).groups_json()
    assert callout(groups) == en
    assert callout(groups, "sv") == sv


def test_spoken_count_unknown_language() -> None:
    with pytest.raises(ValueError, match="language"):
        callout([], "xx")


ENGLISH_NUMBERS = template_numbers = catalogue("cribbage")["callout.numbers"]["en"]
deals = st.lists(st.integers(0, 51), min_size=5, max_size=5, unique=True).map(lambda xs: [Card(x) for x in xs])


@given(deals)
def test_callout_ends_on_the_total(cards: list[Card]) -> None:
    show = score_show(cards[:4], cards[4])
    if show.total:
        spoken = callout(show.groups_json())[-1].split()[-1]
        assert ENGLISH_NUMBERS.index(spoken) == show.total


# -- peg reasons: the words the engine's events used to carry ---------------------------------------------------


def test_play_reasons_in_words() -> None:
    played = score_play(["KS", "QS", "JS", "AS"])
    assert [render(f"peg.{r}", {"points": 2}, game="cribbage") for r in played.reasons] == ["thirty-one for 2"]
    played = score_play(["5S", "6S", "AS", "AH", "AD", "AC"])
    assert played.reasons == ("fifteen", "double_pair_royal")
    assert [peg_text({"reason": "fifteen", "points": 2}), peg_text({"reason": "double_pair_royal", "points": 12})] == [
        "fifteen for 2",
        "double pair royal for 12",
    ]


def test_his_heels_in_words() -> None:
    # a jack starter: the dealer pegs 2 for his heels at once (spec §2.3)
    state = engine.position(Rules(), phase="discard", dealer=0, hands=[["AS", "2S", "3S", "4S", "5S", "6S"],
                            ["AH", "2H", "3H", "4H", "5H", "6H"]], starter="JD", scores=[10, 20])  # fmt: skip
    state = engine.apply(state, Discard((Card.parse("AH"), Card.parse("2H"))))
    _, events = engine.step(state, Discard((Card.parse("AS"), Card.parse("2S"))))
    pegs = [e.to_json() for e in events if e.kind == "peg"]
    assert [peg_text(p) for p in pegs] == ["his heels for 2"]
    assert [p["reason"] for p in pegs] == ["his_heels"]
    assert [event_text(e.to_json()) for e in events] == [
        "P0 has laid 2 cards away to the crib",
        "the starter is JD",
        "P0 pegs 2: his heels for 2 -> 12",
    ]
    assert event_text(pegs[0], "sv", ["Ann", "Bo"]) == "Ann får 2: his heels (knekt som startkort) för 2 -> 12"


def test_play_events_in_words() -> None:
    state = engine.position(Rules(), phase="play", dealer=0, hands=[["TH", "8S", "2D", "7C"],
                            ["5S", "KD", "9C", "4D"]], crib=["AC", "AD", "AH", "AS"], starter="3C")  # fmt: skip
    state, events = engine.step(state, Play(Card.parse("5S")))
    assert [event_text(e.to_json()) for e in events] == ["P1 plays 5S: count 5"]
    state, events = engine.step(state, Play(Card.parse("TH")))
    assert [event_text(e.to_json()) for e in events] == ["P0 plays TH: count 15", "P0 pegs 2: fifteen for 2 -> 2"]
    assert [event_text(e.to_json(), "sv") for e in events] == ["P0 lägger TH: summa 15", "P0 får 2: femton för 2 -> 2"]


def test_every_event_of_random_games_has_words() -> None:
    """Every kind, reason and outcome the engine produces has English and Swedish words; the peg words name the
    points (the spec's "fifteen for 2" form)."""
    seen: set[str] = set()
    for rules in (Rules(), Rules(players=3), Rules(players=4), Rules(muggins=True), Rules(players=4, muggins=True),
                  Rules(lowball=True, players=3), Rules(target=61)):  # fmt: skip
        rng = random.Random(rules.players)
        state = engine.new_game(rules)
        while not engine.is_over(state):
            move = (
                engine.chance_outcome(state, rng) if engine.is_chance(state) else rng.choice(engine.legal_moves(state))
            )
            state, events = engine.step(state, move)
            for e in events:
                data = e.to_json()
                for lang in LANGS:
                    text = event_text(data, lang, ["A", "B", "C", "D"][: rules.players])
                    assert text and "{" not in text
                if e.kind == "peg":
                    assert re.search(rf"for {e['points']}$", peg_text(data))
                seen.add(e.kind)
    assert seen >= {"cut", "dealer", "deal", "discard", "starter", "play", "go", "reset", "peg", "show", "announce",
                    "response", "settle", "reveal", "game_over"}  # fmt: skip


def test_muggins_events_in_words() -> None:
    def show_state() -> Any:
        return engine.position(Rules(muggins=True), phase="show", dealer=0, hands=[["AS", "2S", "3S", "4S"],
                               ["5H", "5D", "TH", "JC"]], crib=["7C", "8C", "9C", "KD"], starter="5C")  # fmt: skip

    state, events = engine.step(show_state(), Announce(8))
    assert [event_text(e.to_json()) for e in events] == [
        "P1 announces 8 for the hand 5H 5D TH JC with 5C",
        "P1 pegs 8: the announced hand for 8 -> 8",
    ]
    after_muggins = engine.step(state, MugginsCall(6))[1]
    texts = [event_text(e.to_json()) for e in after_muggins]
    assert texts[0] == "P0: muggins 6"
    # the show's summary says who called it (the fresh user's finding: "muggins 2: 2 missade" named nobody)
    assert texts[1] == "P1's hand: P0 called muggins for 6: 13 missed, the caller pegs 6 (M5)"
    assert event_text(after_muggins[1].to_json(), "sv", ["Ann", "Bo"]).startswith("Bos hand: Ann ropade muggins för 6")
    assert texts[2] == "P0 pegs 6: muggins for 6 -> 6"
    assert texts[3].startswith("P1's hand 5H 5D TH JC with 5C was worth 21 (fifteen two, ")
    over = engine.step(state, Overcount())[1]
    assert [event_text(e.to_json()) for e in over][:2] == [
        "P0: overcount",
        "P1's hand: P0 called overcount, but the count was not too high (M8)",
    ]


def test_game_over_in_words() -> None:
    state = engine.position(Rules(), phase="play", dealer=0, hands=[["TH", "8S", "2D", "7C"],
                            ["5S", "KD", "9C", "4D"]], crib=["AC", "AD", "AH", "AS"], starter="3C",
                            scores=[119, 20])  # fmt: skip
    state = engine.apply(state, Play(Card.parse("5S")))
    _, events = engine.step(state, Play(Card.parse("TH")))
    over = events[-1].to_json()
    assert over["kind"] == "game_over" and over["winners"] == [0] and over["skunk"] and over["double_skunk"]
    assert event_text(over) == "P0 wins with 121 and a double skunk (P0 121, P1 20)"
    assert event_text(over, "sv", ["Ann", "Bo"]) == "Ann vinner med 121 och dubbel skunk (Ann 121, Bo 20)"


# -- illegal-move reasons ---------------------------------------------------------------------------------------


def test_reasons_render_the_old_english_messages() -> None:
    state = engine.position(Rules(), phase="play", dealer=0, hands=[["TH", "8S", "2D", "7C"],
                            ["5S", "KD", "9C", "4D"]], crib=["AC", "AD", "AH", "AS"], starter="3C")  # fmt: skip
    with pytest.raises(IllegalMoveError) as info:
        engine.apply(state, Play(Card.parse("TH")))
    assert info.value.reason == Reason("not_in_hand", {"seat": 1, "card": "TH"})
    assert str(info.value) == "P1 does not hold TH"
    assert info.value.reason.text("sv") == "P1 har inte TH"
    with pytest.raises(IllegalMoveError) as info:
        engine.apply(state, Go())
    assert str(info.value) == (
        "P1 cannot say go holding 4D, which fits (count 0): a player who can lay a card must (spec §2.4 item 2)"
    )
    with pytest.raises(IllegalMoveError) as info:
        engine.apply(state, Announce(3))
    assert str(info.value) == (
        "count 3 is not a move in the play phase: the moves are a card to lay, e.g. '9H', or 'go'; Muggins counting "
        "happens only at the show, with the Muggins option"
    )
    with pytest.raises(IllegalMoveError) as info:
        engine.apply(state, Go(), seat=0)
    assert str(info.value) == "it is P1's turn, not P0's"


def test_every_peg_reason_and_settlement_has_english_and_swedish_words() -> None:
    """The reason codes' templates are checked in tests/cribbage/test_illegal_reasons.py."""
    entries = catalogue("cribbage")
    keys = {"peg." + c for c in PEG_CODES} | {"settle." + c for c in SETTLE_CODES}
    for key in keys:
        for lang in LANGS:
            assert entries[key][lang], (key, lang)


#: Every peg reason code (kortbord.cribbage.engine's module docstring).
PEG_CODES = ("fifteen", "thirty_one", "pair", "pair_royal", "double_pair_royal", "run", "go", "last_card",
             "his_heels", "hand", "crib", "hand_announced", "crib_announced", "muggins", "false_muggins",
             "overcount")  # fmt: skip
#: Every settlement outcome (kortbord.cribbage.muggins.settle).
SETTLE_CODES = ("accept", "muggins", "false_muggins", "overcount", "wrong_overcount")

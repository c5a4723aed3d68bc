"""OpenSpiel games ``kortbord_mulle`` and ``kortbord_cribbage`` (optional extra ``kortbord[openspiel]``).

``import kortbord.openspiel`` registers both with ``pyspiel.register_game``; then::

    import pyspiel
    import kortbord.openspiel  # noqa: F401  (registers the games)
    game = pyspiel.load_game("kortbord_mulle", {"game_length": "single_round"})

* **Parameters**: every rule option of the engine's ``Rules``, plus ``players``, Mulle ``teams``,
  ``first_dealer`` (-1: drawn by chance -- Mulle a random seat, Cribbage the cut for deal), ``utility``
  (``"win_loss"`` or ``"score_diff"``, see :func:`kortbord.research.table.utilities`) and Mulle ``max_actions``
  (the size of the action space, see :mod:`kortbord.research.encoding`) and ``max_rounds`` (a game still running
  after that many rounds ends as a draw).  Mulle ``profile`` (``standard``, ``cardgames.zone``, ``kryp``) sets the
  base options; a parameter left at its ``standard`` value takes the profile's value.  Each parameter has one
  type, taken from the game's option schema by :func:`kortbord.research.params.param_type`:

  ==============================  ========  ==================================================================
  option                          type      values
  ==============================  ========  ==================================================================
  bool option                     bool      ``pure_mulle=True``, ``muggins=False``, ``teams``
  int option                      int       ``hand_size=8``, Mulle ``players``, ``first_dealer``; Cribbage
                                            ``skunk_line``/``double_skunk_line`` -1 = the ACC default
  choice                          str       ``capture_duty=player``, ``profile=cardgames.zone``, ``utility``
  choice of ints / of bools       int/bool  Cribbage ``players`` 2/3/4, ``target`` 121/61; Mulle ``jokers``
  int-or-word with a prefix       str       Mulle ``game_length``: ``target:N``, ``single_round``,
                                            ``each_deals_once``
  int-or-word without a prefix    int       Mulle ``max_found_cards``: 2..16, -1 = ``unlimited``
  ==============================  ========  ==================================================================

  OpenSpiel's game-string parser reads every all-digit value as an int and ``load_game`` checks the types before
  the game is built, so an int-or-word option without a prefix cannot be a string (``"4"`` would come back as
  ``4`` and be refused): it is an int, its word ``-1``.  ``KortbordGame(params)`` and the PettingZoo adapter,
  which no OpenSpiel check precedes, also take the word and digit strings (``"unlimited"``, ``"4"``).
* **Serialisation**: ``pyspiel.load_game(str(game))`` is the same game; games and states pickle (the state as
  ``pyspiel.serialize_game_and_state``; unpickling imports this module, so a fresh process -- a
  ``multiprocessing`` spawn worker -- needs no import first) and deep-copy (a state's deep copy is its
  ``clone()``); ``pyspiel.random_sim_test(..., serialize=True)`` passes.
* **Chance**: deals are explicit chance nodes drawn card by card (outcome = a card index 0..51 with probability
  copies left / cards left).  Mulle draws the whole 104-card order of the round's Shuffle (position i of the
  deck = the i-th draw), after drawing the first dealer (outcomes 0..players-1) when ``first_dealer`` is -1.
  Cribbage draws only the positions a deal uses -- the hands (position i goes to the seat ``(dealer+1+i) mod
  n``), the 3-hand crib card and the starter -- the rest of the pack is never seen and stays in card order; the
  cut for deal draws one card per seat.
* **Observations**: information-state and observation strings and tensors per player, built only from
  ``view(state, seat)``, public move notation and public events (never another player's hidden cards);
  ``PrivateInfoType.ALL_PLAYERS`` is refused.  Layouts: :mod:`kortbord.research.encoding`, ``docs/research.md``.
* **Resampling**: ``state.resample_from_infostate(player, sampler)`` for information-set search
  (OpenSpiel's Python ``ISMCTSBot``), see :meth:`kortbord.research.table.Table.resample`.

OpenSpiel's C++ ``pyspiel.MCTSBot`` crashes on Python-implemented games in open_spiel 2.0.2 (see
``docs/research.md``): use ``open_spiel.python.algorithms.mcts.MCTSBot`` and ``ismcts.ISMCTSBot``.
"""

from __future__ import annotations

import random
from typing import Any, Final

import numpy as np
import pyspiel

from kortbord.cards import Card
from kortbord.research.params import (
    CRIBBAGE_OPTIONS,
    CRIBBAGE_PARAMETERS,
    MULLE_OPTIONS,
    MULLE_PARAMETERS,
    make_setup,
    observation_text,
    typed_parameters,
)
from kortbord.research.table import Setup, Table, public_entries

__all__ = [
    "CRIBBAGE_PARAMETERS",
    "MULLE_PARAMETERS",
    "KortbordGame",
    "KortbordState",
    "observation_text",
]


def _game_type(short_name: str, long_name: str, params: dict[str, Any]) -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name=short_name,
        long_name=long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=4,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params,
    )


_MULLE_TYPE: Final = _game_type("kortbord_mulle", "kortbord Mulle", MULLE_PARAMETERS)
_CRIBBAGE_TYPE: Final = _game_type("kortbord_cribbage", "kortbord Cribbage (Muggins, Lowball, 61)", CRIBBAGE_PARAMETERS)


class KortbordGame(pyspiel.Game):  # type: ignore[misc]
    """A kortbord game for OpenSpiel (base of the two registered games)."""

    setup: Setup
    utility_mode: str

    def __init__(self, game_type: pyspiel.GameType, setup: Setup, params: dict[str, Any], info: pyspiel.GameInfo):
        self.setup = setup
        self.utility_mode = params["utility"]
        if self.utility_mode not in ("win_loss", "score_diff"):
            raise ValueError(f"utility must be 'win_loss' or 'score_diff', got {self.utility_mode!r}")
        super().__init__(game_type, info, params)

    def new_initial_state(self) -> KortbordState:
        """The game before its first chance node."""
        return KortbordState(self, Table(self.setup))

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> _Observer:
        """The observer for ``iig_obs_type`` (perfect recall -> information state, else observation)."""
        return _Observer(self, iig_obs_type, params)

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        """Pickle as the game string, loaded back by :func:`_load_game` (which lives in this module, so
        unpickling in a fresh process -- a ``multiprocessing`` spawn worker -- registers the games first)."""
        return _load_game, (str(self),)


class MulleGame(KortbordGame):
    """``kortbord_mulle``."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        p = typed_parameters(MULLE_OPTIONS, params)
        setup = make_setup("mulle", p)
        per_round = 208 - setup.rules.table_size
        bound = 1000.0 if p["utility"] == "score_diff" else 1.0
        info = pyspiel.GameInfo(
            num_distinct_actions=setup.num_actions,
            max_chance_outcomes=52,
            num_players=setup.players,
            min_utility=-bound,
            max_utility=bound,
            utility_sum=0.0,
            max_game_length=1 + setup.max_rounds * per_round,
        )
        super().__init__(_MULLE_TYPE, setup, p, info)


class CribbageGame(KortbordGame):
    """``kortbord_cribbage``."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        p = typed_parameters(CRIBBAGE_OPTIONS, params)
        setup = make_setup("cribbage", p)
        rules = setup.rules
        # every deal pegs at least the last-card point, so a side reaches the target within this many deals
        deals = rules.sides * (rules.target - 1) + 1
        bound = float(rules.target + 60) if p["utility"] == "score_diff" else 1.0
        info = pyspiel.GameInfo(
            num_distinct_actions=setup.num_actions,
            max_chance_outcomes=52,
            num_players=setup.players,
            min_utility=-bound,
            max_utility=bound,
            utility_sum=0.0,
            max_game_length=deals * 150 + 40 * rules.players,
        )
        super().__init__(_CRIBBAGE_TYPE, setup, p, info)


class KortbordState(pyspiel.State):  # type: ignore[misc]
    """An OpenSpiel state: a :class:`~kortbord.research.table.Table` plus the cards drawn so far at a chance
    node (``drawn``, card indices in draw order) and, for Mulle, the drawn first dealer.  The chance model is the
    game's (:class:`kortbord.research.games.GameResearch`: ``needs_dealer``, ``cards_needed``, ``chance_move``)."""

    def __init__(self, game: KortbordGame, table: Table) -> None:
        super().__init__(game)
        self.table = table
        self.setup = game.setup
        self.utility_mode = game.utility_mode
        self.drawn: tuple[int, ...] = ()
        self.left: tuple[int, ...] | None = None
        self.dealer_draw: int | None = None

    # -- chance -----------------------------------------------------------------------------------------------
    def _needs_dealer(self) -> bool:
        return self.dealer_draw is None and self.setup.research.needs_dealer(self.table.state)

    def _remaining(self) -> tuple[int, ...]:
        """Copies left of each card index 0..51 (a cut for deal draws from one pack)."""
        if self.left is None:
            left = [self.setup.research.copies] * 52
            for c in self.drawn:
                left[c] -= 1
            self.left = tuple(left)
        return self.left

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """``(outcome, probability)`` pairs: a dealer seat, or a card index weighted by the copies left."""
        if self._needs_dealer():
            n = self.setup.players
            return [(s, 1.0 / n) for s in range(n)]
        left = self._remaining()
        total = sum(left)
        return [(c, k / total) for c, k in enumerate(left) if k]

    def _apply_chance(self, outcome: int) -> None:
        if self._needs_dealer():
            if not 0 <= outcome < self.setup.players:
                raise pyspiel.SpielError(f"dealer outcome must be a seat 0..{self.setup.players - 1}")
            self.dealer_draw = outcome
            return
        left = self._remaining()
        if not 0 <= outcome < 52 or left[outcome] <= 0:
            raise pyspiel.SpielError(f"chance outcome {outcome} is not possible here")
        self.drawn = (*self.drawn, outcome)
        self.left = (*left[:outcome], left[outcome] - 1, *left[outcome + 1 :])
        research, state = self.setup.research, self.table.state
        if len(self.drawn) < research.cards_needed(self.setup, state):
            return
        cards = tuple(Card(c) for c in self.drawn)
        move = research.chance_move(self.setup, state, cards, self.dealer_draw)
        self.table = self.table.apply_move(move)
        self.drawn = ()
        self.left = None
        self.dealer_draw = None

    # -- OpenSpiel API ----------------------------------------------------------------------------------------
    def current_player(self) -> int:
        """The seat to act, ``PlayerId.CHANCE`` or ``PlayerId.TERMINAL``."""
        t = self.table
        if t.is_over():
            return int(pyspiel.PlayerId.TERMINAL)
        if t.is_chance():
            return int(pyspiel.PlayerId.CHANCE)
        seat = t.to_act()
        assert seat is not None
        return seat

    def _legal_actions(self, player: int) -> list[int]:
        if player != self.table.to_act():
            return []
        return self.table.legal_actions()

    def _apply_action(self, action: int) -> None:
        if self.table.is_chance():
            self._apply_chance(int(action))
        else:
            self.table = self.table.apply_action(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if self._needs_dealer():
                return f"dealer {self.setup.game.seat_name(action)}"
            return f"draw {Card(action)}"
        if player != self.table.to_act():
            return f"move #{action}"
        return self.setup.research.action_text(self.setup, self.table.state, action)

    def is_terminal(self) -> bool:
        """The game is over (or cut short after ``max_rounds`` Mulle rounds)."""
        return self.table.is_over()

    def returns(self) -> list[float]:
        """The utility per player at the end (zeros before: rewards are terminal)."""
        return self.table.utilities(self.utility_mode)

    def __str__(self) -> str:
        """Public information only (what a spectator sees): safe to log."""
        t = self.table
        lines = public_entries(t)
        if self.drawn:
            lines.append(f"({len(self.drawn)} cards drawn)")
        return "\n".join(lines[-40:])

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        """Pickle as ``pyspiel.serialize_game_and_state`` (the game string, the history and the Python
        attributes), loaded back by :func:`_load_state` in this module (so unpickling registers the games)."""
        return _load_state, (pyspiel.serialize_game_and_state(self.get_game(), self),)

    def __deepcopy__(self, memo: dict[int, Any]) -> KortbordState:
        """``self.clone()``: the same game, the history and every Python attribute copied."""
        return self.clone()  # type: ignore[no-any-return]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> KortbordState:
        """A state ``player_id`` cannot tell from this one, hidden cards redealt at random (for ISMCTS).

        ``probability_sampler()`` (e.g. ``pyspiel.UniformProbabilitySampler(0., 1.)``) seeds the redeal.
        Cards drawn at a pending chance node are unseen by everyone and are redrawn too.
        """
        seed = int(probability_sampler() * 2**31) ^ (int(probability_sampler() * 2**31) << 31)
        rng = random.Random(seed)
        new = self.clone()
        new.table = self.table.resample(player_id, rng)
        if self.drawn:  # no one has seen these cards yet: a uniformly random prefix of the deck
            left = [int(c) for c in self.setup.deck]
            rng.shuffle(left)
            new.drawn = tuple(left[: len(self.drawn)])
            new.left = None
        return new  # type: ignore[no-any-return]


def _load_game(game_string: str) -> KortbordGame:
    """``pyspiel.load_game(game_string)`` (the unpickler of :class:`KortbordGame`)."""
    return pyspiel.load_game(game_string)  # type: ignore[no-any-return]


def _load_state(serialized: str) -> KortbordState:
    """The state of ``pyspiel.deserialize_game_and_state(serialized)`` (the unpickler of :class:`KortbordState`)."""
    return pyspiel.deserialize_game_and_state(serialized)[1]  # type: ignore[no-any-return]


# ----------------------------------------------------------------------------------------------- observation
class _Observer:
    """OpenSpiel observer (PyObserver protocol): ``tensor``, ``dict``, ``set_from``, ``string_from``."""

    def __init__(self, game: KortbordGame, iig_obs_type: Any, params: Any) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported, got {params}")
        if iig_obs_type is None:
            iig_obs_type = pyspiel.IIGObservationType(perfect_recall=False)
        if iig_obs_type.private_info == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("kortbord never shows one player another player's hidden cards (ALL_PLAYERS refused)")
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.private = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self.setup = game.setup
        layout = self.setup.research.layout(self.perfect_recall)
        self.tensor = np.zeros(layout.size, np.float32)
        self.dict = layout.views(self.tensor)

    def set_from(self, state: KortbordState, player: int) -> None:
        """Fill ``self.tensor`` with ``player``'s observation (or information state) of ``state``."""
        self.setup.research.tensor(
            state.table, player, perfect_recall=self.perfect_recall, private=self.private, out=self.tensor
        )

    def string_from(self, state: KortbordState, player: int) -> str:
        """``player``'s information-state string (perfect recall: everything observed, in order) or observation
        string (the current view)."""
        if self.perfect_recall:
            if self.private:
                return state.table.info_string(player)
            return "\n".join(public_entries(state.table))
        return observation_text(state.table, player, private=self.private)


pyspiel.register_game(_MULLE_TYPE, MulleGame)
pyspiel.register_game(_CRIBBAGE_TYPE, CribbageGame)

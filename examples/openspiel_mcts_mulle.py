"""OpenSpiel's Python MCTS and information-set MCTS play single-round Mulle against a random player.

Run:  .venv/bin/python examples/openspiel_mcts_mulle.py   (needs ``pip install -e ".[openspiel]"`` in a clone)

Every random choice comes from ``np.random.RandomState(0)`` (chance, the random player, the searches' rollouts
and the IS-MCTS redeals), so the output in ``docs/research.md`` reproduces exactly.
"""

from __future__ import annotations

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import kortbord.openspiel  # noqa: F401  (registers kortbord_mulle and kortbord_cribbage)


class SeededISMCTSBot(ismcts.ISMCTSBot):  # type: ignore[misc]
    """``ISMCTSBot`` whose redeals come from its ``random_state`` (the stock bot passes
    ``pyspiel.UniformProbabilitySampler(0., 1.)``, seeded from the system's entropy, so a run would not repeat)."""

    def resample_from_infostate(self, state: pyspiel.State) -> pyspiel.State:
        return state.resample_from_infostate(state.current_player(), self._random_state.random_sample)


def play(game: pyspiel.Game, bot: pyspiel.Bot, seat: int, rng: np.random.RandomState) -> float:
    """One game: ``bot`` in ``seat``, uniform random play elsewhere; returns the bot's utility."""
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():  # the deal: one card at a time
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        elif state.current_player() == seat:
            state.apply_action(int(bot.step(state)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    print(f"  seat {seat}: scores {list(state.table.view(seat).scores)}, utility {state.returns()[seat]:+.0f}")
    return float(state.returns()[seat])


def main() -> None:
    game = pyspiel.load_game("kortbord_mulle", {"game_length": "single_round"})
    print(game)
    print("actions:", game.num_distinct_actions(), "observation tensor:", game.observation_tensor_shape())
    rng = np.random.RandomState(0)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bots = {
        "MCTS (sees the whole deal: a cheating baseline)": mcts.MCTSBot(game, 2.0, 8, evaluator, random_state=rng),
        "IS-MCTS (resample_from_infostate)": SeededISMCTSBot(game, evaluator, 2.0, 8, random_state=rng),
    }
    for name, bot in bots.items():
        print(name)
        total = sum(play(game, bot, g % 2, rng) for g in range(2))
        print(f"  total utility against random over 2 games: {total:+.0f}")


if __name__ == "__main__":
    main()

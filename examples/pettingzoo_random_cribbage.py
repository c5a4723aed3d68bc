"""A PettingZoo AEC loop: three random agents play a 61-point Cribbage game with Muggins counting.

Run:  .venv/bin/python examples/pettingzoo_random_cribbage.py   (needs ``pip install -e ".[pettingzoo]"`` in a clone)

The deals are seeded by ``reset(seed=42)`` and each agent's action space by ``seed(42 + i)``, so the output in
``docs/research.md`` reproduces exactly.
"""

from __future__ import annotations

from kortbord.pettingzoo import cribbage_env
from kortbord.research.encoding import cribbage_move


def main() -> None:
    env = cribbage_env(players=3, target=61, muggins=True)
    env.reset(seed=42)  # the deals
    for i, agent in enumerate(env.possible_agents):  # the random agents' choices
        env.action_space(agent).seed(42 + i)
    steps = 0
    total = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        observation, reward, termination, truncation, _info = env.last()
        total[agent] += reward
        if termination or truncation:
            action = None
        else:
            action = env.action_space(agent).sample(observation["action_mask"])  # a random legal action
            if steps < 8:
                print(f"{agent}: action {action} = {cribbage_move(action)}")
            steps += 1
        env.step(action)
    print(f"{steps} decisions; rewards: {total}")
    print("scores:", env.table.view(0).scores)
    env.close()


if __name__ == "__main__":
    main()

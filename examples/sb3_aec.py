"""Recipe: Stable-Baselines3 (MaskablePPO) on the PettingZoo AEC env ``skat_v0``.

    python examples/sb3_aec.py                     # 4,096 learner steps, about a minute
    python examples/sb3_aec.py --steps 50000 --out runs/sb3_aec.zip

PettingZoo's SB3 action-masking tutorial (Connect Four) wraps the AEC env and returns, at
the end of a game, the reward of the *last mover*. Connect Four has two players and ends on
the winner's move, so that happens to work; a Skat deal ends on whichever seat plays the
last card, and the learner's own final reward would mostly be lost. :class:`LearnerSeat`
below plays one seat against fixed opponents and *adds up the learner's reward over every
step* of the AEC env (its own moves and the opponents'), so the end-of-game reward of its
seat always reaches SB3.

For real training use :class:`skat_env.envs.single_agent.SkatSingleAgentEnv` (the same
learner-seat view, registered with Gymnasium as ``skat_env/Skat-v0``, about 4x faster) or
the batched ``gymnasium.make_vec("skat_env/Skat-v0", num_envs=256)``; ``train.py`` uses
them.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # agents/

from skat_env import skat_v0  # noqa: E402


class LearnerSeat(gym.Env):
    """One seat of ``skat_v0.env()`` as a Gymnasium env; ``opponents`` play the other two
    (agents with ``act(obs_dict)``). The learner's seat is drawn per game."""

    def __init__(
        self, opponents: list[Any], reward_mode: str = "seeger_fabian", reward_scale: float = 0.01
    ):
        self.aec = skat_v0.env(reward_mode=reward_mode, reward_scale=reward_scale)
        self.opponents = opponents
        self.observation_space = self.aec.observation_space("player_0")["observation"]
        self.action_space = self.aec.action_space("player_0")
        self.learner = "player_0"
        self._return = 0.0  # the learner's reward accumulated since its last step

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        self.aec.reset(seed=int(self.np_random.integers(2**31)))
        self.learner = self.aec.possible_agents[int(self.np_random.integers(3))]
        self._return = 0.0
        self._play_opponents()
        return self._obs(), {}

    def step(self, action: int):
        self._aec_step(int(action))
        self._play_opponents()
        reward, self._return = self._return, 0.0
        done = self.aec.terminations[self.learner]
        return self._obs(), reward, done, False, {}

    def action_masks(self) -> np.ndarray:
        return self.aec.observe(self.learner)["action_mask"].astype(bool)

    def _aec_step(self, action: int | None) -> None:
        self.aec.step(action)
        self._return += self.aec.rewards.get(self.learner, 0.0)  # every step, any mover

    def _play_opponents(self) -> None:
        """Opponents move until the learner is to act or the game is over."""
        while not self.aec.terminations[self.learner]:
            agent = self.aec.agent_selection
            if agent == self.learner:
                return
            seat = self.aec.possible_agents.index(agent)
            opponent = self.opponents[(seat - self.aec.possible_agents.index(self.learner)) % 3 - 1]
            self._aec_step(opponent.act(self.aec.observe(agent)))

    def _obs(self) -> np.ndarray:
        return self.aec.observe(self.learner)["observation"]


def main(argv: list[str] | None = None) -> int:
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.logger import Logger

    from skat_env.agents.registry import make_agent

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=4096, help="learner steps of MaskablePPO")
    ap.add_argument("--opponent", default="random", help="agent spec of both opponents")
    ap.add_argument("--out", default="", help="save the model here (a .zip)")
    args = ap.parse_args(argv)
    env = LearnerSeat([make_agent(args.opponent, seed=0), make_agent(args.opponent, seed=1)])
    model = MaskablePPO("MlpPolicy", env, n_steps=512, batch_size=128, seed=0, device="cpu")
    model.set_logger(Logger(folder=None, output_formats=[]))  # else SB3 makes /tmp/SB3-<date>
    model.learn(args.steps)
    if args.out:
        model.save(args.out)
    print(f"trained {model.num_timesteps:,} steps against 2x {args.opponent}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Recipe: train a masked Skat policy with TorchRL's PPO (self-play, all three seats share it).

    .venv-rllib/bin/python examples/train_torchrl.py                  # 800 env steps, ~1 minute
    .venv-rllib/bin/python examples/train_torchrl.py --frames 20000 --out runs/torchrl.safetensors

TorchRL pieces only: ``PettingZooWrapper`` around ``skat_v0.env()`` (one group ``players``
with the three seats; ``use_mask`` marks the seat to act, ``action_mask`` the legal moves),
a ``ProbabilisticActor`` with ``MaskedCategorical`` (illegal moves get probability 0),
``Collector``, ``ClipPPOLoss`` with GAE. Rewards are paid when the game ends; with
``gamma=1`` GAE gives every seat's every step that seat's final score as return. Only the
seat that acted trains at a step: the loss is masked with ``("players", "mask")``.

At the end the policy network is saved in the portable format of
:mod:`skat_env.integrations.masked_mlp` (``--out``) and played against ``random`` through
``evaluate.py``'s API; ``evaluate.py --agents rllib:OUT.safetensors random random`` loads it too.
Install: ``pip install torchrl`` (done by ``scripts/setup_rllib.sh``).
"""

from __future__ import annotations

import argparse
import os
import sys
import warnings
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # evaluate.py, agents/

import torch  # noqa: E402

GROUP = "players"
OBS_KEY = (GROUP, "observation", "observation")


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--frames", type=int, default=800, help="env steps to train for")
    p.add_argument("--frames-per-batch", type=int, default=200, help="env steps per PPO update")
    p.add_argument("--epochs", type=int, default=4, help="PPO epochs per batch")
    p.add_argument("--minibatch-size", type=int, default=50, help="PPO minibatch size")
    p.add_argument("--hiddens", default="128,128", help="hidden layer widths")
    p.add_argument("--lr", type=float, default=3e-4, help="learning rate")
    p.add_argument(
        "--reward-scale", type=float, default=0.01, help="rewards are multiplied by this"
    )
    p.add_argument("--eval-deals", type=int, default=20, help="duplicate deals vs random (0: none)")
    p.add_argument(
        "--out", default="runs/torchrl/policy.safetensors", help="where to save the policy"
    )
    p.add_argument("--seed", type=int, default=0, help="seed")
    args = p.parse_args(argv)
    if min(args.frames, args.frames_per_batch, args.epochs, args.minibatch_size) < 1:
        p.error("--frames, --frames-per-batch, --epochs and --minibatch-size must be positive")
    if args.minibatch_size > args.frames_per_batch:
        p.error("--minibatch-size must not exceed --frames-per-batch")
    try:
        args.hiddens = [int(h) for h in args.hiddens.split(",")]
    except ValueError:
        p.error(f"--hiddens is a comma-separated list of widths, got {args.hiddens!r}")
    return args


def make_env(seed: int, reward_scale: float):
    """skat_v0 in TorchRL: one group of three seats, rewards scaled."""
    from torchrl.envs import PettingZooWrapper, RewardScaling, TransformedEnv

    from skat_env import skat_v0
    from skat_env.envs.aec import AGENTS

    with warnings.catch_warnings():  # "tested with PettingZoo 1.24.3": 1.27 works
        warnings.simplefilter("ignore", UserWarning)
        env = PettingZooWrapper(
            skat_v0.env(), use_mask=True, group_map={GROUP: list(AGENTS)}, seed=seed
        )
    scale = RewardScaling(loc=0.0, scale=reward_scale, in_keys=[(GROUP, "reward")])
    return TransformedEnv(env, scale)


def make_modules(env, hiddens: list[int]):
    """Masked actor (the portable masked MLP) and critic, both reading each seat's observation."""
    from tensordict.nn import TensorDictModule
    from torchrl.modules import MaskedCategorical, ProbabilisticActor, ValueOperator

    from skat_env.integrations.masked_mlp import mlp

    n_obs = env.observation_spec[OBS_KEY].shape[-1]
    n_actions = env.full_action_spec[GROUP, "action"].space.n
    net = mlp([n_obs, *hiddens, n_actions])
    actor = ProbabilisticActor(
        TensorDictModule(net, in_keys=[OBS_KEY], out_keys=[(GROUP, "logits")]),
        in_keys={"logits": (GROUP, "logits"), "mask": (GROUP, "action_mask")},
        out_keys=[(GROUP, "action")],
        distribution_class=MaskedCategorical,
        return_log_prob=True,
        log_prob_key=(GROUP, "action_log_prob"),
    )
    critic = ValueOperator(mlp([n_obs, *hiddens, 1]), in_keys=[OBS_KEY],
                           out_keys=[(GROUP, "state_value")])  # fmt: skip
    return net, actor, critic


def make_loss(actor, critic):
    from torchrl.objectives import ClipPPOLoss, ValueEstimators

    loss = ClipPPOLoss(actor, critic, entropy_coeff=0.01, normalize_advantage=False)
    loss.set_keys(
        reward=(GROUP, "reward"),
        action=(GROUP, "action"),
        sample_log_prob=(GROUP, "action_log_prob"),
        value=(GROUP, "state_value"),
        done=(GROUP, "done"),
        terminated=(GROUP, "terminated"),
    )
    loss.loss_mask_key = (GROUP, "mask")  # only the seat that acted learns from a step
    loss.make_value_estimator(ValueEstimators.GAE, gamma=1.0, lmbda=0.95)
    return loss


def illegal_actions(batch) -> int:
    """Actions taken by the acting seat that its action mask forbids (must be 0)."""
    acting = batch[GROUP, "mask"]
    action = batch[GROUP, "action"]
    legal = batch[GROUP, "action_mask"].gather(-1, action.unsqueeze(-1)).squeeze(-1)
    return int((acting & ~legal).sum())


def train(args: argparse.Namespace) -> dict:
    from torchrl.collectors import Collector

    torch.manual_seed(args.seed)
    torch.set_num_threads(1)
    env = make_env(args.seed, args.reward_scale)
    net, actor, critic = make_modules(env, args.hiddens)
    loss = make_loss(actor, critic)
    optim = torch.optim.Adam(loss.parameters(), lr=args.lr)
    collector = Collector(
        env,
        actor,
        frames_per_batch=args.frames_per_batch,
        total_frames=args.frames,
        auto_register_policy_transforms=False,  # the MLP policy is stateless
    )
    stats = {"frames": 0, "illegal_actions": 0, "updates": 0, "games": 0}
    for batch in collector:
        batch = batch.reshape(-1)
        stats["frames"] += batch.numel()
        stats["illegal_actions"] += illegal_actions(batch)
        stats["games"] += int(batch["next", "done"].sum())
        with torch.no_grad():
            loss.value_estimator(batch, params=loss.critic_network_params,
                                 target_params=loss.target_critic_network_params)  # fmt: skip
        for _ in range(args.epochs):
            for idx in torch.randperm(batch.numel()).split(args.minibatch_size):
                out = loss(batch[idx])
                total = out["loss_objective"] + out["loss_critic"] + out["loss_entropy"]
                optim.zero_grad()
                total.backward()
                torch.nn.utils.clip_grad_norm_(loss.parameters(), 1.0)
                optim.step()
                stats["updates"] += 1
        line = f"frames {stats['frames']:6d}  games {stats['games']:4d}  "
        print(f"{line}illegal actions {stats['illegal_actions']}", flush=True)
    collector.shutdown()
    stats["net"] = net
    return stats


def save_and_evaluate(net, args: argparse.Namespace) -> dict | None:
    from skat_env.integrations.masked_mlp import save_policy

    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    save_policy(out, net, trainer="torchrl", observation_mode="default")
    print(f"saved {out}")
    if not args.eval_deals:
        return None
    from skat_env import tournament
    from skat_env.agents.rllib_agent import RLlibAgent

    agent = RLlibAgent(str(out))
    res = tournament.evaluate([agent, "random", "random"], deals=args.eval_deals, seed=args.seed)
    me = res["agents"][agent.name]
    lo, hi = me["sf_ci95"]
    print(f"vs 2x random: SF/game {me['sf_per_game']:+.1f} [{lo:+.1f}, {hi:+.1f}]")
    return me


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        import torchrl  # noqa: F401
    except ImportError:
        print("train_torchrl.py: error: TorchRL is not installed (pip install torchrl)",
              file=sys.stderr)  # fmt: skip
        return 2
    stats = train(args)
    save_and_evaluate(stats["net"], args)
    return 0 if stats["illegal_actions"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())

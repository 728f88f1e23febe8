"""Behaviour cloning for SB3 policies: record a teacher's decisions on the batched engine and
fit a ``MaskablePPO`` policy to them (the warm start of training: imitate the ``heuristic``
agent, or a search teacher's recorded shards, :mod:`.distill`).

The teacher is passed in as a policy (:mod:`skat_env.envs.policy`); the front end builds it
from an agent spec.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

import numpy as np

from .. import vector
from ..envs.policy import batched, reset_policy


def teacher_decisions(
    teacher: Any,
    games: int,
    seed: int,
    reward_mode: str,
    reward_scale: float,
    progress: bool = False,
    deadline: float | None = None,
    batch: int = 256,
) -> dict[str, Any]:
    """Every decision of ``teacher`` (a policy, e.g. the ``heuristic`` agent) playing all three
    seats of up to ``games`` deals.

    Per decision: the acting seat's observation and legal mask (what the learner seat sees),
    the teacher's move and that seat's final reward times ``reward_scale`` (the value
    head's target). Runs ``batch`` games at once on the batched engine; stops early at
    ``deadline`` (``time.monotonic()``) with the games finished by then (``games`` in the
    result: how many).
    """
    from tqdm import tqdm

    state = vector.init(min(batch, max(games, 1)), seed=seed, reward_mode=reward_mode)
    reset_policy(teacher, seed)
    policy = batched(teacher)
    n = state.batch_size
    steps: list[list[int]] = [[] for _ in range(n)]  # per slot: steps of its open game
    obs: list[np.ndarray] = []
    masks: list[np.ndarray] = []
    moves: list[np.ndarray] = []
    seats: list[np.ndarray] = []
    returns: list[np.ndarray] = []
    done = 0
    bar = tqdm(total=games, desc="teacher games", unit="game", disable=not progress)
    while done < games and (deadline is None or time.monotonic() < deadline):
        actions = policy(state.obs, state.legal_mask)
        for b in range(n):
            steps[b].append(len(moves))
        obs.append(state.obs.copy())
        masks.append(state.legal_mask.astype(bool))
        seats.append(state.to_act.copy())
        moves.append(np.asarray(actions, np.int64))
        returns.append(np.full(n, np.nan, np.float32))
        vector.step(state, actions)
        for b in map(int, np.flatnonzero(state.terminated)):
            if done < games:  # games beyond the count are dropped (returns stay NaN)
                for t in steps[b]:
                    returns[t][b] = state.rewards[b, seats[t][b]] * reward_scale
                done += 1
                bar.update()
            steps[b] = []
    bar.close()
    if not moves:
        return {
            "obs": np.zeros((0, state.obs.shape[1]), np.float32),
            "mask": np.zeros((0, 121), bool),
            "move": np.zeros(0, np.int64),
            "return": np.zeros(0, np.float32),
            "games": 0,
        }
    ret = np.concatenate(returns)
    keep = ~np.isnan(ret)  # decisions of finished games, in step order
    return {
        "obs": np.concatenate(obs)[keep],
        "mask": np.concatenate(masks)[keep],
        "move": np.concatenate(moves)[keep],
        "return": ret[keep],
        "games": done,
    }


def policy_outputs(policy: Any, obs: Any, mask: Any) -> tuple[Any, Any]:
    """Masked action logits (illegal moves at -1e8, as MaskablePPO masks) and values."""
    features = policy.extract_features(obs)
    if policy.share_features_extractor:
        latent_pi, latent_vf = policy.mlp_extractor(features)
    else:
        latent_pi = policy.mlp_extractor.forward_actor(features[0])
        latent_vf = policy.mlp_extractor.forward_critic(features[1])
    logits = policy.action_net(latent_pi).masked_fill(~mask, -1e8)
    return logits, policy.value_net(latent_vf).squeeze(-1)


def behaviour_clone(
    model: Any,
    data: Mapping[str, Any],
    epochs: int,
    learning_rate: float = 1e-3,
    batch_size: int = 512,
    seed: int = 0,
    progress: bool = False,
    deadline: float | None = None,
) -> dict[str, float]:
    """Fit the policy to the recorded moves (masked cross-entropy) and the value head to the
    final rewards (squared error), so PPO starts from a player that bids and declares instead
    of learning to pass (a random bidder loses most games it declares).

    A tenth of the decisions is held out; returns, on it, the accuracy (greedy masked argmax
    equals the recorded move), the chance level (mean 1 / number of legal moves) and the
    losses. ``epochs=0`` only measures; ``deadline`` (``time.monotonic()``) ends it early.
    """
    import torch
    from tqdm import tqdm

    policy = model.policy
    n = len(data["move"])
    gen = torch.Generator().manual_seed(seed)
    order = torch.randperm(n, generator=gen)
    n_test = max(1, n // 10)
    test, train_idx = order[:n_test], order[n_test:]
    obs, mask = torch.as_tensor(data["obs"]), torch.as_tensor(data["mask"])
    move, ret = torch.as_tensor(data["move"]), torch.as_tensor(data["return"])
    optimizer = torch.optim.Adam(policy.parameters(), lr=learning_rate)
    steps = epochs * -(-len(train_idx) // batch_size)
    bar = tqdm(total=steps, desc="behaviour cloning", unit="batch", disable=not progress)
    policy.set_training_mode(True)
    done = 0
    for _ in range(epochs):
        perm = train_idx[torch.randperm(len(train_idx), generator=gen)]
        for idx in perm.split(batch_size):
            if deadline is not None and time.monotonic() > deadline:
                break
            logits, values = policy_outputs(policy, obs[idx], mask[idx])
            pi_loss = torch.nn.functional.cross_entropy(logits, move[idx])
            vf_loss = torch.nn.functional.mse_loss(values, ret[idx])
            optimizer.zero_grad()
            (pi_loss + vf_loss).backward()
            optimizer.step()
            done += 1
            bar.update()
            bar.set_postfix(pi_loss=f"{pi_loss.item():.3f}", vf_loss=f"{vf_loss.item():.3f}")
    bar.close()
    policy.set_training_mode(False)
    with torch.no_grad():
        logits, values = policy_outputs(policy, obs[test], mask[test])
        accuracy = (logits.argmax(-1) == move[test]).float().mean().item()
        test_pi = torch.nn.functional.cross_entropy(logits, move[test]).item()
        test_vf = torch.nn.functional.mse_loss(values, ret[test]).item()
    chance = float((1.0 / data["mask"][test.numpy()].sum(1)).mean())
    return {
        "decisions": n,
        "held_out": n_test,
        "accuracy": accuracy,
        "chance": chance,
        "pi_loss": test_pi,
        "value_loss": test_vf,
        "epochs": done / max(1, steps) * epochs,
    }


__all__ = ["behaviour_clone", "policy_outputs", "teacher_decisions"]

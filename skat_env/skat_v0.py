"""# Skat (`skat_v0`)

Three-player Skat under the International Skat Order, one deal per episode, as a
PettingZoo AEC environment.

```python
from skat_env import skat_v0

env = skat_v0.env(render_mode=None, reward_mode="zero_sum", observation_mode="default",
                  reward_scale=1.0, illegal_action="terminate", illegal_reward=None)
env.reset(seed=0)
for agent in env.agent_iter():
    obs, reward, termination, truncation, info = env.last()
    done = termination or truncation
    action = None if done else env.action_space(agent).sample(obs["action_mask"])
    env.step(action)
```

| | |
|---|---|
| Import | `from skat_env import skat_v0` |
| Actions | Discrete |
| Parallel API | No |
| Agents | `agents = ['player_0', 'player_1', 'player_2']` |
| Action shape | Discrete(121) |
| Action values | 0..120 |
| Observation shape | {"observation": (450,) or (1500,) float32, "action_mask": (121,) int8} |
| Observation values | [0, 1] |
| State shape | (610,) float32 |

## Episode

One episode is one deal: the auction, skat pick-up or hand, discarding, the declaration
and ten tricks (fewer when the declarer's loss is certain). Agents are fixed seats; the
dealer moves one seat clockwise at each `reset()` (the first deal has dealer `player_2`,
so `player_0` is forehand). `reset(seed=s)` reseeds the shuffle;
`reset(options={"dealer": k, "deal": "CJ SJ ... D7"})` fixes the dealer and the 32 cards
(forehand 10, middlehand 10, rearhand 10, skat 2). A dealer that is not seat 0, 1 or 2
raises (`TypeError` / `ValueError`), a malformed deal `skat_env.DealError` saying what is
wrong; unknown option keys are ignored with a warning (PettingZoo's own `api_test` passes
one).

## Actions

One `Discrete(121)` space for every phase; index = the engine's move id
(`skat_env.core.moves`): 0..31 cards `CA`..`D7` (suits C S H D, ranks A K Q J T 9 8 7; play
and discard), 32..94 the bids `"18"`..`"264"`, 95 `hold`, 96 `pass`, 97 `pickup`,
98 `hand`, 99..105 `diamonds hearts spades clubs grand null`, `null ouvert`, then the hand
announcements `<game> schneider` (106..110), `<game> schwarz` (111..115) and
`<game> ouvert` (116..120) for diamonds, hearts, spades, clubs, grand.
`skat_v0.action_to_move(i)` and `skat_v0.move_to_action(name)` convert both ways.

## Observations

`{"observation": float32[450], "action_mask": int8[121]}`; with
`observation_mode="history"` the observation is `float32[1500]`, the default layout followed
by the ordered card play (30 slots of relative seat one-hot + card one-hot). The mask is the
engine's legal set for the agent to act and all zeros for the others. Everything is encoded
from `skat_env.encoding.view.player_view`, so nothing hidden (other hands, an unseen skat) can leak.
Seats are relative to the observer (self, next, previous); the layout table (slices in
`skat_env.encoding.observation.LAYOUT`) is in `skat_env/encoding/observation.py` and `docs/env.md`.

`state()` (`state_space`: `float32[610]`): every hand (3 x 32, absolute seats), the skat as
dealt (32), the declarer's discards (32), then `player_0`'s observation, for centralised critics.

## Rewards

Paid when the game ends, by `reward_mode`:

* `"zero_sum"` (default): the declarer gets the list score (+value won, -2 x value lost,
  overbid rule), each defender minus half of it; the three rewards sum to zero.
* `"list"`: the declarer's list score, defenders 0 (an official score sheet).
* `"seeger_fabian"`: tournament points: declarer +value+50 when won, -2 x value-50 when
  lost, each defender +40 when the declarer loses.

A passed-in deal pays 0 to all. At the end `infos[agent]["result"]` is the engine's result
(`skat_env.core.game.Result.to_dict()`: contract, declarer, bid, points, tricks, matadors, value,
score, flags).

## Bad input and illegal moves

One rule for every entry point (`skat_env.core.validation`): actions, seats and dealers are
integers, Python or NumPy, never `bool`; anything else raises `TypeError` naming what is
allowed, an integer that is not a move id (outside 0..120) raises
`skat_env.IllegalMoveError` (a `ValueError`), and a refused call changes nothing (a refused
`reset` keeps the old game and the old seed). Before the first `reset()` every method
raises "call reset() first". A step other than `None` after the end raises `ValueError`, a
step after every agent left `RuntimeError`.

A move id outside the legal set is handled by `illegal_action`, the same option with the
same values in every env of this package (`raw_env`, `env()`, `SkatSingleAgentEnv`,
`SkatVectorEnv`, the batched engine):

* `"terminate"` (the default everywhere, as in PettingZoo's classic games; the env checkers
  of PettingZoo and Gymnasium sample unmasked actions): the game ends, the offender gets
  `illegal_reward`, the others 0, `infos[offender]["illegal_action"]` is True.
  `illegal_reward` defaults to the worst outcome of a played game under `reward_mode`
  (-540 for `zero_sum` and `list`, -590 for `seeger_fabian`) and may not be better than
  that: an illegal move never pays more than a lost game.
* `"raise"`: `IllegalMoveError`, naming the move, the player and the legal moves; the game
  is untouched.

`reward_scale` (default 1) multiplies every reward, the penalty included.

`env()` is the raw env in PettingZoo's `OrderEnforcingWrapper` (subclassed in
`skat_env.envs.wrappers` only to read the per-step attributes without `__getattr__`).

## Copies

`copy.deepcopy(env)`, `pickle` and `env.clone()` (also `copy.copy`) give an independent env
in the same position that continues exactly as the original would (same deals from the same
seed stream); `clone()` is the cheap one, for search.

## Speed

The raw env keeps each seat's encoded observation and updates it move by move
(`skat_env.encoding.tracker`), so a decision costs about as much as the move itself;
`benchmarks/bench_env.py` measures it against OpenSpiel's `skat` in the same run.

## Rendering

`render_mode="ansi"` returns a text table (hands, bidding, contract, trick, points, with
suit symbols); `"human"` prints it after every step. `skat_env.envs.render.render_view(view)`
shows only what one player may see, for people playing against agents.

## Version history

* v0: initial release.
"""

from __future__ import annotations

from pettingzoo import AECEnv

from .envs.aec import action_to_move, move_to_action, raw_env
from .envs.wrappers import wrap


def env(**kwargs) -> AECEnv:
    """The raw environment (keyword arguments as for :class:`raw_env`) in PettingZoo's
    order-enforcing wrapper; see :mod:`skat_env.envs.wrappers`."""
    return wrap(raw_env(**kwargs))


__all__ = ["action_to_move", "env", "move_to_action", "raw_env"]

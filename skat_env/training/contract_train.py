"""Training the contract model on a dataset of :mod:`skat_env.training.contract_data`, and its
calibration (predicted against observed win rates on held-out deals).

Deals whose index ends in 9 are held out for validation and the calibration plot; the
network with the lowest held-out loss over the epochs is kept. Null variants train only the
``win`` head (schneider and schwarz do not score in null).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ..agents.contract_model import HEADS, NULL_KIND, ContractModel, features

FAMILIES = {"suit": (0, 1, 2, 3), "grand": (4,), "null": (5, 6)}


def targets(data: dict[str, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """(targets, weights), both (N, 4), of the ``HEADS`` for dataset columns."""
    dp, dt = data["declarer_points"], data["declarer_tricks"]
    y = np.stack([data["won"], dp >= 90, dt == 10, dp <= 30], axis=1).astype(np.float32)
    w = np.ones_like(y)
    w[data["kind"] >= NULL_KIND, 1:] = 0.0
    return y, w


def inputs(data: dict[str, np.ndarray], auction: bool = True) -> np.ndarray:
    """The rows' features with the opponents' bids (``auction``) or with them not known."""
    opponents = np.stack([data["opp_high"], data["opp_low"]], axis=1) if auction else None
    return features(data["kept"], data["buried"], data["kind"], data["hand"], data["position"],
                    opponents)  # fmt: skip


def both_ways(data: dict[str, np.ndarray]) -> tuple[np.ndarray, ...]:
    """(inputs, targets, weights, held-out) of every row twice: with the opponents' bids
    and without (so the model also answers during the auction, for any bids to come); rows
    whose bids are not known (-1, format-1 data) only without."""
    y, w = targets(data)
    known = data["opp_high"] >= 0
    x = np.concatenate([inputs(data)[known], inputs(data, auction=False)])
    val = held_out(data)
    return (x, np.concatenate([y[known], y]), np.concatenate([w[known], w]),
            np.concatenate([val[known], val]))  # fmt: skip


def widened(model: ContractModel, x: np.ndarray) -> ContractModel:
    """``model`` taking all of ``x``'s columns: inputs it lacked (the auction, for a model
    saved before it) get zero weights, so it predicts as before, and ``x``'s scaling."""
    extra = x.shape[1] - model.n_inputs
    if extra <= 0:
        return model
    w0 = np.concatenate([model.weights[0], np.zeros((extra, model.weights[0].shape[1]),
                                                    np.float32)])  # fmt: skip
    mean = np.concatenate([model.mean, x[:, -extra:].mean(0)]).astype(np.float32)
    std = np.concatenate([model.std, x[:, -extra:].std(0) + 1e-3]).astype(np.float32)
    return ContractModel(mean, std, [w0, *model.weights[1:]], list(model.biases), model.meta)


def held_out(data: dict[str, np.ndarray]) -> np.ndarray:
    """Rows of the validation deals (index ending in 9)."""
    return data["deal"] % 10 == 9


def train(
    data: dict[str, np.ndarray],
    hidden: tuple[int, ...] = (96, 64),
    epochs: int = 12,
    seed: int = 0,
    batch: int = 2048,
    lr: float = 2e-3,
    progress: bool = True,
    meta: dict | None = None,
    init: ContractModel | None = None,
) -> ContractModel:
    """An MLP fitted by Adam on the binary cross-entropy of every head. ``init``: start from
    that model's weights, input scaling and layer sizes (``hidden`` is then unused): to
    adapt a model to games of another card player from fewer of them."""
    import torch

    torch.set_num_threads(1)
    torch.manual_seed(seed)
    x, y, w, val = both_ways(data)
    if init is not None:
        init = widened(init, x[~val])
    mean, std = x[~val].mean(0), x[~val].std(0) + 1e-3
    if init is not None:
        mean, std = init.mean, init.std
        hidden = tuple(int(b.shape[0]) for b in init.biases[:-1])
    xs = torch.tensor((x - mean) / std)
    yt, wt = torch.tensor(y), torch.tensor(w)
    sizes = (x.shape[1], *hidden, len(HEADS))
    layers: list[torch.nn.Module] = []
    for a, b in zip(sizes[:-1], sizes[1:], strict=True):
        layers += [torch.nn.Linear(a, b), torch.nn.ReLU()]
    net = torch.nn.Sequential(*layers[:-1])
    if init is not None:
        with torch.no_grad():
            linears = [m for m in net if isinstance(m, torch.nn.Linear)]
            for m, wt_, b in zip(linears, init.weights, init.biases, strict=True):
                m.weight.copy_(torch.tensor(wt_.T))
                m.bias.copy_(torch.tensor(b))
    opt = torch.optim.Adam(net.parameters(), lr=lr)
    tr_idx = torch.tensor(np.flatnonzero(~val))
    va_idx = torch.tensor(np.flatnonzero(val))
    gen = torch.Generator().manual_seed(seed)
    best, best_state, log = np.inf, None, []
    if init is not None:  # the starting point competes with the epochs
        with torch.no_grad():
            best = float(_loss(net(xs[va_idx]), yt[va_idx], wt[va_idx]))
        best_state = {k: t.clone() for k, t in net.state_dict().items()}
        log.append(round(best, 5))
        if progress:
            print(f"start: held-out loss {best:.4f}", flush=True)
    for epoch in range(epochs):
        net.train()
        perm = tr_idx[torch.randperm(len(tr_idx), generator=gen)]
        for i in range(0, len(perm), batch):
            j = perm[i : i + batch]
            loss = _loss(net(xs[j]), yt[j], wt[j])
            opt.zero_grad()
            loss.backward()
            opt.step()
        net.eval()
        with torch.no_grad():
            v = float(_loss(net(xs[va_idx]), yt[va_idx], wt[va_idx]))
        log.append(round(v, 5))
        if progress:
            print(f"epoch {epoch + 1}/{epochs}: held-out loss {v:.4f}", flush=True)
        if v < best:
            best = v
            best_state = {k: t.clone() for k, t in net.state_dict().items()}
    if best_state is not None:  # else no epoch and no starting point: the fresh network
        net.load_state_dict(best_state)
    linears = [m for m in net if isinstance(m, torch.nn.Linear)]
    model = ContractModel(
        mean.astype(np.float32), std.astype(np.float32),
        [m.weight.detach().numpy().T.copy() for m in linears],
        [m.bias.detach().numpy().copy() for m in linears],
        {**(meta or {}), "hidden": list(hidden), "epochs": epochs, "seed": seed,
         "rows": len(data["deal"]), "held_out_rows": int(held_out(data).sum()),
         "held_out_loss": log},
    )  # fmt: skip
    model.meta["calibration"] = calibration(model, data)
    return model


def _loss(z, y, w):
    import torch

    per = torch.nn.functional.binary_cross_entropy_with_logits(z, y, reduction="none")
    return (per * w).sum() / w.sum()


def calibration(model: ContractModel, data: dict[str, np.ndarray], bins: int = 10) -> dict:
    """Per family, on the held-out deals: per bin of predicted win probability the rows,
    mean prediction and observed win rate; and the Brier score and log loss of the win head."""
    val = held_out(data)
    sub = {k: v[val] for k, v in data.items()}
    p = model.probabilities(inputs(sub, auction=bool((sub["opp_high"] >= 0).all())))[:, 0]
    won = sub["won"].astype(float)
    out = {}
    for fam, kinds in FAMILIES.items():
        rows = np.isin(sub["kind"], kinds)
        if not rows.any():
            continue
        pf, wf = p[rows], won[rows]
        edges = np.minimum((pf * bins).astype(int), bins - 1)
        table = [
            {"bin": b, "rows": int((edges == b).sum()),
             "predicted": float(pf[edges == b].mean()), "observed": float(wf[edges == b].mean())}
            for b in range(bins) if (edges == b).any()
        ]  # fmt: skip
        eps = 1e-6
        out[fam] = {
            "rows": int(rows.sum()),
            "brier": float(np.mean((pf - wf) ** 2)),
            "log_loss": float(-np.mean(wf * np.log(pf + eps) + (1 - wf) * np.log(1 - pf + eps))),
            "base_rate_brier": float(np.mean((wf.mean() - wf) ** 2)),
            "bins": table,
        }
    return out


def plot_calibration(cal: dict, path: str | Path, title: str = "") -> None:
    """Predicted against observed win rate per family (marker area ~ rows), PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(5.5, 5))
    ax.plot([0, 1], [0, 1], color="grey", lw=1, ls="--", label="perfect")
    for fam, c in cal.items():
        xs = [b["predicted"] for b in c["bins"]]
        ys = [b["observed"] for b in c["bins"]]
        sizes = [max(8.0, 200 * b["rows"] / max(1, c["rows"])) for b in c["bins"]]
        ax.plot(xs, ys, lw=1)
        ax.scatter(xs, ys, s=sizes, label=f"{fam} ({c['rows']} games, Brier {c['brier']:.3f})")
    ax.set_xlabel("predicted win probability")
    ax.set_ylabel("observed win rate (held-out deals)")
    ax.set_title(title or "contract model calibration")
    ax.legend(fontsize=8, loc="upper left")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


__all__ = ["calibration", "held_out", "inputs", "plot_calibration", "targets", "train"]

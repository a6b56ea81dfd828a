"""The cross-encoder's second stage under cross-validation over questions (numpy only, so a
device host without the knowledge base's dependencies can run it; bench/kb/cross_cv.py and
bench/kb/cross_gpu.py both use it).

A pool is a dict: `id`, `question`, `ids` (chunk ids), `x` (features, one row per candidate),
`y` (1 for a truth). `cross.get(pool, indices)` gives the cross-encoder's logits of those
candidates (computed or read from a cache).
"""

from __future__ import annotations

import numpy as np
from listwise import fit_listwise

ALPHAS = (0.0, 0.05, 0.1, 0.2, 0.3, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0, 5.0)
L2 = 0.01


def stage2_data(pools: list[dict], w1: np.ndarray, top: int, cross) -> list:
    """Per pool: (stage-1 scores, head indices, head features + logit, head labels)."""
    out = []
    for p in pools:
        s1 = p["x"] @ w1
        head = np.argsort(-s1, kind="stable")[:top]
        ce = cross.get(p, head.tolist())
        out.append((s1, head, np.column_stack([p["x"][head], ce]), p["y"][head]))
    return out


def methods(train: list, test: list, top: int) -> dict[str, list[int | None]]:
    """Ranks of the test pools under each second stage fit on `train` (stage2_data tuples)."""
    w2 = fit_listwise([(x, y) for _, _, x, y in train], L2)
    best_a = max(ALPHAS, key=lambda a: _mrr(_blend(train, a)))
    return {"stage 1": _ranks(test, lambda s1, head, x: s1[head]),
            "cross alone": _ranks(test, lambda s1, head, x: x[:, -1]),
            f"blend (a by fold) top {top}": _blend(test, best_a),
            f"refit +cross top {top}": _ranks(test, lambda s1, head, x: x @ w2)}


def _ranks(data: list, score) -> list[int | None]:
    out = []
    for s1, head, x, y in data:
        order = head[np.argsort(-score(s1, head, x), kind="stable")]
        rest = np.argsort(-s1, kind="stable")[len(head):]
        full_y = np.zeros(len(s1))
        full_y[head] = y
        out.append(next((r + 1 for r, i in enumerate(np.concatenate([order, rest])[:10])
                         if full_y[i]), None))
    return out


def _blend(data: list, a: float) -> list[int | None]:
    return _ranks(data, lambda s1, head, x: s1[head] + a * x[:, -1])


def _mrr(ranks: list[int | None]) -> float:
    return sum(1 / r for r in ranks if r) / max(1, len(ranks))


def summary(ranks: list[int | None]) -> dict[str, float]:
    n = max(1, len(ranks))
    out = {f"R@{k}": round(sum(1 for r in ranks if r and r <= k) / n, 3) for k in (1, 5, 10)}
    out["MRR@10"] = round(_mrr(ranks), 3)
    return out


def cross_validate(pools: list[dict], top: int, cross, seeds: int) -> dict:
    got: dict[str, list[int | None]] = {}
    for seed in range(seeds):
        order = np.random.default_rng(seed).permutation(len(pools))
        for fold in range(5):
            test = set(order[fold::5].tolist())
            tr = [p for i, p in enumerate(pools) if i not in test]
            te = [pools[i] for i in sorted(test)]
            w1 = fit_listwise([(p["x"], p["y"]) for p in tr], L2)
            for name, r in methods(stage2_data(tr, w1, top, cross),
                                   stage2_data(te, w1, top, cross), top).items():
                got.setdefault(name, []).extend(r)
        cross.save()
    return {k: summary(v) for k, v in got.items()}

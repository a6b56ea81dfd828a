"""The listwise linear fit of the reranker (numpy only, so a device host without the knowledge
base's dependencies can run it): a linear ListNet over candidate pools."""

from __future__ import annotations

import numpy as np


def padded(data: list[tuple[np.ndarray, np.ndarray]]) -> tuple[np.ndarray, ...]:
    """The pools holding a positive and a negative as (questions, candidates, features) arrays,
    with their labels and the mask of real (not padding) candidates."""
    data = [(x, y) for x, y in data if 0 < y.sum() < len(y)]
    m = max(len(x) for x, _ in data)
    x_all = np.zeros((len(data), m, data[0][0].shape[1]))
    pos, real = np.zeros((len(data), m), bool), np.zeros((len(data), m), bool)
    for i, (x, y) in enumerate(data):
        x_all[i, :len(x)], pos[i, :len(x)], real[i, :len(x)] = x, y > 0, True
    return x_all, pos, real


def fit_listwise(data: list[tuple[np.ndarray, np.ndarray]], l2: float, steps: int = 1000,
                 lr: float = 0.05) -> np.ndarray:
    """Minimise the mean over questions of -log(softmax mass of the positives in the pool)
    + l2/2 |w|^2 with Adam (convex: 1000 steps reach L-BFGS's optimum to 1e-3 per weight)."""
    x, pos, real = padded(data)
    w, m1, m2 = np.zeros(x.shape[2]), np.zeros(x.shape[2]), np.zeros(x.shape[2])
    for t in range(1, steps + 1):
        s = np.where(real, x @ w, -np.inf)
        e = np.exp(s - s.max(axis=1, keepdims=True))
        p_all = e / e.sum(axis=1, keepdims=True)
        e_pos = np.where(pos, e, 0.0)
        p_pos = e_pos / e_pos.sum(axis=1, keepdims=True)
        grad = np.einsum("qm,qmf->f", p_all - p_pos, x) / len(x) + l2 * w
        m1 = 0.9 * m1 + 0.1 * grad
        m2 = 0.999 * m2 + 0.001 * grad * grad
        w -= lr * (m1 / (1 - 0.9 ** t)) / (np.sqrt(m2 / (1 - 0.999 ** t)) + 1e-8)
    return w

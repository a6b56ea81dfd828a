"""The reranker's fit (bench/kb/fit_rerank.py) on synthetic candidate pools: the listwise loss
learns the feature that puts each question's answer on top, and cross-validation scores unseen
questions (a useless feature scores low, a telling one scores high)."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench" / "kb"))

import fit_rerank  # noqa: E402


def _pools(n: int, seed: int, telling: bool) -> list[tuple[np.ndarray, np.ndarray]]:
    """n pools of 20-40 candidates, one positive each; feature 0 is noise, feature 1 is high on
    the positive (when `telling`) and feature 2 is high on one decoy negative per pool and
    mildly on the positive, so a fit that trusts feature 2 ranks the decoy first."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        m = int(rng.integers(20, 41))
        x = rng.normal(0, 1, (m, 3))
        y = np.zeros(m)
        pos, decoy = rng.choice(m, 2, replace=False)
        y[pos] = 1
        if telling:
            x[pos, 1] += 3.0
        x[decoy, 2] += 4.0
        x[pos, 2] += 2.0
        out.append((x, y))
    return out


def test_listwise_fit_puts_the_answer_first_in_pools_of_different_sizes():
    data = _pools(40, 0, telling=True)
    w = fit_rerank.fit_listwise(data, l2=0.01)
    assert w[1] > abs(w[0]) and w[1] > w[2]
    firsts = fit_rerank.ranks(data, w)
    assert sum(r == 1 for r in firsts) >= 36


def test_cross_validation_scores_questions_the_fit_did_not_see():
    good = fit_rerank.cross_validate(_pools(40, 1, telling=True), "listwise", 0.01, k=4, seeds=1)
    noise = fit_rerank.cross_validate(_pools(40, 2, telling=False), "listwise", 0.01, k=4, seeds=1)
    assert good["recall@5"] >= 0.9 and good["mrr@10"] >= 0.8
    assert noise["mrr@10"] < good["mrr@10"] - 0.3


def test_lambdamart_learns_a_band_that_no_linear_weight_can_rank():
    import rerank_cv

    rng = np.random.default_rng(5)
    data = []
    for _ in range(30):
        x = rng.uniform(0, 1, (25, 2))
        y = ((x[:, 0] > 0.45) & (x[:, 0] < 0.55)).astype(float)
        if not y.any():
            x[0, 0], y[0] = 0.5, 1.0
        data.append((x, y))
    trees = rerank_cv.LambdaMART(40, 0.3, 4, 5).fit(data)
    linear = fit_rerank.fit_listwise(data, 0.01)
    top_tree = np.mean([y[np.argmax(trees.predict(x))] for x, y in data])
    top_linear = np.mean([y[np.argmax(x @ linear)] for x, y in data])
    assert top_tree >= 0.9 and top_linear <= 0.6

"""Cross-validated comparison of reranker models on the development pools (issue 12, round 3).

Usage: python bench/kb/rerank_cv.py --home KB_COPY [--model DIR] [--seeds 3]
Builds every development question's candidate pool and features exactly as fit_rerank.py does
(held-out questions are never read) and prints, per model, Recall@1/5 and MRR@10 of the pool
over questions each fold did not see (5 folds, `--seeds` shuffles):

- linear pairwise: the logistic loss of each positive against each negative (a linear RankNet);
- linear listwise: the softmax mass of the positives in the pool (a linear ListNet, the default);
- LambdaMART: gradient-boosted regression trees on LambdaRank gradients (NDCG@10 deltas, Newton
  leaf values), from zero or on top of the listwise scores; sklearn's regression tree fits
  each round (sklearn comes with sentence-transformers; nothing at query time needs it).
"""

from __future__ import annotations

import argparse
import sys
import tomllib
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench" / "kb"))

import fit_rerank  # noqa: E402

from kb.search import open_kb  # noqa: E402

Pools = list[tuple[np.ndarray, np.ndarray]]


def lambdas(s: np.ndarray, y: np.ndarray, k: int = 10) -> tuple[np.ndarray, np.ndarray]:
    """LambdaRank gradients and hessians of one pool (binary labels, NDCG@k deltas; pairs below
    the cutoff keep a small weight so they can climb)."""
    grad, hess = np.zeros(len(s)), np.zeros(len(s))
    pos, neg = np.flatnonzero(y > 0), np.flatnonzero(y == 0)
    if len(pos) == 0 or len(neg) == 0:
        return grad, hess
    rank = np.empty(len(s), int)
    rank[np.argsort(-s, kind="stable")] = np.arange(len(s))
    disc = np.where(rank < k, 1.0 / np.log2(2 + rank), 0.0)
    ideal = sum(1.0 / np.log2(2 + i) for i in range(min(len(pos), k)))
    delta = np.maximum(np.abs(disc[pos][:, None] - disc[neg][None, :]), 0.02) / ideal
    rho = 1.0 / (1.0 + np.exp(s[pos][:, None] - s[neg][None, :]))
    np.add.at(grad, pos, -(rho * delta).sum(1))
    np.add.at(grad, neg, (rho * delta).sum(0))
    h = rho * (1 - rho) * delta
    np.add.at(hess, pos, h.sum(1))
    np.add.at(hess, neg, h.sum(0))
    return grad, hess


class LambdaMART:
    """Boosted regression trees on LambdaRank gradients, optionally over a linear start."""

    def __init__(self, trees: int, lr: float, leaves: int, min_leaf: int,
                 start: np.ndarray | None = None):
        self.n, self.lr, self.leaves, self.min_leaf, self.start = trees, lr, leaves, min_leaf, start
        self.trees: list = []

    def fit(self, data: Pools) -> LambdaMART:
        from sklearn.tree import DecisionTreeRegressor

        x = np.concatenate([p[0] for p in data])
        y = np.concatenate([p[1] for p in data])
        bounds = np.cumsum([0] + [len(p[0]) for p in data])
        s = x @ self.start if self.start is not None else np.zeros(len(x))
        for _ in range(self.n):
            g, h = np.zeros(len(x)), np.zeros(len(x))
            for a, b in zip(bounds[:-1], bounds[1:], strict=True):
                g[a:b], h[a:b] = lambdas(s[a:b], y[a:b])
            tree = DecisionTreeRegressor(max_leaf_nodes=self.leaves, min_samples_leaf=self.min_leaf,
                                         random_state=0).fit(x, -g)
            leaf = tree.apply(x)
            values = np.zeros(tree.tree_.node_count)
            for node in np.unique(leaf):  # Newton step per leaf
                values[node] = -g[leaf == node].sum() / (h[leaf == node].sum() + 1e-6)
            tree.tree_.value[:, 0, 0] = values
            s += self.lr * tree.predict(x)
            self.trees.append(tree)
        return self

    def predict(self, x: np.ndarray) -> np.ndarray:
        s = x @ self.start if self.start is not None else np.zeros(len(x))
        return s + sum(self.lr * t.predict(x) for t in self.trees)


def cross_validate(data: Pools, fit, predict, seeds: int, k: int = 5) -> dict[str, float]:
    """Recall@1/5 and MRR@10 over questions each fold did not see, averaged over the seeds."""
    got = []
    for seed in range(seeds):
        order = np.random.default_rng(seed).permutation(len(data))
        for fold in range(k):
            test = set(order[fold::k].tolist())
            model = fit([p for i, p in enumerate(data) if i not in test])
            for i in sorted(test):
                x, y = data[i]
                top = np.argsort(-predict(model, x), kind="stable")[:10]
                got.append(next((r + 1 for r, j in enumerate(top) if y[j]), None))
    n = len(got)
    return {"R@1": round(sum(r == 1 for r in got) / n, 3),
            "R@5": round(sum(1 for r in got if r and r <= 5) / n, 3),
            "MRR@10": round(sum(1 / r for r in got if r) / n, 3)}


def models(l2: float) -> dict:
    """Name -> (fit, predict) of every model compared."""
    linear = lambda w, x: x @ w
    listwise = lambda d: fit_rerank.fit_listwise(d, l2)
    out = {"linear pairwise (RankNet)": (lambda d: fit_rerank.fit(fit_rerank.pairs(d), l2), linear),
           "linear listwise (ListNet)": (listwise, linear)}
    for trees, lr, leaves, min_leaf in ((100, 0.1, 8, 20), (200, 0.05, 4, 30)):
        out[f"LambdaMART {trees} trees x {leaves} leaves"] = (
            lambda d, a=(trees, lr, leaves, min_leaf): LambdaMART(*a).fit(d),
            lambda m, x: m.predict(x))
    pairwise = lambda d: fit_rerank.fit(fit_rerank.pairs(d), l2)
    for trees, lr, leaves, min_leaf in ((100, 0.1, 8, 20), (200, 0.05, 4, 30)):
        out[f"pairwise + LambdaMART {trees} trees x {leaves} leaves"] = (
            lambda d, a=(trees, lr, leaves, min_leaf): LambdaMART(*a, start=pairwise(d)).fit(d),
            lambda m, x: m.predict(x))
    out["listwise + LambdaMART 60 trees x 4 leaves"] = (
        lambda d: LambdaMART(60, 0.05, 4, 50, start=listwise(d)).fit(d), lambda m, x: m.predict(x))
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--home", required=True)
    ap.add_argument("--corpus-set", default="main")
    ap.add_argument("--model", help="embedding model (folder) of the index")
    ap.add_argument("--l2", type=float, default=0.01)
    ap.add_argument("--seeds", type=int, default=3)
    args = ap.parse_args()
    qs = [q for q in tomllib.loads(fit_rerank.QUESTIONS.read_text(encoding="utf-8"))["q"]
          if q["part"] == "dev"]
    data = fit_rerank.pools(open_kb(Path(args.home), corpus_set=args.corpus_set, model=args.model), qs)
    held = sum(1 for _, y in data if y.sum())
    print(f"{len(data)} development pools, {held} hold a truth (the ceiling of any reranker: "
          f"R@10 <= {held / len(data):.3f}); 5-fold cross-validation x{args.seeds}:")
    for name, (fit, predict) in models(args.l2).items():
        print(f"  {name:42} {cross_validate(data, fit, predict, args.seeds)}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

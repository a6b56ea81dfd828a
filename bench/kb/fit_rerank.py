"""Fit the reranker's weights (kb/rerank.json) on the development part of question set v2 only.

Usage: python bench/kb/fit_rerank.py --home KB_COPY [--l2 0.01] [--loss listwise|pairwise]
For every development question it builds the candidate pool exactly as search() does with the
reranker off (enriched BM25, expanded query, dense list, callees; backend filter on), labels a
candidate 1 when it overlaps a truth range, and fits linear weights with an L2 penalty:
`listwise` (the default) maximises, per question, the softmax probability the pool gives its
positives (a linear ListNet: the whole pool competes for the top, as MRR@10 rewards);
`pairwise` is the logistic loss of each positive against each negative (a linear RankNet).
5-fold cross-validation over the development questions (3 seeds) is printed for the loss
(`--compare`: for both; the pairwise one takes minutes).
Held-out questions are never read. The weights file records the date, commit, data and command.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tomllib
from datetime import UTC, datetime
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench" / "kb"))

from listwise import fit_listwise, padded  # noqa: E402, F401  (fit_rerank.fit_listwise: the same fit)

from kb import ranking  # noqa: E402
from kb.embed import Embedder  # noqa: E402
from kb.rerank import FEATURES, WEIGHTS, Reranker  # noqa: E402
from kb.search import DEFAULT, KIND_PRIOR, Filters, open_kb  # noqa: E402

QUESTIONS = ROOT / "bench" / "kb" / "questions-v2.toml"


def is_hit(meta: dict, truths: list[dict]) -> bool:
    lo, hi = int(meta["start_line"] or 0), int(meta["end_line"] or 0)
    return any(meta["source"] == t["repo"] and meta["path"] == t["path"]
               and lo <= t["end_line"] and hi >= t["start_line"] for t in truths)


def pools(kb, questions: list[dict]) -> list[tuple[np.ndarray, np.ndarray]]:
    """(features, labels) of each development question's candidate pool."""
    lex = kb.lexical(enriched=DEFAULT.enrich)
    positions, symbols = kb._tables(lex)
    out = []
    for q in questions:
        flt = Filters(backend=q["backend"])
        fd = flt.as_dict()
        dense = kb._dense(q["question"], 100, flt, lex)
        pool = ranking.candidate_pool(lex, positions, kb.query_terms(q["question"], DEFAULT.expand),
                                      dense, fd, 100, DEFAULT.dense_weight, KIND_PRIOR)
        top = sorted(pool.cands.values(), key=lambda c: -c.fused)[:ranking.CALLEE_PARENTS]
        ranking.add_callees(pool, symbols, kb._texts(top, positions), fd)
        ranking.add_siblings(pool, fd)
        kb.comment_scores(q["question"], pool)
        lines = ranking.text_lines(pool, ranking.text_pool(pool),
                                   lambda cands: kb._texts(cands, positions))
        ranking.rerank(pool, Reranker({}), lines)  # computes every candidate's features
        cands = [c for c in pool.cands.values() if c.features]
        x = np.array([[c.features[f] for f in FEATURES] for c in cands])
        y = np.array([is_hit(pool.meta(c.doc), q["truth"]) for c in cands], dtype=float)
        out.append((x, y))
    return out


def pairs(data: list[tuple[np.ndarray, np.ndarray]]) -> np.ndarray:
    diffs = [x[y == 1][:, None, :] - x[y == 0][None, :, :] for x, y in data if 0 < y.sum() < len(y)]
    return np.concatenate([d.reshape(-1, d.shape[-1]) for d in diffs])


def fit(d: np.ndarray, l2: float, steps: int = 3000, lr: float = 0.5) -> np.ndarray:
    """Logistic regression on positive-minus-negative differences (label 1), no bias."""
    w = np.zeros(d.shape[1])
    for _ in range(steps):
        p = 1 / (1 + np.exp(-(d @ w)))
        grad = -(d * (1 - p)[:, None]).mean(axis=0) + l2 * w
        w -= lr * grad
    return w


def fit_loss(data: list[tuple[np.ndarray, np.ndarray]], loss: str, l2: float) -> np.ndarray:
    return fit_listwise(data, l2) if loss == "listwise" else fit(pairs(data), l2)


def ranks(data, w) -> list[int | None]:
    """Per question, the rank of its first positive among the top 10 under weights w."""
    out = []
    for x, y in data:
        order = np.argsort(-(x @ w), kind="stable")[:10]
        out.append(next((r + 1 for r, i in enumerate(order) if y[i]), None))
    return out


def mrr(data, w) -> float:
    return sum(1 / r for r in ranks(data, w) if r) / len(data)


def cross_validate(data, loss: str, l2: float, k: int = 5, seeds: int = 3) -> dict[str, float]:
    """Recall@5 and MRR@10 of the pools over development questions each fold did not see,
    averaged over `seeds` shuffles of the k folds."""
    r5 = rr = 0.0
    for seed in range(seeds):
        order = np.random.default_rng(seed).permutation(len(data))
        for fold in range(k):
            test = set(order[fold::k].tolist())
            w = fit_loss([p for i, p in enumerate(data) if i not in test], loss, l2)
            got = ranks([data[i] for i in sorted(test)], w)
            r5 += sum(1 for r in got if r and r <= 5)
            rr += sum(1 / r for r in got if r)
    n = seeds * len(data)
    return {"recall@5": round(r5 / n, 3), "mrr@10": round(rr / n, 3)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--home", required=True)
    ap.add_argument("--corpus-set", default="main")
    ap.add_argument("--l2", type=float, default=0.01)
    ap.add_argument("--loss", choices=("listwise", "pairwise"), default="listwise")
    ap.add_argument("--compare", action="store_true", help="cross-validate both losses")
    ap.add_argument("--model", help="embedding model (folder) of the index; its fit is written "
                    "to kb/rerank-<model slug>.json")
    ap.add_argument("--out", help=f"weights file (default {WEIGHTS.name}, see --model)")
    args = ap.parse_args()
    args.out = args.out or (WEIGHTS.with_name(f"rerank-{Embedder(args.model).slug}.json")
                            if args.model else WEIGHTS)
    qs = [q for q in tomllib.loads(QUESTIONS.read_text(encoding="utf-8"))["q"] if q["part"] == "dev"]
    kb = open_kb(Path(args.home), corpus_set=args.corpus_set, model=args.model)
    data = pools(kb, qs)
    w = fit_loss(data, args.loss, args.l2)
    fused = np.array([1.0 if f == "lex" else 0.0 for f in FEATURES])
    cv = {loss: cross_validate(data, loss, args.l2) for loss in
          (("listwise", "pairwise") if args.compare else (args.loss,))}
    print(f"dev pools {len(data)}; dev MRR@10 of the pool: by BM25 {mrr(data, fused):.3f}, "
          f"reranked {mrr(data, w):.3f} ({args.loss}, fit on all dev); 5-fold cross-validation "
          f"x3: " + "; ".join(f"{k} R@5 {v['recall@5']} MRR@10 {v['mrr@10']}" for k, v in cv.items()))
    commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
                            capture_output=True, text=True).stdout.strip()
    Path(args.out).write_text(json.dumps({
        "features": list(FEATURES), "weights": [round(float(v), 5) for v in w],
        "fit": {"date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"), "commit": commit,
                "data": f"development part of {QUESTIONS.name} ({len(qs)} questions, backend filter on)",
                "loss": args.loss, "l2": args.l2, "cross_validation": cv[args.loss],
                "collection": kb.store.name,
                "chunks": kb.store.count(),
                "model": kb.embedder.model_name,
                "command": f"python bench/kb/fit_rerank.py --home KB --l2 {args.l2} --loss {args.loss}"
                + (f" --model {args.model}" if args.model else "")},
    }, indent=1) + "\n")
    for f, v in sorted(zip(FEATURES, w, strict=True), key=lambda x: -abs(x[1])):
        print(f"  {f:14} {v:+.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

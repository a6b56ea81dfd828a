"""The cross-encoder as a second stage over the reranker's top N, cross-validated on dev pools.

Usage: python bench/kb/cross_cv.py --home KB_COPY [--top 20,30] [--seeds 3] [--fit]
Builds every development question's pool exactly as fit_rerank.py does (held-out questions are
never read) and scores candidates with the pinned cross-encoder (KB/models/minilm-cross, built
by bench/kb/crossenc.py). Under 5-fold cross-validation over questions (`--seeds` shuffles) the
first stage (the listwise linear reranker) is refit on each fold's training questions, then its
top N of each question is reordered by:

- `stage 1`: unchanged (the baseline);
- `cross alone`: the cross-encoder's logit;
- `blend`: stage-1 score + a * logit, a picked on the training folds from a grid;
- `refit`: a listwise linear fit over the top N with the 23 features + the logit (one more
  feature), on the training folds.

Printed: Recall@1/5/10 and MRR@10 over the questions each fold did not see. `--fit` writes the
`refit` weights fit on all development questions to kb/rerank-cross.json (the file search reads
when the cross-encoder is present). Cross-encoder scores are cached beside the index copy.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
import tomllib
from datetime import UTC, datetime
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench" / "kb"))

import fit_rerank  # noqa: E402

from kb import crossenc, ranking  # noqa: E402
from kb.rerank import FEATURES, Reranker  # noqa: E402
from kb.search import DEFAULT, KIND_PRIOR, Filters, open_kb  # noqa: E402

QUESTIONS = ROOT / "bench" / "kb" / "questions-v2.toml"
CROSS_WEIGHTS = ROOT / "kb" / "rerank-cross.json"
ALPHAS = (0.0, 0.05, 0.1, 0.2, 0.3, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0, 5.0)
L2 = 0.01


def dev_pools(kb, questions: list[dict]) -> list[dict]:
    """Per development question: candidate ids, features (FEATURES order) and labels."""
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
        ranking.rerank(pool, Reranker({}), lines)
        cands = [c for c in pool.cands.values() if c.features]
        out.append({"id": q["id"], "question": q["question"], "ids": [c.id for c in cands],
                    "x": np.array([[c.features[f] for f in FEATURES] for c in cands]),
                    "y": np.array([fit_rerank.is_hit(pool.meta(c.doc), q["truth"]) for c in cands],
                                  dtype=float)})
    return out


class CrossScores:
    """Cross-encoder logits per (question, chunk), computed on demand and cached in a file."""

    def __init__(self, kb, model: crossenc.CrossEncoder, path: Path, sha: str) -> None:
        self.kb, self.model, self.path = kb, model, path
        data = json.loads(path.read_text()) if path.exists() else {}
        self.cache: dict[str, float] = data.get("scores", {}) if data.get("sha256") == sha else {}
        self.sha = sha
        self.seconds: list[float] = []

    def get(self, pool: dict, idx: list[int]) -> np.ndarray:
        keys = [f"{pool['id']}|{pool['ids'][i]}" for i in idx]
        todo = [i for i, k in zip(idx, keys, strict=True) if k not in self.cache]
        if todo:
            texts = {cid: c.text for cid, c in self.kb.chunks([pool["ids"][i] for i in todo]).items()}
            t0 = time.perf_counter()
            got = self.model.score(pool["question"], [texts.get(pool["ids"][i], "") for i in todo])
            self.seconds.append(time.perf_counter() - t0)
            for i, s in zip(todo, got, strict=True):
                self.cache[f"{pool['id']}|{pool['ids'][i]}"] = s
        return np.array([self.cache[k] for k in keys])

    def save(self) -> None:
        self.path.write_text(json.dumps({"sha256": self.sha, "scores": self.cache}))


def first_hit(order: np.ndarray, y: np.ndarray) -> int | None:
    return next((r + 1 for r, i in enumerate(order[:10]) if y[i]), None)


def reorder(s1: np.ndarray, top: int, s2: np.ndarray) -> np.ndarray:
    """Stage 1's order with its first `top` reordered by s2 (given for those, in stage-1 order)."""
    order = np.argsort(-s1, kind="stable")
    head = order[:top][np.argsort(-s2, kind="stable")]
    return np.concatenate([head, order[top:]])


def stage2_data(pools: list[dict], w1: np.ndarray, top: int, cross: CrossScores) -> list:
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
    w2 = fit_rerank.fit_listwise([(x, y) for _, _, x, y in train], L2)
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


def cross_validate(pools: list[dict], top: int, cross: CrossScores, seeds: int) -> dict:
    got: dict[str, list[int | None]] = {}
    for seed in range(seeds):
        order = np.random.default_rng(seed).permutation(len(pools))
        for fold in range(5):
            test = set(order[fold::5].tolist())
            tr = [p for i, p in enumerate(pools) if i not in test]
            te = [pools[i] for i in sorted(test)]
            w1 = fit_rerank.fit_listwise([(p["x"], p["y"]) for p in tr], L2)
            for name, r in methods(stage2_data(tr, w1, top, cross),
                                   stage2_data(te, w1, top, cross), top).items():
                got.setdefault(name, []).extend(r)
        cross.save()
    return {k: summary(v) for k, v in got.items()}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--home", required=True, type=Path)
    ap.add_argument("--corpus-set", default="main")
    ap.add_argument("--top", default="20,30")
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--fit", action="store_true", help=f"write {CROSS_WEIGHTS.name}")
    args = ap.parse_args()
    model = crossenc.load_pinned(args.home)
    if model is None:
        sys.exit(f"No cross-encoder matching {crossenc.PIN.name} under {args.home}/models; build "
                 "it with `python bench/kb/crossenc.py --home KB`.")
    sha = json.loads(crossenc.PIN.read_text())["output"]["sha256"]
    qs = [q for q in tomllib.loads(QUESTIONS.read_text(encoding="utf-8"))["q"] if q["part"] == "dev"]
    kb = open_kb(args.home, corpus_set=args.corpus_set)
    pools = dev_pools(kb, qs)
    cross = CrossScores(kb, model, args.home / "cross-scores-dev.json", sha)
    print(f"{len(pools)} development pools, {sum(1 for p in pools if p['y'].any())} hold a truth; "
          f"5-fold cross-validation x{args.seeds}:", flush=True)
    for top in (int(t) for t in args.top.split(",")):
        for name, v in cross_validate(pools, top, cross, args.seeds).items():
            print(f"  top {top:3} {name:28} {v}", flush=True)
    if cross.seconds:
        t = sorted(cross.seconds)
        print(f"cross-encoder calls: {len(t)}, p50 {1000 * t[len(t) // 2]:.0f} ms, "
              f"p95 {1000 * t[int(0.95 * (len(t) - 1))]:.0f} ms (each scores the uncached part of a head)")
    if args.fit:
        write_fit(pools, cross, int(args.top.split(",")[-1]), kb)
    return 0


def write_fit(pools: list[dict], cross: CrossScores, top: int, kb) -> None:
    """The stage-2 weights fit on all development questions, over stage 1's committed weights."""
    reranker = fit_rerank.WEIGHTS
    data = json.loads(reranker.read_text())
    w1 = np.array([dict(zip(data["features"], data["weights"], strict=True)).get(f, 0.0)
                   for f in FEATURES])
    d2 = stage2_data(pools, w1, top, cross)
    w2 = fit_rerank.fit_listwise([(x, y) for _, _, x, y in d2], L2)
    cross.save()
    commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
                            capture_output=True, text=True).stdout.strip()
    CROSS_WEIGHTS.write_text(json.dumps({
        "features": [*FEATURES, "cross"], "weights": [round(float(v), 5) for v in w2], "top": top,
        "fit": {"date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"), "commit": commit,
                "data": f"development part of {QUESTIONS.name} ({len(pools)} questions, backend "
                        "filter on): the top N of the committed kb/rerank.json",
                "loss": "listwise", "l2": L2, "cross_encoder_sha256": cross.sha,
                "collection": kb.store.name,
                "command": f"python bench/kb/cross_cv.py --home KB --top {top} --fit"}}, indent=1) + "\n")
    print(f"wrote {CROSS_WEIGHTS.relative_to(ROOT)}: cross weight {w2[-1]:+.3f}")


if __name__ == "__main__":
    sys.exit(main())

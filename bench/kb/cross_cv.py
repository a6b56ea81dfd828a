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
from cross_eval import L2, cross_validate, stage2_data  # noqa: E402

from kb import crossenc, ranking  # noqa: E402
from kb.rerank import FEATURES, Reranker  # noqa: E402
from kb.search import DEFAULT, KIND_PRIOR, Filters, open_kb  # noqa: E402

QUESTIONS = ROOT / "bench" / "kb" / "questions-v2.toml"
CROSS_WEIGHTS = ROOT / "kb" / "rerank-cross.json"


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


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--home", required=True, type=Path)
    ap.add_argument("--corpus-set", default="main")
    ap.add_argument("--top", default="20,30")
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--fit", action="store_true", help=f"write {CROSS_WEIGHTS.name}")
    ap.add_argument("--export", type=Path, help="write the development pools (features, labels, "
                    "chunk texts) to this folder for bench/kb/cross_gpu.py and stop")
    ap.add_argument("--latency", action="store_true",
                    help="only time the second stage (the head's cross-encoder pass) per question")
    args = ap.parse_args()
    if args.export:
        return export(args.home, args.corpus_set, args.export)
    model = crossenc.load_pinned(args.home)
    if model is None:
        sys.exit(f"No cross-encoder matching {crossenc.PIN.name} under {args.home}/models; build "
                 "it with `python bench/kb/crossenc.py --home KB`.")
    sha = json.loads(crossenc.PIN.read_text())["output"]["sha256"]
    qs = [q for q in tomllib.loads(QUESTIONS.read_text(encoding="utf-8"))["q"] if q["part"] == "dev"]
    kb = open_kb(args.home, corpus_set=args.corpus_set)
    pools = dev_pools(kb, qs)
    if args.latency:
        return latency(kb, model, pools, [int(t) for t in args.top.split(",")])
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


def export(home: Path, corpus_set: str, out: Path) -> int:
    """Every development pool with its candidates' texts, gzipped JSON (no held-out question)."""
    import gzip

    qs = [q for q in tomllib.loads(QUESTIONS.read_text(encoding="utf-8"))["q"] if q["part"] == "dev"]
    kb = open_kb(home, corpus_set=corpus_set)
    rows = []
    for p in dev_pools(kb, qs):
        texts = {cid: c.text for cid, c in kb.chunks(p["ids"]).items()}
        rows.append({"id": p["id"], "question": p["question"], "ids": p["ids"],
                     "x": p["x"].round(6).tolist(), "y": p["y"].tolist(),
                     "texts": [texts.get(i, "") for i in p["ids"]]})
    out.mkdir(parents=True, exist_ok=True)
    with gzip.open(out / "dev-pools.json.gz", "wt", encoding="utf-8") as f:
        json.dump({"features": list(FEATURES), "pools": rows}, f)
    print(f"wrote {out / 'dev-pools.json.gz'}: {len(rows)} development pools")
    return 0


def latency(kb, model: crossenc.CrossEncoder, pools: list[dict], tops: list[int]) -> int:
    """p50/p95 of the cross-encoder's pass over each question's head (texts read beforehand: the
    ranking reads them anyway), per head size, with the 1-minute load average."""
    import os

    for top in tops:
        times = []
        for p in pools:
            texts = kb.chunks(p["ids"][:top])
            docs = [texts[i].text for i in p["ids"][:top] if i in texts]
            t0 = time.perf_counter()
            model.score(p["question"], docs)
            times.append(1000 * (time.perf_counter() - t0))
        times.sort()
        print(f"second stage, head of {top}: p50 {times[len(times) // 2]:.0f} ms, p95 "
              f"{times[int(0.95 * (len(times) - 1))]:.0f} ms over {len(times)} questions "
              f"(1-minute load average {os.getloadavg()[0]:.2f})", flush=True)
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

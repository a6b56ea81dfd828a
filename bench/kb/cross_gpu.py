"""Train the cross-encoder on a GPU from an exported kit and cross-validate it on the dev pools.

Usage (on the device host, from the repository root; needs torch, transformers, safetensors,
numpy only): python bench/kb/cross_gpu.py --kit KIT [--device cuda] [--epochs 3] [--batch 64]
    [--queries 0] [--top 20,30] [--seeds 3] [--out DIR]
The kit is made here, on the machine holding the index (no held-out question is in it):
    python bench/kb/crossenc.py --home KB --pairs 9000 --export KIT   # examples + base (fp16)
    python bench/kb/cross_cv.py --home KB --export KIT                # dev pools + chunk texts
It trains kb/crossenc.py's cross-encoder (same recipe: BCE, 1 positive + 3 BM25 rank 20-50
negatives per corpus query) for `--epochs` passes (query groups reshuffled per pass, seeded),
scores every candidate of every development pool, and prints the same cross-validated table as
bench/kb/cross_cv.py (stage 1 alone, cross-encoder alone, blend, refit with the logit as a
feature). `--out DIR` also writes the model folder and the logits there.
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench" / "kb"))

from cross_eval import cross_validate  # noqa: E402

from kb import crossenc  # noqa: E402


class Logits:
    """Cross-encoder logits of every candidate of every pool, computed once up front."""

    def __init__(self, model: crossenc.CrossEncoder, pools: list[dict], batch: int = 128) -> None:
        self.by_pool: dict[str, np.ndarray] = {}
        for p in pools:
            got: list[float] = []
            for i in range(0, len(p["texts"]), batch):
                got += model.score(p["question"], p["texts"][i:i + batch])
            self.by_pool[p["id"]] = np.array(got)

    def get(self, pool: dict, idx: list[int]) -> np.ndarray:
        return self.by_pool[pool["id"]][idx]

    def save(self) -> None:  # cross_eval.cross_validate saves caches; these live in memory
        return None


def epochs(items: list[crossenc.Example], n: int, seed: int) -> list[crossenc.Example]:
    """`n` passes over the examples, the query groups (a positive and its negatives, adjacent
    in `items`) shuffled per pass with a seeded generator."""
    groups: list[list[crossenc.Example]] = []
    for e in items:
        if e.label > 0 or not groups:
            groups.append([])
        groups[-1].append(e)
    rng = random.Random(seed)
    out: list[crossenc.Example] = []
    for _ in range(n):
        order = groups[:]
        rng.shuffle(order)
        out += [e for g in order for e in g]
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kit", required=True, type=Path)
    ap.add_argument("--device", default="cuda")
    ap.add_argument("--epochs", type=int, default=3)
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument("--lr", type=float, default=3e-5)
    ap.add_argument("--queries", type=int, default=0, help="use the first N queries (0: all)")
    ap.add_argument("--top", default="20,30")
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--pools", type=int, default=0, help="use the first N dev pools (0: all; a "
                    "smaller number only checks that the kit runs)")
    ap.add_argument("--out", type=Path, help="keep the model folder and the logits here")
    args = ap.parse_args()
    with gzip.open(args.kit / "examples.jsonl.gz", "rt", encoding="utf-8") as f:
        items = [crossenc.Example(**json.loads(line)) for line in f]
    if args.queries:
        starts = [i for i, e in enumerate(items) if e.label > 0]
        items = items[:starts[args.queries]] if args.queries < len(starts) else items
    with gzip.open(args.kit / "dev-pools.json.gz", "rt", encoding="utf-8") as f:
        pools = json.load(f)["pools"][:args.pools or None]
    for p in pools:
        p["x"], p["y"] = np.array(p["x"]), np.array(p["y"])
    train_args = replace(crossenc.CrossArgs(), batch_size=args.batch, lr=args.lr)
    plan = epochs(items, args.epochs, train_args.seed)
    print(f"{sum(1 for e in items if e.label > 0)} queries, {len(items)} examples, {args.epochs} "
          f"epochs = {len(plan) // args.batch} steps of {args.batch} on {args.device}", flush=True)
    out = args.out or Path(tempfile.mkdtemp(prefix="cross-"))
    t0 = time.perf_counter()
    sha = crossenc.train(plan, args.kit / "base", out / "model", train_args,
                         log=lambda m: print(m, flush=True), device=args.device)
    print(f"trained in {time.perf_counter() - t0:.0f} s; weights sha256 {sha}", flush=True)
    t0 = time.perf_counter()
    logits = Logits(crossenc.CrossEncoder(out / "model", device=args.device), pools)
    print(f"scored {sum(len(p['ids']) for p in pools)} dev candidates in "
          f"{time.perf_counter() - t0:.0f} s", flush=True)
    if args.out:
        (out / "logits.json").write_text(json.dumps({k: v.tolist() for k, v in logits.by_pool.items()}))
    print(f"{len(pools)} development pools, {sum(1 for p in pools if p['y'].any())} hold a truth; "
          f"5-fold cross-validation x{args.seeds}:")
    for top in (int(t) for t in args.top.split(",")):
        for name, v in cross_validate(pools, top, logits, args.seeds).items():
            print(f"  top {top:3} {name:28} {v}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

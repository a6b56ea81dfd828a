"""The candidate pool's variants, each measured through the reranker under cross-validation.

Usage: python bench/kb/pool_cv.py --home KB_COPY [--seeds 5] [--variants NAME,...] [--model DIR]
For each pool variant (bench/kb/pool_misses.py VARIANTS: the dense list's first hits always
rescored, every candidate with its BM25, the plain question's BM25 top joining) it builds every
development question's pool as fit_rerank.py does (held-out questions are never read), counts the
pools holding a truth (the ceiling), and prints the listwise reranker's Recall@5 and MRR@10 over
questions each fold did not see (5 folds x `--seeds` shuffles).
"""

from __future__ import annotations

import argparse
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench" / "kb"))

import fit_rerank  # noqa: E402
from pool_misses import VARIANTS, set_variant  # noqa: E402
from retrieval import memoize_dense  # noqa: E402

from kb.search import open_kb  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--home", required=True, type=Path)
    ap.add_argument("--corpus-set", default="main")
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--variants", default="", help="comma-separated names (default: all)")
    ap.add_argument("--model", help="embedding model (folder) of the index, as in fit_rerank.py")
    args = ap.parse_args()
    names = [v for v in args.variants.split(",") if v] or list(VARIANTS)
    qs = [q for q in tomllib.loads(fit_rerank.QUESTIONS.read_text(encoding="utf-8"))["q"]
          if q["part"] == "dev"]
    kb = open_kb(args.home, corpus_set=args.corpus_set, model=args.model)
    memoize_dense(kb)
    print(f"{len(qs)} development questions; listwise reranker, 5-fold CV x{args.seeds}")
    for name in names:
        set_variant(name)
        data = fit_rerank.pools(kb, qs)
        held = sum(1 for _, y in data if y.any())
        cv = fit_rerank.cross_validate(data, "listwise", 0.01, seeds=args.seeds)
        size = sum(len(y) for _, y in data) / len(data)
        print(f"  {name:32} ceiling {held}/{len(data)}, mean pool {size:.1f}: CV R@5 "
              f"{cv['recall@5']} MRR@10 {cv['mrr@10']}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

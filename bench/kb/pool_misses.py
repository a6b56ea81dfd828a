"""Why the candidate pool misses a development question's truth (issue 12, round 4).

Usage: python bench/kb/pool_misses.py --home KB_COPY [--depth 1000]
For every development question (held-out ones are never read) it builds the pool search() would
rerank (the first ranking.RERANK_POOL fused candidates + callees, backend filter on) and, for each
question whose pool holds no truth, prints the truth chunks with their rank in the expanded BM25,
the plain BM25 and the dense list, the chunk's kind and language, and which question tokens the
chunk's lexical document holds and lacks. Prints the ceiling (pools holding a truth) at the end.
"""

from __future__ import annotations

import argparse
import sys
import tomllib
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from kb import ranking  # noqa: E402
from kb.search import DEFAULT, KIND_PRIOR, Filters, open_kb  # noqa: E402
from kb.tokens import tokenize  # noqa: E402

QUESTIONS = ROOT / "bench" / "kb" / "questions-v2.toml"


def truth_docs(lex, truths: list[dict]) -> list[int]:
    src, path = lex.columns["source"], lex.columns["path"]
    lo, hi = lex.columns["start_line"], lex.columns["end_line"]
    out = []
    for t in truths:
        rows = np.flatnonzero((src == t["repo"]) & (path == t["path"]))
        out += [int(i) for i in rows if int(lo[i] or 0) <= t["end_line"] and int(hi[i] or 0) >= t["start_line"]]
    return out


def holds(lex, token: str, i: int) -> bool:
    """Whether document i's lexical document holds the token."""
    j = lex.vocab.get(token)
    return j is not None and bool((lex.docs[lex.indptr[j]:lex.indptr[j + 1]] == i).any())


def rank_in(scores: np.ndarray, mask, i: int) -> int | None:
    s = scores if mask is None else np.where(mask, scores, 0.0)
    return None if s[i] <= 0 else int((s > s[i]).sum()) + 1


def pool_docs(kb, lex, q: dict, positions, symbols) -> tuple[set[int], dict[str, float], list]:
    flt = Filters(backend=q["backend"])
    fd = flt.as_dict()
    dense = kb._dense(q["question"], 100, flt, lex)
    terms = kb.query_terms(q["question"], DEFAULT.expand)
    pool = ranking.candidate_pool(lex, positions, terms, dense, fd, 100, DEFAULT.dense_weight,
                                  KIND_PRIOR)
    top = sorted(pool.cands.values(), key=lambda c: -c.fused)[:ranking.CALLEE_PARENTS]
    ranking.add_callees(pool, symbols, kb._texts(top, positions), fd)
    ranking.add_siblings(pool, fd)
    return {c.doc for c in ranking.rescored(pool)}, terms, dense


VARIANTS = {  # name -> (DENSE_KEEP, LEX_FOR_DENSE, BASE_KEEP, SIBLING_FILES)
    "as is": (0, False, 0, 0), "dense lex": (0, True, 0, 0), "dense keep 10": (10, False, 0, 0),
    "dense keep 20": (20, False, 0, 0), "dense keep 30": (30, False, 0, 0),
    "dense lex + keep 20": (20, True, 0, 0), "base keep 30": (0, False, 30, 0),
    "dense lex + keep 20 + base 30": (20, True, 30, 0),
    "dense lex + keep 30 + base 50": (30, True, 50, 0),
    "siblings of 3 files": (0, False, 0, 3), "siblings of 5 files": (0, False, 0, 5),
    "siblings of 10 files": (0, False, 0, 10),
    "dense lex + keep 20 + siblings of 5": (20, True, 0, 5),
}


def set_variant(name: str) -> None:
    ranking.DENSE_KEEP, ranking.LEX_FOR_DENSE, ranking.BASE_KEEP, ranking.SIBLING_FILES = VARIANTS[name]


def variants(kb, lex, qs, positions, symbols, names: list[str]) -> int:
    """The ceiling (pools holding a truth) and mean pool size per pool variant."""
    memo: dict = {}
    real = kb._dense

    def dense(query, depth, flt, *rest):
        key = (query, depth, repr(flt))
        if key not in memo:
            memo[key] = real(query, depth, flt, *rest)
        return memo[key]

    kb._dense = dense
    truths = [set(truth_docs(lex, q["truth"])) for q in qs]
    for name in names or VARIANTS:
        set_variant(name)
        sizes, held = [], 0
        for q, truth in zip(qs, truths, strict=True):
            docs = pool_docs(kb, lex, q, positions, symbols)[0]
            sizes.append(len(docs))
            held += bool(docs & truth)
        print(f"  {name:32} ceiling {held}/{len(qs)}, mean pool {np.mean(sizes):.1f}", flush=True)
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--home", required=True, type=Path)
    ap.add_argument("--corpus-set", default="main")
    ap.add_argument("--depth", type=int, default=1000, help="how far down the dense list to look")
    ap.add_argument("--variants", action="store_true",
                    help="only print the ceiling and pool size of each pool variant")
    ap.add_argument("--names", default="", help="--variants: comma-separated names (default all)")
    args = ap.parse_args()
    qs = [q for q in tomllib.loads(QUESTIONS.read_text(encoding="utf-8"))["q"] if q["part"] == "dev"]
    kb = open_kb(args.home, corpus_set=args.corpus_set)
    lex = kb.lexical(enriched=DEFAULT.enrich)
    positions, symbols = kb._tables(lex)
    if args.variants:
        return variants(kb, lex, qs, positions, symbols, [v for v in args.names.split(',') if v])
    held = 0
    for q in qs:
        docs, terms, _ = pool_docs(kb, lex, q, positions, symbols)
        truth = truth_docs(lex, q["truth"])
        if docs & set(truth):
            held += 1
            continue
        mask = lex.mask({"backend": q["backend"]})
        full = lex.weighted_scores(terms)
        plain = lex.weighted_scores(dict.fromkeys(tokenize(q["question"]), 1.0))
        dense = [x.id for x in kb._dense(q["question"], args.depth, Filters(backend=q["backend"]), lex)]
        print(f"\n{q['id']} [{q['backend']}] {q['question']}")
        print(f"  truth: {'; '.join(t['repo'] + ':' + t['path'] + ':' + str(t['start_line']) + '-' + str(t['end_line']) for t in q['truth'])}"
              f" ({len(truth)} chunks)")
        qtok = set(tokenize(q["question"]))
        for i in truth[:4]:
            toks = {t for t in qtok if holds(lex, t, i)}
            d = lex.ids[i]
            print(f"  - {lex.columns['kind'][i]} {lex.columns['language'][i]} {lex.columns['symbol'][i]!s:.60} "
                  f"lines {lex.columns['start_line'][i]}-{lex.columns['end_line'][i]} backend {lex.columns['backend'][i]}: "
                  f"BM25+exp rank {rank_in(full, mask, i)}, BM25 rank {rank_in(plain, mask, i)}, "
                  f"dense rank {dense.index(d) + 1 if d in dense else '>' + str(args.depth)}")
            print(f"    has {sorted(toks)}; lacks {sorted(qtok - toks)}")
    print(f"\nceiling: {held} of {len(qs)} development pools hold a truth")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""From both retrievers' lists to the k hits: candidates, callees of deciding lines, reranking.

search() in kb/search.py gathers the dense list and the expanded query; this module builds the
candidate pool (the union of both lists, fused as on main), optionally adds the callees of the
top hits' deciding lines, optionally rescores every candidate with the fitted reranker, and
fetches the chunks of the k winners only.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from kb.callees import SymbolTable, callee_names, deciding_lines
from kb.lexical import LexicalIndex
from kb.rerank import Candidate, Reranker, featurize

# How many fused hits the callee step reads, and what a callee scores without a reranker:
# just below the hit that calls it.
CALLEE_PARENTS = 5
CALLEE_DECAY = 0.9
# The reranker rescores this many of the fused candidates (plus callees).
RERANK_POOL = 60


@dataclass
class Pool:
    """The candidates of one query and what scoring them needs."""

    lex: LexicalIndex
    words: set[str]
    backend: str | None
    cands: dict[int, Candidate]
    best_lex: float
    best_base: float

    def meta(self, i: int) -> dict[str, str]:
        return {k: str(col[i]) for k, col in self.lex.columns.items()}


def candidate_pool(lex: LexicalIndex, positions: dict[str, int], terms: dict[str, float],
                   dense: list, flt: dict, depth: int, dense_weight: float,
                   prior: dict[str, float]) -> Pool:
    """Both retrievers' top `depth`, each candidate with its raw signals and main's fused score."""
    full, cover = lex.score_and_cover(terms)
    base_terms = {t: 1.0 for t, w in terms.items() if w >= 1.0}
    base = lex.weighted_scores(base_terms) if len(base_terms) < len(terms) else full
    cands: dict[int, Candidate] = {}
    for rank, (i, s) in enumerate(lex.best(full, depth, flt)):
        cands[i] = Candidate(i, lex.ids[i], lex=s, lex_rank=rank + 1)
    for rank, x in enumerate(dense):
        i = positions.get(x.id)
        if i is None:
            continue
        c = cands.setdefault(i, Candidate(i, x.id))
        c.dense, c.dense_rank = x.score, rank + 1
    best_lex = max((c.lex for c in cands.values()), default=0.0)
    best_base = float(max((base[i] for i in cands), default=0.0))
    kinds = lex.columns["kind"]
    for i, c in cands.items():
        c.lex_base, c.cover = float(base[i]), float(cover[i])
        c.fused = ((c.lex / best_lex if best_lex else 0.0) + dense_weight * c.dense) * \
            prior.get(str(kinds[i]), 1.0)
    backend = flt.get("backend")
    return Pool(lex, set(base_terms), backend, cands, best_lex or 1.0, best_base or 1.0)


def add_callees(pool: Pool, symbols: SymbolTable, texts: dict[int, str], flt: dict) -> None:
    """Candidates for the functions that the top hits' deciding lines call (same source)."""
    top = sorted(pool.cands.values(), key=lambda c: -c.fused)[:CALLEE_PARENTS]
    mask = pool.lex.mask(flt)
    sources = pool.lex.columns["source"]
    for parent in top:
        text = texts.get(parent.doc, "")
        for name in callee_names(deciding_lines(text, pool.words)):
            for i in symbols.lookup(str(sources[parent.doc]), name):
                if i == parent.doc or (mask is not None and not mask[i]):
                    continue
                c = pool.cands.get(i)
                if c is None:
                    c = pool.cands[i] = Candidate(i, pool.lex.ids[i], callee=True)
                c.callee = True
                c.fused = max(c.fused, parent.fused * CALLEE_DECAY)


def rerank(pool: Pool, reranker: Reranker) -> None:
    """Replace each candidate's fused score by the reranker's score."""
    pool_ids = sorted(pool.cands.values(), key=lambda c: -c.fused)
    keep = pool_ids[:RERANK_POOL] + [c for c in pool_ids[RERANK_POOL:] if c.callee]
    for c in keep:
        c.features = features(pool, c)
        c.fused = reranker.score(c.features)
    for c in pool_ids[RERANK_POOL:]:
        if not c.callee:
            c.fused = -np.inf


def features(pool: Pool, c: Candidate) -> dict[str, float]:
    return featurize(c, pool.words, pool.meta(c.doc), pool.best_lex, pool.best_base,
                     pool.backend, float(pool.lex.doc_len[c.doc]))


def ranked(pool: Pool, k: int) -> list[Candidate]:
    return sorted(pool.cands.values(), key=lambda c: (-c.fused, c.doc))[:k]

"""From both retrievers' lists to the k hits: candidates, callees of deciding lines, reranking.

search() in kb/search.py gathers the dense list and the expanded query; this module builds the
candidate pool (the union of both lists, fused as on main), optionally adds the callees of the
top hits' deciding lines, optionally rescores every candidate with the fitted reranker and
then the reranker's head with a cross-encoder (cross_stage, only when its pinned weights and a
fit are present), and fetches the chunks of the k winners only. The pool switches (DENSE_KEEP,
LEX_FOR_DENSE, BASE_KEEP, SIBLING_FILES) are off: measured in round 4, none helped.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from kb.callees import SymbolTable, callee_names, deciding_lines
from kb.lexical import LexicalIndex
from kb.rerank import Candidate, Reranker, featurize, text_features
from kb.tokens import tokenize

# How many fused hits the callee step reads, and what a callee scores without a reranker:
# just below the hit that calls it.
CALLEE_PARENTS = 5
CALLEE_DECAY = 0.9
MAX_NEW_CALLEES = 3
# The reranker rescores this many of the fused candidates (plus callees); it reads the text of
# the first TEXT_POOL of them.
RERANK_POOL = 60
TEXT_POOL = 30
# The fused score ranks a candidate that only the dense list found far down (its BM25 part was
# 0 unless it was in the lexical top `depth`), so the dense retriever's own best hits rarely
# reached the reranker. DENSE_KEEP of the dense list's first hits are always rescored, and
# every candidate carries its BM25 of the expanded question (computed for all chunks anyway).
DENSE_KEEP = 0
LEX_FOR_DENSE = False
# The plain (unexpanded) question's BM25 top BASE_KEEP join the candidates: expansion can push
# a chunk that matches the question's own words below the lexical depth.
BASE_KEEP = 0
# The answer is often a sibling of a top hit (another method of the same pass, the header of the
# same class) that shares fewer of the question's words: the chunks of the first SIBLING_FILES
# files by fused score (at most SIBLING_MAX of each, by BM25) are rescored too.
SIBLING_FILES = 0
SIBLING_MAX = 20
_FILES: dict[int, dict[tuple[str, str], list[int]]] = {}
PROSE_KINDS = ("doc_section", "pattern_card", "text")
_COMMENT = ("//", "#", "*", "/*", '"""', "'''", "--")
_LINES: dict[str, list[tuple[bool, frozenset[str]]]] = {}  # chunk id -> tokenized lines
_LINES_MAX = 20_000


@dataclass
class Pool:
    """The candidates of one query and what scoring them needs."""

    lex: LexicalIndex
    words: set[str]
    backend: str | None
    cands: dict[int, Candidate]
    best_lex: float
    best_base: float
    full: np.ndarray  # every document's BM25 for the expanded query

    def meta(self, i: int) -> dict[str, str]:
        return {k: str(col[i]) for k, col in self.lex.columns.items()}


def candidate_pool(lex: LexicalIndex, positions: dict[str, int], terms: dict[str, float],
                   dense: list, flt: dict, depth: int, dense_weight: float,
                   prior: dict[str, float]) -> Pool:
    """Both retrievers' top `depth`, each candidate with its raw signals and main's fused score."""
    base_terms = {t: 1.0 for t, w in terms.items() if w >= 1.0}
    full, cover, own = lex.score_cover_base(terms, base=len(base_terms) < len(terms))
    base = full if own is None else own
    cands: dict[int, Candidate] = {}
    for rank, (i, s) in enumerate(lex.best(full, depth, flt)):
        cands[i] = Candidate(i, lex.ids[i], lex=s, lex_rank=rank + 1)
    for rank, x in enumerate(dense):
        i = positions.get(x.id)
        if i is None:
            continue
        c = cands.setdefault(i, Candidate(i, x.id, lex=float(full[i]) if LEX_FOR_DENSE else 0.0))
        c.dense, c.dense_rank = x.score, rank + 1
        c.kept = c.kept or rank < DENSE_KEEP
    if BASE_KEEP and own is not None:
        for i, _ in lex.best(own, BASE_KEEP, flt):
            cands.setdefault(i, Candidate(i, lex.ids[i], lex=float(full[i]))).kept = True
    best_lex = max((c.lex for c in cands.values()), default=0.0)
    best_base = float(max((base[i] for i in cands), default=0.0))
    kinds = lex.columns["kind"]
    for i, c in cands.items():
        c.lex_base, c.cover = float(base[i]), float(cover[i])
        c.fused = ((c.lex / best_lex if best_lex else 0.0) + dense_weight * c.dense) * \
            prior.get(str(kinds[i]), 1.0)
    backend = flt.get("backend")
    return Pool(lex, set(base_terms), backend, cands, best_lex or 1.0, best_base or 1.0, full)


def add_callees(pool: Pool, symbols: SymbolTable, texts: dict[int, str], flt: dict) -> None:
    """Candidates for the functions that the top hits' deciding lines call (same source), when
    they share a word with the question; at most MAX_NEW_CALLEES new ones."""
    top = sorted(pool.cands.values(), key=lambda c: -c.fused)[:CALLEE_PARENTS]
    mask = pool.lex.mask(flt)
    sources = pool.lex.columns["source"]
    added = 0
    for parent in top:
        text = texts.get(parent.doc, "")
        for name in callee_names(deciding_lines(text, pool.words)):
            for i in symbols.lookup(str(sources[parent.doc]), name):
                if i == parent.doc or (mask is not None and not mask[i]) or pool.full[i] <= 0:
                    continue
                c = pool.cands.get(i)
                if c is None:
                    if added >= MAX_NEW_CALLEES:
                        return
                    added += 1
                    c = pool.cands[i] = Candidate(i, pool.lex.ids[i], lex=float(pool.full[i]))
                c.callee = True
                c.fused = max(c.fused, parent.fused * CALLEE_DECAY)


def file_chunks(lex: LexicalIndex) -> dict[tuple[str, str], list[int]]:
    """Document indices per (source, path), built once per lexical index."""
    got = _FILES.get(id(lex))
    if got is None:
        _FILES.clear()
        got = _FILES[id(lex)] = {}
        for i, key in enumerate(zip(lex.columns["source"], lex.columns["path"], strict=True)):
            got.setdefault((str(key[0]), str(key[1])), []).append(i)
    return got


def add_siblings(pool: Pool, flt: dict) -> None:
    """The chunks of the top SIBLING_FILES files (by their best fused candidate) join the pool,
    kept for rescoring: at most SIBLING_MAX per file, those with the highest BM25 first."""
    if not SIBLING_FILES:
        return
    files = file_chunks(pool.lex)
    cols = pool.lex.columns
    mask = pool.lex.mask(flt)
    seen: list[tuple[str, str]] = []
    for c in sorted(pool.cands.values(), key=lambda c: -c.fused):
        key = (str(cols["source"][c.doc]), str(cols["path"][c.doc]))
        if key not in seen:
            seen.append(key)
        if len(seen) == SIBLING_FILES:
            break
    for key in seen:
        docs = [i for i in files.get(key, []) if mask is None or mask[i]]
        for i in sorted(docs, key=lambda i: -pool.full[i])[:SIBLING_MAX]:
            pool.cands.setdefault(i, Candidate(i, pool.lex.ids[i], lex=float(pool.full[i]))).kept = True


def text_pool(pool: Pool) -> list[Candidate]:
    """The candidates whose text the reranker reads: the first TEXT_POOL, the callees, and the
    other rescored candidates of the dense list (whose documents came with it when the weights
    were fit, bench/kb/fit_rerank.py)."""
    keep = rescored(pool)
    return [c for n, c in enumerate(keep)
            if n < TEXT_POOL or c.callee or c.kept or c.dense_rank is not None]


def rescored(pool: Pool) -> list[Candidate]:
    """The candidates the reranker scores: the first RERANK_POOL by fused score, and callees."""
    ordered = sorted(pool.cands.values(), key=lambda c: -c.fused)
    return ordered[:RERANK_POOL] + [c for c in ordered[RERANK_POOL:] if c.callee or c.kept]


Lines = list[tuple[bool, frozenset[str]]]


def text_lines(pool: Pool, cands: list[Candidate],
               read: Callable[[list[Candidate]], dict[int, str]]) -> dict[int, Lines]:
    """The tokenized lines of `cands` by document index; `read` is asked for the texts of those
    whose lines are not cached (most are: questions keep meeting the same functions)."""
    kinds = pool.lex.columns["kind"]
    out: dict[int, Lines] = {}
    for c in cands:
        got = _LINES.get(c.id)
        if got is not None:
            out[c.doc] = got
    texts = read([c for c in cands if c.doc not in out])
    for c in cands:
        if c.doc in texts:
            out[c.doc] = tokenized_lines(c.id, texts[c.doc], str(kinds[c.doc]) in PROSE_KINDS)
    return out


def tokenized_lines(cid: str, text: str, prose: bool) -> Lines:
    """A chunk's lines as (is comment or prose, tokens), header line dropped; cached by id."""
    got = _LINES.get(cid)
    if got is None:
        got = []
        for line in text.splitlines()[1:]:
            toks = frozenset(tokenize(line))
            if toks:
                got.append((prose or line.lstrip().startswith(_COMMENT), toks))
        if len(_LINES) >= _LINES_MAX:
            _LINES.clear()
        _LINES[cid] = got
    return got


def idf(pool: Pool) -> dict[str, float]:
    n = len(pool.lex.ids)
    out = {}
    for t in pool.words:
        j = pool.lex.vocab.get(t)
        if j is not None:
            df = int(pool.lex.indptr[j + 1] - pool.lex.indptr[j])
            out[t] = float(np.log(1 + (n - df + 0.5) / (df + 0.5)))
    return out


def rerank(pool: Pool, reranker: Reranker, lines: dict[int, Lines] | None = None) -> None:
    """Replace each candidate's fused score by the reranker's score; `lines` holds the
    tokenized lines of the text_pool() candidates by document index (text_lines())."""
    keep = rescored(pool)
    votes = file_votes(pool, keep)
    weights = idf(pool)
    for c in keep:
        got = (lines or {}).get(c.doc)
        c.features = features(pool, c, votes, None if got is None else text_features(got, weights))
        c.fused = reranker.score(c.features)
    kept = {id(c) for c in keep}
    for c in pool.cands.values():
        if id(c) not in kept:
            c.fused = -np.inf


def file_votes(pool: Pool, cands: list[Candidate], top: int = 20) -> dict[str, float]:
    """Per file, the share of the top candidates it holds: agreement on the file."""
    paths = pool.lex.columns["path"]
    votes: dict[str, float] = {}
    for c in cands[:top]:
        votes[str(paths[c.doc])] = votes.get(str(paths[c.doc]), 0.0) + 1.0 / top
    return votes


def features(pool: Pool, c: Candidate, votes: dict[str, float],
             text: dict[str, float] | None = None) -> dict[str, float]:
    return featurize(c, pool.words, pool.meta(c.doc), pool.best_lex, pool.best_base,
                     pool.backend, float(pool.lex.doc_len[c.doc]),
                     votes.get(str(pool.lex.columns["path"][c.doc]), 0.0), text)


def ranked(pool: Pool, k: int) -> list[Candidate]:
    return sorted(pool.cands.values(), key=lambda c: (-c.fused, c.doc))[:k]


def cross_stage(pool: Pool, top: int, logits: Callable[[list[Candidate]], list[float]],
                weights: dict[str, float]) -> None:
    """The second stage: the reranker's first `top` candidates rescored by a linear score over
    their features and the cross-encoder's logit (feature `cross`, kb/crossenc.py); the rest keep
    their order just below them. `logits` gives the cross-encoder's logit of each candidate."""
    order = sorted((c for c in pool.cands.values() if np.isfinite(c.fused)),
                   key=lambda c: (-c.fused, c.doc))
    head, rest = order[:top], order[top:]
    if not head:
        return
    for c, logit in zip(head, logits(head), strict=True):
        c.features = {**c.features, "cross": float(logit)}
        c.fused = sum(weights.get(k, 0.0) * v for k, v in c.features.items())
    floor = min(c.fused for c in head)
    if rest:  # below the head, in their own order
        shift = floor - 1.0 - rest[0].fused
        for c in rest:
            c.fused += shift

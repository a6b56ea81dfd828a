"""Lexical retrieval: BM25 over code-aware tokens, derived from the stored documents.

Local Chroma has no sparse index, so this one is ours. It is rebuilt from whatever the store
holds (embedded or server) whenever the store's write generation moves; kb/lexical_cache.py
keeps it on disk (arrays and JSON, never pickle).
"""

from __future__ import annotations

import fnmatch
import re
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

import numpy as np

from kb import tokens


def tokenize(text: str) -> list[str]:
    """Code-aware tokens (kb/tokens.py): whole identifiers, their parts and stems, CJK bigrams."""
    return tokens.tokenize(text)


@dataclass
class LexicalIndex:
    """BM25 postings in CSR form plus the metadata columns that filters need."""

    ids: list[str]
    vocab: dict[str, int]
    indptr: np.ndarray
    docs: np.ndarray
    tfs: np.ndarray
    doc_len: np.ndarray
    columns: dict[str, np.ndarray] = field(default_factory=dict)
    generation: int = -1
    k1: float = 1.2
    b: float = 0.75

    @classmethod
    def build(cls, rows: Iterable[tuple[str, str, dict]], generation: int = -1,
              progress: Callable[[int], None] | None = None) -> LexicalIndex:
        ids: list[str] = []
        vocab: dict[str, int] = {}
        postings: list[list[tuple[int, int]]] = []
        lengths: list[int] = []
        cols: dict[str, list[str]] = {k: [] for k in FILTER_COLUMNS + META_COLUMNS}
        for doc_i, (cid, text, meta) in enumerate(rows):
            ids.append(cid)
            toks = tokenize(text)
            lengths.append(len(toks))
            for tok, tf in Counter(toks).items():
                t = vocab.setdefault(tok, len(vocab))
                if t == len(postings):
                    postings.append([])
                postings[t].append((doc_i, tf))
            for k in FILTER_COLUMNS + META_COLUMNS:
                cols[k].append(str(meta.get(k, "")))
            if progress and doc_i % 1000 == 999:
                progress(1000)
        indptr = np.zeros(len(postings) + 1, dtype=np.int64)
        indptr[1:] = np.cumsum([len(p) for p in postings])
        flat = [pair for p in postings for pair in p]
        docs = np.fromiter((d for d, _ in flat), dtype=np.int32, count=len(flat))
        tfs = np.fromiter((f for _, f in flat), dtype=np.float32, count=len(flat))
        return cls(ids, vocab, indptr, docs, tfs, np.asarray(lengths, dtype=np.float32),
                   {k: np.asarray(v, dtype=object) for k, v in cols.items()}, generation)

    def __len__(self) -> int:
        return len(self.ids)

    def scores(self, query: str) -> np.ndarray:
        return self.weighted_scores(dict.fromkeys(tokenize(query), 1.0))

    def weighted_scores(self, terms: dict[str, float]) -> np.ndarray:
        """BM25 with a weight per query token (1 for the question's own words; less for words
        that query expansion added)."""
        return self.score_and_cover(terms)[0]

    def score_and_cover(self, terms: dict[str, float]) -> tuple[np.ndarray, np.ndarray]:
        """BM25 scores and, per document, the IDF-weighted share of the weight-1 tokens it holds."""
        full, cover, _ = self.score_cover_base(terms, base=False)
        return full, cover

    def score_cover_base(self, terms: dict[str, float], base: bool = True
                         ) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
        """score_and_cover() and, in the same pass over the postings, the BM25 of the question's
        own (weight >= 1) tokens at weight 1: what weighted_scores() of those alone gives."""
        n = len(self.ids)
        out = np.zeros(n, dtype=np.float32)
        cover = np.zeros(n, dtype=np.float32)
        own = np.zeros(n, dtype=np.float32) if base else None
        if n == 0:
            return out, cover, own
        avg = float(self.doc_len.mean()) or 1.0
        norm = self.k1 * (1 - self.b + self.b * self.doc_len / avg)
        total = 0.0
        for tok, weight in terms.items():
            t = self.vocab.get(tok)
            if t is None:
                continue
            lo, hi = self.indptr[t], self.indptr[t + 1]
            df = hi - lo
            idf = np.log(1 + (n - df + 0.5) / (df + 0.5))
            d, tf = self.docs[lo:hi], self.tfs[lo:hi]
            part = weight * idf * tf * (self.k1 + 1) / (tf + norm[d])
            out[d] += part
            if weight >= 1.0:
                cover[d] += idf
                total += idf
                if own is not None:
                    own[d] += part if weight == 1.0 else 1.0 * idf * tf * (self.k1 + 1) / (tf + norm[d])
        return out, cover / (total or 1.0), own

    def mask(self, flt: dict[str, str | None]) -> np.ndarray | None:
        """Boolean mask of documents passing the filters, or None when no filter is set."""
        m = None
        for key, want in flt.items():
            if not want:
                continue
            col = self.columns[FILTER_KEYS[key]]
            if key == "path_glob":
                rx = re.compile(fnmatch.translate(want))
                hit = np.fromiter((bool(rx.match(p)) for p in col), dtype=bool, count=len(col))
            elif key == "pass_":
                needle = f"|{want}|"
                hit = np.fromiter((needle in p for p in col), dtype=bool, count=len(col))
            elif key == "backend":
                hit = (col == want) | (col == "common")
            elif key == "repo":
                hit = (col == want) | (self.columns["repo_url"] == want)
            else:
                hit = col == want
            m = hit if m is None else (m & hit)
        return m

    def top(self, query: str | dict[str, float], n: int,
            flt: dict[str, str | None] | None = None) -> list[tuple[int, float]]:
        """(document index, score) of the n best matches with a positive score; `query` is a
        question or already weighted tokens."""
        s = self.scores(query) if isinstance(query, str) else self.weighted_scores(query)
        return self.best(s, n, flt)

    def best(self, s: np.ndarray, n: int,
             flt: dict[str, str | None] | None = None) -> list[tuple[int, float]]:
        """(document index, score) of the n highest positive scores that pass the filters."""
        m = self.mask(flt or {})
        if m is not None:
            s = np.where(m, s, 0.0)
        n = min(n, int((s > 0).sum()))
        if n <= 0:
            return []
        idx = np.argpartition(-s, n - 1)[:n]
        idx = idx[np.argsort(-s[idx], kind="stable")]
        return [(int(i), float(s[i])) for i in idx]


# filter name (as in search Filters) -> metadata column
FILTER_KEYS = {
    "backend": "backend", "kind": "kind", "language": "language", "repo": "source",
    "pass_": "passes", "path_glob": "path", "compiler_version": "compiler_version",
}
FILTER_COLUMNS = tuple(sorted(set(FILTER_KEYS.values()) | {"repo_url"}))
# Columns the ranking reads without a round trip to the store (callees, reranker features).
META_COLUMNS = ("symbol", "scope", "start_line", "end_line")

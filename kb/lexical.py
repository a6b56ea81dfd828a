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

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:[-.][A-Za-z_][A-Za-z0-9_]*)*|[0-9]+")
_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")
_CJK = re.compile(r"[\u3400-\u9fff]+")
_STOP = frozenset(
    "a an the of to in on for and or is are be by with as at it this that from what which why "
    "how does do not no if then else when into than its can".split()
)


def tokenize(text: str) -> list[str]:
    """Whole identifiers (also dashed pass names) plus their camelCase/snake/dash parts; CJK bigrams."""
    out: list[str] = []
    for m in _IDENT.finditer(text):
        word = m.group(0)
        low = word.lower()
        if low in _STOP or len(low) < 2:
            continue
        out.append(low)
        pieces = [p for part in re.split(r"[-._]", word) for p in _CAMEL.findall(part)]
        if len(pieces) > 1:
            out.extend(p.lower() for p in pieces if len(p) > 1 and p.lower() not in _STOP)
    for run in _CJK.findall(text):
        out.extend(run[i : i + 2] for i in range(max(1, len(run) - 1)))
    return out


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
        cols: dict[str, list[str]] = {k: [] for k in FILTER_COLUMNS}
        for doc_i, (cid, text, meta) in enumerate(rows):
            ids.append(cid)
            toks = tokenize(text)
            lengths.append(len(toks))
            for tok, tf in Counter(toks).items():
                t = vocab.setdefault(tok, len(vocab))
                if t == len(postings):
                    postings.append([])
                postings[t].append((doc_i, tf))
            for k in FILTER_COLUMNS:
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
        n = len(self.ids)
        out = np.zeros(n, dtype=np.float32)
        if n == 0:
            return out
        avg = float(self.doc_len.mean()) or 1.0
        norm = self.k1 * (1 - self.b + self.b * self.doc_len / avg)
        for tok in set(tokenize(query)):
            t = self.vocab.get(tok)
            if t is None:
                continue
            lo, hi = self.indptr[t], self.indptr[t + 1]
            df = hi - lo
            idf = np.log(1 + (n - df + 0.5) / (df + 0.5))
            d, tf = self.docs[lo:hi], self.tfs[lo:hi]
            out[d] += idf * tf * (self.k1 + 1) / (tf + norm[d])
        return out

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

    def top(self, query: str, n: int, flt: dict[str, str | None] | None = None) -> list[tuple[int, float]]:
        """(document index, score) of the n best matches with a positive score."""
        s = self.scores(query)
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

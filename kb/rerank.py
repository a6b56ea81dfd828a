"""A feature-based reranker: a linear score over what each retriever and the chunk's metadata say.

The weights live in kb/rerank.json and are fit on the development part of bench/kb/
questions-v2.toml only (bench/kb/fit_rerank.py, a listwise softmax loss over each pool; the file
records when, on what and with which command). At query time it is a dot product per candidate.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from kb.tokens import tokenize

WEIGHTS = Path(__file__).with_name("rerank.json")


def weights_for(model_slug: str | None) -> Path:
    """The weights fit with a model's dense features: kb/rerank-<slug>.json when such a fit was
    committed (bench/kb/fit_rerank.py --model), else the default model's kb/rerank.json."""
    if model_slug:
        own = WEIGHTS.with_name(f"rerank-{model_slug}.json")
        if own.exists():
            return own
    return WEIGHTS

CODE_KINDS = ("function", "method", "class")
FEATURES = (
    "lex", "lex_base", "cover", "dense", "dense_in", "lex_rr", "dense_rr", "sym", "path",
    "kind_code", "kind_pass_def", "kind_doc", "kind_lit_test", "kind_card", "kind_other",
    "backend_match", "callee", "log_len", "own", "file_votes", "line_max", "comment_cover",
    "comment_dense",
)
# passwise's own pattern cards and notes: summaries that point at sources, not sources.
OWN_SOURCES = ("passwise-patterns", "passwise-notes")


@dataclass
class Candidate:
    """One chunk the retrievers proposed, with the raw signals the features are built from."""

    doc: int  # index in the lexical index
    id: str
    lex: float = 0.0
    lex_base: float = 0.0
    cover: float = 0.0
    dense: float = 0.0
    lex_rank: int | None = None
    dense_rank: int | None = None
    callee: bool = False
    comment: float = 0.0  # cosine with the chunk's comment view (kb/views.py), 0 without one
    kept: bool = False    # rescored whatever its fused rank (kb.ranking.DENSE_KEEP, BASE_KEEP)
    fused: float = 0.0
    features: dict[str, float] = field(default_factory=dict)


def _share(words: set[str], text: str) -> float:
    toks = set(tokenize(text))
    return len(toks & words) / len(toks) if toks else 0.0


def text_features(lines: list[tuple[bool, frozenset[str]]], idf: dict[str, float]) -> dict[str, float]:
    """From the chunk's tokenized lines: the IDF-weighted share of the question's words on its
    best single line (where the answer is decided, words sit together), and in its comments."""
    total = sum(idf.values()) or 1.0
    best = 0.0
    comment: set[str] = set()
    for is_comment, toks in lines:
        best = max(best, sum(idf[t] for t in toks if t in idf))
        if is_comment:
            comment |= toks
    return {"line_max": best / total,
            "comment_cover": sum(v for t, v in idf.items() if t in comment) / total}


def featurize(c: Candidate, words: set[str], meta: dict[str, str], best_lex: float,
              best_base: float, backend: str | None, doc_len: float,
              file_votes: float = 0.0, text: dict[str, float] | None = None) -> dict[str, float]:
    """The feature vector of a candidate (names in FEATURES)."""
    kind = meta.get("kind", "")
    path = meta.get("path", "")
    f = {
        "lex": c.lex / best_lex if best_lex else 0.0,
        "lex_base": c.lex_base / best_base if best_base else 0.0,
        "cover": c.cover, "dense": c.dense, "dense_in": float(c.dense_rank is not None),
        "lex_rr": 1.0 / c.lex_rank if c.lex_rank else 0.0,
        "dense_rr": 1.0 / c.dense_rank if c.dense_rank else 0.0,
        "sym": _share(words, meta.get("symbol", "")),
        "path": _share(words, path.rsplit("/", 1)[-1].rsplit(".", 1)[0]),
        "kind_code": float(kind in CODE_KINDS), "kind_pass_def": float(kind == "pass_def"),
        "kind_doc": float(kind == "doc_section"), "kind_lit_test": float(kind == "lit_test"),
        "kind_card": float(kind == "pattern_card"),
        "kind_other": float(kind not in (*CODE_KINDS, "pass_def", "doc_section", "lit_test",
                                         "pattern_card")),
        "backend_match": float(bool(backend) and meta.get("backend") == backend),
        "callee": float(c.callee), "log_len": math.log1p(doc_len) / 10.0,
        "own": float(meta.get("source", "") in OWN_SOURCES), "file_votes": file_votes,
        **(text or {"line_max": 0.0, "comment_cover": 0.0}),
        "comment_dense": c.comment,
    }
    return f


@dataclass(frozen=True)
class Reranker:
    """Linear weights over FEATURES."""

    weights: dict[str, float]

    def score(self, features: dict[str, float]) -> float:
        return sum(self.weights.get(k, 0.0) * v for k, v in features.items())


@lru_cache(maxsize=2)
def load_reranker(path: Path = WEIGHTS) -> Reranker | None:
    """The fitted weights, or None when no fit has been committed."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return Reranker(dict(zip(data["features"], data["weights"], strict=True)))

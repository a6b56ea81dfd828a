"""A second dense view of each code chunk: its comments alone, embedded apart from its code.

The chunk's own vector reads its first 128 word pieces (header, signature, the first lines);
the comments that explain a branch deep in a long function are past that window. The comment
view embeds every comment line of the chunk (license text dropped) as one text, so a question
phrased like a comment can meet the comment where it sits. The vectors live in one file beside
the index (KB/views/<collection>.comments.npz, written by bench/kb/embed_views.py) with the
weights checksum of the model that made them; search reads a cosine per reranked candidate.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from kb.embed import as_words

MIN_WORDS = 5
SKIP_KINDS = ("doc_section", "pattern_card", "text", "lit_test")  # prose or CHECK lines already
_COMMENT = re.compile(r"^\s*(///?|/\*+|\*(?![=/])|#(?!include|define|if|endif|else|pragma))")
_BOILERPLATE = re.compile(r"copyright|license|spdx|permission is hereby|warranties|-\*- c\+\+", re.I)


def comment_view(text: str, kind: str) -> str | None:
    """The comment lines of a chunk as words (header line dropped), None when too few."""
    if kind in SKIP_KINDS:
        return None
    lines = [line for line in text.splitlines()[1:]
             if _COMMENT.match(line) and not _BOILERPLATE.search(line)]
    words = as_words(" ".join(lines)).split()
    return " ".join(words) if len(words) >= MIN_WORDS else None


def views_path(home: Path, collection: str) -> Path:
    return Path(home) / "views" / f"{collection}.comments.npz"


@dataclass
class CommentViews:
    """Comment-view vectors by chunk id, made by the model whose weights checksum is `sha256`."""

    ids: dict[str, int]
    vectors: np.ndarray  # float16, one normalised row per id
    sha256: str

    @classmethod
    def load(cls, path: Path) -> CommentViews | None:
        try:
            with np.load(path, allow_pickle=False) as z:
                ids, vecs, sha = list(z["ids"]), z["vectors"], str(z["sha256"])
        except (OSError, KeyError, ValueError):
            return None
        return cls({str(i): n for n, i in enumerate(ids)}, vecs, sha)

    def save(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        order = sorted(self.ids, key=self.ids.get)
        tmp = path.with_suffix(".tmp.npz")
        np.savez(tmp, ids=np.array(order), vectors=self.vectors.astype(np.float16),
                 sha256=np.array(self.sha256))
        tmp.replace(path)

    def cosines(self, query: list[float], chunk_ids: list[str]) -> list[float]:
        """The query's cosine with each chunk's comment view (0 for a chunk without one)."""
        rows = [self.ids.get(i) for i in chunk_ids]
        have = [r for r in rows if r is not None]
        if not have:
            return [0.0] * len(chunk_ids)
        sims = self.vectors[have].astype(np.float32) @ np.asarray(query, dtype=np.float32)
        it = iter(sims.tolist())
        return [next(it) if r is not None else 0.0 for r in rows]

"""Hybrid search over the knowledge base: dense (Chroma) + lexical (BM25), fused by score."""

from __future__ import annotations

import fnmatch
import sys
from dataclasses import dataclass, field
from pathlib import Path

from kb import lexical_cache, locks
from kb.chunk import Chunk
from kb.embed import Embedder
from kb.errors import KBError
from kb.lexical import LexicalIndex
from kb.store import ServerOptions, Store

MODES = ("hybrid", "dense", "lexical")


def backend_family(backend: str) -> list[str]:
    """The backend tags a backend filter admits: its own and backend-neutral ("common") code."""
    return [backend] if backend == "common" else [backend, "common"]


@dataclass
class Filters:
    """What a search may return; empty fields do not filter."""

    backend: str | None = None
    kind: str | None = None
    language: str | None = None
    repo: str | None = None
    pass_: str | None = None
    path_glob: str | None = None
    compiler_version: str | None = None

    def as_dict(self) -> dict[str, str | None]:
        return dict(self.__dict__)

    def chroma_where(self) -> dict | None:
        """The filters Chroma can apply itself (exact matches); the rest are applied after."""
        terms = [{k: v} for k, v in (("kind", self.kind),
                                      ("language", self.language),
                                      ("compiler_version", self.compiler_version)) if v]
        if self.backend:  # backend-neutral code serves every backend
            terms.append({"backend": {"$in": backend_family(self.backend)}})
        if not terms:
            return None
        return terms[0] if len(terms) == 1 else {"$and": terms}

    def accepts(self, c: Chunk) -> bool:
        if self.repo and self.repo not in (c.source, c.repo_url):
            return False
        if self.pass_ and self.pass_ not in c.passes:
            return False
        return not (self.path_glob and not fnmatch.fnmatch(c.path, self.path_glob))


@dataclass
class Hit:
    """One search result with how each retriever ranked it (None: not in its list)."""

    id: str
    chunk: Chunk
    score: float
    dense_rank: int | None = None
    lexical_rank: int | None = None
    # Why it ranked: each retriever's weighted part of `score`, and the kind's prior.
    dense_score: float = 0.0
    lexical_score: float = 0.0
    prior: float = 1.0

    def to_json(self) -> dict:
        c = self.chunk
        return {
            "id": self.id, "path": c.path, "repo": c.source, "repo_url": c.repo_url,
            "commit": c.commit, "start_line": c.start_line, "end_line": c.end_line,
            "symbol": c.symbol, "scope": c.scope, "kind": c.kind, "backend": c.backend,
            "language": c.language, "passes": c.passes, "permalink": c.permalink,
            "compiler_version": c.compiler_version, "score": round(self.score, 6),
            "dense_rank": self.dense_rank, "lexical_rank": self.lexical_rank,
            "dense_score": round(self.dense_score, 6),
            "lexical_score": round(self.lexical_score, 6), "prior": self.prior, "text": c.text,
        }


@dataclass
class KnowledgeBase:
    """The store, its embedder and its lexical cache, opened together."""

    store: Store
    embedder: Embedder
    home: Path
    _lexical: LexicalIndex | None = field(default=None, repr=False)
    _told_unsettled: bool = field(default=False, repr=False)

    @property
    def lock_path(self) -> Path:
        return locks.lock_path(self.home, self.store.name, self.store.where)

    def write_lock(self, what: str):
        """Hold the writer lock for the length of a `with` block (waits, saying so, if taken)."""
        return locks.write_lock(self.lock_path, what)

    def writer_running(self) -> str | None:
        return locks.writer_running(self.lock_path)

    @property
    def lexical_path(self) -> Path:
        return self.home / "lexical" / f"{self.store.name}.npz"

    def lexical(self, progress: bool = False) -> LexicalIndex:
        """The BM25 index of exactly what the store holds now.

        Taken from memory or the on-disk cache when its stamp matches the store's content
        stamp, otherwise rebuilt; the rebuild is cached only when no write ran while it read
        (the generation was even before and after), so a cache never lags the store.
        """
        collection, gen = self.store.content_stamp()
        if self._lexical is not None and self._lexical.generation == gen and gen % 2 == 0:
            return self._lexical
        stamp = lexical_cache.make_stamp(collection, gen)
        if gen % 2 == 0:
            cached = self._cached_lexical(stamp)
            if cached is not None:
                self._lexical = cached
                return cached
        if gen % 2 and not self._told_unsettled:
            self._told_unsettled = True
            print("passwise: a write to the knowledge base is running or was interrupted; the "
                  "lexical index is rebuilt for each search until it ends (if no index or refresh "
                  "is running, `passwise refresh` finishes the job).", file=sys.stderr)
        if progress:
            print(f"Building the lexical index of {self.store.count()} chunks...", file=sys.stderr)
        # In id order, so the index is a function of the content alone: a store healed after
        # a kill and a clean build (same chunks, another write order) rank ties alike.
        rows = sorted(((i, d, m) for ids, docs, metas in self.store.iter_all()
                       for i, d, m in zip(ids, docs, metas, strict=True)), key=lambda r: r[0])
        idx = LexicalIndex.build(rows, generation=gen)
        if gen % 2 == 0 and self.store.generation == gen:
            lexical_cache.save(idx, self.lexical_path, stamp)
            self._lexical = idx
        return idx

    def _cached_lexical(self, stamp: dict) -> LexicalIndex | None:
        _remove_legacy_pickle(self.lexical_path.with_suffix(".pkl"))
        try:
            return lexical_cache.load(self.lexical_path, stamp)
        except (FileNotFoundError, lexical_cache.StaleCache):
            return None
        except (OSError, lexical_cache.CacheProblem) as e:
            print(f"passwise: warning: ignoring the lexical index cache {self.lexical_path} "
                  f"({e}); rebuilding it from the store.", file=sys.stderr)
            return None

    def search(self, query: str, k: int = 10, filters: Filters | None = None,
               mode: str = "hybrid", depth: int = 100) -> list[Hit]:
        """The k best chunks for `query`; `depth` is how far down each list fusion looks."""
        if not query or not query.strip():
            raise KBError("The query is empty; ask a question, e.g. `passwise search \"why are loads not vectorized\"`.")
        if mode not in MODES:
            raise KBError(f"Unknown search mode {mode!r}; use one of {', '.join(MODES)}.")
        if self.store.count() == 0:
            raise KBError("The knowledge base is empty; build it first with `passwise index`.")
        flt = filters or Filters()
        depth = max(depth, k)
        dense = self._dense(query, depth, flt) if mode != "lexical" else []
        lexical = self._lexical_hits(query, depth, flt) if mode != "dense" else []
        return fuse(dense, lexical, k, self.store)

    def _dense(self, query: str, depth: int, flt: Filters) -> list[Scored]:
        post = bool(flt.repo or flt.pass_ or flt.path_glob)
        hits = self.store.query(self.embedder.embed_query(query), depth * (5 if post else 1),
                                flt.chroma_where())
        return [Scored(h.id, 1.0 - h.distance, h.chunk) for h in hits
                if flt.accepts(h.chunk)][:depth]

    def _lexical_hits(self, query: str, depth: int, flt: Filters) -> list[Scored]:
        lex = self.lexical()
        return [Scored(lex.ids[i], s) for i, s in lex.top(query, depth, flt.as_dict())]


@dataclass
class Scored:
    """One retriever's answer: the chunk id, that retriever's score, the chunk if it has it."""

    id: str
    score: float
    chunk: Chunk | None = None


# Hybrid score = BM25 / best BM25 of the query + DENSE_WEIGHT * cosine similarity, times a prior
# per kind. A convex combination of scores, not of ranks: on compiler source the lexical match
# of identifiers and pass names is the stronger signal, and rank fusion let the weaker dense list
# pull good lexical hits down; its scores only break ties (bench/kb/RESULTS.md).
DENSE_WEIGHT = 0.3
# "Why" questions are answered by implementations and definitions; lit tests and generated
# records show behaviour but rarely decide it, so they need a better match to rank first.
KIND_PRIOR = {"lit_test": 0.6, "record": 0.8, "text": 0.8}


def fuse(dense: list[Scored], lexical: list[Scored], k: int, store: Store,
         dense_weight: float = DENSE_WEIGHT, prior: dict[str, float] | None = None) -> list[Hit]:
    """Combine the two scored lists (either may be empty) into the k best hits."""
    prior = KIND_PRIOR if prior is None else prior
    hits: dict[str, Hit] = {}
    best_lexical = max((x.score for x in lexical), default=0.0) or 1.0
    for name, scored, scale in (("lexical", lexical, 1.0 / best_lexical),
                                ("dense", dense, dense_weight if lexical else 1.0)):
        for rank, x in enumerate(scored):
            h = hits.setdefault(x.id, Hit(x.id, x.chunk, 0.0))  # type: ignore[arg-type]
            h.chunk = h.chunk or x.chunk
            h.score += scale * x.score
            setattr(h, f"{name}_rank", rank + 1)
            setattr(h, f"{name}_score", scale * x.score)
    missing = [h.id for h in hits.values() if h.chunk is None]
    if missing:
        found = dict(store.get(missing))
        for h in hits.values():
            h.chunk = h.chunk or found.get(h.id)  # type: ignore[assignment]
    ranked = [h for h in hits.values() if h.chunk is not None]
    for h in ranked:
        h.prior = prior.get(h.chunk.kind, 1.0)
        h.score *= h.prior
    return sorted(ranked, key=lambda h: -h.score)[:k]


def open_kb(home: Path, *, chroma_url: str | None = None, corpus_set: str = "default",
            model: str | None = None, server: ServerOptions | None = None) -> KnowledgeBase:
    """Open the knowledge base for a corpus set and embedding model."""
    embedder = Embedder(model) if model else Embedder()
    store = Store.open(home, chroma_url=chroma_url, corpus_set=corpus_set,
                       model_slug=embedder.slug, server=server)
    return KnowledgeBase(store, embedder, Path(home))


def _remove_legacy_pickle(path: Path) -> None:
    """Older versions cached the index as a pickle; it is never read, only removed."""
    try:
        path.unlink()
    except OSError:  # absent (the usual case) or not ours to remove
        return
    print(f"passwise: removed the old pickle cache {path} (pickles are never loaded).",
          file=sys.stderr)

"""Hybrid search over the knowledge base: dense (Chroma) + lexical (BM25), fused by score."""

from __future__ import annotations

import fnmatch
import sys
from dataclasses import dataclass, field, replace
from pathlib import Path

from kb import lexical_cache, locks, ranking
from kb.callees import SymbolTable
from kb.chunk import Chunk
from kb.chunk_cache import ChunkCache
from kb.crossenc import load_stage
from kb.embed import MODEL_STATE_KEY, Embedder
from kb.enrich import enrich, pass_notes
from kb.errors import KBError
from kb.expand import expand, load_lexicon
from kb.lexical import LexicalIndex
from kb.passes import PassRegistry
from kb.rerank import load_reranker, weights_for
from kb.store import ServerOptions, Store
from kb.tokens import tokenize
from kb.views import CommentViews, views_path

MODES = ("hybrid", "dense", "lexical")
# The merged pass registry's copy in the store's state (indexer/registry.py writes it).
REGISTRY_STATE_KEY = "registry:merged"


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
class Ranked:
    """A chunk's place in a ranking and why it ranked, before its chunk is read from the store
    (a page reads only the chunks it shows). `None` ranks: not in that retriever's list."""

    id: str
    score: float
    dense_rank: int | None = None
    lexical_rank: int | None = None
    # Why it ranked: each retriever's weighted part of `score`, and the kind's prior.
    dense_score: float = 0.0
    lexical_score: float = 0.0
    prior: float = 1.0
    # The fused score (lexical + dense) x prior; `score` is the reranker's when `reranked`, and a
    # callee of a top hit's deciding line (`callee`) inherits a share of its caller's score.
    fused: float = 0.0
    reranked: bool = False
    callee: bool = False

    def hit(self, chunk: Chunk) -> Hit:
        return Hit(chunk=chunk, **self.__dict__)


@dataclass(kw_only=True)
class Hit(Ranked):
    """One search result: a ranked chunk with the chunk itself."""

    chunk: Chunk

    def ranked(self) -> Ranked:
        return Ranked(**{k: v for k, v in self.__dict__.items() if k != "chunk"})

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
            "lexical_score": round(self.lexical_score, 6), "prior": self.prior,
            "fused_score": round(self.fused, 6), "reranked": self.reranked, "callee": self.callee,
            "text": c.text,
        }


@dataclass(frozen=True)
class SearchConfig:
    """Which ranking steps a search runs (bench/kb/retrieval.py measures each one alone)."""

    enrich: bool = True    # BM25 over chunk text + scope, symbol and the notes of its file's passes
    expand: bool = True    # query expansion: symptom lexicon and pass registry
    callees: bool = True   # callees of the top hits' deciding lines join the candidates
    rerank: bool = True    # the fitted feature reranker orders the candidates
    cross: bool = True     # a pinned cross-encoder rescores the reranker's head (when present)
    dense_weight: float = 0.3


MAIN = SearchConfig(enrich=False, expand=False, callees=False, rerank=False)
DEFAULT = SearchConfig()


@dataclass
class KnowledgeBase:
    """The store, its embedder and its lexical cache, opened together."""

    store: Store
    embedder: Embedder
    home: Path
    _lexical: LexicalIndex | None = field(default=None, repr=False)
    _told_unsettled: bool = field(default=False, repr=False)
    _plain: LexicalIndex | None = field(default=None, repr=False)
    _registry: tuple[tuple, PassRegistry | None] | None = field(default=None, repr=False)
    _positions: tuple[int, dict[str, int], SymbolTable] | None = field(default=None, repr=False)
    chunk_cache: ChunkCache = field(default_factory=ChunkCache, repr=False)
    _model_checked: bool = field(default=False, repr=False)
    _views: tuple[float, CommentViews | None] | None = field(default=None, repr=False)
    _qvecs: dict[str, list[float]] = field(default_factory=dict, repr=False)

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

    @property
    def registry_path(self) -> Path:
        return self.home / "registry" / f"{self.store.name}.json"

    def pass_registry(self) -> PassRegistry | None:
        """The merged pass registry the indexer wrote beside the chunks (None if there is none):
        the home's file, else the copy the indexer keeps in the store, so that readers with
        homes of their own (a team on one Chroma server) rank with the same registry."""
        try:
            key: tuple = ("file", self.registry_path.stat().st_mtime)
        except OSError:
            key = ("store", self.store.generation)
        if self._registry is None or self._registry[0] != key:
            self._registry = (key, self._read_registry(key[0]))
        return self._registry[1]

    def _read_registry(self, where: str) -> PassRegistry | None:
        try:
            if where == "file":
                return PassRegistry.load(self.registry_path)
            data = self.store.get_state(REGISTRY_STATE_KEY)
            return PassRegistry.from_json(data, "in the store") if data else None
        except KBError:
            return None

    def lexical(self, progress: bool = False, enriched: bool = True) -> LexicalIndex:
        """The BM25 index of exactly what the store holds now.

        The enriched one (kb/enrich.py) is what search uses: taken from memory or the on-disk
        cache when its stamp matches the store's content stamp, otherwise rebuilt; the rebuild
        is cached only when no write ran while it read (the generation was even before and
        after), so a cache never lags the store. The plain one lives in memory only, for benches.
        """
        collection, gen = self.store.content_stamp()
        mine = self._lexical if enriched else self._plain
        if mine is not None and mine.generation == gen and gen % 2 == 0:
            return mine
        stamp = lexical_cache.make_stamp(collection, gen)
        if enriched and gen % 2 == 0:
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
        notes = pass_notes(self.pass_registry()) if enriched else {}
        # In id order, so the index is a function of the content alone: a store healed after
        # a kill and a clean build (same chunks, another write order) rank ties alike.
        rows = sorted(((i, enrich(d, m, notes) if enriched else d, m)
                       for ids, docs, metas in self.store.iter_all()
                       for i, d, m in zip(ids, docs, metas, strict=True)), key=lambda r: r[0])
        idx = LexicalIndex.build(rows, generation=gen)
        if gen % 2 == 0 and self.store.generation == gen:
            if enriched:
                lexical_cache.save(idx, self.lexical_path, stamp)
                self._lexical = idx
            else:
                self._plain = idx
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
               mode: str = "hybrid", depth: int = 100,
               config: SearchConfig | None = None) -> list[Hit]:
        """The k best chunks for `query`; `depth` is how far down each list fusion looks."""
        return self.fetch(self.rank(query, k, filters, mode, depth, config))

    def rank(self, query: str, k: int = 10, filters: Filters | None = None,
             mode: str = "hybrid", depth: int = 100,
             config: SearchConfig | None = None) -> list[Ranked]:
        """search() up to the ranking: the k best chunk ids with the parts of their scores, no
        chunk read but those the ranking itself needs (fetch() reads the ones to show)."""
        if not query or not query.strip():
            raise KBError("The query is empty; ask a question, e.g. `passwise search \"why are loads not vectorized\"`.")
        if mode not in MODES:
            raise KBError(f"Unknown search mode {mode!r}; use one of {', '.join(MODES)}.")
        cfg = config or DEFAULT
        # The lexical index holds exactly what the store holds: it counts the chunks (Chroma's
        # count is a scan) and applies the filters Chroma cannot.
        lex = self.lexical(enriched=cfg.enrich)
        if len(lex) == 0:
            raise KBError("The knowledge base is empty; build it first with `passwise index`.")
        self.chunk_cache.settle(lex.generation)
        flt = filters or Filters()
        depth = max(depth, k)
        dense = self._dense(query, depth, flt, lex) if mode != "lexical" else []
        if mode == "dense":
            return [h.ranked() for h in fuse(dense, [], k, self.store)]
        positions, symbols = self._tables(lex)
        terms = self.query_terms(query, cfg.expand)
        fd = flt.as_dict()
        pool = ranking.candidate_pool(lex, positions, terms, dense, fd, depth,
                                      cfg.dense_weight if mode == "hybrid" else 0.0, KIND_PRIOR)
        if cfg.callees:
            top = sorted(pool.cands.values(), key=lambda c: -c.fused)[:ranking.CALLEE_PARENTS]
            ranking.add_callees(pool, symbols, self._texts(top, positions), fd)
        ranking.add_siblings(pool, fd)
        reranker = load_reranker(weights_for(self.embedder.slug)) if cfg.rerank else None
        if reranker is not None:
            self.comment_scores(query, pool)
            ranking.rerank(pool, reranker, ranking.text_lines(
                pool, ranking.text_pool(pool), lambda cands: self._texts(cands, positions)))
            if cfg.cross:
                self._cross_stage(query, pool, positions)
        weight = cfg.dense_weight if mode == "hybrid" else 0.0
        return self._ranked(ranking.ranked(pool, k), pool, weight, reranker is not None)

    def _cross_stage(self, query: str, pool: ranking.Pool, positions: dict[str, int]) -> None:
        """The cross-encoder's second stage over the reranker's head (kb/crossenc.py), when its
        pinned weights are under this home; without them nothing changes."""
        stage = load_stage(self.home, self.embedder.slug)
        if stage is None:
            return

        def logits(cands: list) -> list[float]:
            texts = self._texts(cands, positions)
            return stage.model.score(query, [texts.get(c.doc, "") for c in cands])

        ranking.cross_stage(pool, stage.top, logits, stage.weights)

    def fetch(self, ranked: list[Ranked]) -> list[Hit]:
        """The ranked chunks as hits, read from the store (or the chunk cache) in one call."""
        chunks = self.chunks([r.id for r in ranked])
        return [r.hit(chunks[r.id]) for r in ranked if r.id in chunks]

    def chunks(self, ids: list[str]) -> dict[str, Chunk]:
        """Chunks by id, through the cache of the generation the last ranking saw."""
        return self.chunk_cache.read(self.store, ids)

    def _texts(self, cands: list, positions: dict[str, int]) -> dict[int, str]:
        """Chunk text by document index."""
        return {positions[i]: ch.text for i, ch in self.chunks([c.id for c in cands]).items()
                if i in positions}

    def query_terms(self, query: str, expand_query: bool = True) -> dict[str, float]:
        """The query's weighted lexical tokens, expanded through the lexicon and the registry."""
        if not expand_query:
            return dict.fromkeys(tokenize(query), 1.0)
        return expand(query, lexicon=load_lexicon(), registry=self.pass_registry()).terms

    def _tables(self, lex: LexicalIndex) -> tuple[dict[str, int], SymbolTable]:
        if self._positions is None or self._positions[0] != id(lex):
            cols = lex.columns
            self._positions = (id(lex), {cid: i for i, cid in enumerate(lex.ids)},
                               SymbolTable(cols["symbol"], cols["source"], cols["kind"]))
        return self._positions[1], self._positions[2]

    def _ranked(self, winners: list, pool: ranking.Pool, dense_weight: float,
                reranked: bool) -> list[Ranked]:
        """The winners, each with the parts of its score (why it ranked)."""
        kinds = pool.lex.columns["kind"]
        out = []
        for c in winners:
            lexical, dense_part = c.lex / pool.best_lex, dense_weight * c.dense
            prior = KIND_PRIOR.get(str(kinds[c.doc]), 1.0)
            out.append(Ranked(c.id, float(c.fused), c.dense_rank, c.lex_rank,
                              dense_score=dense_part, lexical_score=lexical, prior=prior,
                              fused=(lexical + dense_part) * prior, reranked=reranked,
                              callee=c.callee))
        return out

    def check_model(self, write: bool = False) -> None:
        """Refuse to mix vectors of two models: the store's record of the model that embedded it
        (kb.embed.MODEL_STATE_KEY) must name the weights this knowledge base embeds with. A store
        without a record (built before records) is trusted; `write` records ours there."""
        if self._model_checked and not write:
            return
        mine = self.embedder.record()
        stored = self.store.get_state(MODEL_STATE_KEY)
        if stored is None:
            if write:
                self.store.put_state(MODEL_STATE_KEY, mine)
        elif stored.get("sha256") != mine["sha256"] or stored.get("view") != mine["view"]:
            raise KBError(
                f"The index {self.store.name} was embedded with {stored.get('model')!r} (weights "
                f"{str(stored.get('sha256'))[:12]}) but this search embeds with "
                f"{mine['model']!r} ({str(mine['sha256'])[:12]}); search with "
                f"`--model {stored.get('model')}` or re-embed the index with this model.")
        self._model_checked = True

    def query_vector(self, query: str) -> list[float]:
        """The query's embedding, kept for the last few hundred queries (the dense list and the
        comment views both need it)."""
        vec = self._qvecs.get(query)
        if vec is None:
            if len(self._qvecs) >= 256:
                self._qvecs.clear()
            vec = self._qvecs[query] = self.embedder.embed_query(query)
        return vec

    def comment_views(self) -> CommentViews | None:
        """The comment-view vectors beside the index (kb/views.py), when their model's weights
        are the ones this knowledge base embeds with; re-read when the file changes."""
        path = views_path(self.home, self.store.name)
        try:
            stamp = path.stat().st_mtime
        except OSError:
            return None
        if self._views is None or self._views[0] != stamp:
            views = CommentViews.load(path)
            if views is not None and views.sha256 != self.embedder.record()["sha256"]:
                print(f"passwise: warning: ignoring {path}: another model made it; rebuild it "
                      "with bench/kb/embed_views.py.", file=sys.stderr)
                views = None
            self._views = (stamp, views)
        return self._views[1]

    def comment_scores(self, query: str, pool: ranking.Pool) -> None:
        """Each rescored candidate's cosine with its comment view (none without views)."""
        views = self.comment_views()
        if views is None:
            return
        cands = ranking.rescored(pool)
        for c, cos in zip(cands, views.cosines(self.query_vector(query), [c.id for c in cands]),
                          strict=True):
            c.comment = cos

    def _dense(self, query: str, depth: int, flt: Filters, lex: LexicalIndex) -> list[Scored]:
        """The dense list as ids and cosine similarities; the filters Chroma cannot apply (repo,
        pass, path) are applied with the lexical index's columns, which hold the same metadata."""
        self.check_model()
        mask = lex.mask({"repo": flt.repo, "pass_": flt.pass_, "path_glob": flt.path_glob})
        positions = self._tables(lex)[0]
        hits = self.store.query_ids(self.query_vector(query),
                                    depth * (5 if mask is not None else 1), flt.chroma_where(),
                                    total=len(lex))
        # An id the lexical index lacks is a ghost a killed writer left in the vector index.
        return [Scored(i, 1.0 - d) for i, d in hits
                if i in positions and (mask is None or mask[positions[i]])][:depth]


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
            h = hits.setdefault(x.id, Hit(id=x.id, score=0.0, chunk=x.chunk))  # type: ignore[arg-type]
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
        h.fused = h.score
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


def step_configs() -> dict[str, tuple[str, dict]]:
    """Named search configurations for bench/kb/retrieval.py: a description and search() keywords."""
    one = {"enrich": "lexical documents enriched with scope, symbol and pass notes",
           "expand": "query expanded through the symptom lexicon and the pass registry",
           "callees": "callees of the top hits' deciding lines added as candidates",
           "rerank": "candidates reordered by the reranker fit on dev"}
    steps = {"tokens": ("code-aware tokens (kb/tokens.py), otherwise main's fusion",
                        {"config": MAIN})}
    for name, doc in one.items():
        steps[f"+{name}"] = (f"tokens + {doc} only", {"config": replace(MAIN, **{name: True})})
    for name, doc in one.items():
        steps[f"all-{name}"] = (f"every step except: {doc}", {"config": replace(DEFAULT, **{name: False})})
    steps["all-cross"] = ("every step except the cross-encoder's second stage",
                          {"config": replace(DEFAULT, cross=False)})
    steps["all"] = ("every step (the default)", {"config": DEFAULT})
    steps["dense"] = ("the dense retriever alone (cosine of the embedding model)", {"mode": "dense"})
    return steps

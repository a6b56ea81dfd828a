"""The functions every door calls (pages, /api/v1, MCP): the knowledge base opened once per
process, and the same kb/, indexer/ and diagnose/ calls the CLI makes, answered as JSON."""

from __future__ import annotations

import re
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from diagnose.escalation.symptoms import load_routes
from diagnose.saved import list_saved, load_saved
from indexer.index import indexed_sources
from indexer.registry import load_registry, registry_path
from kb.chunk import BACKENDS, KINDS, Chunk
from kb.errors import KBError
from kb.passes import PassRecord, PassRegistry
from kb.search import Filters, KnowledgeBase, Ranked, open_kb
from web.config import WebConfig
from web.search_pool import IndexAddress, SearchPool

MAX_QUERY_CHARS = 500
# One search fetches this many hits, so the first pages of a query come from one retrieval;
# fusion ranks every candidate of both lists before truncating, so this does not move ranks.
WINDOW = 51
CACHE_ENTRIES = 256
GENERATION_TTL_S = 1.0
CHUNK_ID = re.compile(r"^[0-9a-f]{24}$")
_ANALYSIS = re.compile(r"\b[A-Z]\w*Analysis\b")


class BadRequest(KBError):
    """Input a caller can fix: answered 400 with this sentence."""


class NotFound(KBError):
    """A name or id the index does not hold: answered 404 with this sentence."""


@dataclass
class SearchPage:
    """One page of hits, as the API returns it."""

    query: str
    filters: dict[str, str | None]
    page: int
    per_page: int
    hits: list[dict]
    has_more: bool

    def to_json(self) -> dict:
        return dict(self.__dict__)


class House:
    """The knowledge base and pass registry of one PASSWISE_HOME, opened lazily and shared."""

    def __init__(self, config: WebConfig):
        self.config = config
        self._kb: KnowledgeBase | None = None
        self._registry: tuple[float, PassRegistry] | None = None
        self._lock = threading.Lock()
        # Store reads that page through results (pass chunks, citations) take turns; searches
        # run side by side (the embedder serialises its own tokenizer).
        self.query_lock = threading.Lock()
        self._cache_lock = threading.Lock()
        # Searches by (query, filters, mode, index generation): a refresh invalidates them all.
        self._searches: OrderedDict[tuple, list[Ranked]] = OrderedDict()
        self._generation: tuple[float, int] = (float("-inf"), 0)
        self._source_names: tuple[int, list[str]] = (-1, [])
        self._pool: SearchPool | None = None

    @property
    def kb(self) -> KnowledgeBase:
        with self._lock:
            if self._kb is None:
                c = self.config
                self._kb = open_kb(Path(c.home), chroma_url=c.chroma_url,
                                   corpus_set=c.corpus_set, model=c.model)
            return self._kb

    def registry_mtime(self) -> float:
        """When the pass registry was last written (-1: there is none)."""
        path = registry_path(self.kb)
        return path.stat().st_mtime if path.exists() else -1.0

    def registry(self) -> PassRegistry:
        """The pass registry, re-read when a refresh rewrote it."""
        path = registry_path(self.kb)
        mtime = path.stat().st_mtime if path.exists() else -1.0
        if self._registry is None or self._registry[0] != mtime:
            self._registry = (mtime, load_registry(self.kb))
        return self._registry[1]

    # -- search ----------------------------------------------------------------------
    def search(self, query: str, *, backend: str | None = None, kind: str | None = None,
               source: str | None = None, pass_: str | None = None, page: int = 1,
               per_page: int | None = None, mode: str = "hybrid") -> SearchPage:
        """Hits of `query` on page `page`; the hit JSON is `passwise search --json`'s."""
        query = (query or "").strip()
        per_page = per_page or self.config.per_page
        _check_search(query, backend, kind, page, per_page, self.config.max_page)
        flt = Filters(backend=backend or None, kind=kind or None, repo=source or None,
                      pass_=pass_ or None)
        want = page * per_page + 1
        ranked = self._cached_search(query, flt, mode, max(want, WINDOW))
        self.kb.chunk_cache.settle(self.generation())  # a ranking from a worker: not yet seen here
        shown = [h.to_json() for h in self.kb.fetch(ranked[(page - 1) * per_page: page * per_page])]
        return SearchPage(query, {"backend": backend, "kind": kind, "source": source,
                                  "pass": pass_}, page, per_page, shown, len(ranked) >= want)

    def generation(self) -> int:
        """The index's write generation, read at most once a second (a refresh is seen within
        a second; a cache hit does not pay a store read)."""
        now = time.monotonic()
        if now - self._generation[0] > GENERATION_TTL_S:
            self._generation = (now, self.kb.store.generation)
        return self._generation[1]

    def _cached_search(self, query: str, flt: Filters, mode: str, k: int) -> list[Ranked]:
        """The ranking of a query (chunk ids and why each ranked); pages read their chunks."""
        key = (query, tuple(flt.as_dict().items()), mode, k, self.generation())
        with self._cache_lock:
            if key in self._searches:
                self._searches.move_to_end(key)
                return self._searches[key]
        pool = self.search_pool()
        hits = pool.rank(query, k, flt, mode) if pool else self.kb.rank(query, k=k, filters=flt,
                                                                         mode=mode)
        with self._cache_lock:
            self._searches[key] = hits
            while len(self._searches) > CACHE_ENTRIES:
                self._searches.popitem(last=False)
        return hits

    def search_pool(self) -> SearchPool | None:
        """The worker processes that rank questions, started on first use (None: rank here)."""
        c = self.config
        if c.search_workers <= 0:
            return None
        with self._lock:
            if self._pool is None:
                self._pool = SearchPool(IndexAddress(Path(c.home), c.chroma_url, c.corpus_set,
                                                     c.model), c.search_workers)
            return self._pool

    def warm(self) -> None:
        """Load the embedder and the lexical index (in every worker) before the first user."""
        pool = self.search_pool()
        if pool:
            pool.warm()
        self.search("warm up the index", per_page=1)

    def chunk(self, chunk_id: str) -> Chunk:
        """A chunk by its id: the only way a file's text reaches a page."""
        if not CHUNK_ID.match(chunk_id or ""):
            raise BadRequest("A chunk id is 24 hexadecimal characters.")
        with self.query_lock:
            got = self.kb.store.get([chunk_id])
        if not got:
            raise NotFound(f"No chunk {chunk_id} in the index; it may have been refreshed away.")
        return got[0][1]

    # -- passes ----------------------------------------------------------------------
    def pipeline(self, backend: str | None = None) -> dict[str, list[dict]]:
        """`passwise passes --json`: each backend's passes in pipeline order."""
        reg = self.registry()
        if backend and backend not in reg.backends():
            raise NotFound(f"No pipeline for backend {backend!r}; known: "
                           f"{', '.join(reg.backends()) or 'none'}.")
        return reg.pipeline_json([backend] if backend else None)

    def pass_detail(self, name: str) -> dict[str, Any]:
        """`passwise passes NAME --json`, plus its chunks, the analyses it consults and the
        symptoms the escalation table maps to it."""
        if not name or len(name) > 300:
            raise BadRequest("Name a pass by argument, class, binding or IR dump header.")
        rec = self.registry().lookup(name)
        if rec is None:
            raise NotFound(f"No pass matches {name!r}; list them with `passwise passes`.")
        chunks = self.pass_chunks(rec)
        routes = [r for r in load_routes() if rec.argument in r.passes]
        analyses = list(dict.fromkeys(
            [a.name for r in routes for a in r.analyses]
            + [m for c in chunks for m in _ANALYSIS.findall(c["text"])]))
        return {**rec.to_json(), "chunks": chunks, "analyses": analyses,
                "symptoms": [{"id": r.id, "backend": r.backend, "question": r.ask(rec.argument),
                              "family": r.family} for r in routes]}

    def pass_chunks(self, rec: PassRecord, limit: int = 30) -> list[dict]:
        """Chunks that define or implement the pass: its TableGen def and its anchors."""
        places = [(rec.td_path, rec.td_lines[0] if rec.td_lines else 0,
                   rec.td_lines[-1] if rec.td_lines else 10**9)] if rec.td_path else []
        places += [(a.path, a.start_line, a.end_line) for a in rec.impl_anchors]
        out: dict[str, dict] = {}
        with self.query_lock:
            for path, lo, hi in places[:12]:
                ids = self.kb.store.ids_where({"path": path})
                for cid, c in self.kb.store.get(ids[:200]):
                    if c.start_line <= hi and c.end_line >= lo and cid not in out:
                        out[cid] = {**_chunk_json(c), "id": cid}
        return list(out.values())[:limit]

    # -- sources and diagnoses -------------------------------------------------------
    def source_names(self) -> list[str]:
        """Names of the indexed sources, re-read when the index changes (every search page
        lists them)."""
        try:
            gen = self.generation()
            if self._source_names[0] != gen:
                self._source_names = (gen, [r["name"] for r in indexed_sources(self.kb)])
            return self._source_names[1]
        except KBError:
            return []

    def sources(self) -> list[dict]:
        """`passwise sources --json` with each source's chunk count and last refresh."""
        with self.query_lock:
            rows = indexed_sources(self.kb, chunk_counts=True)
        reg_dir = self.kb.home / "registry" / self.kb.store.name
        for r in rows:
            reg = reg_dir / f"{r['name']}.json"
            r["refreshed_at"] = _mtime_iso(reg) if reg.exists() else r.get("indexed_at")
        return rows

    def refresh(self) -> dict:
        """`passwise refresh`: every source to its newest version, the registry rebuilt."""
        from indexer.index import Progress, refresh
        from indexer.registry import save_source_registry
        from indexer.sources import parse_mirrors

        kb = self.kb
        if not indexed_sources(kb):
            raise BadRequest("Nothing is indexed yet; run `passwise index` first.")
        with self.query_lock:
            report = refresh(kb, mirrors=parse_mirrors(self.config.mirrors),
                             progress=Progress(quiet=True),
                             on_snapshot=lambda snap, _v: save_source_registry(kb, snap))
        self._registry, self._generation = None, (float("-inf"), 0)
        if self._pool is not None:  # workers hold the vector index as it was when they opened it
            self._pool.restart()
        return report.to_json()

    def diagnoses(self) -> list[dict]:
        return [d.to_json() for d in list_saved(self.config.home)]

    def diagnosis(self, name: str):
        return load_saved(self.config.home, name)


def _check_search(query: str, backend: str | None, kind: str | None, page: int,
                  per_page: int, max_page: int) -> None:
    if not query:
        raise BadRequest("The query is empty; ask a question, e.g. 'why are loads not vectorized'.")
    if len(query) > MAX_QUERY_CHARS:
        raise BadRequest(f"The query is longer than {MAX_QUERY_CHARS} characters; shorten it.")
    if backend and backend not in BACKENDS:
        raise BadRequest(f"Unknown backend {backend!r}; use one of {', '.join(BACKENDS)}.")
    if kind and kind not in KINDS:
        raise BadRequest(f"Unknown kind {kind!r}; use one of {', '.join(KINDS)}.")
    if not 1 <= page <= max_page:
        raise BadRequest(f"The page must be between 1 and {max_page}.")
    if not 1 <= per_page <= 50:
        raise BadRequest("per_page must be between 1 and 50.")


def _chunk_json(c: Chunk) -> dict:
    return {"path": c.path, "repo": c.source, "start_line": c.start_line,
            "end_line": c.end_line, "symbol": c.symbol, "scope": c.scope, "kind": c.kind,
            "backend": c.backend, "permalink": c.permalink, "commit": c.commit,
            "language": c.language, "text": c.text}


def _mtime_iso(path: Path) -> str:
    from datetime import UTC, datetime

    return datetime.fromtimestamp(path.stat().st_mtime, UTC).isoformat(timespec="seconds")

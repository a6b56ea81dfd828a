"""Chroma storage for chunks: embedded PersistentClient by default, a Chroma server on request.

Besides the chunk collection, a small `<name>-state` collection keeps per-source state
(indexed commit, file hashes) and a write generation, so that state lives wherever the chunks
live (the same in server mode) and any cache derived from the documents can tell it is stale.
On a server every call has timeouts and every failure ends in one sentence (a KBError).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path

from kb.chunk import Chunk
from kb.errors import KBError
from kb.server import (  # noqa: F401  (ServerOptions is part of this module's interface)
    ServerAwareCollection,
    ServerOptions,
    is_server_failure,
    make_client,
    server_failure_sentence,
    server_url,
)

os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")

GENERATION_KEY = "__generation__"


@dataclass
class StoredHit:
    """A chunk as it came back from the dense index."""

    id: str
    chunk: Chunk
    distance: float


def collection_name(corpus_set: str, model_slug: str) -> str:
    """One collection per (corpus set, embedding model)."""
    name = f"pw-{corpus_set}-{model_slug}"
    return "".join(c if c.isalnum() or c in "._-" else "-" for c in name)[:200]


class Store:
    """The chunk collection and its state collection.

    Every change to the chunks happens inside a write window: the generation becomes odd
    before the change and even after it (a sequence lock). A derived cache built while the
    generation was even and unchanged holds exactly the store's content at that generation;
    an odd generation means a write is running or was killed, and nothing derived is kept.
    """

    def __init__(self, client, name: str, base: str | None = None,
                 opts: ServerOptions | None = None):
        self.client = client
        self.name = name
        self.base = base  # the server URL, None for the embedded store
        self.opts = opts or ServerOptions()
        try:
            chunks = client.get_or_create_collection(
                name, configuration={"hnsw": {"space": "cosine"}}, embedding_function=None)
            state = client.get_or_create_collection(f"{name}-state", embedding_function=None)
            self.max_batch = int(client.get_max_batch_size())
        except KBError:
            raise
        except Exception as e:
            if base is None or not is_server_failure(e):
                raise
            raise KBError(server_failure_sentence(base, "opening the collection", e, opts)) from e
        self.chunks = ServerAwareCollection(chunks, base, self.opts)
        self.state = ServerAwareCollection(state, base, self.opts)

    @classmethod
    def open(cls, home: Path, *, chroma_url: str | None = None, corpus_set: str = "default",
             model_slug: str = "all-minilm-l6-v2", server: ServerOptions | None = None) -> Store:
        opts = server or ServerOptions()
        base = server_url(chroma_url) if chroma_url else None
        return cls(make_client(Path(home), chroma_url, opts), collection_name(corpus_set, model_slug),
                   base, opts)

    @property
    def where(self) -> str:
        return self.base or "embedded"

    def count(self) -> int:
        return int(self.chunks.read("counting chunks", "count"))

    # -- writes ---------------------------------------------------------------------------
    @contextmanager
    def writing(self) -> Iterator[None]:
        """A write window: odd generation inside, a new even one after (also after a failure)."""
        n = self.generation
        opened = n + 1 if n % 2 == 0 else n + 2
        self._set_generation(opened)
        try:
            yield
        except BaseException:
            with suppress(KBError):  # the server may be the failure; the write's error is the news
                self._set_generation(opened + 1)
            raise
        self._set_generation(opened + 1)

    def settle(self) -> bool:
        """Close the window a killed writer left open; only a writer holding the lock may."""
        n = self.generation
        if n % 2:
            self._set_generation(n + 1)
        return bool(n % 2)

    def upsert(self, chunks: Sequence[Chunk], embeddings: Sequence[Sequence[float]]) -> None:
        """Add or replace chunks; ids are content-derived so this is idempotent."""
        seen: dict[str, int] = {}
        for i, c in enumerate(chunks):  # the same id twice in one call is an error in Chroma
            seen[c.id] = i
        order = sorted(seen.values())
        if not order:
            return
        with self.writing():
            for lo in range(0, len(order), self.max_batch):
                part = order[lo : lo + self.max_batch]
                self.chunks.write(
                    "writing chunks", "upsert",
                    ids=[chunks[i].id for i in part],
                    embeddings=[list(embeddings[i]) for i in part],
                    documents=[chunks[i].text for i in part],
                    metadatas=[chunks[i].metadata() for i in part],
                )

    def delete(self, ids: Sequence[str]) -> None:
        ids = list(ids)
        if not ids:
            return
        with self.writing():
            for lo in range(0, len(ids), self.max_batch):
                self.chunks.write("deleting chunks", "delete", ids=ids[lo : lo + self.max_batch])

    # -- reads ----------------------------------------------------------------------------
    def ids_where(self, where: dict) -> list[str]:
        return list(self.chunks.read("listing chunks", "get", where=where, include=[])["ids"])

    def get(self, ids: Sequence[str]) -> list[tuple[str, Chunk]]:
        if not ids:
            return []
        got = self.chunks.read("reading chunks", "get", ids=list(ids),
                               include=["documents", "metadatas"])
        return [(i, Chunk.from_metadata(d, m))
                for i, d, m in zip(got["ids"], got["documents"], got["metadatas"], strict=True)
                if d is not None and m is not None]

    def iter_all(self, page: int = 5000) -> Iterator[tuple[list[str], list[str], list[dict]]]:
        """Every stored chunk, page by page: (ids, documents, metadatas)."""
        offset = 0
        while True:
            got = self.chunks.read("reading chunks", "get", include=["documents", "metadatas"],
                                   limit=page, offset=offset)
            if not got["ids"]:
                return
            yield got["ids"], got["documents"], got["metadatas"]
            offset += len(got["ids"])

    def query(self, embedding: Sequence[float], n: int, where: dict | None = None) -> list[StoredHit]:
        total = self.count()
        if total == 0:
            return []
        res = self.chunks.read("searching", "query", query_embeddings=[list(embedding)],
                               n_results=min(n, total), where=where or None,
                               include=["documents", "metadatas", "distances"])
        # After a killed writer, Chroma's vector index can still list ids whose records are
        # gone (it answers them with no document); such ghosts are not results.
        return [StoredHit(i, Chunk.from_metadata(d, m), float(dist))
                for i, d, m, dist in zip(res["ids"][0], res["documents"][0],
                                         res["metadatas"][0], res["distances"][0], strict=True)
                if d is not None and m is not None]

    def query_ids(self, embedding: Sequence[float], n: int, where: dict | None = None,
                  total: int | None = None) -> list[tuple[str, float]]:
        """(id, cosine distance) of the n nearest chunks, without their documents: reading 100
        documents and metadatas costs Chroma ~10x the search itself, and a search shows few of
        them. `total` is the chunk count when the caller knows it (Chroma's count is a scan)."""
        total = self.count() if total is None else total
        if total == 0:
            return []
        res = self.chunks.read("searching", "query", query_embeddings=[list(embedding)],
                               n_results=min(n, total), where=where or None,
                               include=["distances"])
        return [(i, float(d)) for i, d in zip(res["ids"][0], res["distances"][0], strict=True)]

    # -- state ----------------------------------------------------------------------------
    def get_state(self, key: str) -> dict | None:
        got = self.state.read("reading the index state", "get", ids=[key], include=["documents"])
        if not got["ids"]:
            return None
        try:
            value = json.loads(got["documents"][0])
        except (TypeError, ValueError):
            return None
        return value if isinstance(value, dict) else None

    def put_state(self, key: str, value: dict) -> None:
        self.state.write("saving the index state", "upsert", ids=[key], embeddings=[[0.0]],
                         documents=[json.dumps(value)])

    def put_states(self, values: dict[str, dict]) -> None:
        """Several state records in one write: a kill leaves all of them or none."""
        if values:
            self.state.write("saving the index state", "upsert", ids=list(values),
                             embeddings=[[0.0]] * len(values),
                             documents=[json.dumps(v) for v in values.values()])

    def delete_state(self, key: str) -> None:
        self.state.write("saving the index state", "delete", ids=[key])

    def state_keys(self) -> list[str]:
        got = self.state.read("reading the index state", "get", include=[])
        return [k for k in got["ids"] if k != GENERATION_KEY]

    @property
    def generation(self) -> int:
        """How many times a write window opened or closed; odd while one is open."""
        got = self.get_state(GENERATION_KEY)
        try:
            n = int(got["n"]) if got else 0
        except (KeyError, TypeError, ValueError):
            return 0
        # A store written before the sequence lock counted one step per write: read it as the
        # settled (even) generation 2n, so upgrading never looks like an interrupted write.
        return n if got and got.get("seqlock") else 2 * n

    def bump_generation(self) -> int:
        """Mark the content changed, for a caller that wrote to `chunks` directly (after it did)."""
        n = self.generation
        n += 2 if n % 2 == 0 else 1
        self._set_generation(n)
        return n

    def _set_generation(self, n: int) -> None:
        self.put_state(GENERATION_KEY, {"n": n, "seqlock": 1})

    def content_stamp(self) -> tuple[str, int]:
        """(collection id, generation): what a cache derived from the chunks must match."""
        return self.chunks.id, self.generation

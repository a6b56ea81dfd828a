"""Chroma storage for chunks: embedded PersistentClient by default, a Chroma server on request.

Besides the chunk collection, a small `<name>-state` collection keeps per-source state
(indexed commit, file hashes) and a write generation, so that state lives wherever the chunks
live (the same in server mode) and any cache derived from the documents can tell it is stale.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlparse

from kb.chunk import Chunk
from kb.errors import KBError

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


def _client(home: Path, chroma_url: str | None):
    import chromadb
    from chromadb.config import Settings

    settings = Settings(anonymized_telemetry=False)
    if not chroma_url:
        (home / "chroma").mkdir(parents=True, exist_ok=True)
        return chromadb.PersistentClient(path=str(home / "chroma"), settings=settings)
    url = urlparse(chroma_url if "://" in chroma_url else f"http://{chroma_url}")
    if not url.hostname:
        raise KBError(f"{chroma_url!r} is not a Chroma server URL; use http://HOST:PORT.")
    try:
        client = chromadb.HttpClient(host=url.hostname, port=url.port or 8000,
                                     ssl=url.scheme == "https", settings=settings)
        client.heartbeat()
    except Exception as e:
        raise KBError(
            f"Cannot reach the Chroma server at {chroma_url} ({type(e).__name__}); start it with "
            "`chroma run --path DIR` or drop --chroma-url to use the embedded store."
        ) from e
    return client


class Store:
    """The chunk collection and its state collection."""

    def __init__(self, client, name: str):
        self.client = client
        self.name = name
        self.chunks = client.get_or_create_collection(
            name, configuration={"hnsw": {"space": "cosine"}}, embedding_function=None
        )
        self.state = client.get_or_create_collection(f"{name}-state", embedding_function=None)
        self.max_batch = int(client.get_max_batch_size())

    @classmethod
    def open(cls, home: Path, *, chroma_url: str | None = None, corpus_set: str = "default",
             model_slug: str = "all-minilm-l6-v2") -> Store:
        return cls(_client(Path(home), chroma_url), collection_name(corpus_set, model_slug))

    def count(self) -> int:
        return self.chunks.count()

    # -- writes ---------------------------------------------------------------------------
    def upsert(self, chunks: Sequence[Chunk], embeddings: Sequence[Sequence[float]]) -> None:
        """Add or replace chunks; ids are content-derived so this is idempotent."""
        seen: dict[str, int] = {}
        for i, c in enumerate(chunks):  # the same id twice in one call is an error in Chroma
            seen[c.id] = i
        order = sorted(seen.values())
        for lo in range(0, len(order), self.max_batch):
            part = order[lo : lo + self.max_batch]
            self.chunks.upsert(
                ids=[chunks[i].id for i in part],
                embeddings=[list(embeddings[i]) for i in part],
                documents=[chunks[i].text for i in part],
                metadatas=[chunks[i].metadata() for i in part],
            )

    def delete(self, ids: Sequence[str]) -> None:
        ids = list(ids)
        for lo in range(0, len(ids), self.max_batch):
            self.chunks.delete(ids=ids[lo : lo + self.max_batch])

    # -- reads ----------------------------------------------------------------------------
    def ids_where(self, where: dict) -> list[str]:
        return list(self.chunks.get(where=where, include=[])["ids"])

    def get(self, ids: Sequence[str]) -> list[tuple[str, Chunk]]:
        if not ids:
            return []
        got = self.chunks.get(ids=list(ids), include=["documents", "metadatas"])
        return [(i, Chunk.from_metadata(d, m))
                for i, d, m in zip(got["ids"], got["documents"], got["metadatas"], strict=True)]

    def iter_all(self, page: int = 5000) -> Iterator[tuple[list[str], list[str], list[dict]]]:
        """Every stored chunk, page by page: (ids, documents, metadatas)."""
        offset = 0
        while True:
            got = self.chunks.get(include=["documents", "metadatas"], limit=page, offset=offset)
            if not got["ids"]:
                return
            yield got["ids"], got["documents"], got["metadatas"]
            offset += len(got["ids"])

    def query(self, embedding: Sequence[float], n: int, where: dict | None = None) -> list[StoredHit]:
        total = self.count()
        if total == 0:
            return []
        res = self.chunks.query(query_embeddings=[list(embedding)], n_results=min(n, total),
                                where=where or None,
                                include=["documents", "metadatas", "distances"])
        # After a killed writer, Chroma's vector index can still list ids whose records are
        # gone (it answers them with no document); such ghosts are not results.
        return [StoredHit(i, Chunk.from_metadata(d, m), float(dist))
                for i, d, m, dist in zip(res["ids"][0], res["documents"][0],
                                         res["metadatas"][0], res["distances"][0], strict=True)
                if d is not None and m is not None]

    # -- state ----------------------------------------------------------------------------
    def get_state(self, key: str) -> dict | None:
        got = self.state.get(ids=[key], include=["documents"])
        return json.loads(got["documents"][0]) if got["ids"] else None

    def put_state(self, key: str, value: dict) -> None:
        self.state.upsert(ids=[key], embeddings=[[0.0]], documents=[json.dumps(value)])

    def delete_state(self, key: str) -> None:
        self.state.delete(ids=[key])

    def state_keys(self) -> list[str]:
        return [k for k in self.state.get(include=[])["ids"] if k != GENERATION_KEY]

    @property
    def generation(self) -> int:
        got = self.get_state(GENERATION_KEY)
        return int(got["n"]) if got else 0

    def bump_generation(self) -> int:
        """Called before every write, so a crash mid-write still invalidates derived caches."""
        n = self.generation + 1
        self.put_state(GENERATION_KEY, {"n": n})
        return n

"""Chroma storage for chunks: embedded PersistentClient by default, a Chroma server on request.

Besides the chunk collection, a small `<name>-state` collection keeps per-source state
(indexed commit, file hashes) and a write generation, so that state lives wherever the chunks
live (the same in server mode) and any cache derived from the documents can tell it is stale.
On a server every call has timeouts and every failure ends in one sentence (a KBError).
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
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


@dataclass
class ServerOptions:
    """How to talk to a Chroma server: timeouts in seconds, retries of idempotent reads, token.

    Reads are retried when the connection fails or drops and on 502/503/504, never on a read
    timeout (a frozen server would only multiply the wait); writes are never retried.
    """

    connect_timeout: float = 5.0
    read_timeout: float = 60.0
    retries: int = 2
    token: str | None = None

    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"} if self.token else {}


def _server_url(chroma_url: str) -> str:
    url = urlparse(chroma_url if "://" in chroma_url else f"http://{chroma_url}")
    if not url.hostname or url.scheme not in ("http", "https"):
        raise KBError(f"{chroma_url!r} is not a Chroma server URL; use http://HOST:PORT.")
    return f"{url.scheme}://{url.hostname}:{url.port or 8000}"


def _client(home: Path, chroma_url: str | None, opts: ServerOptions):
    import chromadb
    from chromadb.config import Settings

    settings = Settings(anonymized_telemetry=False)
    if not chroma_url:
        (home / "chroma").mkdir(parents=True, exist_ok=True)
        return chromadb.PersistentClient(path=str(home / "chroma"), settings=settings)
    base = _server_url(chroma_url)
    _check_server(base, opts)  # a clear sentence for a server that is down or refuses us
    try:
        return _http_client(base, opts, settings)
    except KBError:
        raise
    except Exception as e:
        raise KBError(server_failure_sentence(base, "connecting", e, opts)) from e


def _http_client(base: str, opts: ServerOptions, settings):
    """chromadb.HttpClient, built within a deadline, then given our timeouts.

    HttpClient makes a few requests while it is built, with no timeout at all (and each
    client gets a system of its own, so no timeout can be set first); a server that freezes
    between our heartbeat and those requests would hang the command, so the building runs in
    a daemon thread that is abandoned past the deadline.
    """
    import threading

    import chromadb
    import httpx

    url = urlparse(base)
    box: dict = {}

    def build() -> None:
        try:
            box["client"] = chromadb.HttpClient(
                host=url.hostname, port=url.port, ssl=url.scheme == "https",
                headers=opts.headers() or None, settings=settings)
        except BaseException as e:  # handed to the caller's thread
            box["error"] = e

    worker = threading.Thread(target=build, name="chroma-connect", daemon=True)
    worker.start()
    worker.join(opts.connect_timeout + 3 * opts.read_timeout)
    if worker.is_alive():
        raise httpx.ReadTimeout("the client was not built in time")
    if "error" in box:
        raise box["error"]
    _set_timeouts(box["client"]._server, base, opts)
    return box["client"]


def _check_server(base: str, opts: ServerOptions) -> None:
    import httpx

    timeout = httpx.Timeout(opts.read_timeout, connect=opts.connect_timeout)
    for attempt in range(opts.retries + 1):
        try:
            resp = httpx.get(f"{base}/api/v2/heartbeat", timeout=timeout, headers=opts.headers())
        except httpx.HTTPError as e:
            raise KBError(
                f"Cannot reach the Chroma server at {base} ({_why(e, opts)}); start it with "
                "`chroma run --path DIR` or drop --chroma-url to use the embedded store.") from e
        if resp.status_code not in (502, 503, 504) or attempt == opts.retries:
            break
        time.sleep(0.5 * 2**attempt)
    _reject_auth(base, resp.status_code)
    if resp.status_code in (502, 503, 504):
        raise KBError(f"The Chroma server at {base} is unavailable (HTTP {resp.status_code}); "
                      "check that `chroma run` is up behind the proxy, then run the command again.")
    if resp.status_code >= 400:
        raise KBError(f"The Chroma server at {base} answered HTTP {resp.status_code} to a "
                      "heartbeat; check that the URL points at `chroma run`.")


def _reject_auth(base: str, status: int) -> None:
    if status in (401, 403):
        raise KBError(f"The Chroma server at {base} refused the credentials (HTTP {status}); "
                      "set PASSWISE_CHROMA_TOKEN to the team's token.")


class ServerUnavailable(Exception):
    """The server (or a proxy in front of it) answered 502, 503 or 504: worth a retry."""

    def __init__(self, status: int):
        super().__init__(f"HTTP {status}")
        self.status = status


def _check_status(base: str, status: int) -> None:
    _reject_auth(base, status)
    if status in (502, 503, 504):
        raise ServerUnavailable(status)


def _set_timeouts(server_api, base: str, opts: ServerOptions) -> None:
    """chromadb's HTTP client waits forever by default; give its session our timeouts, and
    see auth refusals and unavailability before chromadb turns them into bare Exceptions."""
    import httpx

    session = getattr(server_api, "_session", None)
    if not isinstance(session, httpx.Client):
        raise KBError("This chromadb version keeps its HTTP session elsewhere; passwise cannot "
                      "set server timeouts: install the chromadb version pyproject.toml names.")
    session.timeout = httpx.Timeout(opts.read_timeout, connect=opts.connect_timeout)
    session.event_hooks["response"] = [lambda r: _check_status(base, r.status_code)]


def _why(e: BaseException, opts: ServerOptions | None = None) -> str:
    """A transport failure in a few words."""
    import httpx

    if isinstance(e, httpx.ConnectTimeout):
        return f"no connection within {opts.connect_timeout:g} s" if opts else "connection timed out"
    if isinstance(e, httpx.TimeoutException):
        return f"no answer within {opts.read_timeout:g} s" if opts else "it stopped answering"
    if isinstance(e, httpx.ConnectError):
        return "connection refused" if "refused" in str(e).lower() else "cannot connect"
    if isinstance(e, httpx.RemoteProtocolError | httpx.ReadError | httpx.WriteError):
        return "it closed the connection"
    if isinstance(e, ServerUnavailable):
        return f"{e}, unavailable"
    first = (str(e).strip().splitlines() or [""])[0][:120]
    return f"{type(e).__name__}: {first}" if first else type(e).__name__


def server_failure_sentence(base: str, doing: str, e: BaseException,
                            opts: ServerOptions | None = None) -> str:
    return (f"The Chroma server at {base} failed while {doing} ({_why(e, opts)}); check that it is "
            "running and reachable, then run the command again (what was already stored is kept).")


def _is_server_failure(e: BaseException) -> bool:
    import httpx
    from chromadb.errors import ChromaError

    if isinstance(e, httpx.HTTPError | ServerUnavailable):
        return True
    if isinstance(e, ChromaError):
        return e.code() >= 500
    return type(e) is Exception  # chromadb's wrapper for an HTTP error without a JSON body


def _transient(e: BaseException) -> bool:
    import httpx

    if isinstance(e, httpx.TimeoutException):
        return False
    return isinstance(e, httpx.TransportError | ServerUnavailable)


class _Collection:
    """A Chroma collection whose calls fail in one sentence on a server and retry their reads."""

    def __init__(self, coll, base: str | None, opts: ServerOptions):
        self._coll, self._base, self._opts = coll, base, opts

    @property
    def id(self) -> str:
        return str(self._coll.id)

    def __getattr__(self, name: str):  # the raw collection for callers that need more
        return getattr(self._coll, name)

    def read(self, doing: str, method: str, **kw):
        return self._call(doing, method, self._opts.retries, kw)

    def write(self, doing: str, method: str, **kw):
        return self._call(doing, method, 0, kw)

    def _call(self, doing: str, method: str, retries: int, kw: dict):
        fn = getattr(self._coll, method)
        if self._base is None:
            return fn(**kw)
        for attempt in range(retries + 1):
            try:
                return fn(**kw)
            except KBError:
                raise
            except Exception as e:
                if not _is_server_failure(e):
                    raise
                if attempt == retries or not _transient(e):
                    raise KBError(server_failure_sentence(self._base, doing, e, self._opts)) from e
                time.sleep(0.5 * 2**attempt)
        raise AssertionError("unreachable")


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
            if base is None or not _is_server_failure(e):
                raise
            raise KBError(server_failure_sentence(base, "opening the collection", e, opts)) from e
        self.chunks = _Collection(chunks, base, self.opts)
        self.state = _Collection(state, base, self.opts)

    @classmethod
    def open(cls, home: Path, *, chroma_url: str | None = None, corpus_set: str = "default",
             model_slug: str = "all-minilm-l6-v2", server: ServerOptions | None = None) -> Store:
        opts = server or ServerOptions()
        base = _server_url(chroma_url) if chroma_url else None
        return cls(_client(Path(home), chroma_url, opts), collection_name(corpus_set, model_slug),
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

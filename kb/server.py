"""Talking to Chroma: the embedded client, or a server with timeouts, retries and one-sentence
failures.

chromadb's HTTP client waits forever and turns server failures into long tracebacks; here
every call on a server has a connect and a read timeout, reads are retried through short
outages, and whatever still fails becomes a KBError whose message is one sentence.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlparse

from kb.errors import KBError


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


def server_url(chroma_url: str) -> str:
    url = urlparse(chroma_url if "://" in chroma_url else f"http://{chroma_url}")
    if not url.hostname or url.scheme not in ("http", "https"):
        raise KBError(f"{chroma_url!r} is not a Chroma server URL; use http://HOST:PORT.")
    return f"{url.scheme}://{url.hostname}:{url.port or 8000}"


def make_client(home: Path, chroma_url: str | None, opts: ServerOptions):
    import chromadb
    from chromadb.config import Settings

    settings = Settings(anonymized_telemetry=False)
    if not chroma_url:
        (home / "chroma").mkdir(parents=True, exist_ok=True)
        return chromadb.PersistentClient(path=str(home / "chroma"), settings=settings)
    base = server_url(chroma_url)
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
    if isinstance(e, ValueError) and "Could not connect" in str(e):  # chromadb's wording
        return "cannot connect"
    first = (str(e).strip().splitlines() or [""])[0][:120]
    return f"{type(e).__name__}: {first}" if first else type(e).__name__


def server_failure_sentence(base: str, doing: str, e: BaseException,
                            opts: ServerOptions | None = None) -> str:
    return (f"The Chroma server at {base} failed while {doing} ({_why(e, opts)}); check that it is "
            "running and reachable, then run the command again (what was already stored is kept).")


def is_server_failure(e: BaseException) -> bool:
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


class ServerAwareCollection:
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
                if not is_server_failure(e):
                    raise
                if attempt == retries or not _transient(e):
                    raise KBError(server_failure_sentence(self._base, doing, e, self._opts)) from e
                time.sleep(0.5 * 2**attempt)
        raise AssertionError("unreachable")

"""Rankings in worker processes: ranking a new question is ~40 ms of Python, numpy and torch,
and the threads of one process share one interpreter lock, so `passwise serve` ranks in one
process per core while its threads answer pages. A free worker takes the next question (no
connection is tied to a worker); each opens the same index read-only, as the CLI does."""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from pathlib import Path

from kb.errors import KBError
from kb.search import Filters, KnowledgeBase, Ranked

# A ranking that takes longer than this is a stuck worker, not a slow machine.
RANK_TIMEOUT_S = 120.0


@dataclass(frozen=True)
class IndexAddress:
    """What a worker needs to open the index the server serves."""

    home: Path
    chroma_url: str | None
    corpus_set: str
    model: str | None


# The worker process's own index, or why it could not be opened (said on every question).
_KB: KnowledgeBase | KBError | None = None


def _open(where: IndexAddress) -> None:
    """Worker start: one torch thread (the workers are the parallelism), the index opened."""
    global _KB
    import torch

    from kb.search import open_kb

    torch.set_num_threads(1)
    _exit_with_server()
    try:
        _KB = open_kb(Path(where.home), chroma_url=where.chroma_url,
                      corpus_set=where.corpus_set, model=where.model)
    except KBError as e:
        _KB = e


def _exit_with_server() -> None:
    """A worker ends when the server ends, however it ends: a killed server (SIGTERM, OOM)
    cannot shut its pool down, and an idle worker would otherwise wait for work forever."""
    server = os.getppid()

    def watch() -> None:
        while os.getppid() == server:  # an orphan is handed to another parent
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, daemon=True, name="passwise-exit-with-server").start()


def _rank(query: str, k: int, flt: Filters, mode: str) -> list[Ranked]:
    if not isinstance(_KB, KnowledgeBase):
        raise _KB or KBError("The search worker has no index open; restart the server.")
    return _KB.rank(query, k=k, filters=flt, mode=mode)


def _warm() -> None:
    """Load the embedder and the lexical index now, not on a user's first question."""
    try:
        _rank("warm up the index", 1, Filters(), "hybrid")
    except KBError:  # an empty index says so on the first real question
        pass


class SearchPool:
    """`workers` processes that rank questions; restarted when one dies or the index changes
    under them (a refresh through the server)."""

    def __init__(self, where: IndexAddress, workers: int):
        self.where, self.workers = where, workers
        self._lock = threading.Lock()
        self._pool = self._start()

    def _start(self) -> ProcessPoolExecutor:
        # spawn: a fresh interpreter per worker; forking a process that holds torch's and
        # Chroma's threads is not safe.
        return ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"),
                                   initializer=_open, initargs=(self.where,))

    def warm(self) -> None:
        """Start every worker and load its index (blocks until all are ready)."""
        with self._lock:
            pool = self._pool
        for f in [pool.submit(_warm) for _ in range(self.workers)]:
            f.result(timeout=600)

    def rank(self, query: str, k: int, flt: Filters, mode: str) -> list[Ranked]:
        with self._lock:
            pool = self._pool
        try:
            try:
                job = pool.submit(_rank, query, k, flt, mode)
            except RuntimeError:  # shut down by a restart since it was read: use the new one
                with self._lock:
                    pool = self._pool
                job = pool.submit(_rank, query, k, flt, mode)
            return job.result(timeout=RANK_TIMEOUT_S)
        except BrokenProcessPool:
            self.restart(pool)
            raise KBError("A search worker stopped while ranking this question; ask again "
                          "(the server has started a new one).") from None
        except TimeoutError:
            raise KBError(f"Ranking this question took more than {RANK_TIMEOUT_S:.0f} s; the "
                          "server is overloaded, try again later.") from None

    def restart(self, old: ProcessPoolExecutor | None = None) -> None:
        """New workers (which read the index afresh); `old`: only if it is still the pool."""
        with self._lock:
            if old is not None and old is not self._pool:
                return
            dead, self._pool = self._pool, self._start()
        dead.shutdown(wait=False, cancel_futures=True)

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)

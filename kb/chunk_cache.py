"""Chunks by id, kept in memory between searches: a search reads the text of its top candidates
(reranker, callees) and the chunks it shows, and questions about one compiler keep meeting
the same functions. Ids are content hashes, but a refresh may move a chunk's lines or commit,
so the cache holds one index generation at a time."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence

from kb.chunk import Chunk
from kb.store import Store

CACHED_CHUNKS = 4096


class ChunkCache:
    """The most recently read chunks of one index generation, read through from the store."""

    def __init__(self, size: int = CACHED_CHUNKS):
        self.size = size
        self._chunks: OrderedDict[str, Chunk] = OrderedDict()
        self._generation: int | None = None
        self._lock = threading.Lock()

    def settle(self, generation: int) -> None:
        """Forget every chunk when the store moved to another generation."""
        with self._lock:
            if generation != self._generation:
                self._chunks.clear()
                self._generation = generation

    def read(self, store: Store, ids: Sequence[str]) -> dict[str, Chunk]:
        """The chunks of `ids` the store holds (absent ids are left out), one store read for
        those not cached."""
        with self._lock:
            got = {i: self._chunks[i] for i in ids if i in self._chunks}
            for i in got:
                self._chunks.move_to_end(i)
            generation = self._generation
        missing = list(dict.fromkeys(i for i in ids if i not in got))
        if not missing:
            return got
        fetched = dict(store.get(missing))
        got.update(fetched)
        with self._lock:
            if generation == self._generation:  # not across a refresh
                self._chunks.update(fetched)
                while len(self._chunks) > self.size:
                    self._chunks.popitem(last=False)
        return got

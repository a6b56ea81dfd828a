"""Per-source state kept in the store: what is complete, and what a writer is in the middle of.

A source is "complete at version X" only once its last batch is written. While `index` or
`refresh` works on it, it is "indexing" towards a target version (its stored chunks may mix
the two versions); `index` marks every source of its plan "pending" before it starts, so
`refresh` knows what an interrupted `index` never reached.

Record schema (JSON in the state collection, key `source:<name>`):
  spec, corpus, repo_url, compiler_version: how to index the source again
  format: how its files become chunks (indexer.index.source_format; a change redoes every file)
  version: the last version indexed completely (None: never)
  status: "complete" | "pending" | "indexing"     (absent in old records: complete)
  target, files_left, writer, updated: set while status is "indexing"
  files: content digest of every file whose chunks are stored ("" = chunks of an older
         compiler version, to redo)
"""

from __future__ import annotations

import os
import socket
import time
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime

from kb.store import Store

COMPLETE, PENDING, INDEXING = "complete", "pending", "indexing"


def state_key(source_name: str) -> str:
    return f"source:{source_name}"


@dataclass
class SourceState:
    name: str
    spec: dict | None = None
    corpus: str | None = None
    repo_url: str = ""
    compiler_version: str | None = None
    version: str | None = None
    format: int = 1  # indexer.index.source_format: how the source's files become chunks
    status: str = COMPLETE
    target: str | None = None
    files_left: int = 0
    writer: str = ""
    updated: float = 0.0
    files: dict[str, str] = field(default_factory=dict)

    @classmethod
    def from_record(cls, name: str, rec: dict) -> SourceState:
        known = {k: rec[k] for k in cls.__dataclass_fields__ if k in rec and k != "name"}
        st = cls(name, **known)
        if "status" not in rec:  # written before states had a status
            st.status = COMPLETE if rec.get("version") else INDEXING
        return st

    def record(self) -> dict:
        rec = asdict(self)
        del rec["name"]
        return rec

    def start(self, target: str, files_left: int) -> None:
        self.status, self.target, self.files_left = INDEXING, target, files_left
        self.writer = f"{socket.gethostname()}:{os.getpid()}"
        self.updated = time.time()

    def finish(self, version: str) -> None:
        self.status, self.version, self.target = COMPLETE, version, None
        self.files_left, self.writer, self.updated = 0, "", time.time()

    def shown_status(self) -> str:
        """complete, pending, in progress, interrupted (or, for a writer elsewhere, either)."""
        if self.status != INDEXING:
            return self.status
        host, _, pid = self.writer.partition(":")
        if host and host != socket.gethostname():
            return f"in progress on {host} or interrupted"
        return "in progress" if pid.isdigit() and _alive(int(pid)) else "interrupted"

    def row(self) -> dict:
        """The `sources --json` row."""
        return {"name": self.name, "corpus": self.corpus, "status": self.shown_status(),
                "version": self.version, "target": self.target,
                "compiler_version": self.compiler_version, "files": len(self.files),
                "files_left": self.files_left, "spec": self.spec, "repo_url": self.repo_url,
                "indexed_at": _iso(self.updated) if self.status == COMPLETE else None}


def _iso(stamp: float) -> str | None:
    """A state's `updated` time as ISO 8601 UTC (None when the record never had one)."""
    if not stamp:
        return None
    return datetime.fromtimestamp(stamp, UTC).isoformat(timespec="seconds")


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def load_state(store: Store, name: str) -> SourceState | None:
    rec = store.get_state(state_key(name))
    return SourceState.from_record(name, rec) if rec is not None else None


def save_state(store: Store, st: SourceState) -> None:
    store.put_state(state_key(st.name), st.record())


def save_states(store: Store, states: list[SourceState]) -> None:
    """Record several sources in one write (a run killed in it records all of them or none)."""
    store.put_states({state_key(st.name): st.record() for st in states})


def all_states(store: Store) -> list[SourceState]:
    out = []
    for key in store.state_keys():
        if key.startswith("source:"):
            st = load_state(store, key.split(":", 1)[1])
            if st is not None:
                out.append(st)
    return out

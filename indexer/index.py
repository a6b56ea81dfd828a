"""Index and refresh sources into the knowledge base, touching only what changed.

Index and refresh are one algorithm: compare each file's content digest with the state the
store keeps for the source, re-chunk the added and changed files, delete the chunks of removed
files, and record the new version last. State is saved after every batch of files, and new
chunks are written before stale ones are deleted, so a run killed at any point leaves an index
that still answers, and the next run finishes the job with no duplicate or stale chunks.
"""

from __future__ import annotations

import sys
import time
import tomllib
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path

from indexer.chunkers import chunk_file, language_for
from indexer.manifest import Corpus, SourceSpec
from indexer.sources import Snapshot, SourceUnavailable, compiler_version, snapshot
from indexer.state import (
    COMPLETE,
    PENDING,
    SourceState,
    all_states,
    load_state,
    save_state,
    save_states,
    state_key,
)
from kb.chunk import BACKENDS, Chunk, header
from kb.search import KnowledgeBase

FILES_PER_BATCH = 48
MAX_LISTED_SKIPS = 20


@dataclass
class SourceReport:
    """What indexing one source did; `status` is indexed, unchanged or skipped."""

    name: str
    status: str = "indexed"
    reason: str = ""
    previous_status: str = ""  # its state before the run: complete, pending, indexing or "" (new)
    version: str = ""
    compiler_version: str = ""
    files_seen: int = 0
    files_indexed: int = 0
    files_removed: int = 0
    chunks_written: int = 0
    chunks_deleted: int = 0
    fallback_files: int = 0
    skipped_files: int = 0
    skipped_examples: list[str] = field(default_factory=list)
    seconds: float = 0.0


@dataclass
class IndexReport:
    sources: list[SourceReport] = field(default_factory=list)
    total_chunks: int = 0
    seconds: float = 0.0

    def to_json(self) -> dict:
        return asdict(self)


class Progress:
    """tqdm bars on stderr unless quiet; the indexer calls only these three methods."""

    def __init__(self, quiet: bool = False):
        self.quiet = quiet

    def log(self, msg: str) -> None:
        if not self.quiet:
            print(msg, file=sys.stderr, flush=True)

    def bar(self, total: int, desc: str, unit: str = "it"):
        from tqdm import tqdm

        return tqdm(total=total, desc=desc, unit=unit, disable=self.quiet, file=sys.stderr,
                    dynamic_ncols=True, leave=False)

    def git(self, name: str):
        """A gitpython progress handler drawing clone/fetch stages as a bar."""
        import git

        outer = self

        class GitBar(git.RemoteProgress):
            bar = None

            def update(self, op_code, cur_count, max_count=None, message=""):
                if outer.quiet:
                    return
                if op_code & self.BEGIN or self.bar is None:
                    if self.bar is not None:
                        self.bar.close()
                    stage = self._cur_line.split(":")[0].strip() if self._cur_line else "git"
                    self.bar = outer.bar(int(max_count or 0), f"{name}: {stage}", "obj")
                self.bar.total = int(max_count or 0)
                self.bar.n = int(cur_count)
                self.bar.refresh()
                if op_code & self.END:
                    self.bar.close()
                    self.bar = None

        return GitBar()


def index_corpus(kb: KnowledgeBase, corpus: Corpus, *, mirrors: dict[str, str],
                 progress: Progress | None = None,
                 on_snapshot: Callable[[Snapshot, str], None] | None = None) -> IndexReport:
    """Bring every source of the corpus up to date in the store; skip (and say) what can't be had."""
    return index_sources(kb, corpus.sources, corpus_name=corpus.name, mirrors=mirrors,
                         progress=progress, on_snapshot=on_snapshot)


def index_sources(kb: KnowledgeBase, specs: Iterable[SourceSpec], *, corpus_name: str,
                  mirrors: dict[str, str], progress: Progress | None = None,
                  on_snapshot: Callable[[Snapshot, str], None] | None = None,
                  rebuild_lexical: bool = True) -> IndexReport:
    """Index the sources of one corpus (see `index_plan`)."""
    return index_plan(kb, [(corpus_name, s) for s in specs], mirrors=mirrors, progress=progress,
                      on_snapshot=on_snapshot, rebuild_lexical=rebuild_lexical)


def index_plan(kb: KnowledgeBase, plan: list[tuple[str, SourceSpec]], *,
               mirrors: dict[str, str], progress: Progress | None = None,
               on_snapshot: Callable[[Snapshot, str], None] | None = None,
               rebuild_lexical: bool = True, what: str = "index") -> IndexReport:
    """Index (corpus name, source) pairs under the writer lock.

    Every source never indexed before is first recorded as pending, so that a run killed
    early leaves `refresh` the whole plan, not only the sources it had reached.
    """
    progress = progress or Progress()
    t0 = time.perf_counter()
    report = IndexReport()
    with kb.write_lock(what):
        if kb.store.settle():
            progress.log("a write killed earlier had left the store's generation open; closed it")
        before: dict[str, str] = {}
        new: list[SourceState] = []
        for corpus_name, spec in plan:
            st = load_state(kb.store, spec.name)
            before[spec.name] = st.status if st else ""
            if st is None:
                new.append(SourceState(spec.name, asdict(spec), corpus_name, status=PENDING))
        save_states(kb.store, new)  # one write: a kill in it leaves the whole plan or none of it
        for corpus_name, spec in plan:
            rep = _index_source(kb, spec, corpus_name, mirrors, progress, on_snapshot)
            rep.previous_status = before[spec.name]
            if what == "index" and rep.status == "skipped" and not rep.previous_status:
                kb.store.delete_state(state_key(spec.name))  # never indexed: nothing to tell
            report.sources.append(rep)
    if rebuild_lexical and any(s.status == "indexed" for s in report.sources):
        kb.lexical(progress=not progress.quiet)  # rebuild the lexical cache once, at the end
    report.total_chunks = kb.store.count()
    report.seconds = round(time.perf_counter() - t0, 2)
    return report


def _index_source(kb: KnowledgeBase, spec: SourceSpec, corpus_name: str, mirrors: dict[str, str],
                  progress: Progress, on_snapshot) -> SourceReport:
    rep = SourceReport(spec.name)
    t0 = time.perf_counter()
    st = load_state(kb.store, spec.name) or SourceState(spec.name, status=PENDING)
    try:
        snap = snapshot(spec, kb.home, mirrors, progress.log, progress.git(spec.name))
    except SourceUnavailable as e:
        rep.status, rep.reason = "skipped", str(e)
        progress.log(f"skipped source {spec.name}: {e}")
        return rep
    rep.version = snap.version
    rep.compiler_version = compiler_version(snap)
    for path, why in snap.skipped.items():
        _skip(rep, path, why)
    wanted = {p: f for p, f in snap.files.items() if language_for(p) or spec.kind}
    rep.files_seen = len(wanted)
    done = dict(st.files)
    if st.compiler_version not in (None, rep.compiler_version):
        done = dict.fromkeys(done, "")  # a new version re-tags every chunk; removed files still go
    if st.format != source_format(spec):
        done = dict.fromkeys(done, "")  # the source's files now become different chunks: redo all
    todo = sorted(p for p, f in wanted.items() if done.get(p) != f.digest)
    gone = sorted(p for p in done if p not in wanted)
    if not todo and not gone and st.status == COMPLETE and st.version == snap.version:
        rep.status = "unchanged"
        rep.seconds = round(time.perf_counter() - t0, 2)
        progress.log(f"{spec.name}: up to date at {snap.version[:12]}")
        if on_snapshot:
            on_snapshot(snap, rep.compiler_version)
        return rep
    st.spec, st.corpus, st.repo_url = asdict(spec), corpus_name, snap.repo_url
    st.compiler_version, st.files = rep.compiler_version, done
    st.format = source_format(spec)
    st.start(snap.version, len(todo) + len(gone))
    save_state(kb.store, st)
    _write_source(kb, snap, st, todo, gone, rep, progress)
    st.finish(snap.version)
    save_state(kb.store, st)
    if on_snapshot:
        on_snapshot(snap, rep.compiler_version)
    rep.seconds = round(time.perf_counter() - t0, 2)
    progress.log(f"{spec.name}: {rep.files_indexed} files indexed, {rep.files_removed} removed, "
                 f"{rep.chunks_written} chunks written, {rep.chunks_deleted} deleted "
                 f"({rep.seconds:.1f}s)")
    return rep


def _write_source(kb: KnowledgeBase, snap: Snapshot, st: SourceState, todo: list[str],
                  gone: list[str], rep: SourceReport, progress: Progress) -> None:
    """New chunks first, then stale ones go; the state is saved after every batch."""
    bar = progress.bar(len(todo), f"{snap.source.name}: chunk+embed", "file")
    for lo in range(0, len(todo), FILES_PER_BATCH):
        batch = todo[lo : lo + FILES_PER_BATCH]
        _index_batch(kb, snap, batch, rep)
        for p in batch:
            st.files[p] = snap.files[p].digest
        st.files_left -= len(batch)
        save_state(kb.store, st)
        bar.update(len(batch))
    bar.close()
    for lo in range(0, len(gone), 200):
        batch = gone[lo : lo + 200]
        ids = kb.store.ids_where(_where_paths(snap.source.name, batch))
        kb.store.delete(ids)
        rep.chunks_deleted += len(ids)
        rep.files_removed += len(batch)
        for p in batch:
            st.files.pop(p, None)
        st.files_left -= len(batch)
        save_state(kb.store, st)


def _where_paths(source: str, paths: list[str]) -> dict:
    return {"$and": [{"source": source}, {"path": {"$in": paths}}]}


def _index_batch(kb: KnowledgeBase, snap: Snapshot, paths: list[str], rep: SourceReport) -> None:
    chunks: list[Chunk] = []
    for p in paths:
        chunks.extend(_chunks_of(snap, p, rep))
    if chunks:
        kb.check_model(write=True)
        vecs = kb.embedder.embed([c.text for c in chunks])
        kb.store.upsert(chunks, vecs)
    fresh = {c.id for c in chunks}
    stale = [i for i in kb.store.ids_where(_where_paths(snap.source.name, paths)) if i not in fresh]
    kb.store.delete(stale)
    rep.chunks_written += len(fresh)
    rep.chunks_deleted += len(stale)
    rep.files_indexed += len(paths)


def _skip(rep: SourceReport, path: str, why: str) -> list[Chunk]:
    rep.skipped_files += 1
    if len(rep.skipped_examples) < MAX_LISTED_SKIPS:
        rep.skipped_examples.append(f"{path}: {why}")
    return []


def _chunks_of(snap: Snapshot, path: str, rep: SourceReport) -> list[Chunk]:
    """The file's chunks with source metadata; unreadable, huge or binary files are skipped."""
    spec, entry = snap.source, snap.files[path]
    if entry.size > spec.max_file_bytes:
        return _skip(rep, path, f"larger than {spec.max_file_bytes} bytes")
    try:
        data = entry.read()
    except Exception as e:  # a corrupt object or a file gone since listing
        return _skip(rep, path, f"unreadable ({type(e).__name__})")
    if b"\0" in data[:8192]:
        return _skip(rep, path, "binary")
    text = data.decode("utf-8", errors="replace")
    if text.count("\ufffd") > max(8, len(text) // 100):
        return _skip(rep, path, "not UTF-8 text")
    if spec.kind:
        chunks = [_whole_file_chunk(path, text, spec.kind)]
    else:
        result = chunk_file(path, text)
        chunks = result.chunks
        rep.fallback_files += int(result.fallback)
    for c in chunks:
        c.source, c.repo_url, c.commit = spec.name, snap.repo_url, snap.version
        c.backend = c.backend if c.backend not in ("", "common") else spec.backend_of(path)
        c.compiler_version = rep.compiler_version
        c.permalink = snap.permalink(path, c.start_line, c.end_line)
    return chunks


def _whole_file_chunk(path: str, text: str, kind: str) -> Chunk:
    lines = text.count("\n") + 1
    return Chunk(text=f"{header(path, '', Path(path).stem)}\n{text}", path=path, start_line=1,
                 end_line=lines, kind=kind, symbol=Path(path).stem, language="toml",
                 backend=_card_backend(text) if kind == "pattern_card" else "common")


# How a source's files become chunks, per forced kind. Bump one when that chunking changes so
# that the next index or refresh re-chunks the source's files even though none of them changed.
# pattern_card 2: a card carries the backend its own `backend = ...` line names.
SOURCE_FORMATS = {"pattern_card": 2}


def source_format(spec: SourceSpec) -> int:
    return SOURCE_FORMATS.get(spec.kind, 1)


def _card_backend(text: str) -> str:
    """The backend a pattern card declares; backend-neutral ("common") when it names none."""
    try:
        backend = tomllib.loads(text).get("backend", "common")
    except tomllib.TOMLDecodeError:
        return "common"
    return backend if backend in BACKENDS else "common"


def remove_source(kb: KnowledgeBase, name: str) -> int:
    """Delete every chunk and the state of a source; returns the number of chunks deleted."""
    with kb.write_lock(f"remove {name}"):
        ids = kb.store.ids_where({"source": name})
        kb.store.delete(ids)
        kb.store.delete_state(state_key(name))
    return len(ids)


def indexed_sources(kb: KnowledgeBase, chunk_counts: bool = False) -> list[dict]:
    """The state of every source the store holds: the `sources --json` rows; with
    `chunk_counts`, how many chunks each holds (one store read each)."""
    rows = [st.row() for st in all_states(kb.store)]
    if chunk_counts:
        for row in rows:
            row["chunks"] = len(kb.store.ids_where({"source": row["name"]}))
    return rows


def refresh(kb: KnowledgeBase, *, mirrors: dict[str, str], progress: Progress | None = None,
            on_snapshot=None) -> IndexReport:
    """Bring every known source (complete, interrupted or never reached) to its newest version."""
    plan = [(st.corpus or "", SourceSpec(**st.spec)) for st in all_states(kb.store) if st.spec]
    return index_plan(kb, plan, mirrors=mirrors, progress=progress, on_snapshot=on_snapshot,
                      what="refresh")

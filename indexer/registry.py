"""Keep the pass registry beside the chunks: one record file per source, merged for lookups."""

from __future__ import annotations

from pathlib import Path

from indexer.passes import build_registry
from indexer.sources import Snapshot
from kb.passes import PassRegistry
from kb.search import KnowledgeBase

# Only these files can hold pass definitions, links, bindings or pipelines.
REGISTRY_SUFFIXES = (".td", ".cpp", ".cc", ".h", ".hpp", ".py")


def registry_dir(kb: KnowledgeBase) -> Path:
    return kb.home / "registry" / kb.store.name


def registry_path(kb: KnowledgeBase) -> Path:
    return kb.home / "registry" / f"{kb.store.name}.json"


def _files(snap: Snapshot):
    for path, entry in sorted(snap.files.items()):
        if path.endswith(REGISTRY_SUFFIXES) and entry.size <= snap.source.max_file_bytes:
            try:
                yield path, entry.read().decode("utf-8", errors="replace")
            except Exception:  # an unreadable blob has no passes worth losing the run over
                continue


def save_source_registry(kb: KnowledgeBase, snap: Snapshot) -> int:
    """Rebuild the records of one source and the merged registry; returns the source's count."""
    records = build_registry(_files(snap), source=snap.source.name, repo_url=snap.repo_url,
                             commit=snap.version, backend_of=snap.source.backend_of)
    d = registry_dir(kb)
    d.mkdir(parents=True, exist_ok=True)
    PassRegistry(list(records)).save(d / f"{snap.source.name}.json")
    merged = PassRegistry()
    for p in sorted(d.glob("*.json")):
        merged = merged.merge(PassRegistry.load(p))
    merged.save(registry_path(kb))
    return len(records)

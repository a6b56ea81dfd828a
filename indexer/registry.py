"""Keep the pass registry beside the chunks: one record file per source, merged for lookups."""

from __future__ import annotations

from pathlib import Path

from indexer.passes import build_installed_registry, build_pass_registry
from indexer.sources import Snapshot
from kb.errors import KBError
from kb.passes import PassRegistry
from kb.search import REGISTRY_STATE_KEY, KnowledgeBase

# Only these files can hold pass definitions, links, bindings or pipelines.
REGISTRY_SUFFIXES = (".td", ".cpp", ".cc", ".h", ".hpp", ".py")


def registry_dir(kb: KnowledgeBase) -> Path:
    return kb.home / "registry" / kb.store.name


def registry_path(kb: KnowledgeBase) -> Path:
    return kb.home / "registry" / f"{kb.store.name}.json"


def load_registry(kb: KnowledgeBase) -> PassRegistry:
    """The merged pass registry of the knowledge base (the home's file, else the store's copy),
    or one sentence on how to build it."""
    path = registry_path(kb)
    if path.exists():
        return PassRegistry.load(path)
    data = kb.store.get_state(REGISTRY_STATE_KEY)
    if not data:
        raise KBError("The pass registry is empty; build it with `passwise index`.")
    return PassRegistry.from_json(data, "in the store")


def _files(snap: Snapshot):
    for path, entry in sorted(snap.files.items()):
        if path.endswith(REGISTRY_SUFFIXES) and entry.size <= snap.source.max_file_bytes:
            try:
                yield path, entry.read().decode("utf-8", errors="replace")
            except Exception:  # an unreadable blob has no passes worth losing the run over
                continue


def _source_registries(d: Path, skip: str = "") -> PassRegistry:
    merged = PassRegistry()
    for p in sorted(d.glob("*.json")):
        if p.stem != skip:
            merged = merged.merge(PassRegistry.load(p))
    return merged


def save_source_registry(kb: KnowledgeBase, snap: Snapshot) -> int:
    """Rebuild the records of one source and the merged registry; returns the source's count.

    An installed Triton wheel ships compiler.py but no TableGen or C++: its pipelines are
    resolved against the records of the compiler sources already indexed, when there are any.
    """
    spec = snap.source
    d = registry_dir(kb)
    d.mkdir(parents=True, exist_ok=True)
    if spec.type == "package" and spec.package == "triton":
        known = _source_registries(d, skip=spec.name)
        reg = build_installed_registry(snap.root, known=known or None, source=spec.name)
    elif any(p.endswith(REGISTRY_SUFFIXES) for p in snap.files):
        reg = build_pass_registry(_files(snap), source=spec.name, repo_url=snap.repo_url,
                                  commit=snap.version, backend_of=spec.backend_of)
    else:
        return 0
    reg.save(d / f"{spec.name}.json")
    merged = _source_registries(d)
    merged.save(registry_path(kb))
    # Readers with homes of their own (a team on one server) take the registry from the store.
    kb.store.put_state(REGISTRY_STATE_KEY, merged.to_json())
    return len(reg)

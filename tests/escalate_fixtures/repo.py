"""The fixture compiler for tier 4 tests: a git repository built from tests/escalate_fixtures/,
indexed with the real embedder and with its pass registry saved beside the chunks."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import git

from indexer.index import Progress, index_corpus
from indexer.manifest import load_corpus_file
from indexer.registry import registry_path, save_source_registry
from kb.passes import PassRegistry
from kb.search import KnowledgeBase
from kb.store import Store

FIXTURES = Path(__file__).resolve().parent
URL = "https://example.invalid/org/escalate-compiler"
VERSION = "3.6.0"

# fixture file -> where it lives in the fixture compiler
LAYOUT = {
    "Passes.td": "include/triton/Dialect/TritonGPU/Transforms/Passes.td",
    "Coalesce.cpp": "lib/Dialect/TritonGPU/Transforms/Coalesce.cpp",
    "CoalesceAsyncCopy.cpp": "lib/Dialect/TritonGPU/Transforms/CoalesceAsyncCopy.cpp",
    "AxisInfo.cpp": "lib/Analysis/AxisInfo.cpp",
    "compiler.py": "third_party/nvidia/backend/compiler.py",
    "vectorization.md": "docs/vectorization.md",
    "AscendPasses.td": "third_party/ascend/include/Passes.td",
    "DiscreteMaskAccessConversionPass.cpp":
        "third_party/ascend/lib/DiscreteMaskAccessConversion/DiscreteMaskAccessConversionPass.cpp",
    "OffsetAnalysis.cpp": "third_party/ascend/lib/TritonToUnstructure/OffsetAnalysis.cpp",
    "UnstructureConversionPass.cpp":
        "third_party/ascend/lib/TritonToUnstructure/UnstructureConversionPass.cpp",
    "version.txt": "version.txt",
}

MANIFEST = f'''name = "escalate-fixture"
description = "fixture compiler for tier 4"

[[sources]]
name = "fixture"
type = "git"
url = "{URL}"
ref = "HEAD"
version_file = "version.txt"
backend = "common"
backend_rules = {{ "third_party/ascend/**" = "ascend", "third_party/nvidia/**" = "cuda", "lib/Dialect/TritonGPU/**" = "cuda", "include/triton/Dialect/TritonGPU/**" = "cuda" }}
'''


@dataclass
class IndexedCompiler:
    kb: KnowledgeBase
    registry: PassRegistry
    root: Path
    commit: str


def fixture_lines(name: str) -> list[str]:
    return (FIXTURES / name).read_text(encoding="utf-8").splitlines()


def line_of(name: str, needle: str) -> int:
    """1-based line of the first line of a fixture file containing `needle`."""
    return next(i for i, ln in enumerate(fixture_lines(name), 1) if needle in ln)


def make_repo(root: Path) -> str:
    root.mkdir(parents=True, exist_ok=True)
    repo = git.Repo.init(root)
    with repo.config_writer() as cw:
        cw.set_value("user", "name", "passwise-tests")
        cw.set_value("user", "email", "tests@passwise.invalid")
    for src, dest in LAYOUT.items():
        target = root / dest
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text((FIXTURES / src).read_text(encoding="utf-8"), encoding="utf-8")
    repo.git.add(A=True)
    repo.index.commit("fixture compiler")
    return repo.head.commit.hexsha


def index_fixture(tmp: Path, embedder) -> IndexedCompiler:
    root = tmp / "upstream"
    sha = make_repo(root)
    manifest = tmp / "escalate.toml"
    manifest.write_text(MANIFEST, encoding="utf-8")
    home = tmp / "home"
    kb = KnowledgeBase(Store.open(home, model_slug=embedder.slug), embedder, home)
    index_corpus(kb, load_corpus_file(manifest), mirrors={URL: str(root)},
                 progress=Progress(quiet=True),
                 on_snapshot=lambda snap, version: save_source_registry(kb, snap))
    return IndexedCompiler(kb, PassRegistry.load(registry_path(kb)), root, sha)

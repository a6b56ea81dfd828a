"""Corpus manifests (`corpora/*.toml`): which sources to index, from where, with which tags."""

from __future__ import annotations

import fnmatch
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from kb.errors import KBError

SOURCE_TYPES = ("git", "dir", "package")
# Never worth indexing: build outputs, vendored generated code, translations, binaries.
DEFAULT_EXCLUDE = [
    "**/build/**", "**/.git/**", "**/__pycache__/**", "**/*.inc", "**/*.gen.*",
    "**/locale/**", "**/locales/**", "**/*.po", "**/*.mo", "**/node_modules/**",
    "**/*.so", "**/*.a", "**/*.o", "**/*.pyc", "**/*.png", "**/*.jpg", "**/*.gif",
    "**/*.svg", "**/*.pdf", "**/*.whl", "**/*.tar.gz", "**/*.zip",
]


@dataclass
class SourceSpec:
    """One source of a corpus: a git repository, a local directory or an installed package."""

    name: str
    type: str
    url: str = ""
    ref: str = "HEAD"
    path: str = ""
    package: str = ""
    include: list[str] = field(default_factory=lambda: ["**"])
    exclude: list[str] = field(default_factory=list)
    backend: str = "common"
    backend_rules: dict[str, str] = field(default_factory=dict)
    kind: str = ""  # force one chunk kind for the whole source (e.g. pattern_card)
    version_file: str = ""
    compiler_version: str = ""
    max_file_bytes: int = 1_000_000

    def wants(self, path: str) -> bool:
        """Whether a repo-relative path passes the include/exclude globs."""
        p = path.replace("\\", "/")
        if not any(_match(p, g) for g in self.include):
            return False
        return not any(_match(p, g) for g in [*DEFAULT_EXCLUDE, *self.exclude])

    def backend_of(self, path: str) -> str:
        for glob, backend in self.backend_rules.items():
            if _match(path, glob):
                return backend
        return self.backend


def _match(path: str, glob: str) -> bool:
    # fnmatch's * already crosses '/'; '**/x' must also match 'x' at the top level.
    return fnmatch.fnmatchcase(path, glob) or (
        glob.startswith("**/") and fnmatch.fnmatchcase(path, glob[3:])
    )


@dataclass
class Corpus:
    name: str
    description: str
    sources: list[SourceSpec]
    path: Path
    offline: bool = False  # true when every source can be had with no network


def load_corpus_file(path: Path) -> Corpus:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as e:
        raise KBError(f"Cannot read the corpus manifest {path}: {e}; fix the TOML and retry.") from e
    sources = []
    for raw in data.get("sources", []):
        raw = dict(raw)
        if raw.get("type") not in SOURCE_TYPES:
            raise KBError(f"Source {raw.get('name')!r} in {path} has type {raw.get('type')!r}; "
                          f"use one of {', '.join(SOURCE_TYPES)}.")
        if raw["type"] == "dir" and raw.get("path") and not Path(raw["path"]).is_absolute():
            raw["path"] = str((path.parent / raw["path"]).resolve())
        unknown = set(raw) - set(SourceSpec.__dataclass_fields__)
        if unknown:
            raise KBError(f"Source {raw.get('name')!r} in {path} has unknown keys "
                          f"{sorted(unknown)}; remove them.")
        sources.append(SourceSpec(**raw))
    return Corpus(data.get("name", path.stem), data.get("description", ""), sources, path,
                  bool(data.get("offline", False)))


def corpora_dir() -> Path:
    """The manifests shipped with passwise (the repository's corpora/ folder)."""
    return Path(__file__).resolve().parent.parent / "corpora"


def list_corpora(directory: Path | None = None) -> list[Corpus]:
    d = directory or corpora_dir()
    return [load_corpus_file(p) for p in sorted(d.glob("*.toml"))]


def load_corpus(name: str, directory: Path | None = None) -> Corpus:
    """A corpus by name (a manifest in corpora/) or by path to a manifest file."""
    p = Path(name)
    if p.suffix == ".toml" and p.exists():
        return load_corpus_file(p)
    known = {c.name: c for c in list_corpora(directory)}
    if name not in known:
        raise KBError(f"Unknown corpus {name!r}; known corpora: {', '.join(sorted(known)) or 'none'}.")
    return known[name]

"""The unit of the knowledge base: a piece of compiler source or documentation."""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, field

# Kinds a chunk can have; chunkers pick one, search filters on it.
KINDS = (
    "function", "method", "class", "module", "pass_def", "record", "pipeline",
    "doc_section", "lit_test", "pattern_card", "text",
)
BACKENDS = ("cuda", "ascend", "amd", "common")


@dataclass
class Chunk:
    """One retrievable passage. `text` starts with a one-line header (path, scope, symbol)."""

    text: str
    path: str
    start_line: int
    end_line: int
    kind: str = "text"
    symbol: str = ""
    scope: str = ""
    language: str = ""
    source: str = ""
    repo_url: str = ""
    commit: str = ""
    backend: str = "common"
    passes: list[str] = field(default_factory=list)
    compiler_version: str = ""
    permalink: str = ""
    extra: dict = field(default_factory=dict)

    @property
    def id(self) -> str:
        """Stable, content-derived id: re-indexing the same content yields the same id."""
        h = hashlib.sha1()
        for part in (self.source, self.path, self.symbol, self.text):
            h.update(part.encode("utf-8", "replace"))
            h.update(b"\0")
        return h.hexdigest()[:24]

    def metadata(self) -> dict:
        """Flat metadata for Chroma (scalars only; lists are joined)."""
        m = {
            "path": self.path, "start_line": self.start_line, "end_line": self.end_line,
            "kind": self.kind, "symbol": self.symbol, "scope": self.scope,
            "language": self.language, "source": self.source, "repo_url": self.repo_url,
            "commit": self.commit, "backend": self.backend,
            "passes": "|" + "|".join(self.passes) + "|" if self.passes else "",
            "compiler_version": self.compiler_version, "permalink": self.permalink,
        }
        if self.extra:
            m["extra"] = json.dumps(self.extra, sort_keys=True)
        return m

    @classmethod
    def from_metadata(cls, text: str, m: dict) -> Chunk:
        passes = [p for p in (m.get("passes") or "").split("|") if p]
        extra = json.loads(m["extra"]) if m.get("extra") else {}
        return cls(
            text=text, path=m.get("path", ""), start_line=int(m.get("start_line", 0)),
            end_line=int(m.get("end_line", 0)), kind=m.get("kind", "text"),
            symbol=m.get("symbol", ""), scope=m.get("scope", ""),
            language=m.get("language", ""), source=m.get("source", ""),
            repo_url=m.get("repo_url", ""), commit=m.get("commit", ""),
            backend=m.get("backend", "common"), passes=passes,
            compiler_version=m.get("compiler_version", ""),
            permalink=m.get("permalink", ""), extra=extra,
        )

    def to_json(self) -> dict:
        d = asdict(self)
        d["id"] = self.id
        return d


def header(path: str, scope: str, symbol: str) -> str:
    """The one-line header every chunk text starts with."""
    parts = [path]
    if scope:
        parts.append(scope)
    if symbol:
        parts.append(symbol)
    return "// " + " :: ".join(parts)

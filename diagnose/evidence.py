"""Evidence shared by every tier of the diagnosis ladder: one `Finding` per hypothesis or fact,
one `TierResult` per tier climbed. Plain dataclasses that round-trip through JSON."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass
class Finding:
    """One piece of evidence a tier produced.

    `kind` says what sort of evidence it is ("pattern" for a tier-1 detector match, "roofline",
    "metric", "stage-diff", "pass-source", ...). `location` is a small JSON object such as
    {"path": ..., "function": ..., "line": ...} or None. `evidence` holds the tier's raw facts
    (snippet, numbers, IR lines); `evidence_needed` lists what a higher tier must confirm before
    the finding can be trusted. `passes` are compiler pass arguments ("tritongpu-coalesce").
    """

    tier: int
    kind: str
    card_id: str
    rewrite_family: str
    message: str
    confidence: float
    location: dict[str, Any] | None = None
    evidence: dict[str, Any] = field(default_factory=dict)
    evidence_needed: list[str] = field(default_factory=list)
    passes: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Finding:
        return cls(**data)


@dataclass
class TierResult:
    """What one tier concluded: its findings and whether they are enough to stop climbing."""

    tier: int
    name: str
    findings: list[Finding] = field(default_factory=list)
    sufficient: bool = False
    reason: str = ""
    skipped: bool = False
    skip_reason: str = ""
    elapsed_s: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TierResult:
        fields = dict(data)
        fields["findings"] = [Finding.from_dict(f) for f in data.get("findings", [])]
        return cls(**fields)

    def to_json(self, indent: int | None = 2) -> str:
        return json.dumps(self.to_dict(), indent=indent, sort_keys=False)

    @classmethod
    def from_json(cls, text: str) -> TierResult:
        return cls.from_dict(json.loads(text))

    def families(self) -> list[str]:
        """Rewrite families of the findings, most confident first, without repeats."""
        ranked = sorted(self.findings, key=lambda f: f.confidence, reverse=True)
        return list(dict.fromkeys(f.rewrite_family for f in ranked if f.rewrite_family))

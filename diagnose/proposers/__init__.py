"""Proposers: from a diagnosis to candidate kernels. `rules` transforms the source offline (one
small function per rewrite family); `llm` asks an OpenAI-compatible model for a whole file."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass
class Candidate:
    """One proposed kernel file and what distinguishes it (for a measured search: its params)."""

    source: str
    description: str
    params: dict[str, Any] = field(default_factory=dict)


@dataclass
class Request:
    """What a proposer is given: the task, the parent kernel and the ladder's evidence."""

    task_name: str
    task_source: str
    kernel_source: str
    diagnosis: dict[str, Any]
    passages: list[dict[str, Any]]
    family: str | None
    tried: list[str] = field(default_factory=list)  # transformations already tried on this parent


@dataclass
class Proposal:
    """proposal.json (docs/runs.md), less the candidate files the loop writes beside it."""

    proposer: str
    family: str | None
    card_id: str = ""
    hypothesis: str = ""
    evidence: list[dict[str, Any]] = field(default_factory=list)
    transformation: str | None = None
    candidates: list[Candidate] = field(default_factory=list)
    reason: str = ""
    fallback: str = ""  # rules: why the concluded family was passed over for a ranked one
    attempts: list[dict[str, Any]] = field(default_factory=list)
    tokens: dict[str, int] = field(default_factory=lambda: {"prompt": 0, "completion": 0, "total": 0})

    def to_json(self, files: list[str]) -> dict[str, Any]:
        data = asdict(self)
        data["candidates"] = [{"id": f"{i:02d}", "file": f, "description": c.description,
                               "params": c.params}
                              for i, (c, f) in enumerate(zip(self.candidates, files, strict=True))]
        return data


def evidence_of(diagnosis: dict[str, Any]) -> list[dict[str, Any]]:
    """The findings the conclusion rests on (or the top of each tier when inconclusive)."""
    tiers = {t["tier"]: t for t in diagnosis.get("tiers", [])}
    conclusion = diagnosis.get("conclusion") or {}
    refs = conclusion.get("supporting") or []
    out = []
    for ref in refs:
        tier = tiers.get(ref["tier"])
        if tier and ref["index"] < len(tier["findings"]):
            f = tier["findings"][ref["index"]]
            out.append({"tier": f["tier"], "kind": f["kind"], "card_id": f.get("card_id", ""),
                        "message": f.get("message", "")})
    return out


def hypothesis_of(diagnosis: dict[str, Any]) -> str:
    conclusion = diagnosis.get("conclusion") or {}
    return conclusion.get("explanation") or diagnosis.get("reason", "")

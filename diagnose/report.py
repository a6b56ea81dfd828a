"""The diagnosis a ladder climb produces: dataclasses with a documented JSON form
(docs/diagnosis.md) and the terminal report a person reads."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import Any

from diagnose.evidence import Finding, TierResult
from diagnose.weigh import POOR_RECORD

SCHEMA_VERSION = 1
VERDICTS = ("concluded", "inconclusive")


@dataclass
class FindingRef:
    """A pointer into `Diagnosis.tiers`: finding `index` of the tier numbered `tier`."""

    tier: int
    index: int
    kind: str
    card_id: str


@dataclass
class Hotspot:
    """Where the change goes: the kernel function and source line, and the responsible pass."""

    kernel: str
    path: str
    line: int | None
    pass_arg: str = ""


@dataclass
class Citation:
    """A compiler passage tier 4 relied on."""

    path: str
    start_line: int
    end_line: int
    permalink: str = ""
    repo: str = ""
    symbol: str = ""


@dataclass
class Escalation:
    """One tier-4 question to the knowledge base and what its passages concluded.

    `filters` lists the searches run (query, metadata filters, provenance); `verdict` is
    tier 4's own: answered | no-condition | no-passage.
    """

    symptom: str
    pass_arg: str
    question: str
    filters: list[dict[str, Any]] = field(default_factory=list)
    passages: list[Citation] = field(default_factory=list)
    verdict: str = ""
    rewrite_family: str = ""
    conclusion: str = ""


@dataclass
class Conclusion:
    """The one rewrite family the ladder settled on, where, and why it should help."""

    rewrite_family: str
    hotspot: Hotspot
    explanation: str
    card_id: str = ""
    supporting: list[FindingRef] = field(default_factory=list)
    passes: list[str] = field(default_factory=list)
    citations: list[Citation] = field(default_factory=list)


@dataclass
class Diagnosis:
    """Everything one climb of the ladder found, and whether it concluded."""

    target: str
    target_kind: str
    backend: str
    kernel_path: str
    tiers: list[TierResult]
    verdict: str
    reason: str
    concluded_tier: int | None = None
    conclusion: Conclusion | None = None
    tried: list[str] = field(default_factory=list)
    escalations: list[Escalation] = field(default_factory=list)
    timings: dict[str, float] = field(default_factory=dict)
    versions: dict[str, str] = field(default_factory=dict)
    created: str = ""
    schema_version: int = SCHEMA_VERSION
    # Rewrite families ranked by the evidence of all tiers (diagnose.weigh): {rewrite_family,
    # score, card_id, by_tier}; an inconclusive diagnosis's best guesses come first.
    ranking: list[dict[str, Any]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["tiers"] = [t.to_dict() for t in self.tiers]
        return data

    def to_json(self, indent: int | None = 2) -> str:
        return json.dumps(self.to_dict(), indent=indent, default=str)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Diagnosis:
        fields = dict(data)
        fields["tiers"] = [TierResult.from_dict(t) for t in data["tiers"]]
        fields["escalations"] = [_escalation(e) for e in data.get("escalations", [])]
        if data.get("conclusion"):
            fields["conclusion"] = _conclusion(data["conclusion"])
        return cls(**fields)

    def tier(self, number: int) -> TierResult | None:
        return next((t for t in self.tiers if t.tier == number), None)

    def finding(self, ref: FindingRef) -> Finding:
        return self.tier(ref.tier).findings[ref.index]


def _escalation(data: dict[str, Any]) -> Escalation:
    fields = dict(data)
    fields["passages"] = [Citation(**p) for p in data.get("passages", [])]
    return Escalation(**fields)


def _conclusion(data: dict[str, Any]) -> Conclusion:
    fields = dict(data)
    fields["hotspot"] = Hotspot(**data["hotspot"])
    fields["supporting"] = [FindingRef(**r) for r in data.get("supporting", [])]
    fields["citations"] = [Citation(**c) for c in data.get("citations", [])]
    return Conclusion(**fields)


# ---------------------------------------------------------------- the terminal report

def render_text(diagnosis: Diagnosis, card_hint: tuple[str, str] | None = None) -> str:
    """A readable report; `card_hint` is the (before, after) of the concluding pattern card."""
    d = diagnosis
    lines = [f"passwise diagnosis: {d.target} ({d.target_kind}, {d.backend})",
             f"  kernel: {d.kernel_path}", "", "Ladder:"]
    for tier in d.tiers:
        lines += _tier_lines(tier, d.concluded_tier)
    lines.append("")
    if d.conclusion is not None:
        lines += _conclusion_lines(d, card_hint)
    else:
        lines += [f"Verdict: inconclusive. {d.reason}", "Tried:"]
        lines += [f"  - {t}" for t in d.tried]
        if d.ranking:
            lines.append("Best guesses (evidence of all tiers combined):")
            lines += [f"  {c['score']:.2f}  {c['rewrite_family']}"
                      + (f" (card {c['card_id']})" if c.get("card_id") else "")
                      + f"  tiers {', '.join(c['by_tier'])}" + _record_note(c.get("track_record"))
                      for c in d.ranking[:4]]
    for esc in d.escalations:
        lines += _escalation_lines(esc)
    return "\n".join(lines).rstrip() + "\n"


def _mark(tier: TierResult, concluded: int | None) -> str:
    if tier.skipped:
        return "skipped"
    return "✓" if tier.tier == concluded else "✗"


def _tier_lines(tier: TierResult, concluded: int | None) -> list[str]:
    why = tier.skip_reason if tier.skipped else tier.reason
    out = [f"  {_mark(tier, concluded):7} tier {tier.tier} {tier.name} "
           f"({tier.elapsed_s:.1f}s): {why}"]
    for f in tier.findings[:6]:
        where = _where(f)
        family = f" -> {f.rewrite_family}" if f.rewrite_family else ""
        label = f.card_id or f.evidence.get("symptom") or f.kind
        out.append(f"            · {label}{family} [{f.confidence:.2f}]{where}: "
                   f"{_short(f.message)}")
    if len(tier.findings) > 6:
        out.append(f"            · ... {len(tier.findings) - 6} more in the JSON")
    return out


def _where(f: Finding) -> str:
    loc = f.location or {}
    name = loc.get("function") or loc.get("path") or "?"
    if loc.get("line"):
        return f" at {name}:{loc['line']}"
    return f" in {name}" if name != "?" else ""


def _short(text: str, limit: int = 160) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _conclusion_lines(d: Diagnosis, card_hint: tuple[str, str] | None) -> list[str]:
    c = d.conclusion
    spot = c.hotspot
    where = f"{spot.path}:{spot.line}" if spot.line else spot.path
    lines = [f"Verdict: concluded at tier {d.concluded_tier}. {d.reason}",
             f"  hotspot: {spot.kernel} ({where})"
             + (f", pass {spot.pass_arg}" if spot.pass_arg else ""),
             f"  rewrite family: {c.rewrite_family}" + (f" (card {c.card_id})" if c.card_id else ""),
             f"  why: {c.explanation}"]
    lines += _record_lines(d)
    if card_hint:
        before, after = card_hint
        lines += ["  before:", *_indent(before), "  after:", *_indent(after)]
    for cite in c.citations:
        lines.append(f"  cites {cite.path}:{cite.start_line}-{cite.end_line}"
                     + (f" {cite.permalink}" if cite.permalink else ""))
    return lines


def _record_note(record: dict | None) -> str:
    if not record:
        return ""
    return f"  (first answer right {record['right']}/{record['answered']} on unseen kernels)"


@dataclass
class Trust:
    """The concluded family's track record (weigh.track_record) and, when it is poor (below
    POOR_RECORD), the runner-up to try if the rewrite does not pay."""

    family: str
    right: int
    answered: int
    poor: bool
    runner_up: str = ""


def trust(d: Diagnosis) -> Trust | None:
    """The concluded family's record from the ranking, or None (inconclusive, or never a first answer)."""
    lead = d.ranking[0] if d.ranking and d.ranking[0].get("concluded") else None
    record = (lead or {}).get("track_record")
    if not record:
        return None
    poor = record["reliability"] < POOR_RECORD
    runner_up = d.ranking[1]["rewrite_family"] if poor and len(d.ranking) > 1 else ""
    return Trust(lead["rewrite_family"], record["right"], record["answered"], poor, runner_up)


def _record_lines(d: Diagnosis) -> list[str]:
    """A warning beside a concluded family whose first answers were mostly wrong on unseen kernels."""
    t = trust(d)
    if t is None or not t.poor:
        return []
    return [f"  trust: {t.family} was the right first answer on {t.right} of {t.answered} unseen "
            "development kernels" + (f"; if its rewrite does not pay, try {t.runner_up} next" if t.runner_up else "")]


def _indent(code: str) -> list[str]:
    return [f"    {ln}" for ln in code.strip("\n").splitlines()]


def _escalation_lines(esc: Escalation) -> list[str]:
    lines = ["", f"Asked the compiler source ({esc.verdict or 'no answer'}): {esc.question}"]
    lines += [f"  {p.path}:{p.start_line}-{p.end_line}" + (f" ({p.symbol})" if p.symbol else "")
              for p in esc.passages]
    if esc.conclusion:
        lines.append(f"  -> {esc.conclusion}")
    return lines

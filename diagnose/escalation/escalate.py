"""Tier 4, compiler-source escalation: when the IR shows THAT a pass did something unprofitable,
ask the compiler's own source WHY, and name the source rewrite that satisfies the condition.

    symptom -> pass (registry) -> narrow question -> passages (hybrid search, ranked by the
    deciding branch) -> rewrite family (pattern cards) -> chain with evidence [-> LLM summary]

The parts live in diagnose/escalation/; docs/escalation.md describes the API and the JSON.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from typing import Any

from diagnose.escalation.facts import KernelFacts, kernel_facts
from diagnose.escalation.freshness import IndexCheck, check_index, installed_version
from diagnose.escalation.handlers import follow_handlers
from diagnose.escalation.llm import LLMConfig, LLMSummary, summarise
from diagnose.escalation.question import (
    SEARCH_WEIGHTS,
    EscalationError,
    Question,
    build_question,
)
from diagnose.escalation.ranking import Candidate, Passage, rank
from diagnose.escalation.rewrite import (
    ChainLink,
    Rewrite,
    build_chain,
    choose_rewrite,
    deciding_passage,
)
from diagnose.evidence import Finding, TierResult
from kb.chunk import BACKENDS
from kb.passes import PassRecord, PassRegistry
from kb.search import Filters, KnowledgeBase

TIER, TIER_NAME = 4, "compiler-source escalation"
VERDICTS = ("answered", "no-condition", "no-passage")
MIN_DEPTH = 12  # hits per search before ranking; the deciding chunk is rarely the top hit
CONFIDENCE = {("answered", "condition"): 0.85, ("answered", "table"): 0.7,
              ("no-condition", "table"): 0.4, ("no-condition", "none"): 0.3}

__all__ = ["Escalation", "EscalationError", "KernelFacts", "LLMConfig", "escalate", "kernel_facts", "escalation_to_tier_result",
           "render_text"]


@dataclass
class Escalation:
    """What tier 4 found for one symptom; `to_json` is the documented JSON form."""

    symptom: str
    backend: str
    question: str
    symptom_row: str
    matched_by: str
    pass_arg: str
    pass_record: dict
    searches: list[dict]
    passages: list[Passage]
    rewrite: Rewrite
    chain: list[ChainLink]
    index: IndexCheck
    verdict: str
    reason: str
    llm: LLMSummary | None = None
    elapsed_s: float = 0.0
    notes: list[str] = field(default_factory=list)

    def to_json(self) -> dict:
        return {
            "symptom": self.symptom, "backend": self.backend, "question": self.question,
            "symptom_row": self.symptom_row, "matched_by": self.matched_by,
            "pass": self.pass_arg, "pass_record": self.pass_record, "filters": self.searches,
            "passages": [p.to_json() for p in self.passages], "rewrite": self.rewrite.to_json(),
            "chain": [c.to_json() for c in self.chain], "index": self.index.to_json(),
            "verdict": self.verdict, "reason": self.reason,
            "llm": self.llm.to_json() if self.llm else None, "notes": self.notes,
            "elapsed_s": self.elapsed_s,
        }


def record_summary(r: PassRecord | None) -> dict:
    """The registry facts an escalation cites (not the whole record)."""
    if r is None:
        return {}
    return {
        "argument": r.argument, "def_name": r.def_name, "summary": r.summary,
        "backend": r.backend, "source": r.source, "td_path": r.td_path, "td_lines": r.td_lines,
        "classes": r.classes, "link_quality": r.link_quality,
        "impl_anchors": [f"{a.path}:{a.start_line}-{a.end_line} {a.symbol}"
                         for a in r.impl_anchors],
        "pipeline": [f"{p.backend}/{p.stage} #{p.index}" + (f" if {p.condition}" if p.condition else "")
                     for p in r.pipeline_positions],
    }


def _check_request(kb: KnowledgeBase, registry: PassRegistry, backend: str, k: int) -> None:
    if backend not in BACKENDS:
        raise EscalationError(f"Unknown backend {backend!r}; use one of {', '.join(BACKENDS)}.")
    if k < 1:
        raise EscalationError(f"k must be at least 1 (got {k}); ask for one or more passages.")
    if kb.store.count() == 0:
        raise EscalationError("The knowledge base is empty; build it first with `passwise index`.")
    if len(registry) == 0:
        raise EscalationError("The pass registry is empty; build it with `passwise index`.")


def gather(kb: KnowledgeBase, q: Question, depth: int) -> list[Candidate]:
    """Run every planned search and pool the hits by chunk id."""
    pool: dict[str, Candidate] = {}
    for spec in q.searches:
        for hit in kb.search(spec.query, k=depth, filters=spec.filters):
            cand = pool.setdefault(hit.id, Candidate(hit.id, hit.chunk))
            cand.add(spec.name, spec.provenance, spec.weight, hit.score)
    return list(pool.values())


_CALL = re.compile(r"(?<![\w.>:])([A-Za-z_]\w{4,})\s*\(")
_NOT_CALLEES = frozenset({"failed", "succeeded", "static_cast", "dyn_cast", "isa", "cast",
                          "llvm", "assert", "return", "sizeof", "while", "switch"})
MAX_CALLEES = 3


def callees(passages: list[Passage]) -> list[str]:
    """Free functions the best deciding lines call (`supportMMA(op, 3)`, `isDiscreteMask(...)`):
    the branch is decided inside them, so their definitions are searched too."""
    names: list[str] = []
    for p in [p for p in passages if p.deciding and p.deciding.term][:MAX_CALLEES]:
        for name in _CALL.findall(p.deciding.text):  # type: ignore[union-attr]
            if name not in _NOT_CALLEES and name not in names and name != p.symbol.split("::")[-1]:
                names.append(name)
    return names[:MAX_CALLEES]


def follow_callees(kb: KnowledgeBase, q: Question, pool: list[Candidate], passages: list[Passage],
                   depth: int) -> list[Candidate]:
    """Add the definitions of the functions the deciding lines call (provenance analysis)."""
    by_id = {c.id: c for c in pool}
    for name in callees(passages):
        query = f"{name} {' '.join(q.route.focus[:8])}"
        for hit in kb.search(query, k=depth, filters=Filters(backend=q.searches[0].filters.backend)):
            if hit.chunk.symbol.split("::")[-1] != name or hit.chunk.kind not in ("function", "method"):
                continue
            cand = by_id.setdefault(hit.id, Candidate(hit.id, hit.chunk))
            cand.add(f"callee:{name}", "analysis", SEARCH_WEIGHTS["analysis"], hit.score)
    return list(by_id.values())


def _names_pass(p: Passage, q: Question) -> bool:
    r = q.record
    names = [r.argument, r.def_name, *r.classes] if r else q.route.passes
    # Whole names only: TritonGPUCoalesceAsyncCopy does not name TritonGPUCoalesce.
    return any(n and re.search(rf"(?<![\w-]){re.escape(n)}(?![\w-])", p.text) for n in names)


def relevant(passages: list[Passage], q: Question) -> list[Passage]:
    """Hits of the unfiltered search count only when they name the pass: a passage that merely
    shares words with the question is no answer (this is what makes 'no-passage' honest)."""
    return [p for p in passages if p.provenance != "open" or _names_pass(p, q)]


def _verdict(passages: list[Passage], q: Question, backend: str) -> tuple[str, str]:
    what = q.pass_arg or ", ".join(q.route.passes) or q.route.id
    if not passages:
        return "no-passage", (
            f"No indexed {backend} passage defines, implements or analyses {what}; index the "
            "compiler source that holds it (`passwise index --corpus ...`) and ask again.")
    if deciding_passage(passages) is None:
        return "no-condition", (
            f"{len(passages)} passages about {what} were found but none branches on the "
            f"symptom's terms ({', '.join(q.route.focus[:5])}); read them, or name a more "
            "specific pass with --pass.")
    d = deciding_passage(passages)
    return "answered", f"{d.path}:{d.deciding.line} holds the deciding branch."  # type: ignore[union-attr]


def escalate(kb: KnowledgeBase, registry: PassRegistry, *, symptom: str,
             pass_name: str | None = None, backend: str, k: int = 5,
             llm: LLMConfig | None = None,
             kernel_compiler_version: str | None = None,
             kernel_facts: KernelFacts | None = None) -> Escalation:
    """Answer WHY a pass produced a symptom from the compiler's indexed source.

    `kernel_facts` (optional; `diagnose.escalation.facts.kernel_facts(kir)` builds them from a
    tier-3 capture: num_warps, dot rank and shape, unaligned integer arguments ...) lets the
    rewrite follow the clause of the deciding branch that this kernel fails.

    Raises EscalationError (a KBError; one sentence with the fix) for an empty index or
    registry, an unknown pass name, an unknown backend, or a symptom that names nothing.
    """
    t0 = time.perf_counter()
    _check_request(kb, registry, backend, k)
    q = build_question(registry, symptom=symptom, pass_name=pass_name, backend=backend,
                       facts=kernel_facts)
    depth = max(MIN_DEPTH, 3 * k)
    pool = gather(kb, q, depth)
    if q.kernel:  # the analysis' handler of the kernel's construct decides for this kernel
        pool = follow_handlers(kb, q.kernel, pool, backend, depth, SEARCH_WEIGHTS["handler"])
    ranked = rank(pool, q.focus, q.marks)
    ranked = rank(follow_callees(kb, q, pool, relevant(ranked, q), depth), q.focus, q.marks)
    passages = relevant(ranked, q)[:k]
    verdict, reason = _verdict(passages, q, backend)
    top = deciding_passage(passages)
    rewrite = (choose_rewrite(q.route, passages, backend, q.pass_arg, facts=kernel_facts,
                              kernel=q.kernel) if passages else Rewrite("", basis="none"))
    version = kernel_compiler_version if kernel_compiler_version is not None else installed_version(backend)
    index = check_index(passages, version, q.record.source if q.record else "")
    esc = Escalation(
        symptom=symptom, backend=backend, question=q.text, symptom_row=q.route.id,
        matched_by=q.route_source, pass_arg=q.pass_arg, pass_record=record_summary(q.record),
        searches=[s.to_json() for s in q.searches], passages=passages, rewrite=rewrite,
        chain=build_chain(symptom, q.route, q.route_source, q.record, top, rewrite),
        index=index, verdict=verdict, reason=reason)
    if q.record is None:
        esc.notes.append(f"The pass registry has no record for {', '.join(q.route.passes) or 'this symptom'}; "
                         "only analysis and open searches ran.")
    if index.status == "stale":
        esc.notes.append(index.message)
    if llm is not None:
        esc.llm = (summarise(kb, llm, q.text, passages) if passages else
                   LLMSummary(model=llm.model, error="There are no passages to summarise."))
        if esc.llm.dropped:
            esc.notes.append(f"{len(esc.llm.dropped)} citation(s) in the LLM summary were not in "
                             "the retrieved passages and were removed.")
    esc.elapsed_s = round(time.perf_counter() - t0, 3)
    return esc


def _decided(esc: Escalation) -> tuple[Any, Any]:
    """(passage, deciding line) to quote: the clause the rewrite was chosen on (the check the
    kernel fails, `rewrite.where`), else the best deciding passage's own line."""
    path, _, number = (esc.rewrite.where or "").rpartition(":")
    for p in esc.passages:
        if path and p.path == path:
            lines = list(getattr(p, "focused", None) or []) + ([p.deciding] if p.deciding else [])
            chosen = next((d for d in lines if str(d.line) == number), None)
            if chosen is not None:
                return p, chosen
    top = deciding_passage(esc.passages) or esc.passages[0]
    return top, top.deciding


def escalation_to_tier_result(esc: Escalation) -> TierResult:
    """Tier 4's TierResult for the ladder: one `pass-source` finding when a passage was found."""
    # an answer whose family no pattern card of this backend carries has no rewrite to show:
    # evidence, not a conclusion
    result = TierResult(tier=TIER, name=TIER_NAME, elapsed_s=esc.elapsed_s, reason=esc.reason,
                        sufficient=esc.verdict == "answered" and bool(esc.rewrite.family)
                        and bool(esc.rewrite.card_id))
    if esc.verdict == "no-passage":
        return result
    top, decided = _decided(esc)
    line = decided.line if decided else top.start_line
    condition = decided.text if decided else ""
    needed = ["verify the rewrite: correctness against the reference, then timing"]
    if esc.index.status == "stale":
        needed.append(esc.index.message)
    result.findings.append(Finding(
        tier=TIER, kind="pass-source", card_id=esc.rewrite.card_id,
        rewrite_family=esc.rewrite.family,
        message=" -> ".join(c.claim for c in esc.chain),
        confidence=CONFIDENCE.get((esc.verdict, esc.rewrite.basis), 0.3),
        location={"path": top.path, "line": line, "repo": top.repo, "permalink": top.permalink},
        evidence={"question": esc.question, "condition": condition,
                  "passages": [f"{p.repo}:{p.cite}" for p in esc.passages],
                  "index": esc.index.status,
                  "llm_summary": esc.llm.text if esc.llm else "",
                  # the clause of the deciding branch this kernel's facts fail, when known
                  "kernel_check": esc.rewrite.kernel_check,
                  # the branch decided, for a rewrite only another backend has: an answer about
                  # the symptom's cause, with no family to conclude on
                  "elsewhere": esc.rewrite.elsewhere,
                  # no passage decided: the family is the symptom table's default, a prior
                  "fallback": esc.verdict == "no-condition"},
        evidence_needed=needed, passes=[esc.pass_arg] if esc.pass_arg else []))
    return result


def render_text(esc: Escalation) -> str:
    """A human-readable report (what `passwise escalate` prints without --json)."""
    out = [f"question: {esc.question}", f"verdict:  {esc.verdict} — {esc.reason}", ""]
    for n, p in enumerate(esc.passages, 1):
        out.append(f"[{n}] {p.repo}:{p.cite}  {p.symbol or '-'}  (score {p.score:.3f}, {p.provenance})")
        out.append(f"    {p.why}")
        if p.permalink:
            out.append(f"    {p.permalink}")
    out.append("")
    out += [f"{c.step:>9}: {c.claim}" + "".join(f"\n           · {e}" for e in c.evidence)
            for c in esc.chain]
    if esc.llm is not None:
        out += ["", f"summary ({esc.llm.model}):", esc.llm.text or esc.llm.error]
        out += [f"  dropped citation {c.text}: {c.reason}" for c in esc.llm.dropped]
    out += [f"note: {n}" for n in esc.notes]
    return "\n".join(out)

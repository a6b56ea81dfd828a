"""The diagnosis ladder: four tiers, each a function from the evidence so far to a TierResult,
climbed in order until the policy says one of them (or two together) is enough.

    TIERS  = what each tier does (an ordered list, like a backend's pass pipeline)
    POLICY = when to stop (rules in order, like the table in ARCHITECTURE.md)
"""

from __future__ import annotations

import ast
import math
import platform
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any

from diagnose.consistency import loads_only, stores_only
from diagnose.escalation.tier import escalate_symptoms
from diagnose.evidence import Finding, TierResult
from diagnose.ir import IRCapture, IRCaptureError, attribute, capture_ascend, capture_cuda
from diagnose.ir.cache import cached
from diagnose.ir.estimate import MARGIN, Estimate, estimate
from diagnose.ir.tier import (
    ARITHMETIC_BOUND,
    CAUSE_SYMPTOMS,
    DOT_CARDS,
    EFFECT_SYMPTOMS,
    HOST_CARDS,
    INTERMEDIATE_WEIGHT,
    MECHANISM_CARDS,
    STANDALONE_MECHANISMS,
    SYMPTOM_CARDS,
    SYMPTOM_WEIGHT,
    tier3_result,
    without_dot,
)
from diagnose.profiling.trace import (
    DOMINANT_WALK,
    FILLS,
    SHARE_CONFIDENCE,
    UNITS,
    TraceError,
    byte_shares,
    contiguous_at,
    kernel_shares,
    outer_work_lines,
    run_trace,
    serial_walk_lines,
    trace_findings,
    traffic,
    walk_shares,
)
from diagnose.profiling.trace import programs as trace_programs
from diagnose.report import Citation, Conclusion, Diagnosis, Escalation, FindingRef, Hotspot
from diagnose.target import DiagnosisError, Target, load_runner_json
from diagnose.triage import PatternCard, TriageError, load_cards, triage
from diagnose.triage.detectors.launch import (
    VECTOR_CORES,
    looped_steps,
    partials_params,
    statistic_steps,
    stencil_steps,
)
from diagnose.triage.detectors.model import KernelModule, build_model
from diagnose.triage.priors import FamilyPrior, PriorsError, load_priors
from diagnose.triage.tier import SUFFICIENT_CONFIDENCE
from diagnose.weigh import REFINED_BY_TRACE, is_fallback, rank, track_record

TIER_NAMES = {1: "pattern triage", 2: "profiling", 3: "IR attribution",
              4: "compiler-source escalation"}
# Evidence that ends the climb at once: nothing above it can diagnose a kernel that does not build.
BROKEN_KINDS = ("source-error", "compile-failure")
NEAR_CEILING_PCT = 80.0  # tier 2's bar: at or above, tuning has at most 1.25x left
LESS_WORK_FAMILY = "fuse-launches"
CONFIRMING_CONFIDENCE = 0.5  # below this a higher tier's finding is itself only a hypothesis
# Cards whose idiom, when it costs anything, always leaves one of these tier-3 symptoms in the
# kernel's IR (sm_90): a capture of that kernel without any of them speaks against the
# hypothesis (the compiler specialised the stride, kept the loads wide, pipelined the loop).
IR_SIGNS: dict[str, tuple[str, ...]] = {
    "cuda-runtime-stride-no-hints": ("scalar-global-loads",),
    "cuda-strided-fast-axis": ("scalar-global-loads",),
    "cuda-scalar-element-loop": ("scalar-global-loads",),
    "cuda-clamped-index": ("scalar-global-loads",),
    "cuda-int64-index": ("int64-index-arith",),
    "cuda-kloop-unpipelined": ("no-async-copy-after-pipeline",),
    "cuda-register-spills": ("register-spills",),
}
# Specific tier-1 idioms behind the generic spills card: while tier 1 holds one of them, a spill
# fact of the same kernel that names the generic card (tier 3's ptxas spills, tier 2's local
# loads and stores) confirms it; a whole row held in registers is what spills, and the generic
# fix, a smaller tile, cannot hold a whole row.
SPILLS_CAUSED_BY: dict[str, str] = {"cuda-whole-row-lse": "cuda-register-spills",
                                    # whole tiles held across a loop by four warps or fewer
                                    "cuda-too-few-warps": "cuda-register-spills",
                                    # a [M, K, N] broadcast temporary is what outgrows the registers
                                    "cuda-broadcast-matmul": "cuda-register-spills",
                                    # each element compared with a whole tile of the table it
                                    # scans: a [rows, table tile] comparison held per step
                                    "common-linear-table-scan": "cuda-register-spills",
                                    # an fp64 value takes two registers: the same tiles in fp64
                                    # need twice the registers their fp32 twins do
                                    "cuda-fp64-math": "cuda-register-spills"}


@dataclass
class Options:
    """How far and how to climb; interpreters are per backend (see passwise Settings)."""

    max_tier: int = 4
    runner_json: Path | None = None
    capture_timeout: float = 300.0
    size: str = "large"  # the make_inputs size the launcher is captured at (tier 3)
    python_cuda: str | None = None
    python_ascend: str | None = None
    home: Path | None = None
    # Tier 1's CPU trace (a few programs of each launch run in the interpreter at `size`): on in
    # `passwise diagnose` (its --no-trace turns it off), off for library callers who did not ask.
    trace: bool = False


@dataclass
class Context:
    """What every tier reads: the target, its source, the options and the evidence so far."""

    target: Target
    backend: str
    source: str
    options: Options = field(default_factory=Options)
    # Lazy: only tier 4 opens the knowledge base; returns (KnowledgeBase, PassRegistry).
    open_kb: Callable[[], tuple[Any, Any]] | None = None
    evidence: list[TierResult] = field(default_factory=list)
    cards: dict[str, PatternCard] = field(default_factory=dict)
    capture: IRCapture | None = None
    escalations: list[Escalation] = field(default_factory=list)
    versions: dict[str, str] = field(default_factory=dict)
    priors: dict[str, FamilyPrior] | None = None  # learned from optimize runs (triage/priors.py)
    trace: dict | None = None  # the CPU trace's report, once tier 1 ran it
    # the task's cost-model estimate, read once (its task.py imported once): see task_estimate
    _estimate: list = field(default_factory=list, repr=False)

    def tier(self, number: int) -> TierResult | None:
        return next((t for t in self.evidence if t.tier == number), None)

    def task_estimate(self) -> Estimate | None:
        """The task's cost-model estimate at the diagnosis size (None without a cost model),
        computed on first use and kept: tier 3 and the ladder's checks all read it."""
        if not self._estimate:
            self._estimate.append(estimate(self.target.task_dir, self.options.size, self.backend))
        return self._estimate[0]

    def hypotheses(self) -> list[Finding]:
        """Tier-1 pattern matches: what the source suggests, waiting for evidence (not those the
        CPU trace measured to be false, nor those whose detector saw the source rule their
        rewrite out: a fact `refuted` says why)."""
        first = self.tier(1)
        return [f for f in first.findings if f.kind == "pattern"
                and not f.evidence.get("refuted_by_trace")
                and not (f.evidence.get("facts") or {}).get("refuted")] if first else []


def make_context(target: Target, backend: str = "cuda", options: Options | None = None,
                 open_kb: Callable[[], tuple[Any, Any]] | None = None) -> Context:
    """A Context with the target's source read and the backend's pattern cards loaded."""
    cards = {c.id: c for c in load_cards(backend)}
    return Context(target=target, backend=backend, source=target.source(),
                   options=options or Options(), open_kb=open_kb, cards=cards)


def skipped(tier: int, why: str) -> TierResult:
    return TierResult(tier, TIER_NAMES[tier], skipped=True, skip_reason=why)


# ---------------------------------------------------------------- the tiers

def tier1(ctx: Context) -> TierResult:
    """Pattern triage over the source; a file that is not valid Python is evidence, not a crash."""
    path = str(ctx.target.kernel)
    try:
        result = triage(ctx.source, path, ctx.backend, priors=_priors(ctx))
        _add_trace(ctx, result)
        return result
    except PriorsError as exc:
        raise DiagnosisError(str(exc)) from None
    except TriageError as exc:
        if _parses(ctx.source, path):
            raise  # a broken card or a bad backend: the user fixes the setup, not the kernel
        broken = Finding(tier=1, kind="source-error", card_id="", rewrite_family="",
                         message=str(exc), confidence=1.0, location={"path": path})
        return TierResult(1, TIER_NAMES[1], [broken], reason="The kernel source does not parse.")


def _add_trace(ctx: Context, result: TierResult) -> None:
    """What the kernel's accesses do when a few programs run in the interpreter (a task to make
    inputs from; an Ascend kernel runs in the CUDA environment's interpreter, portable Triton):
    findings of kind "trace" that rank beside the source's hypotheses. They explain traffic, not idioms: no higher tier confirms them, but one that explains most
    of the traffic outweighs a confirmed idiom of an unrelated family (`_traced_elsewhere`); a
    trace that cannot run is noted in the reason and changes nothing else."""
    t = ctx.target
    if not ctx.options.trace or result.skipped or t.task_dir is None \
            or t.launch_file is None or any(f.kind == "source-error" for f in result.findings):
        return
    try:
        report = run_trace(t.task_dir, t.launch_file, ctx.options.size,
                           timeout=ctx.options.capture_timeout, python=ctx.options.python_cuda)
    except TraceError as exc:
        result.reason += f" No CPU trace: {exc}."
        return
    ctx.trace = report
    found = trace_findings(report, t.launch_file, ctx.backend)
    _weigh_against_trace(result, report, found, ctx.backend)
    result.findings += found
    if found:
        result.reason += f" The CPU trace adds {len(found)} finding(s) about traffic."


def _weigh_against_trace(result: TierResult, report: dict, traced: list[Finding],
                         backend: str = "cuda") -> None:
    """The source's hypotheses the trace measured false, or measured itself (again after a
    re-read of the source with captured launch values)."""
    _refute_strided(result, report, backend)
    _refute_grid(result, report)
    _refute_minor_underfill(result, report)
    _refute_repeated(result, report)
    _refute_minor_fill(result, report)
    _refute_global_handover(result, report)
    _refute_cheap_launch_loop(result, report, traced, backend)
    _refute_barrier_loop(result, traced)
    _supersede_grid(result, traced)
    _measure_work(result, report, traced, backend)


MEASURED_WORK_CONFIDENCE = 0.8
MEASURED_SPAN = 8  # lines: a claim about a longer statement (a kernel's whole loop) is not raised
# families that change only how an access is issued (its width, its index type, its alignment):
# at a line whose cost the trace measured in dependent steps or element operations they leave
# the steps as many as before, so the measure is no evidence for them
ISSUE_ONLY_FAMILIES = frozenset({"add-divisibility-hints", "int32-indexing", "align-32-bytes"})
# The trace's measure of the machine a grid leaves idle: its share holds whatever the launch's
# time is spent on (bytes or a walk's dependent steps).
IDLE_MACHINE_FAMILIES = frozenset({"split-work-across-programs"})


def _measure_work(result: TierResult, report: dict, traced: list[Finding], backend: str) -> None:
    """A source idiom at a line where the trace counted the launch's cost in something other than
    bytes: an outer operation doing far more element operations than the launch moves (a table
    compared whole against every element, a pairwise tile), or a walk of one-element loads whose
    dependent steps outlast the launch's traffic (a prefix sum searched element by element). The
    trace measured that the line is the cost, so the idiom is raised to MEASURED_WORK_CONFIDENCE
    (a claim at that line is a claim about that cost, unless its family only changes how an
    access is issued: ISSUE_ONLY_FAMILIES). The trace's findings weighed by bytes are then
    worth the traffic's part of the time only."""
    walks = serial_walk_lines(report, backend)
    shares = walk_shares(report, backend, walks)
    dominant = {line for line, share in shares.items() if share >= DOMINANT_WALK}
    # a walk inside an element loop whose steps each also move a row the loop places (the scalar
    # is the row's parameter): the steps are the rows', measured by the row walk's own reading
    rows = [f for f in result.findings if (f.evidence.get("facts") or {}).get("row_step")
            and (f.location or {}).get("line") is not None]
    walks = {x: w for x, w in walks.items() if not any(
        f.location["line"] <= x <= (f.location.get("end_line") or f.location["line"]) for f in rows)}
    lines = {**{line: what for line, (what, _) in walks.items()}, **outer_work_lines(report)}
    # a walk measured to take nearly all the time raises its claim up to 0.1 further
    raised = {line: MEASURED_WORK_CONFIDENCE + 0.1 * max(0.0, 1 - 2 * fraction)
              for line, (_, fraction) in walks.items()}
    if walks:  # the trace's shares of bytes are shares of the traffic's part of the time only
        part = min(fraction for _, fraction in walks.values())
        walking = {r["function"] for r in traffic(report) if r["line"] in walks}
        for f in traced:  # (a finding at a walk's own line measures the walk: kept)
            # (the machine a grid leaves idle is idle during the walk too: a share of time;
            # steps that do nothing in the walk's own function are a share of its steps)
            idle_steps = "idle_steps" in (f.evidence.get("facts") or {}) \
                and (f.location or {}).get("function") in walking
            if not f.evidence.get("of_time") and "walk_scaled" not in f.evidence \
                    and f.rewrite_family not in IDLE_MACHINE_FAMILIES and not idle_steps \
                    and (f.location or {}).get("line") not in walks:
                share = f.evidence.get("share", 0.0)
                f.evidence["share"] = round(share * part, 3)
                f.confidence = round(f.confidence - SHARE_CONFIDENCE * min(share, 1.0) * (1 - part), 3)
                f.evidence["walk_scaled"] = round(part, 3)
    claims = [f for f in result.findings if f.kind == "pattern" and "refuted_by_trace" not in f.evidence
              and (f.location or {}).get("line") is not None
              and f.rewrite_family not in ISSUE_ONLY_FAMILIES]

    def span(f: Finding) -> tuple[int, int]:
        return f.location["line"], f.location.get("end_line") or f.location["line"]

    # a claim at the line, or about a short loop holding it (a while loop of four lines) ...
    held = {id(f): x for f in claims for x in lines
            if span(f)[0] <= x <= span(f)[1] and span(f)[1] - span(f)[0] <= MEASURED_SPAN}
    # ... and a claim about a statement inside such a loop (the recurrence the loop carries)
    loops = [(span(f), held[id(f)]) for f in claims if id(f) in held and span(f)[1] > span(f)[0]]
    for f in claims:
        x = held.get(id(f)) or next((x for (lo, hi), x in loops if lo <= span(f)[0] <= hi), None)
        if x is not None:
            f.confidence = round(max(f.confidence, raised.get(x, MEASURED_WORK_CONFIDENCE)), 3)
            f.evidence["measured_by_trace"] = lines[x]
            if x in shares:
                f.evidence["walk_share"] = shares[x]
            if x in dominant:
                f.evidence["dominant_walk"] = True


def _refute_strided(result: TierResult, report: dict, backend: str = "cuda") -> None:
    """A source idiom claiming an access walks its fast axis with a stride, where the trace
    measured that access reading neighbouring addresses with neighbouring lanes (the stride
    multiplies a slower index): the claim is kept at half its confidence, marked refuted, and
    no longer a hypothesis a higher tier can confirm. On the NPU a transposed tile's claim is
    about the transfer's orientation (its last axis strided while a slower one is contiguous),
    which a tile that uses every sector still has: the trace does not refute it."""
    claims = [f for f in result.findings if f.kind == "pattern"
              and f.rewrite_family == STRIDED_FAMILY and (f.location or {}).get("line")
              and not (backend == "ascend" and (f.evidence.get("facts") or {}).get("transposed"))]
    rows = traffic(report) if claims else []
    for f in claims:
        where = f.location
        if contiguous_at(rows, where.get("function"), where["line"]):
            _refute(f, f"the CPU trace measured the access at line {where['line']} reading neighbouring "
                       "addresses with neighbouring lanes (more than half of each sector used)")


def _refute(finding: Finding, why: str) -> None:
    """A claim the trace measured false stays in the report at half its confidence, marked, and
    is no longer a hypothesis a higher tier can confirm."""
    finding.confidence = round(finding.confidence / 2, 3)
    finding.evidence["refuted_by_trace"] = why


MINOR_FILL = 0.1  # of the kernels' traced traffic: a fill this small is not what makes them slow


def _refute_minor_fill(result: TierResult, report: dict) -> None:
    """A source idiom claiming the launcher zero-fills an output the kernel then only stores to,
    where the trace saw the launcher's fills and measured the largest under MINOR_FILL of the
    kernels' traffic (an output of one value per row beside a pairwise pass over the inputs):
    the fill happens, but removing it gains next to nothing; refuted the same way."""
    claims = [f for f in result.findings if f.kind == "pattern" and f.card_id == "common-zeroed-output"]
    fills = [op["bytes"] for op in report.get("host_ops") or [] if op["op"].startswith(FILLS)]
    if not claims or not fills:
        return
    total = sum(r["sector_bytes"] for r in traffic(report) if r["file"] != "?")
    if total and max(fills) < MINOR_FILL * total:
        for f in claims:
            _refute(f, f"the CPU trace measured the launcher's largest fill at {max(fills):,} bytes, "
                       f"{max(fills) / total:.1%} of the {total:,.0f} bytes the kernels move")


HANDOVER_BYTES = 16 * 1024  # a hand-over smaller than this is a few statistics, not a tensor
WHOLE_HANDOVER = 0.9  # of what the producer's sampled programs stored, read by each consumer


def _refute_global_handover(result: TierResult, report: dict) -> None:
    """A source idiom claiming two launches could be one, where the trace measured every sampled
    program of the later launch reading (nearly) all that the earlier launch's sampled programs
    stored, first program to last, not a slice of it: each output needs every program of the producer (the next
    step of a matrix power, a diffusion step), and one launch would need a grid-wide barrier
    between them, which Triton does not have. Refuted the same way."""
    claims = [f for f in result.findings if f.kind == "pattern" and f.rewrite_family == LESS_WORK_FAMILY]
    if not claims:
        return
    accesses = [a for a in report.get("accesses") or [] if a.get("spans")]
    for store in (a for a in accesses if a["op"] == "store"):
        spans = [s for s in store["spans"] if _bounded(s)]
        if len({tuple(s) for s in spans}) < 2:
            continue
        lo, hi = min(s[0] for s in spans), max(s[1] for s in spans)
        if hi - lo < HANDOVER_BYTES:
            continue
        for load in (a for a in accesses if a["op"] == "load" and a["launch"] > store["launch"]):
            reads = [(s, u) for s, u in zip(load["spans"], load.get("unique_bytes") or [], strict=False)
                     if _bounded(s) and u is not None]
            # each program's reads reach across the whole of it, and are as many bytes as half of
            # it (a grid-stride loop over the elements also reaches across, a slice at a time)
            if reads and all(min(s[1], hi) - max(s[0], lo) >= WHOLE_HANDOVER * (hi - lo)
                             and u >= (hi - lo) / 2 for s, u in reads):
                for f in claims:
                    _refute(f, f"the CPU trace measured every sampled program of {load['kernel']} "
                               f"(launch {load['launch'] + 1}) reading, at line {load['line']}, all "
                               f"that {store['kernel']} (launch {store['launch'] + 1}) stored at line "
                               f"{store['line']}: each output needs every program of the launch "
                               "before, a grid-wide dependency one launch cannot keep")
                return


def _bounded(span: list | None) -> bool:
    """A traced address span with both ends known (a sampled program that touched nothing, or
    whose addresses the trace could not follow, has none)."""
    return bool(span) and len(span) == 2 and all(isinstance(x, int | float) for x in span)


def _updates_in_place(report: dict, launch: int) -> bool:
    """A sampled program of the launch loads from addresses it also stores to (a running sum
    read, added to and written back): the state a loop of launches carries through memory."""
    accesses = [a for a in report.get("accesses") or [] if a.get("launch") == launch]
    for store in (a for a in accesses if a["op"] == "store"):
        for load in (a for a in accesses if a["op"] == "load"):
            for s, t in zip(store.get("spans") or [], load.get("spans") or [], strict=False):
                if _bounded(s) and _bounded(t) and min(s[1], t[1]) > max(s[0], t[0]):
                    return True
    return False


SHARED_READ = 0.1  # of the smaller launch's loaded range two launches must both read


def _load_ranges(report: dict, launch: int) -> list[tuple[int, int]]:
    """Each load of a launch as the range its sampled programs cover (lowest to highest
    address of that one access: two buffers a launch reads are two ranges, not the span
    between them)."""
    out = []
    for a in report.get("accesses") or []:
        if a.get("launch") == launch and a["op"] == "load":
            spans = [s for s in a.get("spans") or [] if _bounded(s)]
            if spans:
                out.append((min(s[0] for s in spans), max(s[1] for s in spans)))
    return out


def _read_by_two(report: dict, launches: list[int]) -> bool:
    """Two of the launches load from overlapping address ranges covering at least SHARED_READ
    of the smaller one's loaded bytes: an input each launch reads again (a table of weights
    every launch reads is no such input)."""
    ranges = [_load_ranges(report, i) for i in launches]

    def size(rs: list[tuple[int, int]]) -> int:
        return sum(b - a for a, b in rs)

    for i, mine in enumerate(ranges):
        for theirs in ranges[i + 1:]:
            shared = sum(max(0, min(a[1], b[1]) - max(a[0], b[0])) for a in mine for b in theirs)
            if shared and shared >= SHARED_READ * min(size(mine), size(theirs)):
                return True
    return False


LAUNCH_LOOP_FAMILY = "one-launch-over-grid"
# What one launch costs and the bandwidth its traffic moves at (rough H200 / Atlas A2 figures,
# as the trace uses them to weigh host stalls), and the gain under which a loop of launches is
# not what makes the call slow.
LOOP_COSTS = {"cuda": (3e-6, 4.0e12), "ascend": (10e-6, 1.6e12)}
CHEAP_LOOP_GAIN = 1.25


def _refute_cheap_launch_loop(result: TierResult, report: dict, traced: list[Finding],
                              backend: str = "cuda") -> None:
    """A source idiom (and the trace's count) claiming a kernel launched in a loop should be one
    launch, where the trace measured each launch's traffic: the launches' fixed cost and the
    machine their grids leave idle add less than CHEAP_LOOP_GAIN to the time the same traffic
    takes in one full launch (a mip chain, a few large passes), so merging them wins little.
    Refuted the same way; what the launches do with their traffic is the cost."""
    claims = [f for f in [*result.findings, *traced] if f.rewrite_family == LAUNCH_LOOP_FAMILY
              and f.kind in ("pattern", "trace")]
    counts = report.get("launch_count") or {}
    if not claims or not counts:
        return
    launch_s, bandwidth = LOOP_COSTS.get(backend, LOOP_COSTS["cuda"])
    units = UNITS.get(backend, UNITS["cuda"])[0]
    rows = traffic(report)
    launches = report.get("launches") or []
    for kernel, count in counts.items():
        mine = [i for i, x in enumerate(launches) if x["kernel"] == kernel]
        if count < 2 or len(mine) < 2 or any(not launches[i].get("grid") for i in mine) \
                or any(_updates_in_place(report, i) for i in mine) or _read_by_two(report, mine):
            # (two launches traced at least; no buffer every launch reads and writes back, an
            # accumulator one launch keeps on chip; no bytes two launches both read, which one
            # launch reads once)
            continue
        # (a traced launch's rows already count the launches it stands for)
        seconds = [sum(r["sector_bytes"] for r in rows if r["launch"] == i) / bandwidth for i in mine]
        fills = [min(1.0, trace_programs(launches[i]) / units) for i in mine]
        looped = count * launch_s + sum(t / f for t, f in zip(seconds, fills, strict=True))
        merged = launch_s + sum(seconds)
        if sum(seconds) <= 0 or looped >= CHEAP_LOOP_GAIN * merged:
            continue
        for f in claims:
            if (f.location or {}).get("function") in (None, kernel) or f.evidence.get("kernel") == kernel \
                    or kernel in f.message:
                _refute(f, f"the CPU trace measured the {count} launches of {kernel} moving "
                           f"{sum(seconds) * bandwidth / 1e6:,.0f} MB: their launch costs and "
                           f"the machine their grids leave idle add {looped / merged - 1:.0%} to the "
                           "time that traffic takes in one full launch")


def _starved(f: Finding) -> bool:
    """The trace's time-weighted reading of a kernel whose every launch underfills the machine."""
    return f.kind == "trace" and f.rewrite_family == UNDERFILL_FAMILY and bool(f.evidence.get("of_time"))


def _refute_barrier_loop(result: TierResult, traced: list[Finding]) -> None:
    """The trace's count of a kernel launched many times, where the source showed that kernel's
    loop waiting on a grid-wide reduction every iteration (tier 1's launch-loop claim carries the
    `refuted` fact): the count is right, but no single launch can take the loop over. Refuted the
    same way. The trace's reading of a starved kernel launched in a loop is kept only for such a
    loop: elsewhere one launch over the loop's grid fills the machine as well."""
    barred = {(f.evidence.get("facts") or {}).get("kernel"): (f.evidence.get("facts") or {})["refuted"]
              for f in result.findings if f.rewrite_family == LAUNCH_LOOP_FAMILY and f.kind == "pattern"
              and (f.evidence.get("facts") or {}).get("refuted")}
    for f in traced:
        kernel = (f.evidence.get("facts") or {}).get("kernel")
        if f.rewrite_family == LAUNCH_LOOP_FAMILY and kernel in barred:
            _refute(f, f"the source shows {barred[kernel]} in the loop that launches it")
    # a starved kernel launched in a loop: one launch over the loop's grid is the reading, unless
    # the loop is one that waits on a grid-wide reduction; a starved kernel the source shows to be
    # a reduction's finishing step, a value the host reads back or a serial recurrence is what
    # its small grid is for (tier 1's small-grid claim says which)
    excused = {facts.get("kernel") for f in result.findings if f.kind == "pattern"
               and f.rewrite_family == UNDERFILL_FAMILY
               and ((facts := f.evidence.get("facts") or {}).get("finishing") or facts.get("read_back")
                    or facts.get("refuted"))}
    traced[:] = [f for f in traced if not _starved(f) or (
        (f.evidence.get("facts") or {}).get("kernel") not in excused
        and (not (f.evidence.get("facts") or {}).get("looped") or (f.evidence.get("facts") or {}).get("kernel") in barred))]


STRIDED_FAMILY = "coalesce-contiguous-axis"
GRID_FAMILY = "grid-size-cores"
UNDERFILL_FAMILY = "split-work-across-programs"


def _supersede_grid(result: TierResult, traced: list[Finding]) -> None:
    """The trace measured how much of the machine a kernel's grid leaves idle (or, on the NPU, in
    how many rounds of short programs its grid runs): the source's
    estimate of the same fact for the same kernel stays in the report (a higher tier may confirm
    it) and counts in the trace's look (diagnose.weigh.rank keeps the better of the two), so one
    fact is not counted twice."""
    for family in (UNDERFILL_FAMILY, GRID_FAMILY):
        measured = {(f.evidence.get("facts") or {}).get("kernel") for f in traced
                    if f.rewrite_family == family}
        for f in result.findings:
            if f.kind == "pattern" and f.rewrite_family == family \
                    and (f.evidence.get("facts") or {}).get("kernel") in measured - {None}:
                f.evidence["superseded_by_trace"] = True


SHARED_BY_NEIGHBOURS = 0.5  # of a program's addresses its neighbour along an axis touches too


def _refute_repeated(result: TierResult, report: dict) -> None:
    """A source idiom claiming the programs along a grid axis repeat one another's loop over the
    same bytes, where the trace measured the kernel's loads, weighed by their traffic, sharing
    less than half their addresses with the neighbouring program along that axis (the loop's
    start follows the axis in a way the reading missed; a scalar both read is no loop): refuted
    the same way."""
    claims = [f for f in result.findings if f.kind == "pattern"
              and (f.evidence.get("facts") or {}).get("repeated_axis") is not None]
    rows = traffic(report) if claims else []
    for f in claims:
        axis = str(f.evidence["facts"]["repeated_axis"])
        kernel = (f.location or {}).get("function")
        loads = [(r["sector_bytes"], (r.get("overlap_next") or {}).get(axis)) for r in rows
                 if r["op"] == "load" and r["kernel"] == kernel]
        loads = [(b, s) for b, s in loads if s is not None]
        weight = sum(b for b, _ in loads)
        shared = sum(b * s for b, s in loads) / weight if weight else None
        if shared is not None and shared < SHARED_BY_NEIGHBOURS:
            _refute(f, f"the CPU trace measured neighbouring programs of {kernel} along grid axis "
                       f"{axis} sharing {shared:.0%} of their loads' traffic")


def _refute_grid(result: TierResult, report: dict) -> None:
    """A source idiom claiming a kernel's grid outgrows the NPU's cores, where every launch of
    that kernel the trace ran at the diagnosis size had at most one program per vector core (the
    grid was capped, or the work loops inside the program): refuted the same way. (A traced grid
    of many programs does not raise the claim: weighed by its rounds, it outranked the seeded
    defect of ten development kernels written GPU-style, one program per row.)"""
    claims = [f for f in result.findings if f.kind == "pattern" and f.rewrite_family == GRID_FAMILY]
    for f in claims:
        kernel = (f.evidence.get("facts") or {}).get("kernel")
        grids = [trace_programs(launch) for launch in report.get("launches") or []
                 if launch.get("kernel") == kernel and launch.get("grid")]
        if grids and max(grids) <= VECTOR_CORES:
            _refute(f, f"the CPU trace ran {kernel} at the diagnosis size with at most {max(grids)} "
                       f"program(s), no more than the {VECTOR_CORES} vector cores")


MINOR_KERNEL_SHARE = 0.05  # of the traced traffic and of its element operations both


def minor_kernels(report: dict | None) -> dict[str, tuple[float, float]]:
    """Kernels the CPU trace measured carrying under MINOR_KERNEL_SHARE of the run's traffic and
    of its operations (a finalize launch summing a few thousand partials): what idles the
    machine while they run is a sliver of the call's time. Name -> (bytes share, ops share)."""
    if not report:
        return {}
    return {k: v for k, v in kernel_shares(report).items() if max(v) < MINOR_KERNEL_SHARE}


def _refute_minor_underfill(result: TierResult, report: dict) -> None:
    """A source idiom claiming a kernel's few programs leave the GPU idle, where the trace measured
    that kernel as a minor one (minor_kernels): the grid is small, the time it idles is not;
    refuted the same way."""
    minor = minor_kernels(report)
    for f in result.findings:
        kernel = (f.evidence.get("facts") or {}).get("kernel")
        if f.kind == "pattern" and f.rewrite_family in IDLE_MACHINE_FAMILIES and kernel in minor:
            moved, worked = minor[kernel]
            _refute(f, f"the CPU trace measured {kernel} carrying {moved:.0%} of the traffic and "
                       f"{worked:.0%} of the element operations")


def _priors(ctx: Context) -> dict[str, FamilyPrior]:
    """The families' optimize win record under the home, read once per diagnosis."""
    if ctx.priors is None:
        ctx.priors = load_priors(ctx.options.home)
    return ctx.priors


def _parses(source: str, path: str) -> bool:
    try:
        compile(source, path, "exec", dont_inherit=True)
    except (SyntaxError, ValueError):
        return False
    return True


def tier2(ctx: Context) -> TierResult:
    """Profiling, from runner JSON measured on the device host (this machine needs no GPU)."""
    if ctx.options.runner_json is None:
        return skipped(2, "No runner JSON, so no timings: run `python -m diagnose.runner bench` "
                          "(and `profile`) on a GPU/NPU host and pass the output with "
                          "--runner-json.")
    try:
        from diagnose.profiling import ProfileError, profile_tier
    except ImportError:
        return skipped(2, "Tier 2 (diagnose.profiling) is not installed in this checkout.")
    bench, profile = load_runner_json(ctx.options.runner_json)
    try:
        return profile_tier(bench, profile, backend=ctx.backend)
    except ProfileError as exc:  # the runner JSON is malformed: the user passes another file
        raise DiagnosisError(str(exc)) from None


def tier3(ctx: Context) -> TierResult:
    """IR attribution: compile what the launcher really launches, pass by pass, on this CPU."""
    if ctx.target.launch_problem:
        return skipped(3, f"Cannot capture IR: {ctx.target.launch_problem}.")
    started = time.perf_counter()
    try:
        ctx.capture = capture_for(ctx)
    except IRCaptureError as exc:
        return skipped(3, str(exc))
    ctx.versions["compiler"] = ctx.capture.compiler_version
    _reread_source(ctx)
    families = {card_id: card.rewrite_family for card_id, card in ctx.cards.items()}
    guess = _measured_place(ctx.tier(2)) or ctx.task_estimate()
    result = tier3_result(ctx.capture, attribute(ctx.capture), families,
                          time.perf_counter() - started, estimate=guess, value_steps=_value_steps(ctx),
                          partials=_partials(ctx), statistics=_statistic_steps(ctx))
    _mark_not_in_ir(ctx, result)
    _mark_dot_absent(ctx)
    _mechanism_alone(result)
    _atomics_apart(ctx, result)
    _cheap_fp64(ctx, result)
    _minor_underfill(ctx, result)
    _unknowable_launch_sizes(ctx, result)
    return result


CHEAP_FP64_SHARE = 0.1  # of the traced traffic: a kernel carrying less is not where the time goes
# fp64 ops that run at half the fp32 rate on an H100-class GPU (no software sequence): math of
# fp64 data made of these alone costs what tier 1's "adds, multiplies and compares" reading does
CHEAP_FP64_OPS = frozenset({"addf", "subf", "mulf", "negf", "absf", "cmpf", "select", "maxnumf",
                            "minnumf", "maximumf", "minimumf", "fma", "reduce"})


def _cheap_fp64(ctx: Context, ir: TierResult) -> None:
    """fp64 arithmetic the IR shows where it costs little: in a kernel whose fp64 math tier 1 read
    as adds, multiplies and compares only (sums kept in double, half the fp32 rate on an
    H100-class GPU), or, with no such reading (the fp64 comes from fp64 data), in a kernel whose
    fp64 ops in the IR are all CHEAP_FP64_OPS or that the CPU trace measured carrying under
    CHEAP_FP64_SHARE of the traffic. The mechanism is real,
    the cost is not: the symptom weighs as a cheap one at half its confidence."""
    first = ctx.tier(1)
    readings = {(f.location or {}).get("function"): (f.evidence.get("facts") or {}).get("fp64_costly")
                for f in (first.findings if first else []) if f.evidence.get("detector") == "fp64-math"}
    shares = byte_shares(ctx.trace) if ctx.trace is not None else {}
    for f in ir.findings:
        if f.evidence.get("symptom") != "fp64-arith":
            continue
        kernel = (f.location or {}).get("function")
        costly = readings.get(kernel)
        ops = f.evidence.get("fp64_ops")
        if costly is False:
            why = "tier 1 read its fp64 math as adds, multiplies and compares only"
        elif costly is None and ops and set(ops) <= CHEAP_FP64_OPS:
            why = f"the fp64 data's math is {', '.join(ops)} only, at half the fp32 rate"
        elif costly is None and kernel in shares and shares[kernel] < CHEAP_FP64_SHARE:
            why = f"the CPU trace measured {kernel} carrying {shares[kernel]:.0%} of the traffic"
        else:
            continue
        _weigh_as_cheap(f, "cheap_fp64", why)


def _minor_underfill(ctx: Context, ir: TierResult) -> None:
    """The IR's grid-underfill on a kernel the CPU trace measured as a minor one (minor_kernels):
    the launch does leave SMs idle, for a sliver of the call's time; it weighs as a cheap
    symptom at half its confidence, as _cheap_fp64's do."""
    minor = minor_kernels(ctx.trace)
    for f in ir.findings:
        kernel = (f.location or {}).get("function")
        if f.evidence.get("symptom") == "grid-underfill" and kernel in minor:
            _weigh_as_cheap(f, "minor_kernel", f"the CPU trace measured {kernel} carrying "
                                               f"{minor[kernel][0]:.0%} of the traffic")


def _weigh_as_cheap(finding: Finding, key: str, why: str) -> None:
    """An IR symptom whose mechanism is real and whose cost is not: it keeps its place in the
    ranking at half its confidence and the weight of a cheap symptom, with `why` under `key`."""
    finding.confidence = round(finding.confidence / 2, 3)
    finding.evidence["weight"] = 1
    finding.evidence[key] = why


# The trace's readings of an atomic: lanes queued on a few words, or runs of sorted keys (both
# serialise), against one atomic per element at addresses apart (no queue on any word).
QUEUED_ATOMICS = frozenset({"cuda-atomic-reduction", "ascend-atomic-reduction", "common-sorted-key-atomics"})
SPREAD_ATOMICS = "common-scatter-atomics"


def _atomics_apart(ctx: Context, ir: TierResult) -> None:
    """Global atomics the CPU trace measured at addresses apart (each step's lanes write different
    words) are scattered read-modify-writes: they cost what a scattered access costs, not the
    serialisation the symptom's weight assumes, so they weigh as narrow accesses do."""
    first = ctx.tier(1)
    traced = [f for f in first.findings if f.kind == "trace"] if first else []
    spread = {(f.location or {}).get("line") for f in traced if f.card_id == SPREAD_ATOMICS}
    queued = {(f.location or {}).get("line") for f in traced if f.card_id in QUEUED_ATOMICS}
    for f in ir.findings:
        lines = {int(line) for line in f.evidence.get("line_cards") or {}}
        if f.evidence.get("symptom") == "global-atomics" and lines and lines <= spread \
                and not lines & queued:
            f.evidence["weight"] = min(f.evidence.get("weight", 0), SYMPTOM_WEIGHT["scalar-global-loads"])
            f.evidence["apart_by_trace"] = True


# Compile errors about a tile's size: with launch constants computed from device values the host
# reads back, the capture (which compiles launches without running them) sees garbage sizes.
SIZE_ERRORS = ("exceeds triton maximum tensor numel", "arange's range must be a power of 2",
               "arange's end argument must be greater than the start argument")


def _unknowable_launch_sizes(ctx: Context, result: TierResult) -> None:
    """A launch that fails to compile on a size limit, in a launcher that reads device values back
    before launching (a tier-1 host-sync idiom or trace finding): the size came from data the
    capture never computed, so the failure is the capture's, not the kernel's. The failure is kept
    out of the evidence and the tier's reason says so."""
    first = ctx.tier(1)
    reads_back = first is not None and any(f.rewrite_family == "avoid-host-sync" for f in first.findings)
    dropped = [f for f in result.findings if f.kind == "compile-failure" and reads_back
               and any(e in f.message for e in SIZE_ERRORS)]
    if dropped:
        result.findings = [f for f in result.findings if f not in dropped]
        result.reason += (f" {len(dropped)} launch(es) sized from values the launcher reads back "
                          "from the device could not be compiled without running the kernels "
                          "before them; their IR is not part of this evidence.")


def _measured_place(measured: TierResult | None) -> Estimate | None:
    """The hotspot's roofline place as tier 2 measured it (its intensity against the measured
    ridge), in the form of the cost-model estimate tier 3 otherwise reads: with timings, a
    memory-bound hotspot still discounts compute-side symptoms (it once stopped doing so, and a
    missed wgmma outweighed a 268 MB intermediate in a kernel at 7% of copy bandwidth)."""
    for f in (measured.findings if measured else []):
        ev = f.evidence
        if ev.get("hotspot") and isinstance(ev.get("intensity"), int | float) and isinstance(ev.get("ridge"), int | float):
            return Estimate(float(ev["intensity"]), float(ev["ridge"]), ev["intensity"] * MARGIN < ev["ridge"])
    return None


def _mechanism_alone(ir: TierResult) -> None:
    """Tier 3 is enough on its own when its one heaviest finding is a symptom whose mechanism,
    read from the IR at the source lines it names (a scalar pointer, a per-thread tile, a
    widened value), has exactly one idiom behind it: the IR locates the change, narrows it to
    one family and says why, whatever syntax the source used to write the idiom."""
    if ir.sufficient:
        return
    weighed = [f for f in ir.findings if f.kind in ("ir-symptom", "host-code")
               or f.evidence.get("weight", 0) >= INTERMEDIATE_WEIGHT]
    if not weighed:
        return
    top = max(weighed, key=lambda f: f.evidence.get("weight", 0))
    alone = sum(f.evidence.get("weight", 0) >= top.evidence.get("weight", 0) for f in weighed) == 1
    if alone and top.kind == "ir-symptom" and top.rewrite_family and top.evidence.get("mechanisms"):
        lines = sorted({int(n) for ns in top.evidence["mechanisms"].values() for n in ns})
        ir.sufficient = True
        ir.reason = (f"The IR shows {top.message}, and its mechanism "
                     f"({', '.join(top.evidence['mechanisms'])} at line(s) "
                     f"{', '.join(map(str, lines))}) has one idiom behind it: {top.card_id}.")


def _mark_not_in_ir(ctx: Context, ir: TierResult) -> None:
    """Tier-1 hypotheses whose idiom always shows in the IR, about a kernel tier 3 captured
    without any such symptom, carry `not_in_ir`: the ranking counts them for less."""
    if ctx.backend != "cuda" or ctx.capture is None:
        return
    captured = {k.kernel for k in ctx.capture.kernels}
    seen = {((f.location or {}).get("function"), f.evidence.get("symptom")) for f in ir.findings}
    for h in ctx.hypotheses():
        signs = IR_SIGNS.get(h.card_id, ())
        kernel = _launched(h) or (h.location or {}).get("function")
        if signs and kernel in captured and not any((kernel, s) in seen for s in signs):
            h.evidence["not_in_ir"] = (f"tier 3 captured `{kernel}` at size {ctx.options.size} "
                                       f"and shows no {' or '.join(signs)}")


def _mark_dot_absent(ctx: Context) -> None:
    """Tier 2 reads a compute-bound fp32 kernel against the tf32 matmul rate and names the
    dot's precision; when tier 3 compiled every launched kernel and none holds a dot (an
    elementwise or Monte-Carlo kernel whose counted flops are FMAs), that reading's family has
    nothing to act on: its findings carry `not_in_ir` and the ranking counts them for less."""
    measured = ctx.tier(2)
    kernels = ctx.capture.kernels if ctx.capture is not None else []
    if ctx.backend != "cuda" or measured is None or not kernels or any(k.failure for k in kernels):
        return
    if not all(without_dot(k) for k in kernels):
        return
    names = ", ".join(sorted({k.kernel for k in kernels}))
    for f in measured.findings:
        if f.card_id in DOT_CARDS:
            f.evidence["not_in_ir"] = (f"tier 3 compiled every launched kernel ({names}) at size "
                                       f"{ctx.options.size} and none holds a tl.dot")


def launch_values(capture: IRCapture) -> dict[str, dict[str, int]]:
    """Per kernel, the integer values its first captured launch really used: constexprs,
    num_warps, num_stages and the number of programs."""
    values: dict[str, dict[str, int]] = {}
    for kir in capture.kernels:
        spec = kir.specialization
        found = {k: v for k, v in {**spec.constexprs, **spec.options}.items()
                 if isinstance(v, int) and not isinstance(v, bool)}
        grid = [g for g in (spec.grid or []) if isinstance(g, int)]
        if grid and len(grid) == len(spec.grid or []):
            found["programs"] = math.prod(grid)
        values.setdefault(kir.kernel, found)
    return values


def _value_steps(ctx: Context) -> frozenset[str]:
    """Kernels tier 1 saw making a value the host reads back (`top.item()` after a one-program launch)."""
    triaged = ctx.tier(1)
    facts = [f.evidence.get("facts") or {} for f in (triaged.findings if triaged else [])]
    return frozenset(str(f.get("kernel")) for f in facts if f.get("read_back"))


def _launcher_reading(ctx: Context, *reads: Callable[[KernelModule], frozenset[tuple[str, str]]]
                      ) -> frozenset[tuple[str, str]]:
    """Tier 1's model of the launcher, built once and read by each of `reads`, their readings
    joined (nothing for a source that does not parse)."""
    try:
        tree = ast.parse(ctx.source)
    except (SyntaxError, ValueError):
        return frozenset()
    module = build_model(ctx.source, str(ctx.target.kernel), tree)
    return frozenset().union(*(read(module) for read in reads))


def _partials(ctx: Context) -> frozenset[tuple[str, str]]:
    """Tier 1's reading of the launcher: which kernel parameters write per-program partials."""
    return _launcher_reading(ctx, partials_params)


def _statistic_steps(ctx: Context) -> frozenset[tuple[str, str]]:
    """Tier 1's reading of the launcher: which pairs of launches are a statistic's two passes,
    an init kernel and the loop of launches that iterates on what it set up, or a pass and the
    stencil over its output (none is a fusion left undone)."""
    return _launcher_reading(ctx, statistic_steps, looped_steps, stencil_steps)


def _reread_source(ctx: Context) -> None:
    """Tier 1 again with the launch values the capture resolved (a block size computed from
    the row length, num_warps set from a variable): hypotheses the host code hid from the
    static read. The tier-1 record is replaced only when the re-read finds something new."""
    first = ctx.tier(1)
    if first is None or first.skipped or ctx.capture is None:
        return
    values = launch_values(ctx.capture)
    try:
        again = triage(ctx.source, str(ctx.target.kernel), ctx.backend, resolved=values,
                       priors=_priors(ctx))
    except (TriageError, PriorsError):
        return
    traced = [f for f in first.findings if f.kind == "trace"]  # a run, not a reading: kept
    before = {(f.card_id, f.message) for f in first.findings if f.kind != "trace"}
    after = {(f.card_id, f.message) for f in again.findings}
    if before == after:
        return
    if ctx.trace is not None:
        _weigh_against_trace(again, ctx.trace, traced, ctx.backend)
    again.findings += traced
    new = [card for card, message in after - before]
    gone = [card for card, message in before - after if card not in new]
    again.reason += (f" (Re-read with the launch values tier 3 captured: "
                     f"{', '.join(dict.fromkeys(new)) or 'nothing'} found"
                     + (f", {', '.join(dict.fromkeys(gone))} ruled out" if gone else "") + ".)")
    again.elapsed_s = first.elapsed_s
    ctx.evidence[ctx.evidence.index(first)] = again


def capture_for(ctx: Context) -> IRCapture:
    """The tier-3 capture of the context's target (also what `passwise escalate --kernel` reads)."""
    o, t = ctx.options, ctx.target
    # A task folder launches the kernel as its candidate; a KernelBench launcher stands alone.
    where, candidate = (t.task_dir, t.launch_file) if t.task_dir else (t.launch_file, None)
    if ctx.backend == "ascend":
        def run() -> IRCapture:
            return capture_ascend(where, candidate, size=o.size, timeout=o.capture_timeout,
                                  python=o.python_ascend, home=o.home)
    else:
        def run() -> IRCapture:
            return capture_cuda(where, candidate, size=o.size, timeout=o.capture_timeout,
                                python=o.python_cuda)
    return cached([Path(where), Path(candidate) if candidate else None], o.size, ctx.backend, run)


def tier4(ctx: Context) -> TierResult:
    """Escalation to the compiler's own source, over the knowledge base (optional)."""
    if ctx.open_kb is None:
        return skipped(4, "No knowledge base is configured; run `passwise index` to build one.")
    ir = ctx.tier(3)
    asks = list(dict.fromkeys((f.evidence["symptom"], f.passes[0] if f.passes else "",
                               (f.location or {}).get("function", ""))
                              for f in _questions(ir.findings if ir else [])))
    if not asks:
        return skipped(4, "Nothing to ask the compiler source: no IR symptom names a pass.")
    kernels = {k.kernel: k for k in (ctx.capture.kernels if ctx.capture else [])}
    result, records = escalate_symptoms(ctx.open_kb, asks, ctx.backend, _compiler_version(ctx),
                                        kernels)
    ctx.escalations += records
    return result


def _questions(findings: list[Finding]) -> list[Finding]:
    """The IR symptoms tier 4 asks about, costliest first; an effect (a surviving layout
    conversion, spills) is not asked about when its kernel also shows a cause (a narrow or
    unstructured access): the cause's answer is the one that explains the cost."""
    symptoms = [f for f in findings if f.kind == "ir-symptom" and f.passes]
    caused = {(f.location or {}).get("function") for f in symptoms
              if f.evidence.get("symptom") in CAUSE_SYMPTOMS}
    kept = [f for f in symptoms if not (f.evidence.get("symptom") in EFFECT_SYMPTOMS
                                        and (f.location or {}).get("function") in caused)]
    return sorted(kept, key=lambda f: -f.evidence.get("weight", 0))


def _compiler_version(ctx: Context) -> str | None:
    """The version number of the compiler the kernel was captured with ("triton 3.6.0")."""
    version = ctx.versions.get("compiler", "")
    return version.split()[-1] if version else None


TIERS: list[tuple[str, Callable[[Context], TierResult]]] = [
    ("triage", tier1),
    ("profile", tier2),
    ("ir", tier3),
    ("escalate", tier4),
]


# ---------------------------------------------------------------- the policy

@dataclass
class Decision:
    """What the evidence so far allows: stop with a verdict, or climb (and why)."""

    stop: bool
    reason: str
    verdict: str = ""
    conclusion: Conclusion | None = None


def climb(reason: str) -> Decision:
    return Decision(stop=False, reason=reason)


def broken_kernel(ctx: Context) -> Decision | None:
    """The kernel does not parse or compile: that is the finding; no tier above can help."""
    latest = ctx.evidence[-1]
    broken = next((f for f in latest.findings if f.kind in BROKEN_KINDS), None)
    if broken is None:
        return None
    return Decision(stop=True, verdict="inconclusive",
                    reason=f"The kernel does not build, so there is no speed to diagnose: "
                           f"{broken.message} Fix it and diagnose again.")


def confirmed_across_tiers(ctx: Context) -> Decision | None:
    """A tier-1 hypothesis that the latest tier's evidence explains: (a), (b) and (c) together."""
    latest = ctx.evidence[-1]
    if latest.tier == 1:
        return None
    pairs = _heaviest(_most_direct([(h, f) for f in latest.findings for h in ctx.hypotheses()
                                    if confirms(f, h)]))
    if _stated_heavier(latest, pairs):
        return None  # the IR states a heavier cause outright: it answers (sufficient_alone)
    heavier = _heavier_unexplained(latest, pairs)
    if heavier is not None:
        return climb(f"Tier {latest.tier} confirms {pairs[0][0].card_id}, but the same kernel "
                     f"shows a heavier symptom no hypothesis explains ({heavier.message}); "
                     "the compiler source has to say why.")
    families = list(dict.fromkeys(h.rewrite_family for h, _ in pairs))
    if len(families) > 1:
        return climb(f"Tier {latest.tier} evidence fits more than one hypothesis "
                     f"({', '.join(families)}); the compiler source has to say which.")
    if not families:
        return None
    hypothesis, fact = max(pairs, key=lambda p: p[0].confidence)
    unseen = _stronger_unseen_work(ctx, hypothesis, fact)
    if unseen is not None:
        how = ("a weak hypothesis" if hypothesis.confidence < WEAK_CONFIRMED
               else "through a cheap symptom only")
        return climb(f"Tier {latest.tier} confirms {hypothesis.card_id}, {how} "
                     f"({hypothesis.confidence:.2f}), while a stronger one about work the IR "
                     f"cannot show stays open ({unseen.card_id}, {unseen.confidence:.2f}).")
    scalar = _scalar_program_of(ctx, hypothesis)
    if scalar is not None:
        return Decision(stop=True, verdict="concluded",
                        reason=f"Tier {latest.tier} confirms the tier-1 hypothesis {hypothesis.card_id} "
                               f"({_head(fact.message)}...), but in a program that handles one item in "
                               "scalar code every atomic is one element wide: the symptom is the program's "
                               "shape, and nothing can be aggregated until each program owns a block of "
                               f"items. {scalar.message}",
                        conclusion=_alone(ctx, ctx.tier(1), scalar))
    walk = _dominant_walk_claim(ctx, hypothesis, fact)
    if walk is not None:
        return Decision(stop=True, verdict="concluded",
                        reason=f"Tier {latest.tier} confirms the tier-1 hypothesis {hypothesis.card_id} "
                               f"({_head(fact.message)}...), but what it saves is traffic, and the CPU "
                               f"trace measured a walk that takes nearly all the time: "
                               f"{walk.evidence['measured_by_trace']}. {walk.message}",
                        conclusion=_alone(ctx, ctx.tier(1), walk))
    for traced, overrules, what in (
            (_refined_by_trace(ctx, hypothesis), False, "and the CPU trace measured which form it takes"),
            (_traced_elsewhere(ctx, hypothesis, _outweighs(fact), fact), True,
             "but the CPU trace measured where the traffic goes")):
        if traced is not None:
            idiom = _overruling_form(ctx, traced, hypothesis) if overrules else None
            form = f" The source names the form it takes: {idiom.message}" if idiom is not None else ""
            return Decision(stop=True, verdict="concluded",
                            reason=f"Tier {latest.tier} confirms the tier-1 hypothesis "
                                   f"{hypothesis.card_id} ({_head(fact.message)}...), {what}: "
                                   f"{traced.message}{form}",
                            conclusion=_alone(ctx, ctx.tier(1), idiom or traced))
    return Decision(stop=True, verdict="concluded",
                    reason=f"Tier {latest.tier} confirms the tier-1 hypothesis "
                           f"{hypothesis.card_id}: {fact.message}",
                    conclusion=_confirmed(ctx, hypothesis, fact, pairs))


# Families that aggregate atomics within a program: inside a program that owns one item in
# scalar code (no tile at all) there is nothing to aggregate, and the IR's one-element atomics
# are the program's shape; aggregation first needs a block of items per program. (Load families
# are not among them: a one-item program's gather or strided record can still be the cost.)
PER_ELEMENT_FAMILIES = frozenset({
    "aggregate-before-atomics", "tree-reduction-not-atomics", "segment-reduce-sorted-keys"})


def _scalar_program_of(ctx: Context, confirmed: Finding) -> Finding | None:
    """Tier 1's reading that the confirmed hypothesis's kernel has no tile of items (one item per
    program, scalar code), when the confirmed family aggregates atomics within a program."""
    if confirmed.rewrite_family not in PER_ELEMENT_FAMILIES:
        return None
    kernel = (confirmed.location or {}).get("function")
    return next((h for h in ctx.hypotheses() if h.card_id == "common-row-per-program"
                 and (h.evidence.get("facts") or {}).items() >= {"tile_elements": 1, "kernel": kernel}.items()),
                None)


TRACE_OUTWEIGHS = 0.5  # a trace finding explaining at least this share of the kernel's traffic
# Families that name one mechanism at different depths: the trace measures the mechanism (an
# intermediate through memory, atomics on few words), the source idiom says which form it has
# (a cast-only launch, a scatter of counts), so within a group a confirmed idiom stands.
KINDRED_FAMILIES = (
    frozenset({"fuse-launches", "cast-inside-kernel", "one-launch-over-grid", "drop-host-copies",
               "allocate-empty-output", "avoid-host-sync", "compute-stats-once"}),
    frozenset({"tree-reduction-not-atomics", "aggregate-before-atomics", "segment-reduce-sorted-keys",
               "drop-split-k", "keep-accumulator-in-registers"}),
    # programs re-reading one shared slice: the trace measures the rereads; whether each
    # program redoes a statistic, a row's product with a shared matrix, a table scan or the
    # prefix before its tile is the idiom's to say (first match wins: compute-stats-once keeps the group above)
    frozenset({"compute-stats-once", "tile-rows-into-dot", "use-dot-for-broadcast-sum",
               "binary-search-sorted-bounds", "carry-running-prefix"}),
    # too few threads in flight: the trace counts the programs; whether to add programs or
    # warps to each (a serial loop over a whole resident tile cannot be split) is the idiom's
    frozenset({"split-work-across-programs", "num-warps-tuning"}),
    # an access with no unit-stride axis: the trace measures the stride, the source says whether
    # to walk another axis or to load the contiguous block and rearrange it on chip
    frozenset({"coalesce-contiguous-axis", "load-contiguous-transpose-on-chip"}),
)


def _dominant_walk_claim(ctx: Context, confirmed: Finding, fact: Finding | None = None) -> Finding | None:
    """A source claim, surer than the confirmed one, at a walk of dependent one-element loads
    the trace measured to take nearly all the time (trace.dominant_walks), when the confirmed
    hypothesis changes how launches move bytes (KINDRED_FAMILIES[0]: fusing, one launch, host
    copies): the bytes it saves are a small part of a time the walk's steps fill.

    When the confirming fact counts the bytes it saves (`_fact_share`), the two are weighed in
    one unit, time: the walk's share of it (a floor when the tracer cut the walk short) against
    the saved bytes' share of the traffic's part. A claim at least as sure as the confirmed one,
    whose removal would gain MEASURED_TWICE what the saved bytes could, answers instead."""
    if confirmed.rewrite_family not in KINDRED_FAMILIES[0]:
        return None
    saved = _fact_share(ctx, fact)

    def outweighs(h: Finding) -> bool:
        walk = h.evidence.get("walk_share")
        if h.evidence.get("dominant_walk") and h.confidence > confirmed.confidence:
            return True
        return (walk is not None and saved is not None and h.confidence >= confirmed.confidence
                and _gain(walk) >= MEASURED_TWICE * _gain(saved * (1.0 - walk)))

    def narrowness(h: Finding) -> int:  # a tie goes to the claim about the statement the walk carries
        where = h.location or {}
        return -((where.get("end_line") or where.get("line") or 0) - (where.get("line") or 0))

    return max((h for h in ctx.hypotheses() if h.rewrite_family != confirmed.rewrite_family
                and outweighs(h)), key=lambda h: (h.confidence, narrowness(h)), default=None)


def _refined_by_trace(ctx: Context, hypothesis: Finding) -> Finding | None:
    """A trace finding whose family refines the confirmed hypothesis' family (REFINED_BY_TRACE),
    or, for a launch loop, the trace's measure that its launches re-read what the loop's own
    kernel read before (passes over one input a fused kernel makes once, not slices of a grid)."""
    first = ctx.tier(1)
    traced = [f for f in first.findings if f.kind == "trace"] if first else []
    return max((f for f in traced
                if hypothesis.rewrite_family in REFINED_BY_TRACE.get(f.rewrite_family, ())
                or _rereads_own_input(f, hypothesis) or _fills_few_bins(f, hypothesis)),
               key=lambda f: f.confidence, default=None)


def _fills_few_bins(traced: Finding, hypothesis: Finding) -> bool:
    """Atomics confirmed as a reduction, which the trace measured reaching a few addresses again
    and again in separate runs (a histogram's bins, not one sum): a table each program adds up
    before its atomics, the scatter form of the reduction. (Not in REFINED_BY_TRACE: one atomic
    per element into many addresses says nothing against a reduction the IR confirmed.)"""
    facts = traced.evidence.get("facts") or {}
    return (hypothesis.rewrite_family == "tree-reduction-not-atomics"
            and traced.rewrite_family == "aggregate-before-atomics" and "revisits" in facts)


def _rereads_own_input(traced: Finding, hypothesis: Finding) -> bool:
    """A launch-loop idiom, and the trace's round trips between launches of that loop's kernel
    alone: each launch re-reads what the one before read (unfused passes over one input), which
    launches over slices of a grid do not. (Not in REFINED_BY_TRACE: it holds for one kernel.)"""
    kernel = _launched(hypothesis)
    facts = traced.evidence.get("facts") or {}
    # (a buffer the loop's kernel hands to another kernel launched beside it is an intermediate,
    # not the same input read again: the loop's launches stay the cost)
    return (hypothesis.rewrite_family == "one-launch-over-grid" and traced.rewrite_family == "fuse-launches"
            and kernel is not None and facts.get("kernels") == [kernel]
            and facts.get("readers", [kernel]) == [kernel])


def _outweighs(fact: Finding) -> float:
    """The traffic share a trace finding needs to outweigh a confirmation by `fact`: half, or a
    quarter when the fact is an instruction-only symptom (int64 arithmetic, an exact libm call)."""
    # only an IR symptom carries a weight; a tier-2 measurement (spills, a stall, a roofline)
    # is no instruction-only fact, whatever its evidence lacks
    weight = fact.evidence.get("weight")
    if weight is None and fact.tier == 4:  # a compiler answer weighs as the symptom it was asked about
        weight = SYMPTOM_WEIGHT.get(fact.evidence.get("symptom_asked", ""))
    cheap = weight is not None and weight <= INSTRUCTION_ONLY
    return INSTRUCTION_OUTWEIGHS if cheap else TRACE_OUTWEIGHS


INSTRUCTION_ONLY = 1  # a symptom of this weight costs instructions, not memory traffic
INSTRUCTION_OUTWEIGHS = 0.25


MEASURED_TWICE = 2.0  # a traced cost whose removal would gain this many times the hypothesis' own


def _gain(share: float) -> float:
    """What removing a measured share of the work (or of the machine left idle) could gain at most."""
    return 1.0 / (1.0 - min(max(share, 0.0), 0.95))


def _fact_share(ctx: Context, fact: Finding | None) -> float | None:
    """The share of the traced traffic a host-code fact's fix saves, when the fact counts its
    bytes (an input the launches read again; an intermediate written and read back)."""
    if fact is None or ctx.trace is None:
        return None
    reread, hop = fact.evidence.get("reread") or {}, fact.evidence.get("hop") or {}
    saved = reread.get("bytes") or 2 * (hop.get("bytes") or 0)
    total = sum(r["sector_bytes"] for r in traffic(ctx.trace))
    return min(saved / total, 1.0) if saved and total else None


def _traced_elsewhere(ctx: Context, hypothesis: Finding,
                      outweighs: float = TRACE_OUTWEIGHS, fact: Finding | None = None) -> Finding | None:
    """A trace finding of another family that explains most of the traffic, while the trace
    shows nothing of the confirmed hypothesis' family: the IR saw the hypothesis' mechanism,
    the run measured that the bytes (or the steps) go elsewhere. A finding weighed in time
    against all the kernels' work (host read-backs) outweighs one the trace also shows, and so does
    one whose removal could gain at least twice what the trace's share for the hypothesis' family
    could (15 of 16 loop steps thrown away, 16x, against half the SMs idle, 2x)."""
    first = ctx.tier(1)
    traced = [f for f in first.findings if f.kind == "trace"] if first else []
    # the trace's own measure of the hypothesis' family, if it shows it at all
    also = max((f.evidence.get("share", 0.0) for f in traced
                if f.rewrite_family == hypothesis.rewrite_family), default=None)
    # what the confirming fact's own fix saves of the traced traffic, when it counts its bytes:
    # a measured cost of another mechanism than the fact's that gains at least twice as much
    # outweighs it, kindred or not
    saved = _fact_share(ctx, fact)
    explained = {ctx.cards[c].rewrite_family for c in (fact.evidence.get("explains_cards") or [])
                 if c in ctx.cards} if fact is not None else set()
    kin = next((g for g in KINDRED_FAMILIES if hypothesis.rewrite_family in g), frozenset())
    idioms = _source_idioms(first) if first else set()
    # a task whose cost model computes far more per byte than the ridge spends its time on
    # arithmetic: where its bytes go says nothing of where its time goes
    guess = ctx.task_estimate()
    arithmetic = guess is not None and guess.intensity >= ARITHMETIC_BOUND * guess.ridge
    # within a kindred group the idiom says which form the mechanism takes, unless the idiom
    # of another form is seen in the source too and the trace weighed it in time against all
    # the kernels' work (shares of bytes within one mechanism do not tell its forms apart)
    heavy = [f for f in traced if f.evidence.get("share", 0.0) >= outweighs
             and not f.evidence.get("ranks_only")  # tuning ranks; it does not overrule
             and "refuted_by_trace" not in f.evidence
             and (f.rewrite_family not in kin
                  or (f.evidence.get("of_time") and f.rewrite_family in idioms)
                  or (saved is not None and f.rewrite_family not in explained
                      and _gain(f.evidence.get("share", 0.0)) >= MEASURED_TWICE * _gain(saved)))
             and (also is None or f.evidence.get("of_time")
                  or _gain(f.evidence.get("share", 0.0)) >= MEASURED_TWICE * _gain(also))
             and not _same_access(f, hypothesis)
             and not (arithmetic and f.rewrite_family in BYTES_FAMILIES and not f.evidence.get("of_time"))]
    # two readings of one measure (the same loads, the same share): the one a source idiom also
    # names is seen twice
    return max(heavy, key=lambda f: (f.confidence, f.rewrite_family in idioms), default=None)


# what a trace measures as bytes moved (where they go, how many passes): no measure of the time
# of a task bound by its arithmetic (the dropped steps of a tile, a walk's steps, are work)
BYTES_FAMILIES = frozenset({"fuse-launches", "drop-host-copies", "allocate-empty-output",
                            "cast-inside-kernel", "coalesce-contiguous-axis", "contiguous-load-gather",
                            "load-contiguous-transpose-on-chip", "vectorize-loads"})


def _same_access(traced: Finding, hypothesis: Finding) -> bool:
    """The trace measured the very access the confirmed hypothesis is about (a gather through
    loaded indices whose addresses happened to step evenly in the run): one access read two
    ways, not traffic going elsewhere; the source says what the access is."""
    if hypothesis.rewrite_family != "contiguous-load-gather":
        return False
    line, first = traced.location.get("line"), hypothesis.location.get("line")
    last = hypothesis.location.get("end_line") or first
    return isinstance(line, int) and isinstance(first, int) and first <= line <= last


WEAK_CONFIRMED = 0.5  # a hypothesis this unsure is not made the answer by the IR alone


CHEAP_FACT = 2  # a symptom of at most this weight (narrow loads, a layout conversion) costs little


def _stronger_unseen_work(ctx: Context, confirmed: Finding, fact: Finding | None = None) -> Finding | None:
    """A tier-1 hypothesis about work the IR cannot show (a zero fill, a launch loop in the host
    code, a host read-back, a loop over retired lanes), of another family, that tier 1 is surer
    of than of the confirmed one, when the IR confirmed only a weak hypothesis or confirmed
    through a cheap symptom: an int64 index symptom does not make int32 indexing the answer
    over a certain extra pass through memory."""
    cheap = fact is not None and fact.evidence.get("weight", 0) <= CHEAP_FACT
    if confirmed.confidence >= WEAK_CONFIRMED and not cheap:
        return None
    unseen = _unseen_work_idiom(ctx, confirmed.rewrite_family, SOURCE_CAUSE_CONFIDENCE)
    return unseen if unseen is not None and unseen.confidence > confirmed.confidence else None


def _unseen_work_idiom(ctx: Context, family: str,
                       floor: float | None = None) -> Finding | None:
    """A tier-1 hypothesis of another family about work no IR shows, at least `floor` sure
    (by default a confident one: WORK_IDIOM_CONFIDENCE)."""
    floor = WORK_IDIOM_CONFIDENCE if floor is None else floor
    return next((h for h in ctx.hypotheses() if h.rewrite_family != family
                 and h.confidence >= floor and h.card_id not in IR_VISIBLE_CARDS),
                None)


def _most_direct(pairs: list[tuple[Finding, Finding]]) -> list[tuple[Finding, Finding]]:
    """Where one fact confirms several hypotheses, keep the one whose mechanism the fact
    lists first (a strided fast axis before a missing hint: no hint fixes a stride)."""
    kept = []
    for fact in dict.fromkeys(id(f) for _, f in pairs):
        mine = [(h, f) for h, f in pairs if id(f) == fact]
        # an idiom the source alone makes sure of (its own detector, not a line the trace
        # measured) that explains the symptom at as many of its lines as any other cause does:
        # narrow loads at three lines whose addresses all come from a div/mod decode of seven
        # runtime sizes, of which one line is also strided
        covered: dict[str, set[int]] = {}
        for h, f in mine:
            covered.setdefault(h.card_id, set()).update(_lines_explained(f, h))
        # accesses a loop repeats carry the traffic: a cause explained only at accesses made once
        # per program (a row's offsets, its one store) gives way to one explained inside the loop
        hot = set(mine[0][1].evidence.get("lines_in_loops") or [])
        if hot and any(lines & hot for lines in covered.values()):
            mine = [(h, f) for h, f in mine if covered[h.card_id] & hot]
            covered = {card: lines for card, lines in covered.items() if lines & hot}
        widest = max(len(lines) for lines in covered.values())
        sure = {h.card_id for h, _ in mine if h.confidence >= SUFFICIENT_CONFIDENCE
                and "measured_by_trace" not in h.evidence and len(covered[h.card_id]) == widest}
        mine = [(h, f) for h, f in mine if h.card_id in sure] or mine
        # the fact's order ranks causes the source is about as sure of; a weak one (a constant
        # `// 2` read as a decode) does not take the symptom from a confident one
        mine = [(h, f) for h, f in mine if h.confidence >= WEAK_CONFIRMED] or mine
        order = mine[0][1].evidence.get("explains_cards") or []
        rank = {card: i for i, card in enumerate(order)}
        best = min(rank.get(h.card_id, len(order)) for h, _ in mine)
        kept += [(h, f) for h, f in mine if rank.get(h.card_id, len(order)) == best]
    return kept


def _heaviest(pairs: list[tuple[Finding, Finding]]) -> list[tuple[Finding, Finding]]:
    """Where different facts confirm different hypotheses, the costliest fact's confirmation
    answers first (a grid that idles most SMs before the narrow loads of the programs left)."""
    if not pairs:
        return pairs
    top = max(f.evidence.get("weight", 0) for _, f in pairs)
    return [(h, f) for h, f in pairs if f.evidence.get("weight", 0) == top]


def _stated_heavier(latest: TierResult, pairs: list[tuple[Finding, Finding]]) -> bool:
    """The latest tier concludes on its own through a mechanism the IR states outright (a dot
    asked for IEEE fp32 inputs), heavier than any fact that confirms a tier-1 hypothesis."""
    if not latest.sufficient or latest.tier != 3 or not latest.findings:
        return False
    top = _deciding(latest)
    weight = max((f.evidence.get("weight", 0) for _, f in pairs), default=0)
    return bool(set(top.evidence.get("mechanisms") or ()) & STANDALONE_MECHANISMS) \
        and top.evidence.get("weight", 0) > weight


def _heavier_unexplained(latest: TierResult, pairs: list[tuple[Finding, Finding]]
                         ) -> Finding | None:
    """An IR symptom heavier than every confirmed one, in a confirmed kernel, left unexplained."""
    if not pairs or latest.tier != 3:
        return None
    confirmed = {id(f) for _, f in pairs}
    weight = max(f.evidence.get("weight", 0) for _, f in pairs)
    kernels = {(f.location or {}).get("function") for _, f in pairs}
    return next((f for f in latest.findings if f.kind == "ir-symptom" and id(f) not in confirmed
                 and f.evidence.get("weight", 0) > weight
                 and (f.location or {}).get("function") in kernels), None)


COSTLY_EVIDENCE = 0.6  # a tier-2 hotspot finding this confident names where the time goes
# A confident tier-1 hypothesis about work the IR cannot show (a loop over masked tiles, a
# random draw per element, a copy in the host code) is evidence about the cost too.
WORK_IDIOM_CONFIDENCE = 0.7
# A serial recurrence explains narrow loads when it walks one element a step, but one carried
# over a tile of channels leaves no IR symptom at all: its work stays unseen. So with a table
# scan: entries loaded one a step are narrow loads, a whole table compared at once is none.
SOMETIMES_VISIBLE = frozenset({"common-serial-recurrence", "common-linear-table-scan"})
IR_VISIBLE_CARDS = {c for cards in (*SYMPTOM_CARDS.values(), *MECHANISM_CARDS.values(),
                                     HOST_CARDS) for c in cards} - SOMETIMES_VISIBLE


def answer_misses_the_cost(ctx: Context) -> Decision | None:
    """A tier-4 answer concludes only when it explains the cost: when tier 2 measured the time
    going elsewhere, or tier 3 shows a costlier symptom that names another family, the answer
    (about a cheaper symptom) is kept as evidence at half its confidence and does not conclude."""
    latest = ctx.evidence[-1]
    if latest.tier != 4 or not latest.findings:
        return None
    answers = [f for f in latest.findings if f.rewrite_family]
    if not answers:
        return None
    lead = _deciding(latest) if latest.sufficient else max(answers, key=lambda f: f.confidence)
    # an answer whose branch decided for another backend's rewrite still answers its symptom:
    # when that symptom costs more, it leads, and the cheaper answers do not outweigh it
    lead = max([f for f in latest.findings if f.evidence.get("elsewhere")] + [lead], key=_asked_weight)
    rival = _costlier_evidence(ctx, lead)
    if rival is None:
        return None
    for f in answers:
        f.confidence = round(f.confidence / 2, 3)
        f.evidence["explains_cost"] = False
        if rival.rewrite_family:
            f.evidence["outweighed_by"] = rival.rewrite_family  # weigh.rank keeps it below
    latest.sufficient = False
    why = (f"Tier 4 answers why {lead.evidence.get('symptom_asked') or 'the symptom'} "
           f"happens ({lead.rewrite_family}), but that does not explain the cost: {rival.message}")
    if rival.kind == "trace" and rival.evidence.get("share", 0.0) >= MEASURED_WASTE:
        # the run measured where most of the traffic goes: that is the answer, in the form a
        # kindred source idiom names when there is one (the trace measures the mechanism)
        idiom = _kindred_idiom(ctx, rival)
        if idiom is not None:
            why += f" The source names the form it takes: {idiom.message}"
        return Decision(stop=True, verdict="concluded", reason=why,
                        conclusion=_alone(ctx, ctx.tier(1), idiom or rival))
    return climb(why)


def _asked_weight(answer: Finding) -> int:
    """The cost weight of the symptom a tier-4 answer was asked about."""
    return SYMPTOM_WEIGHT.get(answer.evidence.get("symptom_asked", ""), 0)


def _kindred_idiom(ctx: Context, traced: Finding, overruled: str = "") -> Finding | None:
    """The source idiom, at least SOURCE_CAUSE_CONFIDENCE sure, of another family in the trace
    finding's kindred group (not the family it overrules): the trace measured the mechanism,
    the idiom names its form."""
    kin = frozenset().union(*(g for g in KINDRED_FAMILIES if traced.rewrite_family in g))
    return max((h for h in ctx.hypotheses() if h.rewrite_family != overruled
                and (h.rewrite_family in kin - {traced.rewrite_family} or _discards_steps_of(h, traced))
                and h.confidence >= SOURCE_CAUSE_CONFIDENCE and not is_fallback(h)),
               key=lambda h: h.confidence, default=None)


def _discards_steps_of(idiom: Finding, traced: Finding) -> bool:
    """The idiom's loop throws steps away (computed in full, then discarded by a flag) and
    encloses the traced lines: the trace counts the steps, the idiom says most need not run."""
    span = (idiom.evidence.get("facts") or {}).get("discarded_steps")
    line = (traced.location or {}).get("line")
    return bool(span) and isinstance(line, int) and span[0] <= line <= (span[1] or span[0])


def _overruling_form(ctx: Context, traced: Finding, overruled: Finding) -> Finding | None:
    """A trace finding that overrules a confirmed idiom of another family concludes in the form
    a kindred source idiom names: the one at the traced access itself when the source reads that
    access surer in a kindred form than in the trace's own (a loop over a record's fields, not a
    column walk), else any, when the source has no idiom of the trace's own family."""
    if traced.rewrite_family == overruled.rewrite_family:
        return None
    line = (traced.location or {}).get("line")
    here = [h for h in ctx.hypotheses() if line is not None and (h.location or {}).get("line") == line
            and h.confidence >= SOURCE_CAUSE_CONFIDENCE and not is_fallback(h)]
    form = _kindred_idiom(ctx, traced, overruled.rewrite_family)
    if form is not None and form in here and all(
            h.confidence < form.confidence for h in here if h.rewrite_family == traced.rewrite_family):
        return form
    own = any(h.rewrite_family == traced.rewrite_family and h.confidence >= SOURCE_CAUSE_CONFIDENCE
              for h in ctx.hypotheses())
    return None if own else form


def _costlier_evidence(ctx: Context, answer: Finding) -> Finding | None:
    """Lower-tier evidence about where the time goes that names another family: a confident
    tier-2 hotspot finding, a tier-3 finding heavier than the symptom tier 4 answered, when
    that symptom is a cheap one a CPU-trace finding of an unrelated family that explains at
    least half the traffic (`_traced_elsewhere`; three quarters whatever the symptom), a family
    the source idiom and the trace both name (`_seen_twice`), or a confident idiom about work no
    IR shows."""
    family = answer.rewrite_family
    weight = _asked_weight(answer)
    measured = ctx.tier(2)
    for f in measured.findings if measured else []:
        if (f.evidence.get("hotspot") and f.rewrite_family and f.rewrite_family != family
                and f.confidence >= COSTLY_EVIDENCE):
            return f
    ir = ctx.tier(3)
    for f in ir.findings if ir else []:
        if (f.rewrite_family and f.rewrite_family != family
                and f.evidence.get("weight", 0) > weight):
            return f
    # a cheap symptom's answer gives way to a trace finding over half the traffic; any answer
    # gives way to one measuring at least 3/4 of the traffic wasted (a 4x gain no pipelining,
    # layout or hint answer reaches)
    # (an instruction-only symptom's answer, as a confirmation by such a fact, to a quarter)
    outweighs = (INSTRUCTION_OUTWEIGHS if weight <= INSTRUCTION_ONLY
                 else TRACE_OUTWEIGHS if weight <= CHEAP_FACT else MEASURED_WASTE)
    traced = _traced_elsewhere(ctx, answer, outweighs)
    # an idiom about work no IR shows outweighs a cheap symptom's answer once the source is
    # fairly sure of it, any other answer only when it is confident
    floor = SOURCE_CAUSE_CONFIDENCE if weight <= CHEAP_FACT else WORK_IDIOM_CONFIDENCE
    return (traced or _seen_twice(ctx, family) or _unseen_work_idiom(ctx, family, floor)
            or _source_cause_of(ctx, answer) or _program_bound(ctx, family))


def _program_bound(ctx: Context, family: str) -> Finding | None:
    """The trace's short-programs finding, when its time model puts at least MEASURED_WASTE of
    the launch's time in the programs' own latency (trace.program_overhead_share): an answer
    about how the accesses compile changes the bytes' part of the time, which is the rest."""
    first = ctx.tier(1)
    return max((f for f in (first.findings if first else []) if f.kind == "trace"
                and f.rewrite_family != family
                and (f.evidence.get("facts") or {}).get("overhead_share", 0.0) >= MEASURED_WASTE),
               key=lambda f: f.evidence["facts"]["overhead_share"], default=None)


MEASURED_WASTE = 0.75  # a traced share this large outweighs a tier-4 answer about any symptom
SOURCE_CAUSE_CONFIDENCE = 0.6  # a tier-1 idiom this sure names the symptom's cause in the source


def _source_cause_of(ctx: Context, answer: Finding) -> Finding | None:
    """A tier-1 idiom known to produce the symptom tier 4 was asked about (one of the symptom's
    cards), found in this kernel's source, when tier 4's family has no idiom in the source and
    no clause of the deciding branch was checked against this kernel's facts: the compiler's
    generic reason for the symptom does not outweigh the kernel's own cause of it. Without such
    an idiom, any confident source idiom of another family: an answer nothing in this kernel's
    source supports does not conclude over one the source names with confidence."""
    if answer.evidence.get("kernel_check"):
        return None
    families = {h.rewrite_family for h in ctx.hypotheses() if not is_fallback(h)}
    if answer.rewrite_family in families:
        return None
    cards = SYMPTOM_CARDS.get(answer.evidence.get("symptom_asked", ""), ())
    confident = [h for h in ctx.hypotheses() if not is_fallback(h) and h.confidence >= SOURCE_CAUSE_CONFIDENCE]
    causes = [h for h in confident if h.card_id in cards] or confident
    return max(causes, key=lambda h: h.confidence, default=None)


def _source_idioms(first: TierResult) -> set[str]:
    """The families tier 1's source idioms name (not fallback guesses)."""
    return {f.rewrite_family for f in first.findings if f.kind == "pattern" and not is_fallback(f)}


def _seen_twice(ctx: Context, family: str) -> Finding | None:
    """A family of another name that two independent looks of tier 1 support: a source idiom
    (not a fallback guess) and the CPU trace's measurement of the same mechanism. A compiler
    answer about one symptom does not outweigh both; its trace finding is returned."""
    first = ctx.tier(1)
    if first is None:
        return None
    idioms = _source_idioms(first) - {family}
    traced = [f for f in first.findings if f.kind == "trace" and f.rewrite_family in idioms]
    return max(traced, key=lambda f: f.confidence, default=None)


def at_the_roofline(ctx: Context) -> Decision | None:
    """Tier 2 places the hotspot near its ceiling: no hotspot that tuning can fix is left, and
    only doing less work helps (fusing launches moves fewer bytes)."""
    latest = ctx.evidence[-1]
    near = next((f for f in latest.findings if latest.tier == 2 and f.evidence.get("hotspot")
                 and f.evidence.get("near_ceiling", (f.evidence.get("pct_of_ceiling") or 0) >= NEAR_CEILING_PCT)),
                None)
    if near is None:
        return None
    fuse = next((h for h in ctx.hypotheses() if h.rewrite_family == LESS_WORK_FAMILY), None)
    if fuse is not None:
        return Decision(stop=True, verdict="concluded",
                        reason=f"The hotspot is near its ceiling ({near.message}), so only less "
                               f"work helps, and tier 1 found work to remove: {fuse.card_id}.",
                        conclusion=_confirmed(ctx, fuse, near, [(fuse, near)]))
    return Decision(stop=True, verdict="inconclusive",
                    reason=f"The hotspot is near its ceiling: {near.message} No source change "
                           "that keeps the work the same can win much; fuse it with its producer "
                           "or consumer to move fewer bytes.")


def sufficient_alone(ctx: Context) -> Decision | None:
    """The latest tier answered all three questions from its own evidence."""
    latest = ctx.evidence[-1]
    if not latest.sufficient or not latest.findings:
        return None
    top = _deciding(latest)
    unseen = _unseen_work_idiom(ctx, top.rewrite_family, SOURCE_CAUSE_CONFIDENCE) \
        if latest.tier == 3 else None
    if unseen is not None and top.evidence.get("weight", CHEAP_FACT + 1) <= CHEAP_FACT \
            and unseen.confidence > _tier1_confidence(ctx, top.card_id):
        # a cheap IR fact whose idiom tier 1 did not find (or found less surely) does not
        # answer over a confident idiom about work the IR cannot show (see _stronger_unseen_work)
        return climb(f"Tier 3 alone names {top.card_id} through a cheap symptom only, while a "
                     f"stronger hypothesis about work the IR cannot show stays open "
                     f"({unseen.card_id}, {unseen.confidence:.2f}).")
    traced = _traced_elsewhere(ctx, top, MEASURED_WASTE) if latest.tier == 3 else None
    if traced is None and latest.tier == 3 and top.evidence.get("weight", CHEAP_FACT + 1) <= CHEAP_FACT:
        # a cheap IR fact about how the accesses compile changes the bytes' part of the time;
        # the trace's time model puts three quarters or more of it in the programs' own latency
        traced = _program_bound(ctx, top.rewrite_family)
    if traced is not None:
        # an IR fact about how the work runs does not outweigh a measure that most of the work
        # (three quarters or more) is wasted in another way: the trace's finding answers
        idiom = _overruling_form(ctx, traced, top)
        form = f" The source names the form it takes: {idiom.message}" if idiom is not None else ""
        return Decision(stop=True, verdict="concluded",
                        reason=f"Tier 3 alone names {top.card_id} ({_head(top.message)}...), but the "
                               f"CPU trace measured where the work goes: {traced.message}{form}",
                        conclusion=_alone(ctx, ctx.tier(1), idiom or traced))
    conclusion = _alone(ctx, latest, top)
    # the reason speaks of the finding that concludes (tier 4's own reason is about its search)
    named = _head(top.message) in latest.reason or conclusion.card_id in latest.reason
    lead = "" if named else f"{conclusion.card_id}: {_sentence(top.message)} "
    return Decision(stop=True, verdict="concluded",
                    reason=f"Tier {latest.tier} is enough on its own: {lead}{latest.reason}",
                    conclusion=conclusion)


def _tier1_confidence(ctx: Context, card: str) -> float:
    """How sure tier 1 was of `card` (0 when it did not find it)."""
    return max((h.confidence for h in ctx.hypotheses() if h.card_id == card), default=0.0)


def _deciding(tier: TierResult) -> Finding:
    """The finding the tier's own reason is about (its words or its card in the reason), so
    the conclusion's explanation and the report's reason speak of the same evidence; else the
    most confident one with a rewrite family."""
    named = [f for f in tier.findings if f.rewrite_family and (
        _head(f.message) in tier.reason or (f.card_id and f.card_id in tier.reason))]
    pool = named or [f for f in tier.findings if f.rewrite_family] or tier.findings
    return max(pool, key=lambda f: f.confidence)


def _head(message: str) -> str:
    return " ".join(message.split()[:8])


def unexplained_symptoms(ctx: Context) -> Decision | None:
    """IR symptoms that no tier-1 hypothesis explains: the pass's source has to say why."""
    latest = ctx.evidence[-1]
    symptoms = [f for f in latest.findings if f.kind == "ir-symptom"]
    if latest.tier != 3 or not symptoms:
        return None
    named = ", ".join(f"{f.evidence['symptom']} at {f.passes[0] if f.passes else '?'}"
                      for f in symptoms)
    return climb(f"The IR shows {named}, which no tier-1 hypothesis explains; the compiler "
                 "source has to say why the pass does this.")


POLICY: list[Callable[[Context], Decision | None]] = [
    broken_kernel,
    answer_misses_the_cost,
    confirmed_across_tiers,
    at_the_roofline,
    sufficient_alone,
    unexplained_symptoms,
]


def decide(ctx: Context) -> Decision:
    """The first rule of POLICY that applies to the evidence so far; otherwise climb."""
    for rule in POLICY:
        decision = rule(ctx)
        if decision is not None:
            return decision
    latest = ctx.evidence[-1]
    return climb(latest.skip_reason if latest.skipped else latest.reason)


def confirms(fact: Finding, hypothesis: Finding) -> bool:
    """Whether a higher tier's finding is evidence for a tier-1 hypothesis in the same kernel.

    A guess does not confirm a guess: the fact must be confident and, for tier 2, about the
    size that still matters (the hotspot)."""
    if fact.kind in BROKEN_KINDS or not hypothesis.rewrite_family:
        return False
    if fact.confidence < CONFIRMING_CONFIDENCE or fact.evidence.get("hotspot") is False:
        return False
    explains = fact.evidence.get("explains_cards") or ([fact.card_id] if fact.card_id else [])
    same_idiom = hypothesis.card_id in explains or fact.rewrite_family == hypothesis.rewrite_family
    if _spills_caused_by(hypothesis, fact, explains):
        return _same_kernel(fact, hypothesis)
    if stores_only(hypothesis.evidence.get("snippet", "")) and loads_only(fact.message):
        return False  # a defect in a store is not shown by facts about loads
    return same_idiom and _same_kernel(fact, hypothesis) and _same_place(fact, hypothesis)


def _spills_caused_by(hypothesis: Finding, fact: Finding, explains: list[str]) -> bool:
    """A spill fact naming the generic spills card, for a hypothesis of an idiom that spills."""
    spilled = fact.kind == "spills" or fact.evidence.get("symptom") == "register-spills"
    return spilled and SPILLS_CAUSED_BY.get(hypothesis.card_id, "") in explains


def _launched(hypothesis: Finding) -> str | None:
    """The kernel a launch-site hypothesis (block size, warps, stages, grid) is about."""
    kernel = (hypothesis.evidence.get("facts") or {}).get("kernel")
    return kernel if isinstance(kernel, str) else None


def _same_kernel(fact: Finding, hypothesis: Finding) -> bool:
    """Same kernel, or the fact's kernel inlines the @triton.jit helper the hypothesis is about."""
    a = (fact.location or {}).get("function")
    b = _launched(hypothesis) or (hypothesis.location or {}).get("function")
    return not a or not b or a == b or a in ((hypothesis.location or {}).get("callers") or ())


def _same_place(fact: Finding, hypothesis: Finding) -> bool:
    """A symptom pinned to source lines confirms an in-kernel hypothesis only when one of those
    lines lies in the hypothesis' statement (or is an access whose address uses what that
    statement assigns) and is explained there by its card; a launch-site
    hypothesis is about the whole kernel, so any line of the symptom will do."""
    line_cards = fact.evidence.get("line_cards") or {}
    if not line_cards or (hypothesis.location or {}).get("line") is None and not _launched(hypothesis):
        return True
    return bool(_lines_explained(fact, hypothesis))


def _lines_explained(fact: Finding, hypothesis: Finding) -> set[int]:
    """The symptom's source lines the hypothesis is explained at by its card (all of them for a
    launch-site hypothesis; else the lines of its statement and the accesses it reaches)."""
    line_cards = fact.evidence.get("line_cards") or {}
    mine = {int(line) for line, cards in line_cards.items() if hypothesis.card_id in cards}
    if _launched(hypothesis):
        return mine
    loc = hypothesis.location or {}
    first = loc.get("line")
    if first is None:
        return mine
    last = loc.get("end_line") or first
    reaches = set(loc.get("reaches") or [])
    return {line for line in mine if first <= line <= last or line in reaches}


# ---------------------------------------------------------------- conclusions

def _ref(ctx: Context, finding: Finding) -> FindingRef:
    tier = ctx.tier(finding.tier)
    return FindingRef(finding.tier, tier.findings.index(finding), finding.kind, finding.card_id)


def _hotspot(ctx: Context, source: Finding, stage: Finding) -> Hotspot:
    """Where the change goes; a measured finding names the profiled kernel, not a file."""
    loc = source.location or {}
    kernel = loc.get("function") or loc.get("kernel") or (stage.location or {}).get("kernel") or ""
    return Hotspot(kernel=kernel, path=loc.get("path") or str(ctx.target.kernel),
                   line=loc.get("line"), pass_arg=stage.passes[0] if stage.passes else "")


def _card_for(ctx: Context, finding: Finding) -> str:
    """The pattern card a concluded finding stands for: its own, else the first card of its
    family that it, a tier-1 hypothesis or another finding of the climb explains (the evidence's
    card, when a family has several), else the backend's card of that family."""
    if finding.card_id:
        return finding.card_id
    family = finding.rewrite_family
    named = [*(finding.evidence.get("explains_cards") or []), *(h.card_id for h in ctx.hypotheses()),
             *(c for tier in ctx.evidence for f in tier.findings for c in f.evidence.get("explains_cards") or [])]
    explained = [c for c in named if c in ctx.cards and ctx.cards[c].rewrite_family == family]
    own = sorted((c.backend != ctx.backend, c.id) for c in ctx.cards.values()
                 if c.rewrite_family == family)
    return (explained or [cid for _, cid in own] or [""])[0]


def _effect(ctx: Context, card_id: str) -> str:
    """The card's expected-effect sentence, only when tier 1 saw the card's idiom in this
    kernel: a card chosen for its family alone may describe another kind of kernel."""
    card = ctx.cards.get(card_id)
    seen = any(h.card_id == card_id for h in ctx.hypotheses())
    return f" Expected effect: {card.expected_effect}" if card and seen else ""


def _confirmed(ctx: Context, hypothesis: Finding, fact: Finding,
               pairs: list[tuple[Finding, Finding]]) -> Conclusion:
    effect = _effect(ctx, hypothesis.card_id)
    explanation = (f"{_sentence(hypothesis.message)} Tier {fact.tier} shows it happening: "
                   f"{_sentence(fact.message)}{effect}")
    supporting = [_ref(ctx, hypothesis)] + [_ref(ctx, f) for h, f in pairs if h is hypothesis]
    return Conclusion(rewrite_family=hypothesis.rewrite_family,
                      hotspot=_hotspot(ctx, hypothesis, fact), explanation=explanation,
                      card_id=hypothesis.card_id, supporting=supporting,
                      passes=list(dict.fromkeys(fact.passes + hypothesis.passes)),
                      citations=_citations(ctx, fact))


def _alone(ctx: Context, tier: TierResult, top: Finding) -> Conclusion:
    card_id = _card_for(ctx, top)
    effect = _effect(ctx, card_id)
    where = _in_kernel(ctx, top)
    supporting = [_ref(ctx, top)] + ([_ref(ctx, where)] if where is not top else [])
    return Conclusion(rewrite_family=top.rewrite_family, hotspot=_hotspot(ctx, where, top),
                      explanation=f"{_sentence(top.message)}{effect}", card_id=card_id,
                      supporting=supporting, passes=list(top.passes),
                      citations=_citations(ctx, top))


def _sentence(text: str) -> str:
    return text if text.rstrip().endswith((".", "!", "?")) else text.rstrip() + "."


def _in_kernel(ctx: Context, finding: Finding) -> Finding:
    """The finding that locates `finding` in the kernel: tier 4 points into compiler source,
    so its kernel location is the IR symptom it was asked about."""
    ir = ctx.tier(3)
    if finding.tier != 4 or ir is None or not ir.findings:
        return finding
    asked = [f for f in ir.findings if set(f.passes) & set(finding.passes)]
    return (asked or ir.findings)[0]


def _citations(ctx: Context, finding: Finding) -> list[Citation]:
    """The compiler passages behind a tier-4 finding: those of the escalation that asked it."""
    if finding.tier != 4:
        return []
    question = finding.evidence.get("question")
    return next((list(e.passages) for e in ctx.escalations if e.question == question), [])


# ---------------------------------------------------------------- the climb

def diagnose(ctx: Context, progress: Callable[[str], None] | None = None) -> Diagnosis:
    """Climb TIERS up to options.max_tier, asking POLICY after each tier whether to stop;
    `progress` hears one line as each tier starts."""
    timings: dict[str, float] = {}
    decision, tried = climb("No tier ran."), []
    for number, (name, run_tier) in enumerate(TIERS, start=1):
        if number > ctx.options.max_tier:
            decision = climb(f"{decision.reason} The climb stops at --max-tier "
                             f"{ctx.options.max_tier}.")
            break
        if progress:
            progress(f"tier {number} {name}...")
        started = time.perf_counter()
        result = run_tier(ctx)
        timings[name] = round(time.perf_counter() - started, 4)
        result.elapsed_s = result.elapsed_s or timings[name]
        ctx.evidence.append(result)
        decision = decide(ctx)
        tried.append(_tried(result, decision))
        if decision.stop:
            break
    return _diagnosis(ctx, decision, tried, timings)


def could_not_diagnose(diagnosis: Diagnosis) -> bool:
    """True when the climb stopped because the kernel does not parse or compile."""
    last = diagnosis.tiers[-1] if diagnosis.tiers else None
    return (diagnosis.verdict == "inconclusive" and last is not None
            and any(f.kind in BROKEN_KINDS for f in last.findings))


def _tried(result: TierResult, decision: Decision) -> str:
    head = f"tier {result.tier} {result.name}"
    if result.skipped:
        return f"{head}: skipped ({result.skip_reason})"
    found = ", ".join(dict.fromkeys(f.card_id or f.evidence.get("symptom") or f.kind
                                    for f in result.findings)) or "nothing"
    return f"{head}: found {found}; {decision.reason}"


def _diagnosis(ctx: Context, decision: Decision, tried: list[str],
               timings: dict[str, float]) -> Diagnosis:
    concluded = decision.conclusion is not None
    reason = decision.reason if decision.stop else f"No tier concluded. {decision.reason}"
    return Diagnosis(
        target=ctx.target.name, target_kind=ctx.target.kind, backend=ctx.backend,
        kernel_path=str(ctx.target.kernel), tiers=list(ctx.evidence),
        verdict="concluded" if concluded else "inconclusive", reason=reason,
        concluded_tier=ctx.evidence[-1].tier if concluded else None,
        conclusion=decision.conclusion, tried=tried, escalations=list(ctx.escalations),
        timings=timings, versions=_versions(ctx),
        created=datetime.now(UTC).isoformat(timespec="seconds"),
        ranking=_ranking(ctx, decision.conclusion))


def _ranking(ctx: Context, conclusion: Conclusion | None) -> list[dict[str, Any]]:
    """The evidence's own ranking; a concluded family leads it (the policy weighed more than
    the scores: which tier confirmed which hypothesis), the rest keep their order."""
    ranked = [asdict(c) | {"track_record": track_record(ctx.backend, c.rewrite_family)}
              for c in rank(ctx.evidence)]
    if conclusion is None:
        return ranked
    mine = [c for c in ranked if c["rewrite_family"] == conclusion.rewrite_family]
    lead = mine[0] if mine else {"rewrite_family": conclusion.rewrite_family, "score": 0.0,
                                 "card_id": conclusion.card_id, "by_tier": {},
                                 "track_record": track_record(ctx.backend, conclusion.rewrite_family)}
    lead["concluded"] = True
    return [lead] + [c for c in ranked if c is not lead]


def _versions(ctx: Context) -> dict[str, str]:
    versions = {"python": platform.python_version()}
    for package in ("passwise", "triton", "chromadb"):
        try:
            versions[package] = metadata.version(package)
        except metadata.PackageNotFoundError:
            continue
    return versions | ctx.versions

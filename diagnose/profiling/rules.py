"""Tier-2 rules: turn roofline places and counter facts into findings with rewrite-family hints.

Family ids and card ids are those of corpora/patterns/*.toml, so a tier-2 hint and a tier-1
match on the same idiom name the same rewrite.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from diagnose.evidence import Finding
from diagnose.triage.detectors.launch import FEW_WARPS

from .ncu import CounterFacts
from .roofline import (
    COMPUTE,
    LAUNCH,
    MEMORY,
    NEAR_CEILING_PCT,
    OCCUPANCY,
    RooflinePlace,
    launch_floor,
)

TIER = 2
NON_HOTSPOT_CAP = 0.3        # a size that is not the hotspot never leads the ladder
EXCESS_TRAFFIC_FACTOR = 1.5  # DRAM busier than the useful bytes explain by this much: wasted sectors
TENSOR_CORE_MARGIN = 1.15    # fp32 work at most this far above the fp32 (SIMT) rate: no tensor cores
UNKNOWN_LIMITER_CONFIDENCE = 0.4  # occupancy low for no reason the counters show: below confirming
# A compute-bound hotspot past the roofline's near bar that a reference (cuBLAS through eager
# torch) still beats on the same work: tiles and MMAs are right, and what the library does
# better is how tiles reach the tensor cores. A hypothesis the TTGIR can confirm (no TMA copies).
REFERENCE_GAP_CONFIDENCE = 0.45
# Launch configuration the counters name outright (programs below the SM count, one or two
# warps per program) while the hotspot sits this far below its ceiling: the configuration
# explains the time, so tier 2 can conclude without the IR.
LAUNCH_CONFIG_LIMITERS = ("grid", "warps")
FAR_BELOW_PCT = 50.0
EXPLAINED_CONFIDENCE = 0.85


@dataclass
class Hint:
    """A rewrite family the numbers point to, with the card that describes it."""

    family: str
    card: str
    confidence: float
    why: str
    alternatives: list[str] = field(default_factory=list)
    needed: list[str] = field(default_factory=list)
    # the rule's default when the numbers do not say which cause: a guess the ranking puts
    # after any specific evidence (diagnose.weigh)
    fallback: bool = False


@dataclass
class Context:
    task: str
    backend: str
    hotspot_size: str | None
    all_launch_bound: bool


# What the roofline alone leaves open, per backend: the families that commonly cause each class.
MEMORY_ALTERNATIVES = {
    "cuda": ["coalesce-contiguous-axis", "split-work-across-programs", "add-divisibility-hints",
             "autotune-configs"],
    "ascend": ["contiguous-load-gather", "align-32-bytes", "intra-core-tiling-loop", "grid-size-cores"],
}
COMPUTE_ALTERNATIVES = ["pipeline-stages", "l2-grouped-ordering", "tma-descriptors", "persistent-kernel"]
# Stall reason -> (family, card) where one stall points at one rewrite.
STALL_FAMILIES = {
    "mio_throttle": ("avoid-transpose-in-kernel", "cuda-smem-bank-conflicts"),
    "short_scoreboard": ("avoid-transpose-in-kernel", "cuda-smem-bank-conflicts"),
    "lg_throttle": ("add-divisibility-hints", "cuda-runtime-stride-no-hints"),
}
OCCUPANCY_FAMILIES = {
    "grid": ("split-work-across-programs", "cuda-small-grid-underfill"),
    "warps": ("num-warps-tuning", "cuda-too-few-warps"),
    "registers": ("block-size-tuning", "cuda-register-spills"),
    "shared-memory": ("pipeline-stages", "cuda-smem-limits-occupancy"),
    "unknown": ("autotune-configs", "common-no-autotune"),
}


# Too few programs per launch is an effect when the launcher loops over launches: each launch
# gets one slice of the work, so the grid is small because the loop is on the host. A tier-1
# launch-loop hypothesis is the cause these counters confirm first; a small grid alone comes after.
GRID_CARD = "cuda-small-grid-underfill"
GRID_EXPLAINS = ("common-launch-loop", GRID_CARD)


def _explains(card: str) -> dict:
    return {"explains_cards": list(GRID_EXPLAINS)} if card == GRID_CARD else {}


def roofline_finding(p: RooflinePlace, facts: CounterFacts | None, ctx: Context) -> Finding:
    """One finding per size: its class, its numbers, and the family they point to."""
    hint = _hint(p, facts, ctx)
    hot = p.size == ctx.hotspot_size
    confidence = hint.confidence if hot or not hint.family else min(hint.confidence, NON_HOTSPOT_CAP)
    evidence = p.facts() | {"hotspot": hot, "why": hint.why, "candidate_families": hint.alternatives}
    if hint.fallback:
        evidence["fallback"] = True
    evidence |= _explains(hint.card)
    if facts is not None and facts.size == p.size:
        evidence["counters"] = facts.facts()
    return Finding(
        tier=TIER, kind="launch-bound" if p.kernel_class == LAUNCH else "roofline",
        card_id=hint.card, rewrite_family=hint.family, message=_message(p, hot),
        confidence=round(confidence, 2), location={"task": ctx.task, "size": p.size, "dtype": p.dtype},
        evidence=evidence, evidence_needed=hint.needed)


def counter_findings(p: RooflinePlace | None, facts: CounterFacts, ctx: Context) -> list[Finding]:
    """Spills, occupancy and stall findings of the profiled size."""
    hot = p is not None and p.size == ctx.hotspot_size
    far = p is not None and not p.near_ceiling
    loc = {"task": ctx.task, "size": facts.size, "kernel": facts.kernel}
    needed = [] if hot else [f"profile the hotspot size {ctx.hotspot_size} (counters are of {facts.size})"]
    out = []
    if facts.spills:
        conf = 0.85 if hot and far else 0.6
        card, family = _spill_cause(facts)
        out.append(Finding(
            TIER, "spills", card, family,
            f"{facts.kernel} spills registers at size {facts.size}: {facts.local_loads or 0:.0f} local "
            f"loads and {facts.local_stores or 0:.0f} local stores with "
            f"{facts.registers_per_thread or 0:.0f} registers per thread"
            + (f" and {facts.threads_per_program} threads per program." if family == "num-warps-tuning"
               else "."),
            conf, loc, facts.facts(), needed))
    if facts.occupancy_low and far:
        limiter = facts.occupancy_limiter()
        family, card = OCCUPANCY_FAMILIES[limiter]
        conf = 0.6 if hot and facts.units_idle and limiter != "unknown" else 0.4
        if hot and _configuration_explains(p, facts, limiter):
            conf = EXPLAINED_CONFIDENCE
        out.append(Finding(
            TIER, "occupancy", card, family,
            f"{facts.kernel} keeps {facts.occupancy_pct:.0f}% of the warp slots busy at size "
            f"{facts.size} (limited by {limiter}); DRAM at {_pct(facts.dram_pct)}, SM at {_pct(facts.sm_pct)}.",
            conf, loc, facts.facts() | {"limiter": limiter} | _explains(card)
            | ({"fallback": True} if limiter == "unknown" else {}), needed))
    stall = facts.top_stall()
    if stall and far:
        out.append(_stall_finding(stall, p, facts, loc, needed))
    for f in out:
        f.evidence["hotspot"] = hot
    return out


FEW_WARP_THREADS = 32 * FEW_WARPS  # threads per program of one or two warps


def _spill_cause(facts: CounterFacts) -> tuple[str, str]:
    """(card, family) of spills: with one or two warps per program each thread holds a large
    share of the tile, so more warps is the change; otherwise the tile itself is too big."""
    if facts.threads_per_program is not None and facts.threads_per_program <= FEW_WARP_THREADS:
        return "cuda-too-few-warps", "num-warps-tuning"
    return "cuda-register-spills", "block-size-tuning"


def _stall_finding(stall: dict, p: RooflinePlace | None, facts: CounterFacts, loc: dict,
                   needed: list[str]) -> Finding:
    reason = stall["reason"]
    family, card = STALL_FAMILIES.get(reason, ("", ""))
    if reason == "long_scoreboard" and p is not None and p.kernel_class == COMPUTE:
        family, card = "pipeline-stages", "cuda-kloop-unpipelined"  # tile loads not overlapped with MMA
    return Finding(
        TIER, "stalls", card, family,
        f"{facts.kernel}'s warps stall most on {reason} ({stall['per_issue']:.2f} cycles per issued "
        f"instruction) at size {facts.size}.",
        0.35 if family else 0.2, loc, {"stalls": facts.stalls[:4]}, needed)


def _hint(p: RooflinePlace, facts: CounterFacts | None, ctx: Context) -> Hint:
    if p.kernel_class == LAUNCH:
        return _launch_hint(p, ctx)
    if p.near_ceiling:
        lever = "moving fewer bytes (fusing with the producer or consumer)" if p.kernel_class == MEMORY \
            else "doing less arithmetic"
        return Hint("", "", 0.5, f"within {p.headroom_x:.2f}x of the roofline, tuning cannot win "
                    f"more; only {lever} helps")
    counters = facts if facts is not None and facts.size == p.size else None
    if p.kernel_class == OCCUPANCY and counters:
        limiter = counters.occupancy_limiter()
        family, card = OCCUPANCY_FAMILIES[limiter]
        # an unknown limiter leaves only the generic fallback: a guess, too weak to confirm one
        confidence = (EXPLAINED_CONFIDENCE if _configuration_explains(p, counters, limiter)
                      else 0.6 if limiter != "unknown" else UNKNOWN_LIMITER_CONFIDENCE)
        return Hint(family, card, confidence,
                    f"occupancy {counters.occupancy_pct:.0f}% with DRAM and SMs idle "
                    f"(limited by {limiter})", fallback=limiter == "unknown")
    if p.kernel_class == MEMORY:
        return _memory_hint(p, counters, ctx)
    if p.kernel_class == COMPUTE:
        return _compute_hint(p, counters)
    return Hint("", "", 0.2, "no cost model or ceilings: the time cannot be placed on a roofline",
                needed=["task cost() bytes/flops and measured ceilings (runner bench on the device)"])


def _launch_hint(p: RooflinePlace, ctx: Context) -> Hint:
    card = "cuda-launch-bound" if ctx.backend == "cuda" else "common-unfused-launches"
    why = (f"{p.achieved_us:.1f} us per call for {p.floor_us or 0:.2f} us of roofline work, "
           f"a gap the {launch_floor(ctx.backend):.0f} us launch cost explains")
    if ctx.all_launch_bound:
        return Hint("fuse-launches", card, 0.85, why + " at every size: fuse launches or capture a "
                    "CUDA graph", alternatives=["persistent-kernel"])
    return Hint("fuse-launches", card, 0.5, why, needed=["whether callers run this size often enough to matter"])


def _memory_hint(p: RooflinePlace, c: CounterFacts | None, ctx: Context) -> Hint:
    alternatives = MEMORY_ALTERNATIVES.get(ctx.backend, MEMORY_ALTERNATIVES["cuda"])
    if c is None:
        return Hint("block-size-tuning", "common-block-size", 0.4,
                    f"useful traffic at {p.pct_of_ceiling:.0f}% of copy bandwidth; without counters "
                    "the cause is open", alternatives,
                    ["ncu: DRAM throughput against the useful bytes, achieved occupancy, grid size"],
                    fallback=True)
    if c.spills:
        card, family = _spill_cause(c)
        return Hint(family, card, 0.6,
                    "register spills add local-memory traffic to a memory-bound kernel")
    moved = c.dram_bytes(p.copy_gbps)
    if len(c.kernels) >= 2 and moved and p.bytes and moved > EXCESS_TRAFFIC_FACTOR * p.bytes:
        names = ", ".join(k["name"] for k in c.kernels)
        return Hint("fuse-launches", "common-unfused-launches", 0.75,
                    f"{len(c.kernels)} kernels ({names}) move about {moved / p.bytes:.1f}x the "
                    f"task's useful bytes through DRAM ({moved / 1e6:.0f} MB for "
                    f"{p.bytes / 1e6:.0f} MB): the buffers handed between launches",
                    ["coalesce-contiguous-axis"],
                    ["tier 1/3: which buffer one launch writes and the next reads"])
    if c.dram_pct is not None and c.dram_pct >= 40 and c.dram_pct > EXCESS_TRAFFIC_FACTOR * (p.pct_of_ceiling or 0):
        return Hint("coalesce-contiguous-axis", "cuda-strided-fast-axis", 0.6,
                    f"DRAM {c.dram_pct:.0f}% busy while useful bytes reach {p.pct_of_ceiling:.0f}% of "
                    "copy bandwidth: sectors are fetched and wasted", ["l2-grouped-ordering"],
                    ["IR/SASS: load vector width and access pattern of the hot loads"])
    if c.grid_underfills:
        explained = _configuration_explains(p, c, "grid")
        return Hint("split-work-across-programs", "cuda-small-grid-underfill",
                    EXPLAINED_CONFIDENCE if explained else 0.6,
                    f"{c.programs} programs for {c.sm_count} SMs")
    if _configuration_explains(p, c, c.occupancy_limiter()):
        return Hint("num-warps-tuning", "cuda-too-few-warps", EXPLAINED_CONFIDENCE,
                    f"{c.threads_per_program} threads per program at "
                    f"{_pct(c.occupancy_pct)} occupancy: too few loads in flight per SM")
    return Hint("block-size-tuning", "common-block-size", 0.45,
                f"DRAM only {_pct(c.dram_pct)} busy at occupancy {_pct(c.occupancy_pct)}: too few bytes "
                "in flight per SM", alternatives, ["IR: loads per program and their vector width"],
                fallback=True)


def _configuration_explains(p: RooflinePlace | None, c: CounterFacts, limiter: str) -> bool:
    """The launch configuration alone accounts for the time: the counters name a grid or
    warp limiter and the kernel runs far below its ceiling (at most half of it)."""
    if p is None or limiter not in LAUNCH_CONFIG_LIMITERS or p.pct_of_ceiling is None:
        return False
    if p.pct_of_ceiling >= FAR_BELOW_PCT:
        return False
    if limiter == "grid":
        return bool(c.programs and c.sm_count and c.programs <= c.sm_count / 2)
    return bool(c.occupancy_low or c.spills)


def _compute_hint(p: RooflinePlace, c: CounterFacts | None) -> Hint:
    if (p.compute_ceiling == "tf32" and p.fp32_simt_tflops and p.achieved_tflops is not None
            and p.achieved_tflops <= TENSOR_CORE_MARGIN * p.fp32_simt_tflops):
        return Hint("lower-precision-dot", "cuda-fp32-dot", 0.75,
                    f"fp32 work at {p.achieved_tflops:.1f} TFLOP/s, no faster than the device's fp32 "
                    f"rate without tensor cores ({p.fp32_simt_tflops:.1f}); tf32 reaches "
                    f"{p.compute_tflops:.0f}", ["autotune-configs"],
                    ["tier 1/3: the tl.dot input_precision (ieee) or an fp32 FMA loop"])
    top = c.top_stall() if c is not None else None
    if top and top["reason"] == "long_scoreboard":
        return Hint("pipeline-stages", "cuda-kloop-unpipelined", 0.55,
                    f"compute-bound at {p.pct_of_ceiling:.0f}% with warps waiting on global loads "
                    "(long_scoreboard): loads are not overlapped with the MMAs",
                    ["autotune-configs", "tma-descriptors"], ["IR: num_stages of the K loop"])
    if p.floor_from != "roofline" and (p.pct_of_ceiling or 0) >= NEAR_CEILING_PCT:
        reference = "eager torch" if p.floor_from == "eager" else "torch.compile"
        return Hint("tma-descriptors", "cuda-no-tma-descriptors", REFERENCE_GAP_CONFIDENCE,
                    f"compute-bound at {p.pct_of_ceiling:.0f}% of the rate {reference} reaches on the "
                    f"same work, past the roofline's {NEAR_CEILING_PCT:.0f}% bar: the tiles suit the "
                    "tensor cores, and what the reference still does better is feeding them "
                    "(TMA tile loads, a persistent grid)",
                    ["persistent-kernel", "autotune-configs", "l2-grouped-ordering"],
                    ["TTGIR: ttng.async_tma_copy_global_to_local in the K loop (absent: tiles "
                     "through pointers)"])
    return Hint("autotune-configs", "common-no-autotune", 0.4,
                f"compute-bound at {p.pct_of_ceiling:.0f}% of the {p.compute_ceiling} matmul rate",
                COMPUTE_ALTERNATIVES, ["ncu: warp stall reasons and tensor-core pipe utilisation"],
                fallback=True)


def _message(p: RooflinePlace, hot: bool) -> str:
    head = f"size {p.size} ({p.dtype}): {p.kernel_class}"
    if p.kernel_class == LAUNCH:
        body = f", {p.achieved_us:.1f} us per call for {p.floor_us or 0:.2f} us of roofline work"
        if p.host_overhead_us:
            body += (f" ({p.achieved_us + p.host_overhead_us:.1f} us without CUDA-graph replay: "
                     f"{p.host_overhead_us:.1f} us of host launch overhead)")
    elif p.pct_of_ceiling is not None:
        ceiling = (f"measured {p.copy_gbps:.0f} GB/s copy bandwidth" if p.bound == "memory"
                   else f"measured {p.compute_tflops:.0f} TFLOP/s {p.compute_ceiling} matmul rate")
        if p.floor_from != "roofline":
            ceiling = (f"rate {'eager torch' if p.floor_from == 'eager' else 'torch.compile'} reaches "
                       f"on the same work (above the {ceiling})")
        body = (f" at {p.pct_of_ceiling:.0f}% of the {ceiling}: {p.achieved_us:.1f} us against "
                f"a {p.floor_us:.1f} us floor ({p.headroom_x:.2f}x headroom)")
    else:
        body = f", {p.achieved_us:.1f} us (no roofline: ceilings or cost unknown)"
    tail = f"; hotspot, {p.gap_us:.1f} us above its floor" if hot and p.gap_us is not None else ""
    return head + body + tail + _versus(p) + "."


def _versus(p: RooflinePlace) -> str:
    parts = []
    if p.vs_eager:
        parts.append(f"{_ratio(p.vs_eager)} eager torch")
    if p.vs_compile:
        parts.append(f"{_ratio(p.vs_compile)} torch.compile")
    return "; " + ", ".join(parts) if parts else ""


def _ratio(r: float) -> str:
    return f"{r:.2f}x faster than" if r >= 1 else f"{1 / r:.2f}x slower than"


def _pct(x: float | None) -> str:
    return f"{x:.0f}%" if x is not None else "?"

"""Tier-2 rules for Ascend: classify msprof op / torch_npu kernel records by their longest pipe
(scalar, MTE, vector, cube), by block dim against the core count, and by UB conflicts.

Thresholds follow hicann/oam-tools skills/cann-npu-perfanalysis/references/thresholds.md
(aiv_scalar_ratio > 0.5 warning / > 0.8 severe; vector MTE ratios > 0.5 severe; GM/UB bandwidth
usage < 30% severe; bank conflict ratio > 10%) and the msopprof user guide (per-core spread above
10% is load imbalance). None of this has run on an NPU: every finding says so.
"""

from __future__ import annotations

from dataclasses import dataclass

from diagnose.evidence import Finding
from diagnose.profiling.msprof import DOCS, AscendKernel

TIER = 2
SCALAR_BOUND = 0.5
MTE_BOUND = 0.5
VECTOR_BOUND = 0.5
CUBE_BOUND = 0.7
LOW_BANDWIDTH_PCT = 30.0
HIGH_BANDWIDTH_PCT = 70.0
BANK_CONFLICT = 0.10
IMBALANCE = 0.10
LAUNCH_US = 10.0          # shorter than this with every pipe under LOW_PIPE: start-up dominates
LOW_PIPE = 0.3
SCALAR_FALLBACK_FAMILIES = ["int32-indexing", "float-compare-mask", "vectorize-loads", "avoid-div-mod-index"]


@dataclass
class AscendCores:
    """Physical core counts of the NPU (triton-ascend: get_device_properties()["num_aicore"],
    ["num_vectorcore"]); unknown counts leave block-dim findings out."""

    cube: int | None = None
    vector: int | None = None

    def for_kernel(self, kernel: AscendKernel) -> int | None:
        return self.vector if kernel.core_type == "vector" else self.cube


def kernel_findings(kernel: AscendKernel, cores: AscendCores, task: str, hotspot: bool) -> list[Finding]:
    """The pipe-bound finding of one kernel plus its block-dim, conflict and imbalance findings."""
    out = [f for f in (_pipe_finding(kernel, task), _block_dim_finding(kernel, cores, task),
                       _conflict_finding(kernel, task), _imbalance_finding(kernel, task)) if f]
    for f in out:
        f.evidence["hotspot"] = hotspot
        if not hotspot:
            f.confidence = min(f.confidence, 0.3)
    return out


def _pipe_finding(k: AscendKernel, task: str) -> Finding | None:
    top = k.top_pipe()
    if top is None:
        return None
    pipe, share = top
    unit = pipe.split("_", 1)[1]
    if k.duration_us is not None and k.duration_us < LAUNCH_US and share < LOW_PIPE:
        return _finding(k, task, "launch-bound", "common-unfused-launches", "fuse-launches", 0.6,
                        f"{k.name} runs {k.duration_us:.1f} us with no pipe above {share:.0%}: "
                        "task start-up, not work, sets its time.")
    if unit == "scalar" and share >= SCALAR_BOUND:
        return _finding(k, task, "scalar-bound", "ascend-discrete-gather", "contiguous-load-gather", 0.5,
                        f"{k.name}: scalar pipe busy {share:.0%} of cycles against vector "
                        f"{_share(k, 'vec')}: work fell back to the scalar unit.",
                        alternatives=SCALAR_FALLBACK_FAMILIES,
                        needed=["tier 1/3: which construct is scalarised (indirect or strided load, "
                                "int64 index arithmetic, integer compare in tl.where, per-element loop)"])
    if unit in ("mte2", "mte3") and share >= MTE_BOUND:
        return _mte_finding(k, task, pipe, share)
    if unit == "vec" and share >= VECTOR_BOUND:
        return _finding(k, task, "vector-bound", "", "", 0.3,
                        f"{k.name}: vector pipe busy {share:.0%} of cycles, the longest pipe; only fewer "
                        "vector instructions help.", alternatives=["drop-redundant-select", "care-padding-off"])
    if unit == "cube" and share >= CUBE_BOUND:
        return _finding(k, task, "cube-bound", "", "", 0.3,
                        f"{k.name}: cube pipe busy {share:.0%} of cycles: the matmul unit sets the pace.")
    return _finding(k, task, "pipes", "", "", 0.2,
                    f"{k.name}: no pipe dominates (longest {pipe} at {share:.0%}): pipes wait on each "
                    "other.", alternatives=["intra-core-tiling-loop"],
                    needed=["simulator pipeline view (msprof op simulator) for the gaps between pipes"])


def _mte_finding(k: AscendKernel, task: str, pipe: str, share: float) -> Finding:
    usage = k.bandwidth_usage_pct.get("gm_to_ub" if pipe.endswith("mte2") else "ub_to_gm")
    head = f"{k.name}: {pipe.split('_', 1)[1].upper()} (transfer) busy {share:.0%} of cycles"
    if usage is not None and usage >= HIGH_BANDWIDTH_PCT:
        return _finding(k, task, "mte-bound", "", "", 0.3,
                        f"{head} at {usage:.0f}% of the channel bandwidth: only fewer bytes help.")
    if usage is not None and usage < LOW_BANDWIDTH_PCT:
        return _finding(k, task, "mte-bound", "ascend-strided-fast-axis", "coalesce-contiguous-axis", 0.55,
                        f"{head} yet the channel runs at {usage:.0f}% of its bandwidth: many small or "
                        "non-contiguous transfers.", alternatives=["align-32-bytes", "intra-core-tiling-loop"])
    return _finding(k, task, "mte-bound", "ascend-single-pass-no-multibuffer", "intra-core-tiling-loop", 0.4,
                    f"{head}; bandwidth usage {'unknown' if usage is None else f'{usage:.0f}%'}.",
                    alternatives=["contiguous-load-gather", "align-32-bytes", "ub-tiling"],
                    needed=["msprof op Memory.csv: GM_to_UB_bw_usage_rate(%)"])


def _block_dim_finding(k: AscendKernel, cores: AscendCores, task: str) -> Finding | None:
    count = cores.for_kernel(k)
    if not count or not k.block_dim:
        return None
    if k.block_dim < count:
        idle = (count - k.block_dim) / count  # the share of the NPU left unused bounds the win
        return _finding(k, task, "block-dim", "ascend-grid-exceeds-cores", "grid-size-cores",
                        round(0.3 + 0.3 * idle, 2),
                        f"{k.name} runs Block Dim {k.block_dim} on {count} {k.core_type} cores: "
                        f"{count - k.block_dim} cores idle.")
    if k.block_dim > count and k.block_dim % count:
        return _finding(k, task, "block-dim", "ascend-grid-exceeds-cores", "grid-size-cores", 0.55,
                        f"{k.name} runs Block Dim {k.block_dim} on {count} {k.core_type} cores: "
                        f"{-(-k.block_dim // count)} scheduling rounds, the last one partial.")
    if k.block_dim > count:
        return _finding(k, task, "block-dim", "ascend-grid-exceeds-cores", "grid-size-cores", 0.45,
                        f"{k.name} runs Block Dim {k.block_dim} on {count} {k.core_type} cores: "
                        f"{k.block_dim // count} scheduling rounds of core start-up.")
    return None


def _conflict_finding(k: AscendKernel, task: str) -> Finding | None:
    worst = max(((n, v) for n, v in k.conflicts.items() if "bank" in n), key=lambda kv: kv[1], default=None)
    if worst is None or worst[1] <= BANK_CONFLICT:
        return None
    return _finding(k, task, "bank-conflicts", "", "", 0.3,
                    f"{k.name}: vector instructions blocked by UB {worst[0].split('_')[-1]} conflicts "
                    f"{worst[1]:.0%} of cycles.")


def _imbalance_finding(k: AscendKernel, task: str) -> Finding | None:
    if k.block_time_spread is None or k.block_time_spread <= IMBALANCE:
        return None
    return _finding(k, task, "load-imbalance", "", "", 0.25,
                    f"{k.name}: per-core times differ by {k.block_time_spread:.0%}: some cores finish early.")


def _finding(k: AscendKernel, task: str, kind: str, card: str, family: str, confidence: float,
             message: str, alternatives: list[str] | None = None, needed: list[str] | None = None) -> Finding:
    evidence = {
        "kernel": k.name, "op_type": k.op_type, "core_type": k.core_type, "duration_us": k.duration_us,
        "launches": k.launches, "block_dim": k.block_dim, "mix_block_dim": k.mix_block_dim,
        "pipes": {p: round(v, 4) for p, v in k.pipes.items()},
        "pipe_time_us": {p: round(v, 3) for p, v in k.pipe_time_us.items()},
        "bandwidth_usage_pct": k.bandwidth_usage_pct, "l2_hit_rate_pct": k.l2_hit_rate_pct,
        "conflicts": k.conflicts, "block_time_spread": k.block_time_spread,
        "candidate_families": alternatives or [], "sources": k.sources,
        "docs": [DOCS["msprof-op"], DOCS["kernel_details"]], "verified_on_hardware": False,
    }
    return Finding(tier=TIER, kind=kind, card_id=card, rewrite_family=family, message=message,
                   confidence=confidence, location={"task": task, "kernel": k.name}, evidence=evidence,
                   evidence_needed=list(needed or []) + ["a run on Ascend hardware (parser and rules "
                                                        "are built from the documentation only)"])


def _share(k: AscendKernel, unit: str) -> str:
    values = [v for p, v in k.pipes.items() if p.endswith("_" + unit)]
    return f"{max(values):.0%}" if values else "unknown"

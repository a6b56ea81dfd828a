"""Detectors of costly element-wise math: functions whose exact evaluation takes more issue
slots per element than a memory-bound kernel can afford (libdevice's exact erf)."""

from __future__ import annotations

from diagnose.triage.detectors import Match, detector
from diagnose.triage.detectors.memory import _match
from diagnose.triage.detectors.model import KernelModule

# Issue budget at the copy ceiling, for the message: an H200 issues ~33.5 T thread-instructions/s
# (132 SMs x 128 lanes x ~1.98 GHz) and moves ~1.07 T two-byte elements/s in and out at 4.27 TB/s.
BUDGET_PER_ELEMENT = 31


@detector("exact-erf-elementwise", ("cuda",))
def exact_erf_elementwise(module: KernelModule, backend: str) -> list[Match]:
    """`erf` (tl.erf, tl.math.erf, libdevice.erf) applied per element in a kernel with no dot:
    the exact fp32 erf is a branchy polynomial-and-exp sequence that, with the loads, stores and
    the rest of the math, can exceed what one element may cost at copy bandwidth. A GEMM's
    epilogue erf is hidden under the MMA, so kernels with a dot are left alone."""
    matches = []
    for kernel in module.kernels.values():
        erfs = kernel.calls("erf")
        if not erfs or kernel.calls("dot", "dot_scaled"):
            continue
        reduces = bool(kernel.calls("sum", "max", "min", "reduce", "cumsum", "associative_scan"))
        matches.append(_match(
            module, kernel, erfs[0], "exact-erf-elementwise", 0.35 if reduces else 0.5,
            f"`{kernel.name}` evaluates erf exactly per element ({len(erfs)} call(s)): libdevice's "
            "fp32 erff is a two-branch polynomial with an exp, about 40 instructions of a kernel "
            f"that can issue about {BUDGET_PER_ELEMENT} per 2-byte element at H200 copy bandwidth, "
            "so the kernel can be instruction-bound below the copy ceiling.",
            ["profile: memory-bound kernel well under the copy ceiling while a copy of the same bytes reaches it",
             "TTGIR: math.erf on a tensor reaches the LLVM lowering (libdevice __nv_erff)"],
            erf_calls=len(erfs)))
    return matches

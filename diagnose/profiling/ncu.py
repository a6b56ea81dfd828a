"""Facts from one Nsight Compute profile (the runner's `profile` JSON): which unit is busy, how
full the SMs are, what limits occupancy, whether registers spill, where warps stall."""

from __future__ import annotations

import math
import re
from dataclasses import asdict, dataclass, field

from .inputs import KernelCounters, ProfileRun

OCCUPANCY_LOW_PCT = 25.0        # under a quarter of the SM's warp slots: latency is not hidden
UNIT_BUSY_PCT = 60.0            # DRAM or SM throughput at or above this: that unit is the limiter
REGISTER_HEAVY = 128            # registers per thread at which register occupancy limits bite
FEW_WARP_THREADS = 64            # one or two warps per program: few loads in flight per SM
SMEM_HEAVY_BYTES = 64 * 1024    # shared memory per program at which few programs fit per SM
# Stall reasons that are not a bottleneck: a warp issuing, or ready and waiting its turn.
BENIGN_STALLS = {"selected", "not_selected"}
# SM counts of parts the runner is used on; a name not listed leaves grid-underfill unjudged.
SM_COUNTS = (("H100 PCIe", 114), ("H200", 132), ("H100", 132), ("H800", 132), ("A100", 108))


@dataclass
class CounterFacts:
    """The longest profiled kernel of the candidate, in the units the rules use."""

    kernel: str
    size: str
    duration_us: float | None
    dram_pct: float | None
    sm_pct: float | None
    occupancy_pct: float | None
    registers_per_thread: float | None
    occupancy_limit_registers: float | None   # programs per SM that the registers allow
    smem_per_program_bytes: float | None
    programs: int | None                      # grid size: programs (CTAs) launched
    threads_per_program: int | None
    sm_count: int | None
    local_loads: float | None
    local_stores: float | None
    stalls: list[dict] = field(default_factory=list)   # [{reason, per_issue}], largest first
    # every profiled kernel of the call, in launch order: {name, duration_us, dram_pct}
    kernels: list[dict] = field(default_factory=list)

    @property
    def kernels_profiled(self) -> int:
        return len(self.kernels) or 1

    @property
    def device_us(self) -> float | None:
        """GPU time of all the call's kernels together (no host launch cost in it)."""
        times = [k["duration_us"] for k in self.kernels if k.get("duration_us")]
        return sum(times) if times else self.duration_us

    def dram_bytes(self, copy_gbps: float | None) -> float | None:
        """Bytes the kernels moved through DRAM, estimated as busy fraction x the measured copy
        bandwidth x duration (ncu's peak is a little above the copy rate: an underestimate)."""
        if not copy_gbps or not self.kernels:
            return None
        parts = [k["dram_pct"] / 100 * copy_gbps * 1e3 * k["duration_us"] for k in self.kernels
                 if k.get("dram_pct") is not None and k.get("duration_us")]
        return sum(parts) if len(parts) == len(self.kernels) else None

    @property
    def spills(self) -> bool:
        return bool((self.local_loads or 0) + (self.local_stores or 0))

    @property
    def occupancy_low(self) -> bool:
        return self.occupancy_pct is not None and self.occupancy_pct < OCCUPANCY_LOW_PCT

    @property
    def units_idle(self) -> bool:
        """Neither DRAM nor the SMs are busy: the kernel waits on latency."""
        return (self.dram_pct is not None and self.sm_pct is not None
                and self.dram_pct < UNIT_BUSY_PCT and self.sm_pct < UNIT_BUSY_PCT)

    @property
    def grid_underfills(self) -> bool:
        return bool(self.programs and self.sm_count and self.programs < self.sm_count)

    def top_stall(self) -> dict | None:
        real = [s for s in self.stalls if s.get("reason") not in BENIGN_STALLS]
        return real[0] if real else None

    def occupancy_limiter(self) -> str:
        """What keeps programs off the SMs: grid, warps (one or two per program), registers,
        shared memory, or unknown."""
        if self.grid_underfills:
            return "grid"
        if self.threads_per_program is not None and self.threads_per_program <= FEW_WARP_THREADS:
            return "warps"
        if (self.registers_per_thread or 0) >= REGISTER_HEAVY or self.spills or (
                self.occupancy_limit_registers is not None and self.occupancy_limit_registers <= 2):
            return "registers"
        if (self.smem_per_program_bytes or 0) >= SMEM_HEAVY_BYTES:
            return "shared-memory"
        return "unknown"

    def facts(self) -> dict:
        data = {k: (round(v, 3) if isinstance(v, float) else v) for k, v in asdict(self).items()}
        data["stalls"] = self.stalls[:4]
        data["kernels_profiled"] = self.kernels_profiled
        return data


def counter_facts(profile: ProfileRun, device_name: str) -> CounterFacts | None:
    """Facts of the longest profiled kernel, or None when ncu gave no counters."""
    if profile.profiler != "ncu" or not profile.available or not profile.kernels:
        return None
    k = max(profile.kernels, key=lambda c: c.duration_ns or 0.0)
    static = k.raw_number("launch__shared_mem_per_block_static")
    dynamic = k.raw_number("launch__shared_mem_per_block_dynamic")
    return CounterFacts(
        kernel=k.name, size=profile.size,
        duration_us=k.duration_ns / 1e3 if k.duration_ns else None,
        dram_pct=k.dram_pct, sm_pct=k.sm_pct, occupancy_pct=k.achieved_occupancy_pct,
        registers_per_thread=k.registers_per_thread,
        occupancy_limit_registers=k.raw_number("launch__occupancy_limit_registers"),
        smem_per_program_bytes=(static or 0) + (dynamic or 0) if static or dynamic else None,
        programs=_dims(k.grid), threads_per_program=_dims(k.block), sm_count=sm_count(device_name),
        local_loads=k.local_loads, local_stores=k.local_stores, stalls=_stalls(k),
        kernels=[{"name": c.name, "duration_us": c.duration_ns / 1e3 if c.duration_ns else None,
                  "dram_pct": c.dram_pct} for c in profile.kernels])


def sm_count(device_name: str) -> int | None:
    for part, count in SM_COUNTS:
        if part.lower() in device_name.lower():
            return count
    return None


def _dims(text: str | None) -> int | None:
    """ncu writes launch dimensions as "(8192, 1, 1)"; their product is the count."""
    numbers = [int(n) for n in re.findall(r"\d+", text or "")]
    return math.prod(numbers) if numbers else None


def _stalls(k: KernelCounters) -> list[dict]:
    clean = [{"reason": str(s["reason"]), "per_issue": float(s["per_issue"])}
             for s in k.stalls if isinstance(s.get("per_issue"), int | float)]
    return sorted(clean, key=lambda s: -s["per_issue"])

"""Place each size of a bench run on the device's measured roofline and name its class:
memory-bound, compute-bound or launch-bound (occupancy-limited needs counters: see ncu.py)."""

from __future__ import annotations

from dataclasses import asdict, dataclass

from diagnose.runner.ceilings import COMPUTE_CEILING_FOR

from .inputs import BenchRun, MeasuredCeilings, SizeTiming

# A kernel launch costs a few microseconds whatever it does (grid start, drain, and the host's
# submit unless a CUDA graph replays it). A size is launch-bound when its roofline work is below
# this floor and the launch cost explains its whole gap to the roofline.
LAUNCH_FLOOR_US = {"cuda": 5.0, "ascend": 10.0}
# Methods whose times exclude the host's submit; any other method gets twice the allowance.
DEVICE_ONLY_METHODS = {"cuda_graph", "npu_events"}
NEAR_CEILING_PCT = 80.0   # at or above: tuning has <= 1.25x left; only less work helps
# When a reference reached the floor on the same work (floor_from eager/compile), the floor is
# shown reachable, so only the last few percent count as "near".
DEMONSTRATED_NEAR_PCT = 92.0

MEMORY, COMPUTE, LAUNCH, OCCUPANCY, UNKNOWN = (
    "memory-bound", "compute-bound", "launch-bound", "occupancy-limited", "unknown")


@dataclass
class RooflinePlace:
    """One size of the candidate against the measured ceilings; times in microseconds."""

    size: str
    dtype: str
    achieved_us: float
    method: str | None
    bytes: float | None
    flops: float | None
    intensity: float | None            # FLOP per byte of the task's minimal traffic
    ridge: float | None                # FLOP per byte where the measured ceilings meet
    copy_gbps: float | None
    compute_tflops: float | None
    compute_ceiling: str               # which matmul rate bounds this dtype (float16, tf32, ...)
    fp32_simt_tflops: float | None     # the fp32 rate without tensor cores, to spot fp32 dots
    memory_floor_us: float | None      # bytes / copy bandwidth
    compute_floor_us: float | None     # flops / matmul rate
    floor_us: float | None             # the larger of the two: the roofline time
    bound: str | None                  # memory | compute: which floor is the larger
    achieved_gbps: float | None
    achieved_tflops: float | None
    pct_of_ceiling: float | None       # floor / achieved, in percent
    headroom_x: float | None           # achieved / floor: the most any rewrite can win
    gap_us: float | None               # achieved - floor: what this size still costs
    host_overhead_us: float | None     # do_bench (with launch) minus CUDA-graph replay
    kernel_class: str
    eager_us: float | None = None
    compile_us: float | None = None
    vs_eager: float | None = None      # eager / candidate (> 1: candidate faster)
    vs_compile: float | None = None
    floor_from: str = "roofline"       # roofline | eager | compile: a reference that did the same
    #                                    work faster than the roofline floor sets the floor instead
    near_ceiling: bool = False         # tuning cannot win much more (see the two bars above)

    def facts(self) -> dict:
        """The numbers as rounded JSON for Finding.evidence."""
        return {k: (round(v, 4) if isinstance(v, float) else v) for k, v in asdict(self).items()}


def place_all(run: BenchRun, backend: str) -> list[RooflinePlace]:
    """Every size where the candidate has a time, in the bench's order."""
    places = []
    for point in run.points:
        cand = point.candidate
        if cand and cand.status == "ok" and cand.median_us:
            places.append(place(point, run.ceilings, backend))
    return places


def place(point: SizeTiming, ceilings: MeasuredCeilings, backend: str) -> RooflinePlace:
    cand = point.candidate
    assert cand is not None and cand.median_us is not None
    achieved = cand.median_us
    key = COMPUTE_CEILING_FOR.get(point.dtype, "float16")
    bw = ceilings.copy_gbps if ceilings.measured else None
    peak = ceilings.matmul_tflops.get(key) if ceilings.measured else None
    t_mem = point.bytes / (bw * 1e3) if point.bytes and bw else None       # GB/s -> bytes/us
    t_comp = point.flops / (peak * 1e6) if point.flops and peak else None  # TFLOP/s -> flop/us
    floor = max((t for t in (t_mem, t_comp) if t), default=None)
    bound = None if floor is None else ("memory" if floor == t_mem else "compute")
    # A reference that does the same work in less time than the floor proves the measured
    # ceiling too low for this shape (cuBLAS beats an 8192^3 matmul's rate at 4096^3, say).
    floor_from = "roofline"
    refs = {name: _median(point, name) for name in ("eager", "compile")}
    for name, ref in refs.items():
        if floor is not None and ref and ref < floor:
            floor, floor_from = ref, name
    host = cand.do_bench_us - achieved if cand.method == "cuda_graph" and cand.do_bench_us else None
    result = RooflinePlace(
        size=point.size, dtype=point.dtype, achieved_us=achieved, method=cand.method,
        bytes=point.bytes, flops=point.flops,
        intensity=point.flops / point.bytes if point.flops and point.bytes else None,
        ridge=peak * 1e3 / bw if peak and bw else None, copy_gbps=bw, compute_tflops=peak,
        compute_ceiling=key, fp32_simt_tflops=ceilings.matmul_tflops.get("float32"),
        memory_floor_us=t_mem, compute_floor_us=t_comp, floor_us=floor,
        bound=bound, achieved_gbps=point.bytes / (achieved * 1e3) if point.bytes else None,
        achieved_tflops=point.flops / (achieved * 1e6) if point.flops else None,
        pct_of_ceiling=100 * floor / achieved if floor else None,
        headroom_x=achieved / floor if floor else None,
        gap_us=achieved - floor if floor else None, host_overhead_us=host,
        kernel_class=UNKNOWN, vs_eager=point.vs_eager, vs_compile=point.vs_compile,
        floor_from=floor_from)
    bar = NEAR_CEILING_PCT if floor_from == "roofline" else DEMONSTRATED_NEAR_PCT
    result.near_ceiling = result.pct_of_ceiling is not None and result.pct_of_ceiling >= bar
    result.eager_us, result.compile_us = refs["eager"], refs["compile"]
    result.kernel_class = classify(result, backend)
    return result


def classify(p: RooflinePlace, backend: str) -> str:
    """Launch-bound when the work is below the launch floor and the launch cost explains the
    gap to the roofline; otherwise whichever roofline floor is the larger."""
    floor = launch_floor(backend)
    allowance = floor if p.method in DEVICE_ONLY_METHODS else 2 * floor
    tiny_work = p.floor_us is None or p.floor_us < floor
    if tiny_work and p.achieved_us - (p.floor_us or 0.0) <= allowance:
        return LAUNCH
    if p.bound == "memory":
        return MEMORY
    if p.bound == "compute":
        return COMPUTE
    return UNKNOWN


def hotspot(places: list[RooflinePlace]) -> RooflinePlace | None:
    """The size that still matters: the largest absolute gap to its roofline floor, or the
    longest time when no floor is known (ceilings unmeasured, no cost model)."""
    if not places:
        return None
    with_gap = [p for p in places if p.gap_us is not None]
    if with_gap:
        return max(with_gap, key=lambda p: p.gap_us or 0.0)
    return max(places, key=lambda p: p.achieved_us)


def launch_floor(backend: str) -> float:
    return LAUNCH_FLOOR_US.get(backend, LAUNCH_FLOOR_US["cuda"])


def _median(point: SizeTiming, impl: str) -> float | None:
    t = point.impls.get(impl)
    return t.median_us if t and t.status == "ok" else None

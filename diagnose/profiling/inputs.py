"""Read the runner's `bench` and `profile` JSON (docs/runner.md schema) into typed records that
the tier-2 rules work on; malformed input ends in one ProfileError sentence."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# A KernelBench file's point has dtype None; the runner runs it in float32.
DEFAULT_DTYPE = "float32"


class ProfileError(ValueError):
    """Runner JSON that tier 2 cannot read; the message names the cause and the fix."""


@dataclass
class ImplTime:
    """One implementation (candidate, eager, compile) at one size."""

    status: str
    median_us: float | None = None
    method: str | None = None          # do_bench | cuda_graph | npu_events | perf_counter
    do_bench_us: float | None = None   # kept by the runner when a CUDA graph replaced do_bench
    l2_flushed: bool | None = None
    cause: str | None = None


@dataclass
class SizeTiming:
    """The timings of one (size, dtype) point and the task's cost there."""

    size: str
    dtype: str
    bytes: float | None
    flops: float | None
    impls: dict[str, ImplTime]
    vs_eager: float | None = None      # eager time / candidate time (> 1: candidate faster)
    vs_compile: float | None = None

    @property
    def candidate(self) -> ImplTime | None:
        return self.impls.get("candidate")


@dataclass
class MeasuredCeilings:
    """What the device reached in the runner's own copy and matmul measurements."""

    device_name: str
    measured: bool
    copy_gbps: float | None
    matmul_tflops: dict[str, float]


@dataclass
class BenchRun:
    task: str
    device: str                        # cuda | npu | cpu
    device_name: str
    interpreted: bool                  # Triton interpreter on CPU: times say nothing about a kernel
    ceilings: MeasuredCeilings
    points: list[SizeTiming]
    notes: list[str] = field(default_factory=list)


@dataclass
class KernelCounters:
    """One profiled kernel launch (ncu), as the runner's profile JSON carries it."""

    name: str
    grid: str | None = None
    block: str | None = None
    duration_ns: float | None = None
    dram_pct: float | None = None
    sm_pct: float | None = None
    achieved_occupancy_pct: float | None = None
    registers_per_thread: float | None = None
    local_loads: float | None = None
    local_stores: float | None = None
    stalls: list[dict[str, Any]] = field(default_factory=list)
    raw: dict[str, str] = field(default_factory=dict)

    def raw_number(self, metric: str) -> float | None:
        return _number(self.raw.get(metric))


@dataclass
class ProfileRun:
    """One `runner profile` answer: which size, which profiler, and the counters if any."""

    task: str
    size: str
    dtype: str
    device: str
    profiler: str                      # ncu | msprof | none
    available: bool
    reason: str | None
    kernels: list[KernelCounters]
    files: list[str]
    timing_us: float | None
    verified_on_hardware: bool


def load_json(path: str | Path) -> dict[str, Any]:
    """A runner JSON file from disk."""
    file = Path(path)
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ProfileError(f"Cannot read runner JSON {file} ({exc.strerror or exc}); check the path.") from None
    except (ValueError, UnicodeDecodeError) as exc:
        raise ProfileError(f"{file} is not JSON ({exc}); pass the file `python -m diagnose.runner` wrote.") from None
    if not isinstance(data, dict):
        raise ProfileError(f"{file} holds a JSON {type(data).__name__}, not the runner's object; "
                           "pass the file `python -m diagnose.runner bench|profile` wrote.")
    return data


def read_bench(data: dict[str, Any]) -> BenchRun:
    """The runner's bench report (BenchReport.to_json)."""
    if not isinstance(data, dict):
        raise ProfileError(f"The bench report is a {type(data).__name__}, not a JSON object; "
                           "pass what `python -m diagnose.runner bench` printed.")
    if "error" in data and "points" not in data:
        raise ProfileError(f"The bench run failed on the device ({data['error']}); fix that and bench again.")
    points = data.get("points")
    if not isinstance(points, list):
        raise ProfileError("The bench report has no `points` list; pass the JSON of "
                           "`python -m diagnose.runner bench`, not of verify or suite.")
    info = data.get("device_info") or {}
    ceilings = _ceilings(data.get("ceilings") or {})
    return BenchRun(
        task=str(data.get("task", "?")), device=str(data.get("device") or info.get("device") or "?"),
        device_name=str(info.get("device_name") or ceilings.device_name or "?"),
        interpreted=bool(info.get("triton_interpret")) or data.get("device") == "cpu",
        ceilings=ceilings, points=[_point(p, i) for i, p in enumerate(points)],
        notes=[str(n) for n in data.get("notes") or []])


def read_profile(data: dict[str, Any]) -> ProfileRun:
    """The runner's profile report (ProfileReport.to_json)."""
    if not isinstance(data, dict) or not isinstance(data.get("counters"), dict):
        raise ProfileError("The profile report has no `counters` object; pass the JSON of "
                           "`python -m diagnose.runner profile`.")
    counters = data["counters"]
    kernels = [_kernel(k) for k in counters.get("kernels") or [] if isinstance(k, dict)]
    timing = data.get("timing") or {}
    median_ms = _number(timing.get("median_ms"))
    return ProfileRun(
        task=str(data.get("task", "?")), size=str(data.get("size", "?")),
        dtype=str(data.get("dtype") or DEFAULT_DTYPE), device=str(data.get("device", "?")),
        profiler=str(data.get("profiler", "none")), available=bool(counters.get("available")),
        reason=counters.get("reason"), kernels=kernels,
        files=[str(f) for f in counters.get("files") or []],
        timing_us=median_ms * 1e3 if median_ms else None,
        verified_on_hardware=bool(counters.get("verified_on_hardware", True)))


def _ceilings(data: dict[str, Any]) -> MeasuredCeilings:
    rates = data.get("matmul_tflops") or {}
    return MeasuredCeilings(
        device_name=str(data.get("device_name", "")), measured=bool(data.get("measured")),
        copy_gbps=_number(data.get("copy_gbps")),
        matmul_tflops={k: v for k, v in ((k, _number(v)) for k, v in rates.items()) if v})


def _point(data: Any, index: int) -> SizeTiming:
    if not isinstance(data, dict) or "size" not in data:
        raise ProfileError(f"Bench point {index} is not an object with a `size`; "
                           "the report is damaged, run bench again.")
    impls = {str(name): _impl(t) for name, t in (data.get("impls") or {}).items() if isinstance(t, dict)}
    return SizeTiming(
        size=str(data["size"]), dtype=str(data.get("dtype") or DEFAULT_DTYPE),
        bytes=_number(data.get("bytes")), flops=_number(data.get("flops")), impls=impls,
        vs_eager=_number(data.get("candidate_vs_eager")),
        vs_compile=_number(data.get("candidate_vs_compile")))


def _impl(data: dict[str, Any]) -> ImplTime:
    median, plain = _number(data.get("median_ms")), _number(data.get("do_bench_median_ms"))
    return ImplTime(status=str(data.get("status", "?")), median_us=median * 1e3 if median else None,
                    method=data.get("method"), do_bench_us=plain * 1e3 if plain else None,
                    l2_flushed=data.get("l2_flushed"), cause=data.get("cause"))


def _kernel(data: dict[str, Any]) -> KernelCounters:
    stalls = [s for s in data.get("stalls") or [] if isinstance(s, dict) and "reason" in s]
    return KernelCounters(
        name=str(data.get("name", "")), grid=data.get("grid"), block=data.get("block"),
        duration_ns=_number(data.get("duration_ns")), dram_pct=_number(data.get("dram_pct")),
        sm_pct=_number(data.get("sm_pct")),
        achieved_occupancy_pct=_number(data.get("achieved_occupancy_pct")),
        registers_per_thread=_number(data.get("registers_per_thread")),
        local_loads=_number(data.get("local_loads")), local_stores=_number(data.get("local_stores")),
        stalls=stalls, raw={str(k): str(v) for k, v in (data.get("raw") or {}).items()})


def _number(value: Any) -> float | None:
    """A float from a JSON number or an ncu-style string ("65,824"); None for anything else."""
    if isinstance(value, bool) or value is None:
        return None
    try:
        number = float(value) if isinstance(value, int | float) else float(str(value).replace(",", "").strip())
    except ValueError:
        return None
    return number if math.isfinite(number) else None

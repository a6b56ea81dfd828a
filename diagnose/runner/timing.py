"""Child-side timers: triton do_bench (L2 flushed) or CUDA-graph replay on CUDA, events on NPU, perf_counter on CPU."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass

# Below this median (ms) host launch overhead is a real share of the time: also replay a CUDA graph.
CUDA_GRAPH_BELOW_MS = 0.1
QUANTILES = [0.5, 0.2, 0.8]
FLUSH_BYTES = 256 << 20  # larger than any L2 we run on, so every rep starts cold


@dataclass
class Timing:
    """Median and spread of one function's runtime, and how it was measured."""

    median_ms: float
    p20_ms: float
    p80_ms: float
    method: str                       # do_bench | cuda_graph | npu_events | perf_counter
    l2_flushed: bool
    do_bench_median_ms: float | None = None   # kept when cuda_graph replaced it
    note: str | None = None
    device_sync_median_ms: float | None = None  # CUDA: each call bracketed by torch.cuda.synchronize()
    stream_median_ms: float | None = None  # kept when device_sync replaced the stream's timing

    def to_json(self) -> dict:
        return asdict(self)


def time_fn(fn: Callable[[], object], device: str, warmup_ms: float, rep_ms: float,
            untrusted: bool = True) -> Timing:
    """Time fn on device; fn has already run once (compiled, autotuned). Untrusted code (a
    candidate) is also timed between device-wide synchronisations, against work it leaves on
    another stream; trusted references are not, since that time carries their host overhead (on
    the H200 torch.compile's Python wrapper, about 60 us a call, doubled 0.05 ms references)."""
    if device == "cuda":
        stream = _time_cuda_stream(fn, warmup_ms, rep_ms)
        return _device_wide(stream, fn, rep_ms) if untrusted else stream
    if device == "npu":
        return _time_npu(fn, warmup_ms, rep_ms)
    return _time_host(fn, warmup_ms, rep_ms)


def _time_cuda_stream(fn: Callable[[], object], warmup_ms: float, rep_ms: float) -> Timing:
    import triton.testing

    med, p20, p80 = triton.testing.do_bench(fn, warmup=warmup_ms, rep=rep_ms, quantiles=QUANTILES)
    timing = Timing(med, p20, p80, "do_bench", l2_flushed=True)
    if med >= CUDA_GRAPH_BELOW_MS:
        return timing
    try:
        g_med, g_p20, g_p80 = triton.testing.do_bench_cudagraph(fn, rep=rep_ms, quantiles=QUANTILES)
    except Exception as exc:  # host syncs or allocations inside fn make capture fail; keep do_bench
        timing.note = f"CUDA-graph capture failed ({type(exc).__name__}: {str(exc)[:160]}); kept do_bench"
        return timing
    return Timing(g_med, g_p20, g_p80, "cuda_graph", l2_flushed=False, do_bench_median_ms=med,
                  note="runtime under 0.1 ms: CUDA-graph replay removes host launch overhead (L2 warm)")


# Events on the current stream miss work a candidate leaves on another stream. Each call is also
# timed between two device-wide synchronisations; that time carries launch and sync latency, so it
# replaces the stream timing only when it is clearly longer.
ESCAPE_FACTOR, ESCAPE_SLACK_MS = 1.5, 0.03


def escaped(stream_ms: float, device_sync_ms: float) -> bool:
    """Work left outside the timed stream: device-synchronised calls clearly longer than the stream says."""
    return device_sync_ms > ESCAPE_FACTOR * stream_ms + ESCAPE_SLACK_MS


def _device_wide(timing: Timing, fn: Callable[[], object], rep_ms: float) -> Timing:
    import torch

    reps = max(5, min(200, int(rep_ms / max(timing.median_ms, 1e-3))))
    times = []
    for _ in range(reps):
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        fn()
        torch.cuda.synchronize()
        times.append((time.perf_counter() - t0) * 1e3)
    sync = _summary(times, "device_sync", l2_flushed=False)
    timing.device_sync_median_ms = sync.median_ms
    if not escaped(timing.median_ms, sync.median_ms):
        return timing
    return Timing(sync.median_ms, sync.p20_ms, sync.p80_ms, "device_sync", l2_flushed=False,
                  do_bench_median_ms=timing.do_bench_median_ms or timing.median_ms,
                  device_sync_median_ms=sync.median_ms, stream_median_ms=timing.median_ms,
                  note=f"work outside the timed stream: {timing.method} saw {timing.median_ms:.4g} ms, calls between "
                       f"device-wide synchronisations take {sync.median_ms:.4g} ms; the latter is reported")


def _time_npu(fn: Callable[[], object], warmup_ms: float, rep_ms: float) -> Timing:
    import torch

    flush = torch.empty(FLUSH_BYTES // 4, dtype=torch.int32, device="npu")
    estimate = _estimate_ms(fn, lambda: torch.npu.synchronize())  # type: ignore[attr-defined]
    n_warm, n_rep = _counts(estimate, warmup_ms, rep_ms)
    for _ in range(n_warm):
        fn()
    starts = [torch.npu.Event(enable_timing=True) for _ in range(n_rep)]  # type: ignore[attr-defined]
    ends = [torch.npu.Event(enable_timing=True) for _ in range(n_rep)]  # type: ignore[attr-defined]
    for s, e in zip(starts, ends, strict=True):
        flush.zero_()
        s.record()
        fn()
        e.record()
    torch.npu.synchronize()  # type: ignore[attr-defined]
    times = [s.elapsed_time(e) for s, e in zip(starts, ends, strict=True)]
    return _summary(times, "npu_events", l2_flushed=True)


def _time_host(fn: Callable[[], object], warmup_ms: float, rep_ms: float) -> Timing:
    estimate = _estimate_ms(fn, lambda: None)
    n_warm, n_rep = _counts(estimate, warmup_ms, rep_ms)
    for _ in range(n_warm):
        fn()
    times = []
    for _ in range(n_rep):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1e3)
    return _summary(times, "perf_counter", l2_flushed=False)


def _estimate_ms(fn: Callable[[], object], sync: Callable[[], None]) -> float:
    sync()
    t0 = time.perf_counter()
    for _ in range(3):
        fn()
    sync()
    return max((time.perf_counter() - t0) * 1e3 / 3, 1e-3)


def _counts(estimate_ms: float, warmup_ms: float, rep_ms: float) -> tuple[int, int]:
    return max(1, int(warmup_ms / estimate_ms)), max(5, min(1000, int(rep_ms / estimate_ms)))


def _summary(times: list[float], method: str, l2_flushed: bool) -> Timing:
    qs = statistics.quantiles(times, n=10, method="inclusive") if len(times) > 1 else times * 9
    return Timing(statistics.median(times), qs[1], qs[7], method, l2_flushed=l2_flushed)

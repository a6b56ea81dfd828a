"""Place a timing against the measured ceilings: achieved GB/s and TFLOP/s, and which bound is closer."""

from __future__ import annotations

from dataclasses import asdict, dataclass

from .ceilings import Ceilings


@dataclass
class RooflinePoint:
    """Achieved rates of one timing and their share of the device's measured ceilings."""

    gbps: float | None
    tflops: float | None
    pct_of_bandwidth: float | None
    pct_of_compute: float | None
    bound: str | None               # memory | compute: the ceiling that limits this work more
    pct_of_bound_ceiling: float | None

    def to_json(self) -> dict:
        return asdict(self)


def place(ms: float | None, nbytes: float | None, flops: float | None, dtype: str | None,
          ceilings: Ceilings | None) -> RooflinePoint:
    """Rates from the task's cost; the bound is the ceiling whose ideal time is longer."""
    if not ms or ms <= 0:
        return RooflinePoint(None, None, None, None, None, None)
    seconds = ms * 1e-3
    gbps = nbytes / seconds / 1e9 if nbytes else None
    tflops = flops / seconds / 1e12 if flops else None
    bw = ceilings.copy_gbps if ceilings and ceilings.measured else None
    peak = ceilings.compute_tflops(dtype or "float16") if ceilings and ceilings.measured else None
    pct_bw = 100 * gbps / bw if gbps and bw else None
    pct_fl = 100 * tflops / peak if tflops and peak else None
    t_mem = nbytes / (bw * 1e9) if nbytes and bw else 0.0
    t_comp = flops / (peak * 1e12) if flops and peak else 0.0
    if not (t_mem or t_comp):
        return RooflinePoint(_r(gbps), _r(tflops), None, None, None, None)
    bound = "memory" if t_mem >= t_comp else "compute"
    return RooflinePoint(_r(gbps), _r(tflops), _r(pct_bw), _r(pct_fl), bound,
                         _r(pct_bw if bound == "memory" else pct_fl))


def _r(x: float | None) -> float | None:
    return round(x, 3) if x is not None else None

"""Per-source distinct-destination estimates for scan detection (Zeek SumStats HLL_UNIQUE reducer,
probabilistic::CardinalityCounter::Size()).

Every scanning candidate (source address) owns a HyperLogLog counter of m one-byte buckets that the
packet path has filled with the rank of the hashed (destination address, port) it contacted. At the end
of a SumStats epoch the threshold check needs each source's cardinality estimate:
  raw = alpha_m * m^2 / sum_j 2^(-M_j),   alpha_m = 0.7213 / (1 + 1.079 / m)   (m >= 128)
  est = m * ln(m / V)   if raw <= 2.5 m and V > 0   (linear counting, V = number of empty buckets)
        raw             otherwise  (Zeek hashes to 64 bits, so the large-range branch never fires)
m = 256: a reducer with hll_error_margin = 0.13 and hll_confidence = 0.95 (OptimalB gives b = 8).
Input registers uint8 [S, m]; returns the estimates fp32 [S].
"""
import math

import torch

META = {
    "name": "hll_cardinality_estimate",
    "level": 1,
    "category": "network-analytics",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-4}},
    "sizes": {
        "small": {"S": 40, "m": 256},
        "ragged": {"S": 77, "m": 256},
        "large": {"S": 1048576, "m": 256},
    },
    "baseline_notes": "Each program estimates a block of 32 sources: one [32, 256] uint8 register tile "
                      "(8 KiB, 16-byte loads), exp2(-M) and the empty-bucket count reduced along the "
                      "contiguous bucket axis, then the linear-counting / raw choice per source. "
                      "Memory-bound on 256 B per source. 4 warps, no autotune.",
    "deterministic": True,
}
MAX_RANK = 57  # 64 - b + 1 with b = 8


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Registers of S sources: most contacted a handful of destinations (clients, one-off probes), a few
    percent are scanners with hundreds to tens of thousands of distinct targets. Each bucket's count of
    items is drawn Poisson(d / m) and its register is the maximum geometric(1/2) rank of those items."""
    s = META["sizes"][size]
    n, m = s["S"], s["m"]
    g = torch.Generator().manual_seed(seed)
    regs = torch.empty(n, m, dtype=torch.uint8)
    chunk = 65536
    for start in range(0, n, chunk):
        rows = min(chunk, n - start)
        distinct = 1.0 + torch.exp(0.7 + 1.3 * torch.randn(rows, generator=g))
        scanner = torch.rand(rows, generator=g) < 0.04
        distinct = torch.where(scanner, torch.exp(math.log(300.0) + 2.5 * torch.rand(rows, generator=g)), distinct)
        lam = (distinct / m)[:, None].expand(rows, m)
        k = torch.poisson(lam, generator=g)
        u = torch.rand(rows, m, generator=g).clamp(1e-7, 1 - 1e-7)
        rank = torch.ceil(-torch.log2(1.0 - u ** (1.0 / k.clamp(min=1.0))))
        rank = torch.where(k > 0, rank.clamp(1, MAX_RANK), torch.zeros_like(rank))
        regs[start:start + rows] = rank.to(torch.uint8)
    return (regs.to(device),)


def reference(registers: torch.Tensor) -> torch.Tensor:
    m = registers.shape[1]
    r = registers.double()
    alpha = 0.7213 / (1.0 + 1.079 / m)
    raw = alpha * m * m / torch.exp2(-r).sum(dim=1)
    empty = (registers == 0).sum(dim=1).double()
    linear = m * torch.log(m / empty.clamp(min=1.0))
    est = torch.where((raw <= 2.5 * m) & (empty > 0), linear, raw)
    return est.float()


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": s["S"] * (s["m"] + 4), "flops": 3 * s["S"] * s["m"]}

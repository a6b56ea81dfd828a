"""Per-net weighted half-perimeter wirelength (DREAMPlace ops/hpwl, net-by-net form).

Nets are CSR lists of pins (netpin_start, flat_netpin); pin positions are DREAMPlace's flat
pin_pos tensor, all x first and then all y. For every net with net_mask set,
hpwl[n] = w[n] * ((max x - min x) + (max y - min y)) over its pins; masked nets give 0.
"""
import torch

META = {
    "name": "dreamplace_net_hpwl",
    "level": 2,
    "category": "reduction",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 2e-2, "rtol": 1e-5}},
    "sizes": {
        "small": {"nets": 40},
        "ragged": {"nets": 77},
        "large": {"nets": 2229886},
    },
    "baseline_notes": "128 nets per program (one lane row per net), the pins of each net walked in chunks of 8 "
                      "columns up to the block's largest unmasked degree; running max/min in registers; "
                      "4 warps, no autotune.",
    "deterministic": True,
}

IGNORE_NET_DEGREE = 100   # DREAMPlace's ignore_net_degree: larger nets are masked out


def _degrees(n: int, g: torch.Generator) -> torch.Tensor:
    """ISPD2005-like net degrees: mostly 2-4 pins, a tail to ~100, a few high-fanout nets."""
    u = torch.rand(n, generator=g)
    deg = torch.full((n,), 2, dtype=torch.int64)
    deg[u >= 0.610] = 3
    deg[u >= 0.780] = 4
    mid = (u >= 0.860) & (u < 0.955)
    deg[mid] = torch.randint(5, 9, (n,), generator=g)[mid]
    tail = (u >= 0.955) & (u < 0.9958)
    deg[tail] = torch.randint(9, 33, (n,), generator=g)[tail]
    long = (u >= 0.9958) & (u < 0.9998)
    deg[long] = torch.randint(33, IGNORE_NET_DEGREE, (n,), generator=g)[long]
    fanout = u >= 0.9998
    deg[fanout] = torch.randint(IGNORE_NET_DEGREE, 2000, (n,), generator=g)[fanout]
    if n < 1000:  # the small sizes see every kind of net
        deg[1], deg[5], deg[9] = 150, 40, 17
    return deg


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """pin_pos [2P] fp32 (x then y), flat_netpin [P] int32, netpin_start [N+1] int32,
    net_weights [N] fp32, net_mask [N] uint8."""
    n = META["sizes"][size]["nets"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    deg = _degrees(n, g)
    p = int(deg.sum())
    start = torch.zeros(n + 1, dtype=torch.int64)
    start[1:] = torch.cumsum(deg, 0)
    # pins are numbered in netlist order, so flat_netpin is a near-identity (local reorders only)
    flat_netpin = torch.argsort(torch.arange(p, dtype=torch.float64) + 32.0 * torch.rand(p, generator=g, dtype=torch.float64))
    die = 32000.0
    net_of_slot = torch.repeat_interleave(torch.arange(n), deg)
    centre = torch.rand(n, 2, generator=g) * die
    spread = 40.0 * deg.float().sqrt()
    slot_xy = centre[net_of_slot] + torch.randn(p, 2, generator=g) * spread[net_of_slot, None]
    slot_xy = slot_xy.clamp(0.0, die)
    pin_xy = torch.empty(p, 2)
    pin_xy[flat_netpin] = slot_xy
    pin_pos = torch.cat([pin_xy[:, 0], pin_xy[:, 1]])
    weights = 1.0 + (torch.rand(n, generator=g) < 0.1).float() * torch.rand(n, generator=g)
    mask = (deg < IGNORE_NET_DEGREE).to(torch.uint8)
    return (pin_pos.to(dt).to(device), flat_netpin.to(torch.int32).to(device), start.to(torch.int32).to(device),
            weights.to(dt).to(device), mask.to(device))


def reference(pin_pos, flat_netpin, netpin_start, net_weights, net_mask):
    n = net_weights.shape[0]
    p = flat_netpin.shape[0]
    deg = (netpin_start[1:] - netpin_start[:-1]).long()
    net_of_slot = torch.repeat_interleave(torch.arange(n, device=pin_pos.device), deg)
    pins = flat_netpin.long()
    pos = pin_pos.double()
    span = torch.zeros(n, dtype=torch.float64, device=pin_pos.device)
    for coord in (pos[:p][pins], pos[p:][pins]):
        hi = torch.full((n,), float("-inf"), dtype=torch.float64, device=pin_pos.device)
        lo = torch.full((n,), float("inf"), dtype=torch.float64, device=pin_pos.device)
        hi = hi.scatter_reduce(0, net_of_slot, coord, "amax")
        lo = lo.scatter_reduce(0, net_of_slot, coord, "amin")
        span += hi - lo
    out = torch.where(net_mask.bool(), span * net_weights.double(), torch.zeros_like(span))
    return out.to(pin_pos.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    n = META["sizes"][size]["nets"]
    p = 4 * n  # about four pins per net
    return {"bytes": p * (4 + 8) + n * (4 + 4 + 1 + 4), "flops": 4 * p + 3 * n}

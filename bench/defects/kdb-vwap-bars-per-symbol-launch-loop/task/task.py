"""One-minute VWAP bars per symbol from a day of trades (kdb+/q `select volume: sum size, vwap: size wavg price
by sym, 1 xbar time.minute from trade`, the TAQ trade-table analytic).

The trade table is sorted by (sym, time), as a `p#sym` splayed table is. bar_start [S, B + 1] int32 holds, for
symbol s, the index of its first trade in each of the B one-minute bars of the session (the grouping the
`xbar`/`bin` step produces); bar_start[s, B] is the end of symbol s's trades (= bar_start[s + 1, 0]). Per bar:
    volume[s, b] = sum size,     vwap[s, b] = sum(price * size) / sum size   (0 for a bar with no trades).
Returns (vwap [S, B] fp32, volume [S, B] int32).
"""
import torch

META = {
    "name": "vwap_minute_bars",
    "level": 2,
    "category": "segment-reduction",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-5}},
    "sizes": {
        "small": {"S": 3, "B": 20, "rate": 6.0},
        "ragged": {"S": 5, "B": 39, "rate": 3.5},
        "large": {"S": 500, "B": 390, "rate": 100.0},
    },
    "baseline_notes": "One launch, grid (B, S): program (b, s) reads its bar's [start, end) from bar_start and "
                      "walks the bar's trades in blocks of 128, accumulating price * size (fp32) and size (int32), "
                      "then stores vwap and volume. 4 warps, no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """price [N] fp32, size [N] int32 (round and odd lots), bar_start [S, B + 1] int32. Trade counts per bar are
    Poisson with a U-shaped intraday profile and a lognormal activity level per symbol; prices follow a per-symbol
    random walk across bars with tick-level noise inside a bar."""
    s = META["sizes"][size]
    S, B, rate = s["S"], s["B"], s["rate"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    u = torch.linspace(-1.0, 1.0, B)
    profile = (0.6 + 1.6 * u * u) / (0.6 + 1.6 / 3.0)
    activity = torch.exp(0.8 * torch.randn(S, 1, generator=g) - 0.32)
    counts = torch.poisson(rate * activity * profile[None, :], generator=g).long()
    ends = torch.cumsum(counts.reshape(-1), 0).reshape(S, B)
    bar_start = torch.cat([(ends - counts), ends[:, -1:]], dim=1)
    n = int(ends[-1, -1])
    p0 = 10.0 + 290.0 * torch.rand(S, 1, generator=g)
    bar_px = p0 * torch.exp(torch.cumsum(0.0008 * torch.randn(S, B, generator=g), 1))
    price = torch.repeat_interleave(bar_px.reshape(-1), counts.reshape(-1))
    price = torch.round((price + 0.02 * torch.randn(n, generator=g)) * 100.0) / 100.0
    lots = torch.randint(1, 10, (n,), generator=g) * 100
    odd = torch.randint(1, 100, (n,), generator=g)
    size_ = torch.where(torch.rand(n, generator=g) < 0.45, odd, lots)
    return (price.to(dt).to(device), size_.to(torch.int32).to(device), bar_start.to(torch.int32).to(device))


def reference(price: torch.Tensor, size: torch.Tensor, bar_start: torch.Tensor) -> tuple:
    S, B = bar_start.shape[0], bar_start.shape[1] - 1
    counts = (bar_start[:, 1:] - bar_start[:, :-1]).reshape(-1).long()
    bar = torch.repeat_interleave(torch.arange(S * B, device=price.device), counts)
    p, q = price.double(), size.double()
    pv = torch.zeros(S * B, dtype=torch.float64, device=price.device).index_add_(0, bar, p * q)
    vol = torch.zeros(S * B, dtype=torch.float64, device=price.device).index_add_(0, bar, q)
    vwap = torch.where(vol > 0, pv / vol.clamp(min=1.0), torch.zeros_like(pv))
    return vwap.reshape(S, B).to(price.dtype), vol.reshape(S, B).to(torch.int32)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["S"] * s["B"] * s["rate"]
    return {"bytes": int(8 * n + 12 * s["S"] * s["B"]), "flops": int(3 * n)}

"""Dynamic time warping of Whisper word-level timestamps (whisper.timing.dtw on the GPU): the
accumulated cost and the step trace of the token x frame cost matrix, before the CPU backtrace.

Given x [M, N] (M text tokens, N audio frames; x = -median-filtered cross-attention weights),
cost[i, j] = x[i, j] + min(cost[i-1, j-1], cost[i-1, j], cost[i, j-1]) with cost[-1, -1] = 0 and
every other out-of-range neighbour +inf; trace[i, j] = 0 (diagonal), 1 (from i-1) or 2 (from j-1),
ties going to the diagonal, then to i-1. Outputs cost float32 [M, N] and trace int32 [M, N]."""
import torch

META = {
    "name": "whisper_dtw_cost_trace",
    "level": 2,
    "category": "scan",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-5}},
    "sizes": {
        "small": {"M": 12, "N": 40},
        "ragged": {"M": 37, "N": 301},
        "large": {"M": 224, "N": 1500},
    },
    "baseline_notes": "One program, BLOCK = next_power_of_2(M) lanes (one per token row), looping over the "
                      "M + N - 1 anti-diagonals in the kernel: each step reads the two previous diagonals "
                      "from a diagonal-major fp32 scratch, relaxes, writes, and waits on a CTA barrier.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [M, N]: the negated attention alignment of M tokens to N frames, a noisy monotone band."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    m, n = s["M"], s["N"]
    centre = torch.linspace(0.0, n - 1.0, m) + torch.randn(m, generator=g) * 2.0
    frames = torch.arange(n, dtype=torch.float32)
    band = torch.exp(-(((frames[None, :] - centre[:, None]) / (0.02 * n + 2.0)) ** 2))
    weights = band + 0.3 * torch.rand(m, n, generator=g)
    weights = (weights - weights.mean(dim=0, keepdim=True)) / weights.std(dim=0, keepdim=True).clamp_min(1e-3)
    return (-weights).to(dt).to(device).contiguous(),


def reference(x: torch.Tensor) -> tuple:
    m, n = x.shape
    dev = x.device
    xf = x.float()
    inf = float("inf")
    # padded accumulated cost P[r, c], r in 0..M, c in 0..N, relaxed one anti-diagonal at a time
    pad = torch.full((m + 1, n + 1), inf, dtype=torch.float32, device=dev)
    pad[0, 0] = 0.0
    trace = torch.empty((m, n), dtype=torch.int32, device=dev)
    rows = torch.arange(1, m + 1, device=dev)
    for k in range(2, m + n + 1):
        c = k - rows
        keep = (c >= 1) & (c <= n)
        r, c = rows[keep], c[keep]
        diag, up, left = pad[r - 1, c - 1], pad[r - 1, c], pad[r, c - 1]
        best = torch.minimum(torch.minimum(diag, up), left)
        pad[r, c] = xf[r - 1, c - 1] + best
        step = torch.where((diag <= up) & (diag <= left), 0, torch.where(up <= left, 1, 2))
        trace[r - 1, c - 1] = step.to(torch.int32)
    return pad[1:, 1:].contiguous(), trace


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    cells = s["M"] * s["N"]
    return {"bytes": 4 * cells * 3, "flops": 3 * cells}

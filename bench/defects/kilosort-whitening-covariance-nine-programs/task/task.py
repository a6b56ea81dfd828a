"""Channel covariance of one preprocessed batch, the input of Kilosort's whitening matrix.

Kilosort (preprocessing.get_whitening_matrix) loads every nskip-th batch, high-pass filters it, drops the
nt-sample padding at both ends and accumulates CC += X @ X.T / NT, where X is the [n_chan, NT] batch
(channel-major, each channel mean-subtracted and common-median referenced). The local ZCA whitening
filters (Wrot) are then computed from CC on the host. This task is the per-batch product:
    CC[i, j] = (1 / NT) * sum_t X[i, t] * X[j, t]
returned as fp32 [n_chan, n_chan].
"""
import torch

META = {
    "name": "batch_channel_covariance",
    "level": 2,
    "category": "gemm",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 2e-2, "rtol": 2e-3}},
    "sizes": {
        "small": {"C": 20, "NT": 500},
        "ragged": {"C": 37, "NT": 1001},
        "large": {"C": 384, "NT": 60000},
    },
    "baseline_notes": "128x128 output tiles with BLOCK_K=32 over time, tl.dot (tf32) with 8 warps and 3 stages; "
                      "the time axis is split into 14 chunks so 3 x 3 x 14 = 126 programs fill the SMs, each "
                      "writes an fp32 partial tile, and a second small kernel sums the 14 partials and scales "
                      "by 1/NT (deterministic, no atomics). No autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """X [C, NT]: a filtered Neuropixels batch in ADC units (per-channel noise of 6-15 units, a smooth
    spatially correlated component along the shank, sparse spikes), each channel with zero mean."""
    s = META["sizes"][size]
    C, NT = s["C"], s["NT"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    sigma = 6.0 + 9.0 * torch.rand(C, 1, generator=g)
    x = sigma * torch.randn(C, NT, generator=g)
    depth = torch.arange(C, dtype=torch.float32)
    centres = torch.rand(6, generator=g) * C
    loadings = torch.exp(-(depth[:, None] - centres[None, :]) ** 2 / (2 * 40.0 ** 2))
    x += 4.0 * loadings @ torch.randn(6, NT, generator=g)
    n_spikes = max(4, NT // 60)
    t0 = torch.randint(0, NT, (n_spikes,), generator=g)
    c0 = torch.randint(0, C, (n_spikes,), generator=g)
    amp = 40.0 + 120.0 * torch.rand(n_spikes, generator=g)
    for dc in range(-3, 4):
        ch = (c0 + dc).clamp(0, C - 1)
        x[ch, t0] -= amp * float(torch.exp(torch.tensor(-dc * dc / 4.0)))
    x -= x.mean(dim=1, keepdim=True)
    return (x.to(dt).to(device),)


def reference(x: torch.Tensor) -> torch.Tensor:
    xd = x.double()
    return (xd @ xd.T / x.shape[1]).to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    C, NT = s["C"], s["NT"]
    return {"bytes": 4 * C * NT + 4 * C * C, "flops": 2 * C * C * NT}

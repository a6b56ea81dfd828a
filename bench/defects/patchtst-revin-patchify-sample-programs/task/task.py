"""PatchTST input stage: RevIN 'norm' (per-series instance normalisation over time with an affine
weight and bias per channel), channel-independence permute, ReplicationPad1d((0, stride)) and
unfold into patches.

x [B, L, C] float32 (batch, look-back window, variates). Outputs patches [B, C, N, P] with
N = (L + S - P) // S + 1, patch n holding normalised time steps n*S .. n*S + P - 1 (clamped to L - 1),
and RevIN's saved statistics mean [B, 1, C] and stdev [B, 1, C] = sqrt(var(unbiased=False) + eps)."""
import torch

META = {
    "name": "patchtst_revin_patchify",
    "level": 2,
    "category": "norm",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"B": 2, "L": 48, "C": 7, "P": 16, "S": 8},
        "ragged": {"B": 3, "L": 100, "C": 21, "P": 16, "S": 8},
        "large": {"B": 24, "L": 512, "C": 862, "P": 16, "S": 8},
    },
    "baseline_notes": "2-D grid (sample, block of 16 channels): each program holds its channels' whole series as a "
                      "[next_pow2(L), 16] tile for two-pass mean and variance, then re-reads the series through "
                      "the clamped patch index and writes its channels' patches; 4 warps.",
    "deterministic": True,
}

EPS = 1e-5


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [B, L, C] (daily-periodic sensor series with per-channel level and scale), RevIN weight and
    bias [C], patch length and stride."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    b, t, c = s["B"], s["L"], s["C"]
    level = torch.rand(c, generator=g) * 5.0
    scale = torch.rand(c, generator=g) * 2.0 + 0.1
    phase = torch.rand(b, 1, c, generator=g) * 6.283
    steps = torch.arange(t, dtype=torch.float32)[None, :, None]
    x = level + scale * (torch.sin(steps * 6.283 / 24.0 + phase) + 0.3 * torch.randn(b, t, c, generator=g))
    weight = 1.0 + 0.1 * torch.randn(c, generator=g)
    bias = 0.1 * torch.randn(c, generator=g)
    return (x.to(dt).to(device), weight.to(dt).to(device), bias.to(dt).to(device), s["P"], s["S"])


def reference(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor, patch_len: int, stride: int) -> tuple:
    xd = x.double()
    mean = xd.mean(dim=1, keepdim=True)
    stdev = torch.sqrt(xd.var(dim=1, keepdim=True, unbiased=False) + EPS)
    z = (xd - mean) / stdev * weight.double() + bias.double()
    z = z.permute(0, 2, 1)
    z = torch.cat([z, z[:, :, -1:].expand(-1, -1, stride)], dim=-1)
    patches = z.unfold(dimension=-1, size=patch_len, step=stride)
    return patches.to(x.dtype).contiguous(), mean.to(x.dtype), stdev.to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = (s["L"] + s["S"] - s["P"]) // s["S"] + 1
    series = s["B"] * s["C"]
    return {"bytes": 4 * (series * s["L"] + series * n * s["P"] + 2 * series + 2 * s["C"]),
            "flops": 5 * series * s["L"] + 2 * series * n * s["P"]}

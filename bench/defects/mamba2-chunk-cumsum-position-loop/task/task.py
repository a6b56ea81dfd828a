"""Mamba-2 SSD chunk cumsum (mamba_ssm ssd_combined _chunk_cumsum_fwd): dt = softplus(dt + dt_bias) clamped to
dt_limit, laid out per chunk as [B, H, nchunks, chunk_size] (zero past the end of the sequence), and the
within-chunk inclusive cumulative sum of dA = dt * A[h]. Returns (dA_cumsum, dt_out), both fp32."""
import math

import torch

META = {
    "name": "ssd_chunk_cumsum",
    "level": 2,
    "category": "scan",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 1e-3, "rtol": 1e-4}},
    "sizes": {
        "small": {"B": 2, "L": 40, "H": 6, "CS": 16},
        "ragged": {"B": 2, "L": 77, "H": 11, "CS": 32},
        "large": {"B": 16, "L": 8192, "H": 80, "CS": 256},
    },
    "baseline_notes": "Grid (batch, chunk, head block), BLOCK_SIZE_H = min(16, next_power_of_2(H)) by heuristic: each program loads its "
                      "[BLOCK_SIZE_H, chunk] tile of dt at once, applies bias / softplus / clamp, and takes the "
                      "running sum along the chunk with tl.cumsum.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """dt [B, L, H] (in_proj output slice), A [H] fp32 (= -exp(A_log)), dt_bias [H] fp32, chunk_size,
    dt_min, dt_max (mamba_ssm dt_limit, default (0, inf))."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt_dtype = getattr(torch, dtype or META["dtypes"][0])
    dt = (torch.randn(s["B"], s["L"], s["H"], generator=g) * 2.0).to(dt_dtype)
    A = -torch.exp(torch.rand(s["H"], generator=g) * math.log(16.0))          # A_log init: A in [-16, -1]
    dt_init = torch.exp(torch.rand(s["H"], generator=g) * (math.log(0.1) - math.log(0.001)) + math.log(0.001))
    dt_bias = dt_init + torch.log(-torch.expm1(-dt_init))                       # inverse softplus
    return dt.to(device), A.to(device), dt_bias.to(device), s["CS"], 0.0, float("inf")


def reference(dt, A, dt_bias, chunk_size, dt_min, dt_max):
    B, L, H = dt.shape
    nchunks = -(-L // chunk_size)
    x = dt.double() + dt_bias.double()
    x = torch.where(x <= 20.0, torch.nn.functional.softplus(x), x).clamp(dt_min, dt_max)
    pad = torch.zeros(B, nchunks * chunk_size, H, dtype=torch.float64, device=dt.device)
    pad[:, :L] = x
    dt_out = pad.view(B, nchunks, chunk_size, H).permute(0, 3, 1, 2)
    dA_cumsum = torch.cumsum(dt_out * A.double()[None, :, None, None], dim=-1)
    return dA_cumsum.float().contiguous(), dt_out.float().contiguous()


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    nchunks = -(-s["L"] // s["CS"])
    elem = torch.finfo(getattr(torch, dtype or META["dtypes"][0])).bits // 8
    return {"bytes": elem * s["B"] * s["L"] * s["H"] + 2 * 4 * s["B"] * s["H"] * nchunks * s["CS"] + 8 * s["H"],
            "flops": 8 * s["B"] * s["L"] * s["H"]}

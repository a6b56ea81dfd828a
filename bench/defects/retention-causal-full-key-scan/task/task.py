"""Parallel (quadratic) form of multi-scale retention (RetNet / flash-linear-attention parallel_retention): o_i = sum_{j <= i} gamma_h^(i - j) (q_i . k_j) v_j, gamma_h = 1 - 2^(-5 - h)."""
import torch

META = {
    "name": "parallel_retention",
    "level": 2,
    "category": "attention",
    "dtypes": ["float16", "bfloat16"],
    "tolerance": {"float16": {"atol": 2.5e-1, "rtol": 2e-2}, "bfloat16": {"atol": 1.5, "rtol": 5e-2}},
    "sizes": {
        "small": {"B": 1, "H": 2, "N": 300, "D": 32},
        "ragged": {"B": 2, "H": 8, "N": 1000, "D": 64},
        "large": {"B": 2, "H": 16, "N": 4096, "D": 128},
    },
    "baseline_notes": "Grid (128-query block, batch * head); each program loops over 64-key blocks up to its "
                      "diagonal, s = tl.dot(q, k^T) times the decay gamma^(i - j) (0 above the diagonal), "
                      "acc += tl.dot(p, v); fp32 accumulator, 8 warps; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """q, k, v [B, H, N, D] (q scaled by D^-1/2) and log2(gamma_h) [H] (fp32)."""
    s = META["sizes"][size]
    dt = getattr(torch, dtype or META["dtypes"][0])
    g = torch.Generator().manual_seed(seed)
    shape = (s["B"], s["H"], s["N"], s["D"])
    q = (torch.randn(shape, generator=g) * s["D"] ** -0.5).to(dt)
    k = torch.randn(shape, generator=g).to(dt)
    v = torch.randn(shape, generator=g).to(dt)
    h = torch.arange(s["H"], dtype=torch.float64)
    log2_gamma = torch.log2(1.0 - 2.0 ** (-5.0 - h)).float()
    return q.to(device), k.to(device), v.to(device), log2_gamma.to(device)


def reference(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, log2_gamma: torch.Tensor) -> torch.Tensor:
    n = q.shape[2]
    pos = torch.arange(n, device=q.device)
    dist = (pos[:, None] - pos[None, :]).float()
    # where, not a product with the mask: gamma^dist overflows to inf above the diagonal at N = 4096
    decay = torch.where((dist >= 0)[None], torch.exp2(dist[None] * log2_gamma[:, None, None]), 0.0)
    scores = torch.einsum("bhid,bhjd->bhij", q.float(), k.float()) * decay[None]
    return torch.einsum("bhij,bhjd->bhid", scores, v.float()).to(q.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["B"] * s["H"] * s["N"] * s["D"]
    pairs = s["B"] * s["H"] * s["N"] * (s["N"] + 1) / 2
    return {"bytes": 4 * n * getattr(torch, dtype or META["dtypes"][0]).itemsize, "flops": int(4 * pairs * s["D"])}

"""DCN-v2 low-rank cross layer, second half (torchrec LowRankCrossNet: x_{l+1} = x0 * (W_l (V_l^T x_l) + b_l) + x_l):
given xv = V_l^T x_l [B, R], W [N, R] (nn.Linear weight), b [N], x0 and xl [B, N], return x0 * (xv @ W^T + b) + xl."""
import torch

META = {
    "name": "dcnv2_lowrank_cross_out",
    "level": 2,
    "category": "matmul",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 3e-2, "rtol": 2e-2}},
    "sizes": {
        "small": {"B": 20, "N": 48, "R": 32},
        "ragged": {"B": 37, "N": 80, "R": 48},
        "large": {"B": 8192, "N": 3456, "R": 512},
    },
    "baseline_notes": "One GEMM kernel, 64 x 128 x 64 bf16 tiles (tl.dot, fp32 accumulate, 4 warps, 4 stages, "
                      "grouped-M ordering); the epilogue adds the bias, loads the matching x0 and xl tiles and stores "
                      "x0 * y + xl in bf16, so y never leaves registers.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """xv [B, R], W [N, R], bias [N], x0 [B, N], xl [B, N]."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    B, N, R = s["B"], s["N"], s["R"]
    xv = torch.randn(B, R, generator=g)
    w = torch.randn(N, R, generator=g) / R ** 0.5
    bias = torch.randn(N, generator=g) * 0.1
    x0 = torch.randn(B, N, generator=g) * 0.5
    xl = torch.randn(B, N, generator=g) * 0.5
    return tuple(t.to(dt).to(device) for t in (xv, w, bias, x0, xl))


def reference(xv, w, bias, x0, xl):
    y = xv.float() @ w.float().t() + bias.float()
    return (x0.float() * y + xl.float()).to(xv.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    B, N, R = s["B"], s["N"], s["R"]
    return {"bytes": 2 * (B * R + N * R + N + 3 * B * N), "flops": 2 * B * N * R + 3 * B * N}

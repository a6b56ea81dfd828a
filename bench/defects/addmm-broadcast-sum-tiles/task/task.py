"""torch.addmm(bias, x, w, beta=0.5, alpha=2.0) in float16 with a row-broadcast bias [N] (FlagGems addmm)."""
import torch

META = {
    "name": "addmm",
    "level": 1,
    "category": "gemm",
    "dtypes": ["float16"],
    "tolerance": {"float16": {"atol": 2e-2, "rtol": 2e-2}},
    "sizes": {
        "small": {"M": 64, "N": 96, "K": 128},
        "ragged": {"M": 1000, "N": 1531, "K": 777},
        "large": {"M": 4096, "N": 4096, "K": 4096},
    },
    "baseline_notes": "128x128x32 tl.dot tiles with an fp32 accumulator, masked edges, beta * bias + alpha * acc "
                      "in the epilogue, fp16 store; 4 warps, 3 stages; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """bias [N], x [M, K], w [K, N] (scaled by 1/sqrt(K)), beta 0.5 and alpha 2.0."""
    s = META["sizes"][size]
    dt = getattr(torch, dtype or META["dtypes"][0])
    g = torch.Generator().manual_seed(seed)
    bias = torch.randn(s["N"], generator=g).to(dt)
    x = torch.randn(s["M"], s["K"], generator=g).to(dt)
    w = (torch.randn(s["K"], s["N"], generator=g) / s["K"] ** 0.5).to(dt)
    return bias.to(device), x.to(device), w.to(device), 0.5, 2.0


def reference(bias, x, w, beta, alpha) -> torch.Tensor:
    return torch.addmm(bias.float(), x.float(), w.float(), beta=beta, alpha=alpha).to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    M, N, K = s["M"], s["N"], s["K"]
    return {"bytes": 2 * (M * K + K * N + M * N + N), "flops": 2 * M * N * K}

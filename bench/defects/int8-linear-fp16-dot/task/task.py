"""W8A8 int8 linear: out = (x_q @ w_q^T) * x_scale[:, None] * w_scale[None, :] in fp16, w_q stored [N, K] (SmoothQuant, per-token x per-channel scales)."""
import torch

META = {
    "name": "int8_scaled_mm",
    "level": 2,
    "category": "gemm",
    "dtypes": ["float16"],
    "tolerance": {"float16": {"atol": 1e-2, "rtol": 1e-2}},
    "sizes": {
        "small": {"M": 64, "N": 96, "K": 128},
        "ragged": {"M": 1000, "N": 1500, "K": 2000},
        "large": {"M": 8192, "N": 8192, "K": 8192},
    },
    "baseline_notes": "128x128x64 tiles, int8 x int8 tl.dot into an int32 accumulator with the weight read "
                      "K-major through its strides, the two scale vectors applied once in the epilogue, fp16 "
                      "store; 8 warps, 3 stages; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x_q [M, K] and w_q [N, K] int8 in [-127, 127]; x_scale [M], w_scale [N] fp32 sized so out is O(1)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    M, N, K = s["M"], s["N"], s["K"]
    xq = torch.randint(-127, 128, (M, K), generator=g, dtype=torch.int8)
    wq = torch.randint(-127, 128, (N, K), generator=g, dtype=torch.int8)
    xs = (0.5 + 0.5 * torch.rand(M, generator=g)) / 127
    ws = (0.5 + 0.5 * torch.rand(N, generator=g)) / (127 * K ** 0.5)
    return xq.to(device), wq.to(device), xs.to(device), ws.to(device)


def reference(x_q, w_q, x_scale, w_scale) -> torch.Tensor:
    acc = x_q.double() @ w_q.double().t()
    return (acc * x_scale.double()[:, None] * w_scale.double()[None, :]).to(torch.float16)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    M, N, K = s["M"], s["N"], s["K"]
    return {"bytes": M * K + K * N + 4 * (M + N) + 2 * M * N, "flops": 2 * M * N * K}

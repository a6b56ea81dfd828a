"""One DCN-v2 low-rank cross layer (torchrec.modules.crossnet.LowRankCrossNet, layer l > 0) in bf16:
x_{l+1} = x0 * (W (V x_l) + b) + x_l, i.e. h = F.linear(x_l, V) [B, r] (kept in bf16 as under bf16 training),
then x0 * (F.linear(h, W) + b) + x_l. x0, x_l [B, N]; V [r, N]; W [N, r]; b [N]. Output [B, N] bf16."""
import torch

META = {
    "name": "dcnv2_lowrank_cross_layer",
    "level": 2,
    "category": "gemm",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 5e-2, "rtol": 2e-2}},
    "sizes": {
        "small": {"B": 48, "N": 96, "R": 32},
        "ragged": {"B": 300, "N": 200, "R": 40},
        "large": {"B": 8192, "N": 3456, "R": 512},
    },
    "baseline_notes": "Two persistent cube kernels on one program per AI core: h = x_l V^T and "
                      "x0 * (h W^T + b) + x_l, [128, 128] output tiles, BLOCK_K = 256, bf16 tiles straight into "
                      "tl.dot with an fp32 accumulator (weights loaded row-major and transposed on chip), h stored "
                      "in bf16, the cross epilogue in fp32.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x0, x_l [B, N] (interaction-arch input and the previous layer's output), V [R, N] and W [N, R]
    (xavier-normal, as torchrec initialises them), b [N]; all in bf16."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    B, N, R = s["B"], s["N"], s["R"]
    std = (2.0 / (N + R)) ** 0.5
    x0 = torch.randn(B, N, generator=g)
    xl = x0 + 0.5 * torch.randn(B, N, generator=g)
    v = torch.randn(R, N, generator=g) * std
    w = torch.randn(N, R, generator=g) * std
    b = torch.randn(N, generator=g) * 0.1
    return tuple(t.to(dt).to(device) for t in (x0, xl, v, w, b))


def reference(x0: torch.Tensor, xl: torch.Tensor, v: torch.Tensor, w: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    h = (xl.double() @ v.double().T).to(xl.dtype)
    y = h.double() @ w.double().T
    return (x0.double() * (y + b.double()) + xl.double()).to(xl.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    B, N, R = s["B"], s["N"], s["R"]
    return {"bytes": 2 * (3 * B * N + 2 * R * N + N + 2 * B * R), "flops": 4 * B * N * R + 3 * B * N}

"""Non-causal scaled dot-product attention softmax(Q K^T / sqrt(d)) V over [B, H, S, D] (as in BERT/ViT)."""
import torch

META = {
    "name": "naive_attention",
    "level": 2,
    "category": "attention",
    "dtypes": ["float16", "bfloat16"],
    "tolerance": {"float16": {"atol": 1e-2, "rtol": 1e-2},
                  "bfloat16": {"atol": 2e-2, "rtol": 2e-2}},
    "sizes": {
        "small": {"B": 1, "H": 2, "S": 64, "D": 32},
        "ragged": {"B": 2, "H": 3, "S": 1000, "D": 64},
        "large": {"B": 2, "H": 16, "S": 2048, "D": 128},
    },
    "baseline_notes": "Op-by-op conversion, three kernels: a 64x64x32 tl.dot GEMM writes the "
                      "scaled scores Q K^T to an fp32 [B*H, S, S] buffer; a one-program-per-row "
                      "softmax (BLOCK = next_power_of_2(S)) writes P in the input dtype; a second "
                      "64x64x32 GEMM computes P V. No fusion, no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """q, k, v [B, H, S, D], standard normals."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    shape = (s["B"], s["H"], s["S"], s["D"])
    return tuple(torch.randn(shape, generator=g).to(device=device, dtype=dt) for _ in range(3))


def reference(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
    scores = (q @ k.transpose(-1, -2)) / q.shape[-1] ** 0.5
    return torch.softmax(scores, dim=-1) @ v


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    B, H, S, D = s["B"], s["H"], s["S"], s["D"]
    return {"bytes": 4 * B * H * S * D * item, "flops": 4 * B * H * S * S * D + 5 * B * H * S * S}

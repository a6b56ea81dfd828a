"""nn.Linear weight gradient dW = dY^T @ X into an fp32 main_grad (Megatron gradient_accumulation_fusion wgrad), bf16 activations."""
import torch

META = {
    "name": "linear_wgrad",
    "level": 2,
    "category": "gemm",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 2e-2, "rtol": 1e-2}},
    "sizes": {
        "small": {"T": 256, "N": 64, "K": 96},
        "ragged": {"T": 1000, "N": 200, "K": 328},
        "large": {"T": 8192, "N": 4096, "K": 4096},
    },
    "baseline_notes": "One program per 128x128 tile of dW, tl.dot over the token axis in 64-token steps "
                      "(dY^T tile read token-major), fp32 accumulator stored once; 8 warps, 3 stages.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """dY [T, N] output gradient and X [T, K] layer input, both scaled so dW entries are O(1)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    dy = (torch.randn(s["T"], s["N"], generator=g) / s["T"] ** 0.5).to(dt)
    x = torch.randn(s["T"], s["K"], generator=g).to(dt)
    return dy.to(device), x.to(device)


def reference(dy: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
    return (dy.double().t() @ x.double()).float()


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 2 * s["T"] * (s["N"] + s["K"]) + 4 * s["N"] * s["K"], "flops": 2 * s["T"] * s["N"] * s["K"]}

"""instant-NGP rgb network (tiny-cuda-nn FullyFusedMLP, 64 neurons, 2 hidden ReLU layers) on fp16 inputs:
rgb = sigmoid(relu(relu(x @ W1) @ W2) @ W3), x = [density-net features (16) | SH degree-4 view encoding (16)]."""
import math

import torch

META = {
    "name": "ngp_rgb_mlp",
    "level": 2,
    "category": "matmul",
    "dtypes": ["float16"],
    "tolerance": {"float16": {"atol": 5e-3, "rtol": 1e-2}},
    "sizes": {
        "small": {"N": 200},
        "ragged": {"N": 333},
        "large": {"N": 1048576},
    },
    "baseline_notes": "one fused kernel, 128 samples per program: the [128, 32] input tile goes through three tl.dot "
                      "layers (32->64, 64->64, 64->16 padded from 3) with fp32 accumulation, ReLU and an fp16 cast "
                      "between layers in registers, and sigmoid on the 3 stored outputs; weights (12 KB) come from "
                      "L2; 4 warps.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [N, 32], W1 [32, 64], W2 [64, 64], W3 [64, 3] (in, out layout), all in the task dtype."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    feat = torch.randn(s["N"], 16, generator=g) * 0.5
    sh = torch.rand(s["N"], 16, generator=g) * 2.0 - 1.0
    x = torch.cat([feat, sh], 1)
    w1 = torch.randn(32, 64, generator=g) * math.sqrt(2.0 / 32)
    w2 = torch.randn(64, 64, generator=g) * math.sqrt(2.0 / 64)
    w3 = torch.randn(64, 3, generator=g) * math.sqrt(1.0 / 64)
    return tuple(t.to(dt).to(device) for t in (x, w1, w2, w3))


def reference(x, w1, w2, w3):
    h = torch.relu(x.float() @ w1.float())
    h = torch.relu(h @ w2.float())
    return torch.sigmoid(h @ w3.float())


def cost(size: str, dtype: str | None = None) -> dict:
    n = META["sizes"][size]["N"]
    return {"bytes": n * 32 * 2 + n * 3 * 4 + 2 * (32 * 64 + 64 * 64 + 64 * 3),
            "flops": 2 * n * (32 * 64 + 64 * 64 + 64 * 3)}

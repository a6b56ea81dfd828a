"""HAT / RCAN channel attention (squeeze-and-excitation) weights of a CAB block.

x is the CAB's conv output [B, C, H, W]; the channel attention is
y = sigmoid(W2 @ relu(W1 @ mean_hw(x) + b1) + b2), with W1 [C/r, C] and W2 [C, C/r] the two 1x1
convolutions (HAT: C = 180, squeeze factor r = 30). Output y [B, C] in fp32 (the block then
scales x by y).
"""
import torch

META = {
    "name": "hat_channel_attention",
    "level": 2,
    "category": "reduction",
    "dtypes": ["float16"],
    "tolerance": {"float16": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"B": 2, "C": 24, "R": 4, "H": 16, "W": 24},
        "ragged": {"B": 3, "C": 60, "R": 6, "H": 21, "W": 35},
        "large": {"B": 1, "C": 180, "R": 6, "H": 352, "W": 512},
    },
    "baseline_notes": "Two launches: the squeeze (grid of 40 programs, the vector cores, each looping over "
                      "(image, channel) planes and summing a plane in 8,192-element contiguous tiles) writes "
                      "the means [B, C] in fp32; the excitation (one program per image) does the two 1x1 "
                      "convolutions, ReLU and sigmoid on [C] vectors.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [B, C, H, W] (post-conv activations); w1 [R, C], b1 [R], w2 [C, R], b2 [C] fp32 (1x1 conv weights)."""
    s = META["sizes"][size]
    B, C, R, H, W = s["B"], s["C"], s["R"], s["H"], s["W"]
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(B, C, H, W, generator=g) * 0.5 + torch.randn(B, C, 1, 1, generator=g) * 0.3
    w1 = torch.randn(R, C, generator=g) / C ** 0.5
    b1 = torch.randn(R, generator=g) * 0.1
    w2 = torch.randn(C, R, generator=g) / R ** 0.5
    b2 = torch.randn(C, generator=g) * 0.1
    dt = getattr(torch, dtype or META["dtypes"][0])
    return x.to(device=device, dtype=dt), w1.to(device), b1.to(device), w2.to(device), b2.to(device)


def reference(x: torch.Tensor, w1: torch.Tensor, b1: torch.Tensor, w2: torch.Tensor, b2: torch.Tensor) -> torch.Tensor:
    pooled = x.double().mean(dim=(2, 3))
    hidden = torch.relu(pooled @ w1.double().t() + b1.double())
    return torch.sigmoid(hidden @ w2.double().t() + b2.double()).float()


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    n = s["B"] * s["C"] * s["H"] * s["W"]
    return {"bytes": n * item + 4 * (2 * s["C"] * s["R"] + s["C"] + s["R"] + s["B"] * s["C"]),
            "flops": n + 4 * s["B"] * s["C"] * s["R"]}

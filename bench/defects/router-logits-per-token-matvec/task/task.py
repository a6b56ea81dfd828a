"""MoE router gate: logits [T, E] = x [T, H] @ W_gate[E, H]^T in bf16 with an fp32 result (Mixtral / DeepSeek / Qwen-MoE gate linear)."""
import torch

META = {
    "name": "router_logits",
    "level": 2,
    "category": "gemm",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 2e-3, "rtol": 2e-3}},
    "sizes": {
        "small": {"T": 40, "H": 256, "E": 16},
        "ragged": {"T": 3001, "H": 2880, "E": 32},
        "large": {"T": 16384, "H": 4096, "E": 64},
    },
    "baseline_notes": "64-token tiles: [64, 64] x [64, E] tl.dot steps along H with an fp32 accumulator, the gate "
                      "weight read K-major through its strides, fp32 store; 4 warps, 3 stages; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Hidden states x [T, H] and the gate weight [E, H] (nn.Linear layout, scaled by 1/sqrt(H))."""
    s = META["sizes"][size]
    dt = getattr(torch, dtype or META["dtypes"][0])
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(s["T"], s["H"], generator=g).to(dt)
    w = (torch.randn(s["E"], s["H"], generator=g) / s["H"] ** 0.5).to(dt)
    return x.to(device), w.to(device)


def reference(x: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    return x.float() @ w.float().t()


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    T, H, E = s["T"], s["H"], s["E"]
    return {"bytes": 2 * (T * H + E * H) + 4 * T * E, "flops": 2 * T * H * E}

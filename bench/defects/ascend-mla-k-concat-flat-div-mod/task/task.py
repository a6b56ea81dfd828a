"""MLA prefill key assembly (DeepSeek-V2 / V3): k = torch.cat((k_nope, k_pe.expand(-1, H, -1)), dim=-1), where
k_nope [T, H, 128] is the first half of each head of kv_b_proj's output and k_pe [T, 1, 64] is the shared rotary
key; k is [T, H, 192]."""
import torch

META = {
    "name": "mla_k_concat",
    "level": 1,
    "category": "layout",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 0.0, "rtol": 0.0}},
    "sizes": {
        "small": {"T": 7, "H": 4},
        "ragged": {"T": 61, "H": 8},
        "large": {"T": 16384, "H": 16},
    },
    "baseline_notes": "One program per vector core (48 on an A2) looping over tokens; per token one unmasked "
                      "[H, 128] copy of k_nope into k[..., :128] and the [64] k_pe row broadcast into "
                      "k[..., 128:192]: structured 2-D offsets (token, head strides), no division, no select.",
    "deterministic": True,
}

D_NOPE, D_ROPE, D_V = 128, 64, 128


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """k_nope: the [T, H, 128] view kv[..., :128] of kv_b_proj's output kv [T, H, 128 + 128] (strides
    (H * 256, 256, 1)); k_pe [T, 1, 64] after rotary."""
    s = META["sizes"][size]
    T, H = s["T"], s["H"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    kv = torch.randn(T, H, D_NOPE + D_V, generator=g).to(dt).to(device)
    k_pe = torch.randn(T, 1, D_ROPE, generator=g).to(dt).to(device)
    return kv[..., :D_NOPE], k_pe


def reference(k_nope: torch.Tensor, k_pe: torch.Tensor) -> torch.Tensor:
    return torch.cat((k_nope, k_pe.expand(-1, k_nope.shape[1], -1)), dim=-1)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    T, H = s["T"], s["H"]
    return {"bytes": item * (T * H * D_NOPE + T * D_ROPE + T * H * (D_NOPE + D_ROPE)), "flops": 0}

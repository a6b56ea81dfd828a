"""Causal attention forward (softmax(q k^T * scale, causal) v) on [B, H, S, D] tensors."""
import torch

META = {
    "name": "causal_attention",
    "level": 2,
    "category": "attention",
    "dtypes": ["float16"],
    "tolerance": {"float16": {"atol": 2e-2, "rtol": 2e-2}},
    "sizes": {
        "small": {"B": 1, "H": 2, "S": 100, "D": 32},
        "ragged": {"B": 2, "H": 3, "S": 1001, "D": 64},
        "large": {"B": 4, "H": 32, "S": 4096, "D": 128},
    },
    "baseline_notes": "Flash-attention forward on triton-ascend: one program per vector core looping over "
                      "(query block, batch*head) items; per item an online-softmax loop over 64-key tiles up to the "
                      "diagonal, causal mask by a float compare of positions; tl.dot on the cube unit.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """q, k, v [B, H, S, D], softmax scale 1/sqrt(D)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    q, k, v = (torch.randn(s["B"], s["H"], s["S"], s["D"], generator=g).to(dt).to(device) for _ in range(3))
    return q, k, v, s["D"] ** -0.5


def reference(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, scale: float) -> torch.Tensor:
    out = torch.nn.functional.scaled_dot_product_attention(q.float(), k.float(), v.float(), is_causal=True, scale=scale)
    return out.to(q.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    bh = s["B"] * s["H"]
    return {"bytes": 4 * bh * s["S"] * s["D"] * 2, "flops": 2 * bh * s["S"] * s["S"] * s["D"]}

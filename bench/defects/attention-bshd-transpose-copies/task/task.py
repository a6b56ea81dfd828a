"""Non-causal attention on [B, S, H, D] tensors (the flash_attn_func / vLLM layout), output [B, S, H, D]."""
import torch

META = {
    "name": "attention_bshd",
    "level": 2,
    "category": "attention",
    "dtypes": ["float16", "bfloat16"],
    "tolerance": {"float16": {"atol": 1e-2, "rtol": 1e-2},
                  "bfloat16": {"atol": 2e-2, "rtol": 2e-2}},
    "sizes": {
        "small": {"B": 1, "S": 64, "H": 2, "D": 32},
        "ragged": {"B": 2, "S": 1000, "H": 3, "D": 64},
        "large": {"B": 8, "S": 1024, "H": 16, "D": 64},
    },
    "baseline_notes": "Flash-attention forward reading q, k, v and writing o in place through their "
                      "[B, S, H, D] strides: one program per 128 queries of a head; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """q, k, v [B, S, H, D], standard normals."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    shape = (s["B"], s["S"], s["H"], s["D"])
    return tuple(torch.randn(shape, generator=g).to(device=device, dtype=dt) for _ in range(3))


def reference(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
    qh, kh, vh = (t.float().transpose(1, 2) for t in (q, k, v))
    p = torch.softmax((qh @ kh.transpose(-1, -2)) / q.shape[-1] ** 0.5, dim=-1)
    return (p @ vh).transpose(1, 2).to(q.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    B, S, H, D = s["B"], s["S"], s["H"], s["D"]
    return {"bytes": 4 * B * H * S * D * item, "flops": 4 * B * H * S * S * D}

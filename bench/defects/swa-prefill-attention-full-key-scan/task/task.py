"""Causal sliding-window attention prefill (Mistral-7B window 4096): query i attends to keys j with i - WINDOW < j <= i; softmax(q k^T / sqrt(D)) v per (batch, head)."""
import torch

META = {
    "name": "sliding_window_attention",
    "level": 2,
    "category": "attention",
    "dtypes": ["bfloat16", "float16"],
    "tolerance": {"bfloat16": {"atol": 2e-2, "rtol": 2e-2}, "float16": {"atol": 5e-3, "rtol": 5e-3}},
    "sizes": {
        "small": {"B": 1, "H": 2, "S": 200, "D": 32, "WINDOW": 64},
        "ragged": {"B": 1, "H": 3, "S": 1000, "D": 64, "WINDOW": 300},
        "large": {"B": 1, "H": 32, "S": 16384, "D": 128, "WINDOW": 4096},
    },
    "baseline_notes": "Flash-attention forward, grid (128-query block, batch * head), 64-key tiles from the first "
                      "tile the window reaches to the diagonal, online softmax in exp2, bf16 tl.dot; 8 warps.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """q, k, v [B, H, S, D] in the activation dtype, and the window."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    shape = (s["B"], s["H"], s["S"], s["D"])
    q, k, v = (torch.randn(shape, generator=g).to(dt).to(device) for _ in range(3))
    return q, k, v, s["WINDOW"]


def reference(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, window: int) -> torch.Tensor:
    B, H, S, D = q.shape
    out = torch.empty_like(q)
    chunk = 1024
    for i0 in range(0, S, chunk):
        i1 = min(S, i0 + chunk)
        j0 = max(0, i0 - window + 1)
        qi = q[:, :, i0:i1].float()
        kj, vj = k[:, :, j0:i1].float(), v[:, :, j0:i1].float()
        s = qi @ kj.transpose(-1, -2) / D ** 0.5
        i = torch.arange(i0, i1, device=q.device)[:, None]
        j = torch.arange(j0, i1, device=q.device)[None, :]
        s = s.masked_fill(~((j <= i) & (j > i - window)), float("-inf"))
        out[:, :, i0:i1] = (torch.softmax(s, dim=-1) @ vj).to(q.dtype)
    return out


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    S, W = s["S"], s["WINDOW"]
    pairs = sum(min(i + 1, W) for i in range(S))
    return {"bytes": 4 * s["B"] * s["H"] * S * s["D"] * item, "flops": 4 * s["B"] * s["H"] * pairs * s["D"]}

"""Structured-output token bitmask: logits of tokens whose bit is clear in the request's packed int32
allow-mask are set to -inf (bit j of word w allows token 32 * w + j)."""
import torch

META = {
    "name": "apply_token_bitmask",
    "level": 1,
    "category": "elementwise",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 0.0, "rtol": 0.0}},
    "sizes": {
        "small": {"B": 3, "V": 5000},
        "ragged": {"B": 7, "V": 32001},
        "large": {"B": 32, "V": 128256},
    },
    "baseline_notes": "2-D grid (request, 4,096-token block): each program loads 128 packed words, expands them "
                      "against a 32-wide bit index into a [128, 32] allow tile and selects logits or -inf; 4 warps.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """logits [B, V] fp32, bitmask [B, ceil(V / 32)] int32 (about a third of the vocabulary allowed)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    B, V = s["B"], s["V"]
    W = (V + 31) // 32
    logits = torch.randn(B, V, generator=g) * 3.0
    allowed = torch.rand(B, W * 32, generator=g) < 0.35
    weights = torch.tensor([1 << j for j in range(32)], dtype=torch.int64)
    packed = (allowed.view(B, W, 32).to(torch.int64) * weights).sum(-1)
    packed = torch.where(packed >= 2 ** 31, packed - 2 ** 32, packed).to(torch.int32)
    return logits.to(dt).to(device), packed.to(device)


def reference(logits: torch.Tensor, bitmask: torch.Tensor) -> torch.Tensor:
    B, V = logits.shape
    shifts = torch.arange(32, device=bitmask.device, dtype=torch.int32)
    bits = (bitmask.unsqueeze(-1) >> shifts) & 1
    allowed = bits.reshape(B, -1)[:, :V].bool()
    return logits.masked_fill(~allowed, float("-inf"))


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["B"] * s["V"]
    return {"bytes": 8 * n + n // 8, "flops": n}

"""Structured-output token bitmask (xgrammar / vLLM apply_token_bitmask, as vLLM-Ascend runs it): the
grammar matcher packs each request's allowed tokens into int32 words (bit j of word w = token 32w + j,
1 = allowed); logits of disallowed tokens become -inf. logits [B, V] fp32, bitmask int32 [B, ceil(V/32)]."""
import torch

META = {
    "name": "apply_token_bitmask",
    "level": 1,
    "category": "elementwise",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 0.0, "rtol": 0.0}},
    "sizes": {
        "small": {"B": 3, "V": 5000},
        "ragged": {"B": 5, "V": 32001},
        "large": {"B": 256, "V": 151936},
    },
    "baseline_notes": "Grid of 48 vector cores striding over (row, 8,192-token block) tiles: each tile loads its "
                      "256 bitmask words contiguously, expands them to 8,192 bits with a [256, 32] shift and "
                      "reshape, and selects logits or -inf.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """logits and a bitmask that allows runs of tokens (a grammar state allows token families)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    B, V = s["B"], s["V"]
    W = (V + 31) // 32
    logits = torch.randn(B, V, generator=g) * 4.0
    allowed = torch.rand(B, W * 32, generator=g) < torch.rand(B, 1, generator=g)
    bits = allowed.view(B, W, 32).to(torch.int64) << torch.arange(32)
    words = bits.sum(dim=-1)
    words = torch.where(words >= 2 ** 31, words - 2 ** 32, words).to(torch.int32)
    return logits.to(device), words.to(device)


def reference(logits: torch.Tensor, bitmask: torch.Tensor) -> torch.Tensor:
    B, V = logits.shape
    bits = (bitmask.long()[:, :, None] >> torch.arange(32, device=logits.device)) & 1
    allowed = bits.view(B, -1)[:, :V].bool()
    return torch.where(allowed, logits, torch.full_like(logits, float("-inf")))


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 8 * s["B"] * s["V"] + 4 * s["B"] * ((s["V"] + 31) // 32), "flops": 2 * s["B"] * s["V"]}

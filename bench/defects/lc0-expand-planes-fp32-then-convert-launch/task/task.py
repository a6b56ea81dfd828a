"""Input-plane expansion of a Leela Chess Zero (lc0) network batch (the CUDA backend's expandPlanes, fp16 NCHW).

lc0 sends every position to the GPU packed as 112 input planes of (uint64 square mask, float value): the
8 history positions x 13 planes (12 piece bitboards + repetition), castling rights, side to move, the
rule-50 counter (value rule50 / 99 on all squares), an all-zero and an all-one plane. Before the first
convolution the planes are expanded into the network input
    out[b, p, sq // 8, sq % 8] = value[b, p] if bit sq of mask[b, p] is set else 0
in the network's dtype (fp16 for the cuda-fp16 backend). Masks arrive as int64 (the uint64 bit pattern).
"""
import torch

META = {
    "name": "lc0_expand_planes",
    "level": 1,
    "category": "elementwise",
    "dtypes": ["float16"],
    "tolerance": {"float16": {"atol": 1e-3, "rtol": 1e-3}},
    "sizes": {
        "small": {"B": 3},
        "ragged": {"B": 5},
        "large": {"B": 4096},
    },
    "baseline_notes": "1-D grid over blocks of 32 planes; each program loads 32 masks and values, expands them "
                      "into a [32, 64] tile with a per-square shift-and-test and stores it straight into the "
                      "fp16 NCHW output (cast on store). 4 warps, no autotune.",
    "deterministic": True,
}
PLANES = 112


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """masks int64 [B, 112] (uint64 bit patterns), values fp32 [B, 112]."""
    B = META["sizes"][size]["B"]
    g = torch.Generator().manual_seed(seed)
    bits = torch.zeros(B, PLANES, 64, dtype=torch.bool)
    # 8 history positions: scatter up to 32 pieces over the 12 piece planes, a rare repetition plane.
    for h in range(8):
        for _ in range(32):
            sq = torch.randint(0, 64, (B,), generator=g)
            piece = torch.randint(0, 12, (B,), generator=g)
            alive = torch.rand(B, generator=g) < 0.8 - 0.05 * h
            bits[torch.arange(B)[alive], (13 * h + piece)[alive], sq[alive]] = True
        rep = torch.rand(B, generator=g) < 0.05
        bits[rep, 13 * h + 12, :] = True
    castling = torch.rand(B, 4, generator=g) < 0.5
    bits[:, 104:108, :] = castling[:, :, None]
    bits[:, 108, :] = (torch.rand(B, generator=g) < 0.5)[:, None]   # side to move (black)
    bits[:, 109, :] = True                                          # rule-50 counter plane
    bits[:, 111, :] = True                                          # all-ones plane
    weights = torch.tensor([1 << i for i in range(63)] + [-(1 << 63)], dtype=torch.int64)
    masks = (bits.to(torch.int64) * weights).sum(-1)
    values = torch.ones(B, PLANES)
    values[:, 109] = torch.randint(0, 100, (B,), generator=g).float() / 99.0
    return masks.to(device), values.to(device)


def reference(masks: torch.Tensor, values: torch.Tensor) -> torch.Tensor:
    sq = torch.arange(64, device=masks.device)
    set_ = ((masks[:, :, None] >> sq) & 1).bool()
    out = torch.where(set_, values[:, :, None], torch.zeros((), dtype=values.dtype, device=values.device))
    return out.reshape(masks.shape[0], PLANES, 8, 8).to(torch.float16)


def cost(size: str, dtype: str | None = None) -> dict:
    B = META["sizes"][size]["B"]
    return {"bytes": B * PLANES * (8 + 4 + 64 * 2), "flops": 3 * B * PLANES * 64}

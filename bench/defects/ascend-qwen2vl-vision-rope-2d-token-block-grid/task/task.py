"""Qwen2-VL vision 2-D rotary position embedding on the ViT's q and k (rot_pos_emb + apply_rotary_pos_emb_vision).

Each patch token has a (row, column) position on its image's patch grid, listed in the spatial-merge
order of Qwen2VisionTransformerPretrainedModel.rot_pos_emb (2x2 patch blocks contiguous, frames of a
video repeating the grid). The rotary half of each head (D/2 = 40 of D = 80) uses 20 frequencies
theta^(-4j/D) on the row for its first 20 dims and the same 20 frequencies on the column for the
next 20; cos/sin are repeated over the two halves and applied with rotate_half in fp32
(VisionRotaryEmbedding, theta = 10000).
"""
import torch

META = {
    "name": "qwen2vl_vision_rope_2d",
    "level": 2,
    "category": "rope",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 2e-2, "rtol": 2e-2}},
    "sizes": {
        # grid_thw per image (t, h, w in patches), heads H, head dim D
        "small": {"grid_thw": [(1, 4, 4), (1, 2, 6)], "H": 2, "D": 80},
        "ragged": {"grid_thw": [(1, 6, 10), (2, 4, 4)], "H": 3, "D": 80},
        "large": {"grid_thw": [(1, 92, 68)] * 4, "H": 16, "D": 80},
    },
    "baseline_notes": "40 programs (the vector cores) stride over blocks of 4 tokens; per block the row/column "
                      "angles, cos and sin in fp32 for [4, next_pow2(D/2)], then both halves of q and k as "
                      "[4, H, next_pow2(D/2)] tiles rotated in fp32 and stored.",
    "deterministic": True,
}
THETA = 10000.0
MERGE = 2


def positions(grid_thw) -> torch.Tensor:
    """rot_pos_emb's pos_ids as [2, S]: row 0 the patch row, row 1 the patch column of every token."""
    out = []
    for t, h, w in grid_thw:
        hpos = torch.arange(h)[:, None].expand(h, w)
        wpos = torch.arange(w)[None, :].expand(h, w)
        order = lambda p: p.reshape(h // MERGE, MERGE, w // MERGE, MERGE).permute(0, 2, 1, 3).flatten()
        out.append(torch.stack([order(hpos), order(wpos)]).repeat(1, t))
    return torch.cat(out, dim=1)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """q, k [S, H, D] (after the qkv projection), pos [2, S] int32."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    pos = positions(s["grid_thw"])
    S = pos.shape[1]
    q = torch.randn(S, s["H"], s["D"], generator=g).to(dt)
    k = torch.randn(S, s["H"], s["D"], generator=g).to(dt)
    return q.to(device), k.to(device), pos.to(torch.int32).to(device)


def reference(q: torch.Tensor, k: torch.Tensor, pos: torch.Tensor) -> tuple:
    D = q.shape[-1]
    inv_freq = 1.0 / THETA ** (torch.arange(0, D // 2, 2, dtype=torch.float32, device=q.device) / (D // 2))
    freqs = torch.cat([pos[0].float()[:, None] * inv_freq, pos[1].float()[:, None] * inv_freq], dim=1)
    emb = torch.cat([freqs, freqs], dim=1)
    cos, sin = emb.cos()[:, None, :], emb.sin()[:, None, :]

    def rotate(x):
        xf = x.float()
        x1, x2 = xf[..., : D // 2], xf[..., D // 2:]
        return (xf * cos + torch.cat([-x2, x1], dim=-1) * sin).to(x.dtype)

    return rotate(q), rotate(k)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    S = sum(t * h * w for t, h, w in s["grid_thw"])
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    n = S * s["H"] * s["D"]
    return {"bytes": 4 * n * item + 8 * S, "flops": 6 * n}

"""Cosmos-Predict1 DiT 3-D RoPE (VideoRopePosition3DEmb + rotate-half apply, "bshd") on video tokens.

head_dim D = 128 is split over the axes as in VideoRopePosition3DEmb: dim_h = dim_w = D // 6 * 2 = 42,
dim_t = D - 84 = 44, i.e. 22 temporal, 21 height and 21 width frequency pairs. Token s = (t * H + h) * W + w
of x [B, T*H*W, NH, D] is rotated by the angles cat([emb_t[t], emb_h[h], emb_w[w]] * 2) (rotate_half layout:
out = x * cos + rotate_half(x) * sin). The per-axis tables hold cos/sin of those angles in fp32.
"""
import torch

META = {
    "name": "cosmos_rope3d",
    "level": 2,
    "category": "rope",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 2e-2, "rtol": 2e-2}},
    "sizes": {
        "small": {"B": 1, "T": 2, "H": 3, "W": 5, "NH": 2, "D": 128},
        "ragged": {"B": 2, "T": 3, "H": 5, "W": 7, "NH": 3, "D": 128},
        "large": {"B": 1, "T": 16, "H": 44, "W": 80, "NH": 32, "D": 128},
    },
    "baseline_notes": "Programs (40, one per AI vector core) loop over (b, t, h, 16-token block of w) items: the "
                      "temporal and height table rows are loaded once per item, the width rows as one [16, 64] "
                      "tile; heads are rotated 4 at a time as [16, 4, 64] halves in fp32.",
    "deterministic": True,
}


def _axis_tables(n: int, dim: int, theta: float = 10000.0) -> tuple:
    freqs = 1.0 / theta ** (torch.arange(0, dim, 2, dtype=torch.float64)[: dim // 2] / dim)
    ang = torch.arange(n, dtype=torch.float64)[:, None] * freqs[None, :]
    return ang.cos().float(), ang.sin().float()


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [B, S, NH, D] (q or k after its RMSNorm) and cos/sin tables [T, 22], [H, 21], [W, 21] fp32."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    D = s["D"]
    dim_h = D // 6 * 2
    x = torch.randn(s["B"], s["T"] * s["H"] * s["W"], s["NH"], D, generator=g)
    ct, st = _axis_tables(s["T"], D - 2 * dim_h)
    ch, sh = _axis_tables(s["H"], dim_h)
    cw, sw = _axis_tables(s["W"], dim_h)
    return (x.to(dt).to(device), *(a.to(device) for a in (ct, st, ch, sh, cw, sw)))


def _full(tt, th, tw):
    T, H, W = tt.shape[0], th.shape[0], tw.shape[0]
    emb = torch.cat([tt[:, None, None, :].expand(T, H, W, -1), th[None, :, None, :].expand(T, H, W, -1),
                     tw[None, None, :, :].expand(T, H, W, -1)], dim=-1).reshape(T * H * W, 1, -1)
    return torch.cat([emb, emb], dim=-1)


def reference(x, cos_t, sin_t, cos_h, sin_h, cos_w, sin_w) -> torch.Tensor:
    cos, sin = _full(cos_t, cos_h, cos_w), _full(sin_t, sin_h, sin_w)
    xf = x.float()
    half = x.shape[-1] // 2
    rot = torch.cat([-xf[..., half:], xf[..., :half]], dim=-1)
    return (xf * cos + rot * sin).to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    n = s["B"] * s["T"] * s["H"] * s["W"] * s["NH"] * s["D"]
    return {"bytes": 2 * n * item + 8 * (s["T"] + s["H"] + s["W"]) * s["D"] // 2, "flops": 3 * n}

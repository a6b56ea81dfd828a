"""Backward of Megatron-core rotary embedding on packed (THD) sequences, as MindSpeed-LLM runs it for SFT.

Forward (rotate_half / non-interleaved layout, positions restart at every packed sequence):
    y = x * cos[p] + rotate_half(x) * sin[p],  rotate_half(x) = cat(-x2, x1),  p = t - cu_seqlens[seq(t)]
Backward, for the query gradient dy [T, N, D]:
    dx1 = dy1 * cos1[p] + dy2 * sin2[p],  dx2 = dy2 * cos2[p] - dy1 * sin1[p]
with cos/sin the fp32 tables [SMAX, D] (both halves stored, as Megatron's freqs = cat(freqs, freqs)).
"""
import torch

META = {
    "name": "thd_rope_backward",
    "level": 2,
    "category": "rope",
    "dtypes": ["bfloat16", "float16", "float32"],
    "tolerance": {"bfloat16": {"atol": 2e-2, "rtol": 2e-2},
                  "float16": {"atol": 2e-3, "rtol": 2e-3},
                  "float32": {"atol": 1e-5, "rtol": 1e-5}},
    "sizes": {
        "small": {"T": 40, "N": 2, "D": 16, "SMAX": 16, "LMIN": 3, "LMAX": 12},
        "ragged": {"T": 77, "N": 3, "D": 24, "SMAX": 24, "LMIN": 2, "LMAX": 20},
        "large": {"T": 8192, "N": 32, "D": 128, "SMAX": 8192, "LMIN": 32, "LMAX": 224},
    },
    "baseline_notes": "One launch, grid = the 40 vector cores: every program walks the packed sequences and takes "
                      "the tokens t with t % programs == its id, each as an [N, D/2] pair of half tiles rotated in "
                      "fp32 with the fp32 cos/sin rows of position t - cu_seqlens[seq]; no autotune.",
    "deterministic": True,
}
BASE = 500000.0


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """dy [T, N, D], cos and sin [SMAX, D] fp32, cu_seqlens [n_seq + 1] int32 (packed lengths, sum T)."""
    s = META["sizes"][size]
    T, N, D = s["T"], s["N"], s["D"]
    g = torch.Generator().manual_seed(seed)
    bounds = [0]
    while bounds[-1] < T:
        bounds.append(min(T, bounds[-1] + int(torch.randint(s["LMIN"], s["LMAX"] + 1, (1,), generator=g))))
    cu_seqlens = torch.tensor(bounds, dtype=torch.int32)
    dy = torch.randn(T, N, D, generator=g)
    inv_freq = 1.0 / BASE ** (torch.arange(0, D, 2, dtype=torch.float64) / D)
    freqs = torch.arange(s["SMAX"], dtype=torch.float64)[:, None] * inv_freq[None, :]
    freqs = torch.cat([freqs, freqs], dim=-1)
    dt = getattr(torch, dtype or META["dtypes"][0])
    return (dy.to(dt).to(device), freqs.cos().float().to(device), freqs.sin().float().to(device),
            cu_seqlens.to(device))


def reference(dy: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor, cu_seqlens: torch.Tensor) -> torch.Tensor:
    T, N, D = dy.shape
    half = D // 2
    cu = cu_seqlens.long()
    seq = torch.repeat_interleave(torch.arange(cu.numel() - 1, device=dy.device), cu[1:] - cu[:-1])
    pos = torch.arange(T, device=dy.device) - cu[seq]
    c, s = cos[pos].double()[:, None, :], sin[pos].double()[:, None, :]
    g1, g2 = dy.double()[..., :half], dy.double()[..., half:]
    dx = torch.cat([g1 * c[..., :half] + g2 * s[..., half:], g2 * c[..., half:] - g1 * s[..., :half]], dim=-1)
    return dx.to(dy.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    n = s["T"] * s["N"] * s["D"]
    return {"bytes": 2 * n * item + 2 * 4 * min(s["T"], s["SMAX"]) * s["D"], "flops": 3 * n}

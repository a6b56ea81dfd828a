"""SigLIP attention-pooling (MAP) head: one learned probe query attends over every patch token of an image.

transformers SiglipMultiheadAttentionPoolingHead: nn.MultiheadAttention(probe, hidden, hidden) with the
probe shared by the whole batch. Given the probe's projected query q [H, D] (the same for every
image) and the in-projected keys and values k, v [B, N, H*D], the pooled token per image and head is
softmax(q_h . k_h^T / sqrt(D)) v_h, concatenated over heads (before out_proj).
"""
import torch

META = {
    "name": "siglip_map_head_attention",
    "level": 2,
    "category": "attention",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 2e-2, "rtol": 2e-2}},
    "sizes": {
        "small": {"B": 2, "N": 37, "H": 2, "D": 72},
        "ragged": {"B": 3, "N": 81, "H": 3, "D": 72},
        "large": {"B": 64, "N": 729, "H": 16, "D": 72},
    },
    "baseline_notes": "40 programs (the vector cores) stride over the (image, head) pairs; per pair an online "
                      "softmax over 64-token key/value tiles loaded as [64, next_pow2(D)] rows, scores reduced "
                      "along the head dim, p * v accumulated in a [64, D] fp32 tile and summed once at the end.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """q [H, D] (projected probe), k [B, N, H*D], v [B, N, H*D]; heads-per-row layout of nn.MultiheadAttention."""
    s = META["sizes"][size]
    B, N, H, D = s["B"], s["N"], s["H"], s["D"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    q = torch.randn(H, D, generator=g) * 1.5
    k = torch.randn(B, N, H * D, generator=g)
    v = torch.randn(B, N, H * D, generator=g)
    return q.to(dt).to(device), k.to(dt).to(device), v.to(dt).to(device)


def reference(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
    B, N, HD = k.shape
    H, D = q.shape
    qh = q.float()
    kh = k.float().reshape(B, N, H, D)
    vh = v.float().reshape(B, N, H, D)
    scores = torch.einsum("hd,bnhd->bhn", qh, kh) * D ** -0.5
    p = torch.softmax(scores, dim=-1)
    return torch.einsum("bhn,bnhd->bhd", p, vh).reshape(B, HD).to(k.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    B, N, HD = s["B"], s["N"], s["H"] * s["D"]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    return {"bytes": (2 * B * N * HD + HD + B * HD) * item, "flops": 4 * B * N * HD}

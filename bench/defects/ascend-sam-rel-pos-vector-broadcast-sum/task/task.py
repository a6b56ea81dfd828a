"""Decomposed relative-position terms of SAM's image-encoder attention (segment_anything
add_decomposed_rel_pos): with q [B*heads, H*W, C] and the learned tables rel_pos_h [2H-1, C],
rel_pos_w [2W-1, C], Rh[i, j] = rel_pos_h[i - j + H - 1] and Rw[w, k] = rel_pos_w[w - k + W - 1],
rel_h = einsum("bhwc,hkc->bhwk", q, Rh) and rel_w = einsum("bhwc,wkc->bhwk", q, Rw), both fp32."""
import torch

META = {
    "name": "sam_decomposed_rel_pos",
    "level": 2,
    "category": "attention",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 2e-3, "rtol": 2e-3}},
    "sizes": {
        "small": {"BH": 3, "H": 5, "W": 7, "C": 32},
        "ragged": {"BH": 2, "H": 11, "W": 14, "C": 48},
        "large": {"BH": 64, "H": 64, "W": 64, "C": 80},
    },
    "baseline_notes": "Two launches (rel_h, rel_w), grid = 20 AI cores looping over (b*head, row) tasks; each task "
                      "multiplies its [W, C] (or [H, C]) query rows by the gathered [C, K] table rows with tl.dot "
                      "in 16-wide C chunks, fp32 accumulation, one [rows, K] store.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """q [BH, H*W, C] (unscaled queries of a global-attention block), rel_pos_h [2H-1, C],
    rel_pos_w [2W-1, C], and the token grid H, W."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    q = torch.randn(s["BH"], s["H"] * s["W"], s["C"], generator=g)
    rel_h = torch.randn(2 * s["H"] - 1, s["C"], generator=g) * 0.05
    rel_w = torch.randn(2 * s["W"] - 1, s["C"], generator=g) * 0.05
    return q.to(dt).to(device), rel_h.to(dt).to(device), rel_w.to(dt).to(device), s["H"], s["W"]


def reference(q: torch.Tensor, rel_pos_h: torch.Tensor, rel_pos_w: torch.Tensor, H: int, W: int) -> tuple:
    dev = q.device
    ih = torch.arange(H, device=dev)
    iw = torch.arange(W, device=dev)
    Rh = rel_pos_h.double()[ih[:, None] - ih[None, :] + H - 1]
    Rw = rel_pos_w.double()[iw[:, None] - iw[None, :] + W - 1]
    r_q = q.double().reshape(q.shape[0], H, W, q.shape[2])
    rel_h = torch.einsum("bhwc,hkc->bhwk", r_q, Rh)
    rel_w = torch.einsum("bhwc,wkc->bhwk", r_q, Rw)
    return rel_h.float(), rel_w.float()


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    bh, h, w, c = s["BH"], s["H"], s["W"], s["C"]
    return {"bytes": 2 * bh * h * w * c + 2 * (2 * h + 2 * w) * c + 4 * bh * h * w * (h + w),
            "flops": 2 * bh * h * w * c * (h + w)}

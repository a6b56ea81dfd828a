"""unpad_input for varlen attention: gather the non-padding tokens of q [B, H, S, D] (the attention
layout after rotary) into q_unpad [nnz, H, D], token order b * S + s, given the flat token indices."""
import torch

META = {
    "name": "varlen_unpad_gather",
    "level": 1,
    "category": "data-movement",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 0.0, "rtol": 0.0}},
    "sizes": {
        "small": {"B": 3, "H": 2, "S": 17, "D": 16},
        "ragged": {"B": 5, "H": 3, "S": 61, "D": 24},
        "large": {"B": 16, "H": 32, "S": 2048, "D": 128},
    },
    "baseline_notes": "One program per kept token: its (b, s) is decoded once from indices[t] and the [H, D] "
                      "tile is read straight from q's [B, H, S, D] strides (each head a contiguous 256-byte row) "
                      "and stored contiguously; no host-side copy.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """q [B, H, S, D] and indices [nnz] int64 = attention_mask.flatten().nonzero() of a right-padded batch
    (each sequence 25-100% of S long)."""
    s = META["sizes"][size]
    B, H, S, D = s["B"], s["H"], s["S"], s["D"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    q = torch.randn(B, H, S, D, generator=g)
    lengths = torch.randint(S // 4, S + 1, (B,), generator=g)
    mask = torch.arange(S)[None, :] < lengths[:, None]
    indices = torch.nonzero(mask.flatten(), as_tuple=False).flatten()
    return q.to(dt).to(device), indices.to(device)


def reference(q: torch.Tensor, indices: torch.Tensor) -> torch.Tensor:
    B, H, S, D = q.shape
    return q.transpose(1, 2).reshape(B * S, H, D)[indices]


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    nnz = s["B"] * (s["S"] * 5 // 8)   # expected kept tokens (mean length 62.5% of S)
    return {"bytes": 2 * nnz * s["H"] * s["D"] * item + 8 * nnz, "flops": 0}

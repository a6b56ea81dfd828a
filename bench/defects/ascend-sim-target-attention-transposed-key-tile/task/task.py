"""Target attention pooling of a user-behaviour sequence feature (SIM exact search unit / DIN-family ranking).

For every candidate item b, the target item's embedding q[b] attends over the user's behaviour
sequence (padded to L, valid length n[b] >= 1) and pools it:
    s[b, t]  = <q[b], keys[b, t]> / sqrt(D)            for t < n[b]
    a[b, :]  = softmax_t(s[b, :])                        (padding positions get no weight)
    out[b]   = sum_t a[b, t] * values[b, t]
This is the scaled dot-product target attention of SIM's exact search unit (one head), with keys and
values the behaviour embeddings of the padded sequence feature, as a DeepRec / TorchRec ranking model
feeds it after the embedding lookup.
"""
import torch

META = {
    "name": "target_attention_pool",
    "level": 2,
    "category": "attention",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"B": 6, "L": 20, "D": 32},
        "ragged": {"B": 7, "L": 37, "D": 32},
        "large": {"B": 32768, "L": 100, "D": 32},
    },
    "baseline_notes": "40 programs (the A2's vector cores) stride over the candidates; per candidate one "
                      "[next_pow2(L), D] tile of keys and one of values, each a single contiguous transfer "
                      "masked to the valid length, scores reduced along D, masked softmax (float compare on "
                      "the position), weighted sum over the sequence; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """query [B, D], keys [B, L, D], values [B, L, D], lengths [B] int32 in [1, L]."""
    s = META["sizes"][size]
    B, L, D = s["B"], s["L"], s["D"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    query = torch.randn(B, D, generator=g)
    keys = torch.randn(B, L, D, generator=g)
    values = torch.randn(B, L, D, generator=g)
    lengths = torch.randint(1, L + 1, (B,), generator=g, dtype=torch.int32)
    lengths[0] = L
    if B > 1:
        lengths[1] = 1
    pad = torch.arange(L)[None, :] >= lengths[:, None].long()
    keys[pad] = 0.0            # padded positions hold zeros, as the padded sequence feature does
    values[pad] = 0.0
    return (query.to(dt).to(device), keys.to(dt).to(device), values.to(dt).to(device),
            lengths.to(device))


def reference(query: torch.Tensor, keys: torch.Tensor, values: torch.Tensor,
              lengths: torch.Tensor) -> torch.Tensor:
    q, k, v = query.double(), keys.double(), values.double()
    L, D = k.shape[1], k.shape[2]
    s = torch.einsum("bd,btd->bt", q, k) / D ** 0.5
    valid = torch.arange(L, device=k.device)[None, :] < lengths.long()[:, None]
    a = torch.softmax(s.masked_fill(~valid, float("-inf")), dim=-1)
    return torch.einsum("bt,btd->bd", a, v).to(query.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    B, L, D = s["B"], s["L"], s["D"]
    return {"bytes": 4 * (2 * B * L * D + 2 * B * D + B), "flops": 4 * B * L * D}

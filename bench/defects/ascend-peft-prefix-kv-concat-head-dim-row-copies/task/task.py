"""Prefix-tuning key/value concatenation for a batch that mixes adapters (PEFT PrefixTuning past_key_values,
concatenated in front of each request's keys and values as in HF attention's torch.cat(dim=2)).

Request b uses adapter ids[b]; its full keys are cat(prefix_k[ids[b]], k[b]) along the sequence axis, per head,
and the same for the values. k, v [B, H, S, D]; prefix_k, prefix_v [A, H, P, D]; ids [B] int32.
Output: (k_full, v_full), each [B, H, P + S, D].
"""
import torch

META = {
    "name": "prefix_kv_concat",
    "level": 2,
    "category": "layout",
    "dtypes": ["bfloat16", "float16"],
    "tolerance": {"bfloat16": {"atol": 0.0, "rtol": 0.0}, "float16": {"atol": 0.0, "rtol": 0.0}},
    "sizes": {
        "small": {"B": 2, "H": 2, "S": 24, "P": 8, "D": 32, "A": 3},
        "ragged": {"B": 3, "H": 3, "S": 37, "P": 5, "D": 48, "A": 2},
        "large": {"B": 8, "H": 32, "S": 2048, "P": 30, "D": 128, "A": 8},
    },
    "baseline_notes": "40 programs (one per vector core) striding over (request, head) pairs: the adapter's prefix "
                      "[P, D] and the request's [S, D] block are each one contiguous run in the source and in the "
                      "destination, copied for K and V in 8192-element chunks; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    s = META["sizes"][size]
    B, H, S, P, D, A = s["B"], s["H"], s["S"], s["P"], s["D"], s["A"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    k = torch.randn(B, H, S, D, generator=g)
    v = torch.randn(B, H, S, D, generator=g)
    prefix_k = torch.randn(A, H, P, D, generator=g)
    prefix_v = torch.randn(A, H, P, D, generator=g)
    ids = torch.randint(0, A, (B,), generator=g).to(torch.int32)
    return tuple(t.to(device=device, dtype=dt) for t in (k, v, prefix_k, prefix_v)) + (ids.to(device),)


def reference(k: torch.Tensor, v: torch.Tensor, prefix_k: torch.Tensor, prefix_v: torch.Tensor,
              ids: torch.Tensor) -> tuple:
    sel = ids.long()
    return torch.cat([prefix_k[sel], k], dim=2), torch.cat([prefix_v[sel], v], dim=2)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    rows = s["B"] * s["H"] * (s["P"] + s["S"])
    return {"bytes": 2 * 2 * rows * s["D"] * item + 4 * s["B"], "flops": 0}

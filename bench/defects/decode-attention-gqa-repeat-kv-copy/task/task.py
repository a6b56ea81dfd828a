"""Grouped-query decode attention: H query heads share Hkv cached key/value heads (LLaMA-2/3 70B style GQA), one new token per sequence."""
import torch

META = {
    "name": "gqa_decode_attention",
    "level": 2,
    "category": "attention",
    "dtypes": ["float16", "bfloat16"],
    "tolerance": {"float16": {"atol": 1e-2, "rtol": 1e-2},
                  "bfloat16": {"atol": 2e-2, "rtol": 2e-2}},
    "sizes": {
        "small": {"B": 2, "H": 4, "Hkv": 2, "S": 300, "D": 32},
        "ragged": {"B": 3, "H": 12, "Hkv": 4, "S": 4999, "D": 64},
        "large": {"B": 8, "H": 64, "Hkv": 8, "S": 8192, "D": 128},
    },
    "baseline_notes": "Split-KV decode over (query head, 1024-key chunk) programs that read their group's "
                      "key/value head in place (kv head = h // (H / Hkv)); a second kernel merges the chunks.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """q [B, H, D]; k, v [B, Hkv, S, D]; standard normals."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    q = torch.randn(s["B"], s["H"], s["D"], generator=g)
    k = torch.randn(s["B"], s["Hkv"], s["S"], s["D"], generator=g)
    v = torch.randn(s["B"], s["Hkv"], s["S"], s["D"], generator=g)
    return tuple(t.to(device=device, dtype=dt) for t in (q, k, v))


def reference(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
    group = q.shape[1] // k.shape[1]
    kf = k.float().repeat_interleave(group, dim=1)
    vf = v.float().repeat_interleave(group, dim=1)
    scores = torch.einsum("bhd,bhsd->bhs", q.float(), kf) / q.shape[-1] ** 0.5
    return torch.einsum("bhs,bhsd->bhd", torch.softmax(scores, dim=-1), vf).to(q.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    B, H, Hkv, S, D = s["B"], s["H"], s["Hkv"], s["S"], s["D"]
    return {"bytes": (2 * B * Hkv * S * D + 2 * B * H * D) * item, "flops": 4 * B * H * S * D}

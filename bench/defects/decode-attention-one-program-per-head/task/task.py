"""Single-query (decode) attention of one new token per sequence over a long contiguous KV cache [B, H, S, D]."""
import torch

META = {
    "name": "decode_attention",
    "level": 2,
    "category": "attention",
    "dtypes": ["float16", "bfloat16"],
    "tolerance": {"float16": {"atol": 1e-2, "rtol": 1e-2},
                  "bfloat16": {"atol": 2e-2, "rtol": 2e-2}},
    "sizes": {
        "small": {"B": 2, "H": 2, "S": 300, "D": 32},
        "ragged": {"B": 3, "H": 5, "S": 4999, "D": 64},
        "large": {"B": 4, "H": 8, "S": 32768, "D": 128},
    },
    "baseline_notes": "Split-KV (flash-decoding): 1024-key chunks per program write partial max, sum and "
                      "output; a second kernel merges the chunks per head; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """q [B, H, D]; k, v [B, H, S, D]; standard normals."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    q = torch.randn(s["B"], s["H"], s["D"], generator=g)
    k = torch.randn(s["B"], s["H"], s["S"], s["D"], generator=g)
    v = torch.randn(s["B"], s["H"], s["S"], s["D"], generator=g)
    return tuple(t.to(device=device, dtype=dt) for t in (q, k, v))


def reference(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
    scores = torch.einsum("bhd,bhsd->bhs", q.float(), k.float()) / q.shape[-1] ** 0.5
    return torch.einsum("bhs,bhsd->bhd", torch.softmax(scores, dim=-1), v.float()).to(q.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    B, H, S, D = s["B"], s["H"], s["S"], s["D"]
    return {"bytes": (2 * B * H * S * D + 2 * B * H * D) * item, "flops": 4 * B * H * S * D}

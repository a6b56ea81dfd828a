"""Position ids of packed variable-length sequences (flash-attn varlen / vLLM prefill): token t of
sequence b gets t - cu_seqlens[b]; torch position ids are int64. A local task for the int64
vector-arithmetic case."""
import torch

META = {
    "name": "varlen_positions",
    "level": 2,
    "category": "elementwise",
    "dtypes": ["int64"],
    "tolerance": {"int64": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"B": 4, "L": 300},
        "ragged": {"B": 37, "L": 5001},
        "large": {"B": 256, "L": 65536},
    },
    "baseline_notes": "One program per sequence, 4096-token chunks: positions computed in int32 "
                      "from the chunk start, widened to int64 at the store; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """cu_seqlens [B+1] int32 of random lengths in [1, L], and the total token count."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    lens = torch.randint(1, s["L"] + 1, (s["B"],), generator=g)
    cu = torch.zeros(s["B"] + 1, dtype=torch.int32)
    cu[1:] = torch.cumsum(lens, 0).to(torch.int32)
    return cu.to(device), int(cu[-1])


def reference(cu_seqlens: torch.Tensor, total: int) -> torch.Tensor:
    lens = (cu_seqlens[1:] - cu_seqlens[:-1]).long()
    starts = torch.repeat_interleave(cu_seqlens[:-1].long(), lens)
    return torch.arange(total, dtype=torch.int64, device=cu_seqlens.device) - starts


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 8 * s["B"] * (s["L"] + 1) // 2 + 4 * (s["B"] + 1), "flops": 0}

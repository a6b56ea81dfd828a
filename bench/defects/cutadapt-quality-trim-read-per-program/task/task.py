"""3' quality trimming of sequencing reads (cutadapt `-q 20`, qualtrim quality_trim_index; the BWA `-q` rule).

For each read the Phred+33 qualities are walked from the 3' end accumulating s += cutoff - q; the walk
stops at the first position where s < 0, and the read is cut before the position where s was largest
(ties: the one met first from the 3' end). Output: the kept length of every read (int32).
"""
import torch

CUTOFF = 20
PHRED_BASE = 33

META = {
    "name": "quality_trim_3p",
    "level": 2,
    "category": "genomics",
    "dtypes": ["uint8"],
    "tolerance": {"uint8": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"N": 12, "L": 40},
        "ragged": {"N": 37, "L": 151},
        "large": {"N": 4194304, "L": 151},
    },
    "baseline_notes": "Reads tiled 16 per program as a [16, next_power_of_2(L)] block: per-position gain "
                      "cutoff - q, reverse tl.cumsum along the read, the break point, best suffix sum and its "
                      "position by row max reductions; 4 warps, no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """qual [N, L] uint8 Phred+33 (NovaSeq binned 2/12/23/37, quality falling towards the 3' end, some
    reads ending in a Q2 run), lengths [N] int32 (reads after adapter trimming: 0..L, most full length)."""
    s = META["sizes"][size]
    N, L = s["N"], s["L"]
    g = torch.Generator().manual_seed(seed)
    pos = torch.arange(L, dtype=torch.float32)[None, :] / max(L - 1, 1)
    u = torch.rand(N, L, generator=g)
    u /= pos.pow(3).mul(0.35) * torch.rand(N, 1, generator=g) + 0.03   # error odds rise towards the 3' end
    q = torch.full((N, L), 37, dtype=torch.uint8)
    q[u < 1.0] = 23
    q[u < 0.45] = 12
    q[u < 0.15] = 2
    del u
    # Illumina marks a failing tail with a run of Q2 ('#')
    tail = torch.randint(L // 2, L + 1, (N,), generator=g)
    has_tail = torch.rand(N, generator=g) < 0.12
    q[has_tail[:, None] & (torch.arange(L)[None, :] >= tail[:, None])] = 2
    lengths = torch.full((N,), L, dtype=torch.int32)
    short = torch.rand(N, generator=g) < 0.25
    lengths[short] = torch.randint(0, L + 1, (int(short.sum()),), generator=g, dtype=torch.int32)
    qual = q.add_(PHRED_BASE)
    return qual.to(device), lengths.to(device)


def reference(qual: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
    N, L = qual.shape
    i32 = torch.int32
    pos = torch.arange(L, device=qual.device, dtype=i32)[None, :]
    valid = pos < lengths[:, None]
    gain = torch.where(valid, CUTOFF + PHRED_BASE - qual.to(i32), torch.zeros((), dtype=i32, device=qual.device))
    s = gain.flip(1).cumsum(1, dtype=i32).flip(1)               # s[i] = sum_{k >= i} gain[k]
    brk = torch.where(valid & (s < 0), pos, -1).amax(1)          # the walk from the 3' end stops here
    live = valid & (pos > brk[:, None])
    best = torch.where(live, s, 0).amax(1)
    at = torch.where(live & (s == best[:, None]) & (s > 0), pos, -1).amax(1)
    return torch.where(at >= 0, at, lengths).to(i32)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": s["N"] * s["L"] + 8 * s["N"], "flops": 6 * s["N"] * s["L"]}

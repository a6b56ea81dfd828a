"""Variable-length causal attention over packed sequences (flash_attn_varlen_func): q, k, v [total_tokens, H, D], cu_seqlens, max_seqlen."""
import torch

META = {
    "name": "varlen_causal_attention",
    "level": 2,
    "category": "attention",
    "dtypes": ["float16", "bfloat16"],
    "tolerance": {"float16": {"atol": 1e-2, "rtol": 1e-2},
                  "bfloat16": {"atol": 2e-2, "rtol": 2e-2}},
    "sizes": {
        "small": {"seqs": 3, "min_len": 5, "max_len": 70, "H": 2, "D": 32},
        "ragged": {"seqs": 9, "min_len": 17, "max_len": 700, "H": 3, "D": 64},
        "large": {"seqs": 64, "min_len": 128, "max_len": 1024, "H": 16, "D": 128},
    },
    "baseline_notes": "One launch over (128-query block, head, sequence): each program reads its sequence's "
                      "start and length from cu_seqlens, exits past the end, and runs a causal online softmax "
                      "over 64-key tiles up to the diagonal; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """q, k, v [total, H, D] standard normals; cu_seqlens [seqs + 1] int32; max_seqlen int."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    lens = torch.randint(s["min_len"], s["max_len"] + 1, (s["seqs"],), generator=g)
    cu = torch.zeros(s["seqs"] + 1, dtype=torch.int32)
    cu[1:] = torch.cumsum(lens, 0)
    total = int(cu[-1])
    q, k, v = (torch.randn(total, s["H"], s["D"], generator=g).to(device=device, dtype=dt) for _ in range(3))
    return q, k, v, cu.to(device), int(lens.max())


def reference(q, k, v, cu_seqlens, max_seqlen) -> torch.Tensor:
    out = torch.empty_like(q)
    bounds = cu_seqlens.tolist()
    for start, end in zip(bounds[:-1], bounds[1:]):
        qs, ks, vs = (t[start:end].float().transpose(0, 1) for t in (q, k, v))
        n = end - start
        scores = qs @ ks.transpose(-1, -2) / q.shape[-1] ** 0.5
        future = torch.ones(n, n, dtype=torch.bool, device=q.device).triu(1)
        p = torch.softmax(scores.masked_fill(future, float("-inf")), dim=-1)
        out[start:end] = (p @ vs).transpose(0, 1).to(q.dtype)
    return out


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    mean = (s["min_len"] + s["max_len"]) / 2
    total = s["seqs"] * mean
    return {"bytes": int(4 * total * s["H"] * s["D"] * item),
            "flops": int(2 * s["seqs"] * mean * mean * s["H"] * s["D"])}

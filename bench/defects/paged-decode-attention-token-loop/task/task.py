"""vLLM-style paged decode attention: one new query per sequence attends to its cached keys through a block table."""
import torch

META = {
    "name": "paged_decode_attention",
    "level": 2,
    "category": "attention",
    "dtypes": ["float16", "bfloat16"],
    "tolerance": {"float16": {"atol": 1e-2, "rtol": 1e-2},
                  "bfloat16": {"atol": 2e-2, "rtol": 2e-2}},
    "sizes": {
        "small": {"B": 2, "H": 2, "D": 32, "block_size": 16, "max_blocks": 4},
        "ragged": {"B": 5, "H": 3, "D": 64, "block_size": 16, "max_blocks": 37},
        "large": {"B": 64, "H": 8, "D": 128, "block_size": 16, "max_blocks": 128},
    },
    "baseline_notes": "One program per (sequence, head) walking the sequence's cache blocks: a [16, D] key "
                      "and value tile per block, online softmax in fp32; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """q [B, H, D]; k_cache, v_cache [B*max_blocks, block_size, H, D]; block_table [B, max_blocks]
    int32 (a random permutation of the blocks); seq_lens [B] int32 in (3/4, 1] of the capacity."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    B, H, D, bs, mb = s["B"], s["H"], s["D"], s["block_size"], s["max_blocks"]
    q = torch.randn(B, H, D, generator=g)
    k = torch.randn(B * mb, bs, H, D, generator=g)
    v = torch.randn(B * mb, bs, H, D, generator=g)
    table = torch.randperm(B * mb, generator=g).reshape(B, mb).to(torch.int32)
    cap = mb * bs
    lens = torch.randint(cap * 3 // 4, cap + 1, (B,), generator=g).to(torch.int32)
    return (q.to(device=device, dtype=dt), k.to(device=device, dtype=dt), v.to(device=device, dtype=dt),
            table.to(device), lens.to(device))


def reference(q, k_cache, v_cache, block_table, seq_lens) -> torch.Tensor:
    B, H, D = q.shape
    out = torch.empty_like(q)
    for b in range(B):
        n = int(seq_lens[b])
        keys = k_cache[block_table[b].long()].reshape(-1, H, D)[:n].float()
        vals = v_cache[block_table[b].long()].reshape(-1, H, D)[:n].float()
        p = torch.softmax(torch.einsum("hd,shd->hs", q[b].float(), keys) / D ** 0.5, dim=-1)
        out[b] = torch.einsum("hs,shd->hd", p, vals).to(q.dtype)
    return out


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    tokens = s["B"] * s["max_blocks"] * s["block_size"] * 7 // 8  # mean sequence length
    return {"bytes": 2 * tokens * s["H"] * s["D"] * item, "flops": 4 * tokens * s["H"] * s["D"]}

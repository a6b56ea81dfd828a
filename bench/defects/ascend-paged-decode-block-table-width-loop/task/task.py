"""Paged-attention decode for grouped-query attention (vLLM-Ascend / MindIE decode step): one query token
per sequence attends over its own context, read from a paged KV cache through the block table.
q [B, Hq, D], k_cache / v_cache [num_blocks, block_size, Hkv, D], block_tables int32 [B, max_blocks]
(rows padded with block 0 past the sequence), seq_lens int32 [B]. Output [B, Hq, D] in q's dtype."""
import torch

META = {
    "name": "paged_decode_attention_gqa",
    "level": 3,
    "category": "attention",
    "dtypes": ["float16"],
    "tolerance": {"float16": {"atol": 2e-3, "rtol": 2e-3}},
    "sizes": {
        "small": {"B": 3, "Hq": 8, "Hkv": 2, "D": 32, "BS": 16, "MAXLEN": 128},
        "ragged": {"B": 5, "Hq": 12, "Hkv": 4, "D": 64, "BS": 16, "MAXLEN": 200},
        "large": {"B": 32, "Hq": 32, "Hkv": 8, "D": 128, "BS": 128, "MAXLEN": 16384},
    },
    "baseline_notes": "Grid (sequence, kv head); the program holds the kv head's query group as a 16-row tile, "
                      "walks only the ceil(seq_len / block_size) blocks of its sequence, QK^T and PV with tl.dot "
                      "on the cube unit and an online softmax in fp32.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """A decode batch with context lengths spread from one block to MAXLEN; the cache holds exactly the
    blocks the batch uses, in shuffled order; block-table rows are padded with 0 to MAXLEN / BS."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    B, Hq, Hkv, D, BS = s["B"], s["Hq"], s["Hkv"], s["D"], s["BS"]
    max_blocks = (s["MAXLEN"] + BS - 1) // BS
    seq_lens = torch.randint(1, s["MAXLEN"] + 1, (B,), generator=g)
    seq_lens[0] = s["MAXLEN"]
    used = (seq_lens + BS - 1) // BS
    num_blocks = int(used.sum())
    perm = torch.randperm(num_blocks, generator=g)
    block_tables = torch.zeros(B, max_blocks, dtype=torch.int32)
    start = 0
    for b in range(B):
        n = int(used[b])
        block_tables[b, :n] = perm[start:start + n].to(torch.int32)
        start += n
    q = torch.randn(B, Hq, D, generator=g).to(dt)
    k_cache = torch.randn(num_blocks, BS, Hkv, D, generator=g).to(dt)
    v_cache = torch.randn(num_blocks, BS, Hkv, D, generator=g).to(dt)
    scale = 1.0 / D ** 0.5
    return (q.to(device), k_cache.to(device), v_cache.to(device), block_tables.to(device),
            seq_lens.to(torch.int32).to(device), scale)


def reference(q, k_cache, v_cache, block_tables, seq_lens, scale):
    B, Hq, D = q.shape
    BS, Hkv = k_cache.shape[1], k_cache.shape[2]
    group = Hq // Hkv
    out = torch.empty_like(q)
    for b in range(B):
        n = int(seq_lens[b])
        nb = (n + BS - 1) // BS
        blocks = block_tables[b, :nb].long()
        k = k_cache[blocks].reshape(nb * BS, Hkv, D)[:n].double()
        v = v_cache[blocks].reshape(nb * BS, Hkv, D)[:n].double()
        k = k.repeat_interleave(group, dim=1)
        v = v.repeat_interleave(group, dim=1)
        s = torch.einsum("hd,nhd->hn", q[b].double(), k) * scale
        p = torch.softmax(s, dim=-1)
        out[b] = torch.einsum("hn,nhd->hd", p, v).to(q.dtype)
    return out


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    mean_len = (s["MAXLEN"] + 1) / 2
    kv = 2 * s["B"] * mean_len * s["Hkv"] * s["D"] * 2
    return {"bytes": int(kv + 2 * 2 * s["B"] * s["Hq"] * s["D"]),
            "flops": int(4 * s["B"] * s["Hq"] * mean_len * s["D"])}

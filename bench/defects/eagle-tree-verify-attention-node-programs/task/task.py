"""Speculative-decoding tree verification attention (EAGLE-2 / Medusa): every draft-tree token of a
request attends to the request's whole prefix KV cache plus its own ancestors in the draft tree
(ancestor-or-self tree mask). q [B, T, Hq, D], k/v [B, S + T, Hkv, D] (tree tokens' KV appended
after the S prefix tokens), tree_mask [B, T, T] bool; GQA. Output o [B, T, Hq, D] bf16."""
import math

import torch

META = {
    "name": "tree_verify_attention",
    "level": 3,
    "category": "attention",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 2e-2, "rtol": 2e-2}},
    "sizes": {
        "small": {"B": 1, "S": 40, "T": 6, "HQ": 4, "HKV": 2, "D": 32},
        "ragged": {"B": 2, "S": 53, "T": 11, "HQ": 4, "HKV": 1, "D": 32},
        "large": {"B": 4, "S": 4096, "T": 64, "HQ": 32, "HKV": 8, "D": 128},
    },
    "baseline_notes": "Grid (tree-token block, batch * q head): a [BLOCK_M, D] tile of tree queries runs "
                      "flash-attention over the prefix keys (no mask) and then the tree keys (tree mask), "
                      "QK^T and PV as tl.dot, online softmax in fp32.",
    "deterministic": True,
}


def _tree_mask(T: int, g: torch.Generator) -> torch.Tensor:
    """Ancestor-or-self mask of a random draft tree whose node 0 is the root (parent[i] < i)."""
    parent = [-1] + [int(torch.randint(0, i, (1,), generator=g)) for i in range(1, T)]
    mask = torch.zeros(T, T, dtype=torch.bool)
    for i in range(T):
        j = i
        while j >= 0:
            mask[i, j] = True
            j = parent[j]
    return mask


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """q [B, T, HQ, D], k and v [B, S + T, HKV, D], tree_mask [B, T, T] bool, prefix length S."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    B, S, T, HQ, HKV, D = s["B"], s["S"], s["T"], s["HQ"], s["HKV"], s["D"]
    q = torch.randn(B, T, HQ, D, generator=g)
    k = torch.randn(B, S + T, HKV, D, generator=g)
    v = torch.randn(B, S + T, HKV, D, generator=g)
    tree = torch.stack([_tree_mask(T, g) for _ in range(B)])
    return q.to(dt).to(device), k.to(dt).to(device), v.to(dt).to(device), tree.to(device), S


def reference(q, k, v, tree_mask, prefix_len):
    B, T, HQ, D = q.shape
    HKV = k.shape[2]
    rep = HQ // HKV
    qf = q.float().transpose(1, 2)                                  # [B, HQ, T, D]
    kf = k.float().transpose(1, 2).repeat_interleave(rep, dim=1)    # [B, HQ, S+T, D]
    vf = v.float().transpose(1, 2).repeat_interleave(rep, dim=1)
    s = qf @ kf.transpose(-1, -2) / math.sqrt(D)
    allowed = torch.cat([torch.ones(B, T, prefix_len, dtype=torch.bool, device=q.device), tree_mask], dim=-1)
    s = s.masked_fill(~allowed[:, None], float("-inf"))
    o = torch.softmax(s, dim=-1) @ vf
    return o.transpose(1, 2).to(q.dtype).contiguous()


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    B, S, T, HQ, HKV, D = s["B"], s["S"], s["T"], s["HQ"], s["HKV"], s["D"]
    return {"bytes": 2 * (2 * B * T * HQ * D + 2 * B * (S + T) * HKV * D) + B * T * T,
            "flops": 4 * B * HQ * T * (S + T) * D}

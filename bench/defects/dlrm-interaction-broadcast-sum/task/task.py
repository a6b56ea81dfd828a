"""DLRM dot interaction (arch_interaction_op='dot', self-interaction off): T = [dense; 26 pooled embeddings] per sample, Z = T T^T, output = [dense, strict lower triangle of Z in tril_indices(F, F, -1) order]."""
import torch

META = {
    "name": "dlrm_dot_interaction",
    "level": 2,
    "category": "matmul",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 2e-2, "rtol": 2e-2}},
    "sizes": {
        "small": {"B": 3, "S": 26, "D": 128},
        "ragged": {"B": 7, "S": 13, "D": 64},
        "large": {"B": 16384, "S": 26, "D": 128},
    },
    "baseline_notes": "One program per sample: the [32, D] feature tile (row 0 the dense vector, rows 1..S the "
                      "embeddings, padded to 32) loaded once, Z = tl.dot(T, T^T) with fp32 accumulation, the dense "
                      "vector copied and the i > j entries of Z stored at D + i (i - 1) / 2 + j; 4 warps.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """dense [B, D] (bottom-MLP output) and emb [B, S, D] (the S pooled embedding-bag outputs)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    dense = torch.relu(torch.randn(s["B"], s["D"], generator=g)) * 0.2
    emb = torch.randn(s["B"], s["S"], s["D"], generator=g) * 0.1
    return dense.to(dt).to(device), emb.to(dt).to(device)


def reference(dense: torch.Tensor, emb: torch.Tensor) -> torch.Tensor:
    t = torch.cat([dense[:, None, :], emb], dim=1).float()
    z = torch.bmm(t, t.transpose(1, 2))
    F = t.shape[1]
    li, lj = torch.tril_indices(F, F, offset=-1, device=dense.device)
    return torch.cat([dense.float(), z[:, li, lj]], dim=1).to(dense.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    F = s["S"] + 1
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    return {"bytes": item * s["B"] * (F * s["D"] + s["D"] + F * (F - 1) // 2), "flops": 2 * s["B"] * F * F * s["D"]}

"""MoE expert GEMM over tokens sorted by expert: out[rows of block i] = x[rows] @ w[block_expert[i]] (vLLM fused_moe layout)."""
import torch

BLOCK_M = 64  # rows per expert block: every expert's segment is padded to a multiple of this

META = {
    "name": "moe_grouped_gemm",
    "level": 2,
    "category": "gemm",
    "dtypes": ["float16", "bfloat16"],
    "tolerance": {"float16": {"atol": 2e-2, "rtol": 1e-2},
                  "bfloat16": {"atol": 5e-2, "rtol": 2e-2}},
    "sizes": {
        "small": {"E": 4, "K": 64, "N": 48, "max_blocks": 3},
        "ragged": {"E": 7, "K": 200, "N": 168, "max_blocks": 5},
        "large": {"E": 64, "K": 2048, "N": 1408, "max_blocks": 8},
    },
    "baseline_notes": "One launch over (row block, N tile): each program reads its block's expert id and "
                      "multiplies x's 64 rows by that expert's [K, N] weight with 64x128x64 tl.dot tiles; "
                      "no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [T, K] (T = 64 * total blocks, rows grouped by expert), w [E, K, N] scaled by 1/sqrt(K),
    block_expert [T / 64] int32: expert e owns 1..max_blocks consecutive blocks."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    blocks = torch.randint(1, s["max_blocks"] + 1, (s["E"],), generator=g)
    block_expert = torch.repeat_interleave(torch.arange(s["E"]), blocks).to(torch.int32)
    x = torch.randn(int(blocks.sum()) * BLOCK_M, s["K"], generator=g)
    w = torch.randn(s["E"], s["K"], s["N"], generator=g) / s["K"] ** 0.5
    return x.to(device=device, dtype=dt), w.to(device=device, dtype=dt), block_expert.to(device)


def reference(x: torch.Tensor, w: torch.Tensor, block_expert: torch.Tensor) -> torch.Tensor:
    row_expert = block_expert.long().repeat_interleave(BLOCK_M)
    out = torch.empty(x.shape[0], w.shape[2], dtype=x.dtype, device=x.device)
    for e in range(w.shape[0]):
        rows = row_expert == e
        out[rows] = (x[rows].float() @ w[e].float()).to(x.dtype)
    return out


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    T = s["E"] * (s["max_blocks"] + 1) // 2 * BLOCK_M  # mean rows
    return {"bytes": (T * s["K"] + s["E"] * s["K"] * s["N"] + T * s["N"]) * item,
            "flops": 2 * T * s["K"] * s["N"]}

"""Lightning attention per-block KV state, kv[b] = sum_i decay_i k_i^T v_i over each 256-token block (vLLM lightning_attn _fwd_kv_parallel, MiniMax-Text-01)."""
import torch

META = {
    "name": "lightning_attn_block_kv",
    "level": 2,
    "category": "matmul",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 1e-1, "rtol": 2e-2}},
    "sizes": {
        "small": {"BH": 2, "N": 64, "D": 16, "E": 16, "BLOCK": 32},
        "ragged": {"BH": 6, "N": 1024, "D": 64, "E": 64, "BLOCK": 256},
        "large": {"BH": 128, "N": 4096, "D": 128, "E": 128, "BLOCK": 256},
    },
    "baseline_notes": "One program per (head, block); K^T diag(decay) V as one tl.dot over the block, fp32 out.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """k, v of normals [BH, N, D|E]; per-head decay rates (ALiBi-like slopes) [BH]; block length."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    k = torch.randn(s["BH"], s["N"], s["D"], generator=g).to(dt)
    v = torch.randn(s["BH"], s["N"], s["E"], generator=g).to(dt)
    slopes = 2.0 ** (-8.0 * (torch.arange(s["BH"]) % 64 + 1) / 64)
    return k.to(device), v.to(device), slopes.float().to(device), s["BLOCK"]


def reference(k: torch.Tensor, v: torch.Tensor, slopes: torch.Tensor, block: int) -> torch.Tensor:
    bh, n, d = k.shape
    nb = n // block
    i = torch.arange(block, dtype=torch.float64, device=k.device)
    decay = torch.exp(-slopes.double()[:, None] * (block - 1 - i)[None, :])      # [BH, BLOCK]
    kb = k.double().view(bh, nb, block, d) * decay[:, None, :, None]
    vb = v.double().view(bh, nb, block, -1)
    return torch.einsum("hbtd,hbte->hbde", kb, vb).float()


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    nb = s["N"] // s["BLOCK"]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    return {"bytes": s["BH"] * (s["N"] * (s["D"] + s["E"]) * item + nb * s["D"] * s["E"] * 4),
            "flops": 2 * s["BH"] * s["N"] * s["D"] * s["E"]}

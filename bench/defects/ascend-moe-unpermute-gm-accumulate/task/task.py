"""MoE token unpermute with routing weights (Megatron-LM / TransformerEngine moe_unpermute with probs, the
combine step after the expert MLPs): out[t] = sum_k probs[t, k] * permuted[row_id_map[t, k]], where
permuted holds the expert outputs in expert-sorted order. Accumulated in fp32, returned in the input dtype."""
import torch

META = {
    "name": "moe_unpermute_weighted",
    "level": 2,
    "category": "gather",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 5e-2, "rtol": 2e-2}},
    "sizes": {
        "small": {"T": 16, "K": 4, "H": 256, "E": 8},
        "ragged": {"T": 37, "K": 6, "H": 1000, "E": 16},
        "large": {"T": 4096, "K": 8, "H": 7168, "E": 256},
    },
    "baseline_notes": "40 programs (one per vector core) striding over tokens; per token the hidden row is cut "
                      "into 4,096-wide chunks and each chunk gathers the token's K expert rows into an fp32 "
                      "register accumulator, stored once in bf16.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """permuted [T*K, H] in dtype, row_id_map [T, K] int32 (destination row of each (token, slot) in the
    expert-sorted order), probs [T, K] fp32 (normalised top-k router weights)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    T, K, H, E = s["T"], s["K"], s["H"], s["E"]
    scores = torch.rand(T, E, generator=g) + torch.linspace(0.0, 0.5, E)
    top_scores, experts = scores.topk(K, dim=-1)
    probs = top_scores / top_scores.sum(-1, keepdim=True)
    order = torch.sort(experts.flatten(), stable=True).indices
    row_id_map = torch.empty(T * K, dtype=torch.int64)
    row_id_map[order] = torch.arange(T * K)
    permuted = torch.randn(T * K, H, generator=g).to(dt)
    return permuted.to(device), row_id_map.view(T, K).to(torch.int32).to(device), probs.float().to(device)


def reference(permuted: torch.Tensor, row_id_map: torch.Tensor, probs: torch.Tensor) -> torch.Tensor:
    rows = permuted.float()[row_id_map.long()]
    return (rows * probs.float()[..., None]).sum(1).to(permuted.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    T, K, H = s["T"], s["K"], s["H"]
    return {"bytes": (T * K + T) * H * item + 8 * T * K, "flops": 2 * T * K * H}

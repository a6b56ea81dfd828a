"""MoE token permute (dispatch before the grouped expert GEMM): permuted[p] = hidden[sorted_indices[p] // topk],
the T * topk (token, choice) pairs in expert-sorted order."""
import torch

META = {
    "name": "moe_token_permute",
    "level": 1,
    "category": "gather",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 0.0, "rtol": 0.0}},
    "sizes": {
        "small": {"T": 13, "E": 8, "K": 6, "H": 64},
        "ragged": {"T": 77, "E": 64, "K": 6, "H": 200},
        "large": {"T": 8192, "E": 64, "K": 6, "H": 2048},
    },
    "baseline_notes": "One program per vector core (48 on an A2): program p copies the permuted rows of its "
                      "contiguous 1/48 share in a loop, one [next_pow2(H)] row per iteration (source token id "
                      "loaded as a scalar), so the compiler can double-buffer the row copies.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """hidden [T, H], sorted_indices [T * K] int32 (stable argsort of the flattened top-k expert ids), topk."""
    s = META["sizes"][size]
    T, E, K, H = s["T"], s["E"], s["K"], s["H"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    hidden = torch.randn(T, H, generator=g)
    top_e = torch.softmax(torch.randn(T, E, generator=g), dim=-1).topk(K, dim=-1).indices
    sorted_indices = torch.argsort(top_e.flatten(), stable=True).to(torch.int32)
    return hidden.to(dt).to(device), sorted_indices.to(device), K


def reference(hidden: torch.Tensor, sorted_indices: torch.Tensor, topk: int) -> torch.Tensor:
    return hidden[sorted_indices.long() // topk]


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    R = s["T"] * s["K"]
    return {"bytes": 2 * item * R * s["H"] + 4 * R, "flops": 0}

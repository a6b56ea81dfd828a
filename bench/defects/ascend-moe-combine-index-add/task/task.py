"""MoE combine (finalize routing): each token's output is the router-weighted sum of its K
expert outputs, which the grouped GEMM wrote in expert-sorted row order (as vLLM's
moe_sum / Ascend's npu_moe_finalize_routing). A local task for the index-add defect case."""
import torch

META = {
    "name": "moe_combine",
    "level": 2,
    "category": "gather",
    "dtypes": ["float16", "float32"],
    "tolerance": {"float16": {"atol": 1e-2, "rtol": 1e-2},
                  "float32": {"atol": 1e-5, "rtol": 1e-5}},
    "sizes": {
        "small": {"T": 64, "K": 2, "E": 8, "D": 128},
        "ragged": {"T": 1000, "K": 2, "E": 10, "D": 1000},
        "large": {"T": 4096, "K": 8, "E": 64, "D": 2048},
    },
    "baseline_notes": "One program per token: for each of its K slots, read the sorted row index, "
                      "load that expert-output row and accumulate weight * row in fp32; one store.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """expert_out [T*K, D] in sorted order, weights [T, K] fp32, sorted_ids [T*K] (flat t*K+k of
    each sorted row) and its inverse src_to_row [T*K] (sorted row of each t*K+k), both int32."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    T, K, E, D = s["T"], s["K"], s["E"], s["D"]
    ids = torch.rand(T, E, generator=g).topk(K, dim=-1).indices.flatten()
    sorted_ids = torch.sort(ids, stable=True).indices.to(torch.int32)
    src_to_row = torch.empty_like(sorted_ids)
    src_to_row[sorted_ids.long()] = torch.arange(T * K, dtype=torch.int32)
    weights = torch.softmax(torch.randn(T, K, generator=g), dim=-1)
    expert_out = torch.randn(T * K, D, generator=g).to(dt)
    return tuple(t.to(device) for t in (expert_out, weights, sorted_ids, src_to_row))


def reference(expert_out, weights, sorted_ids, src_to_row) -> torch.Tensor:
    T, K = weights.shape
    rows = expert_out.float()[src_to_row.long()].view(T, K, -1)
    return (rows * weights[..., None]).sum(1).to(expert_out.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    T, K, D = s["T"], s["K"], s["D"]
    return {"bytes": (T * K * D + T * D) * item + 12 * T * K, "flops": 2 * T * K * D}

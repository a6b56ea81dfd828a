"""Per-expert bias gradient of an MoE grouped linear: dbias[e] = sum of the output-gradient rows routed to expert e,
over the expert-sorted (permuted) rows of the grouped GEMM."""
import torch

META = {
    "name": "moe_expert_bias_grad",
    "level": 2,
    "category": "reduction",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 1e-3, "rtol": 1e-4}},
    "sizes": {
        "small": {"T": 29, "E": 4, "K": 2, "H": 96},
        "ragged": {"T": 203, "E": 8, "K": 4, "H": 360},
        "large": {"T": 16384, "E": 32, "K": 4, "H": 2880},
    },
    "baseline_notes": "Segment reduction over the sorted rows: one program per (expert, 256-column block) walks the "
                      "expert's rows [offsets[e], offsets[e + 1]) in 32-row tiles, fp32 tile accumulator in "
                      "registers, one store per column; no atomics, no zero fill.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """grad_out [T * K, H] (gradient of the expert down-projection output, rows in expert-sorted order),
    row_expert [T * K] int32 (non-decreasing expert id of each row), offsets [E + 1] int32 (row offset of each
    expert, the cumulative tokens_per_expert)."""
    s = META["sizes"][size]
    T, E, K, H = s["T"], s["E"], s["K"], s["H"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    scores = torch.softmax(torch.randn(T, E, generator=g) * 1.5, dim=-1)
    top_e = scores.topk(K, dim=-1).indices
    row_expert = torch.sort(top_e.flatten()).values
    counts = torch.bincount(row_expert, minlength=E)
    offsets = torch.zeros(E + 1, dtype=torch.int64)
    offsets[1:] = torch.cumsum(counts, 0)
    grad_out = torch.randn(T * K, H, generator=g)
    return (grad_out.to(dt).to(device), row_expert.to(torch.int32).to(device), offsets.to(torch.int32).to(device))


def reference(grad_out: torch.Tensor, row_expert: torch.Tensor, offsets: torch.Tensor) -> torch.Tensor:
    E, H = offsets.numel() - 1, grad_out.shape[1]
    out = torch.zeros(E, H, dtype=torch.float64, device=grad_out.device)
    out.index_add_(0, row_expert.long(), grad_out.double())
    return out.float()


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    R, E, H = s["T"] * s["K"], s["E"], s["H"]
    return {"bytes": item * R * H + 4 * R + 4 * E * H, "flops": R * H}

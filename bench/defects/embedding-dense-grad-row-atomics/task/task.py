"""Embedding backward, dense weight gradient: grad_weight[v] = sum of grad_output[t] over the tokens t with ids[t] == v
(accumulated in fp32, returned in the weight's dtype)."""
import torch

META = {
    "name": "embedding_dense_backward",
    "level": 2,
    "category": "reduction",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 1e-2, "rtol": 1e-2}},
    "sizes": {
        "small": {"T": 300, "V": 64, "H": 96},
        "ragged": {"T": 1499, "V": 500, "H": 200},
        "large": {"T": 16384, "V": 32000, "H": 4096},
    },
    "baseline_notes": "Counting sort of the ids (histogram with int atomics, one-program exclusive scan, slot "
                      "assignment), then one program per (vocab row, 1024-column block) sums its run of sorted tokens "
                      "in fp32 [8, 1024] tiles and writes the bf16 row once (zeros for unseen ids): no float atomics, "
                      "no fp32 staging buffer, no zero fill, no cast pass.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """ids [T] int64 drawn from a Zipf-like token distribution (a few ids very frequent, most rare or
    unseen, as in text), grad_output [T, H] (the embedding output's gradient), num_weights V."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    rank_prob = 1.0 / (torch.arange(s["V"], dtype=torch.float64) + 2.0)
    ranks = torch.multinomial(rank_prob, s["T"], replacement=True, generator=g)
    ids = torch.randperm(s["V"], generator=g)[ranks]
    grad_output = torch.randn(s["T"], s["H"], generator=g) * 0.02
    return ids.to(device), grad_output.to(dt).to(device), s["V"]


def reference(ids: torch.Tensor, grad_output: torch.Tensor, num_weights: int) -> torch.Tensor:
    # aten::embedding_dense_backward (padding_idx = -1, scale_grad_by_freq = False), in float64
    grad = torch.zeros(num_weights, grad_output.shape[1], dtype=torch.float64, device=grad_output.device)
    grad.index_add_(0, ids, grad_output.double())
    return grad.to(grad_output.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 2 * s["T"] * s["H"] + 2 * s["V"] * s["H"] + 8 * s["T"], "flops": s["T"] * s["H"]}

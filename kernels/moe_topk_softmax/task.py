"""Mixtral/Qwen-MoE router: softmax over expert logits, top-k experts, renormalised weights and int64 ids."""
import torch

META = {
    "name": "moe_topk_softmax",
    "level": 2,
    "category": "sort",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-6, "rtol": 1e-5}},
    "sizes": {
        "small": {"T": 32, "E": 8, "k": 2},
        "ragged": {"T": 1000, "E": 60, "k": 4},
        "large": {"T": 262144, "E": 64, "k": 6},
    },
    "baseline_notes": "One program per token, BLOCK = next_power_of_2(E): fp32 softmax over the "
                      "experts, k rounds of max/argmax masking out each winner into a "
                      "next_pow2(k) register vector, renormalised by its sum, one store; no "
                      "autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Router logits [T, E] and k."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    logits = 2 * torch.randn(s["T"], s["E"], generator=g)
    return logits.to(device=device, dtype=getattr(torch, dtype or META["dtypes"][0])), s["k"]


def reference(logits: torch.Tensor, k: int) -> tuple[torch.Tensor, torch.Tensor]:
    probs = torch.softmax(logits.float(), dim=-1)
    weights, ids = torch.topk(probs, k, dim=-1)
    return weights / weights.sum(dim=-1, keepdim=True), ids


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    return {"bytes": s["T"] * s["E"] * item + s["T"] * s["k"] * 12,
            "flops": (4 + s["k"]) * s["T"] * s["E"]}

"""MoE top-k gating: softmax over the router logits of each token, then the TOPK largest probabilities
and their expert ids (not renormalised). Tokens at or past num_valid pad the batch: weight 0, id -1."""
import torch

TOPK = 4

META = {
    "name": "moe_topk_gating_softmax",
    "level": 1,
    "category": "moe",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-5}},
    "sizes": {
        "small": {"T": 70, "E": 60, "pad": 6},
        "ragged": {"T": 301, "E": 13, "pad": 45},
        "large": {"T": 16384, "E": 60, "pad": 384},
    },
    "baseline_notes": "One program per vector core looping over 64-token tiles of [64, next_pow2(E)] logits; the "
                      "padded expert lanes and the padding tokens are masked with float compares of the index "
                      "(cols.to(float32) < E, rows.to(float32) < num_valid); TOPK rounds of max / argmax.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """router_logits [T, E] (fp32 output of the gate GEMM, batch padded to a captured graph size) and
    num_valid, the number of real tokens."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    logits = 2.0 * torch.randn(s["T"], s["E"], generator=g)
    return logits.to(dt).to(device), s["T"] - s["pad"]


def reference(router_logits: torch.Tensor, num_valid: int) -> tuple:
    p = torch.softmax(router_logits.double(), dim=-1)
    w, ids = torch.topk(p, TOPK, dim=-1)
    real = (torch.arange(router_logits.shape[0], device=router_logits.device) < num_valid)[:, None]
    return torch.where(real, w, 0.0).float(), torch.where(real, ids, -1).to(torch.int32)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["T"] * s["E"]
    return {"bytes": 4 * n + 8 * s["T"] * TOPK, "flops": (5 + 3 * TOPK) * n}

"""Mean router probability per expert, probs.mean(0) over all tokens (the P_i of the MoE load-balancing loss)."""
import torch

META = {
    "name": "router_prob_mean",
    "level": 1,
    "category": "reduction",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-6, "rtol": 1e-4}},
    "sizes": {
        "small": {"T": 700, "E": 16},
        "ragged": {"T": 10001, "E": 60},
        "large": {"T": 262144, "E": 128},
    },
    "baseline_notes": "Two launches: grid (T / 1024 token chunks) writes per-chunk column sums of the [T, E] "
                      "probabilities to a [chunks, E] fp32 buffer; one program per 64 experts sums the chunks "
                      "and divides by T; 4 warps.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """probs [T, E]: softmax over experts of normal router logits."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    probs = torch.softmax(torch.randn(s["T"], s["E"], generator=g), dim=-1)
    return (probs.to(getattr(torch, dtype or META["dtypes"][0])).to(device),)


def reference(probs: torch.Tensor) -> torch.Tensor:
    return probs.double().mean(0).to(probs.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["T"] * s["E"]
    return {"bytes": n * getattr(torch, dtype or META["dtypes"][0]).itemsize, "flops": n}

"""Row cosine similarity (torch.nn.functional.cosine_similarity(x1, x2, dim=-1, eps=1e-8)) of two bf16 embedding batches."""
import torch

META = {
    "name": "cosine_similarity",
    "level": 1,
    "category": "reduction",
    "dtypes": ["bfloat16", "float16"],
    "tolerance": {"bfloat16": {"atol": 1e-2, "rtol": 1e-2}, "float16": {"atol": 2e-3, "rtol": 2e-3}},
    "sizes": {
        "small": {"T": 40, "D": 200},
        "ragged": {"T": 3001, "D": 1000},
        "large": {"T": 32768, "D": 4096},
    },
    "baseline_notes": "One program per row, a 1024-column loop accumulating x1.x2, |x1|^2 and |x2|^2 in fp32 from "
                      "the bf16 loads; result x1.x2 / sqrt(max(|x1|^2 |x2|^2, eps^2)) stored in the input dtype.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x1 and x2 [T, D] (x2 correlated with x1, as embeddings of paired texts), eps."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    x1 = torch.randn(s["T"], s["D"], generator=g)
    x2 = 0.6 * x1 + torch.randn(s["T"], s["D"], generator=g)
    return x1.to(dt).to(device), x2.to(dt).to(device), 1e-8


def reference(x1: torch.Tensor, x2: torch.Tensor, eps: float) -> torch.Tensor:
    return torch.nn.functional.cosine_similarity(x1.float(), x2.float(), dim=-1, eps=eps).to(x1.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    return {"bytes": (2 * s["T"] * s["D"] + s["T"]) * item, "flops": 6 * s["T"] * s["D"]}

"""Row-wise dot product of two bf16 embedding batches (torch.linalg.vecdot(q, d, dim=-1)), e.g. retrieval scores of query/document pairs."""
import torch

META = {
    "name": "vecdot",
    "level": 1,
    "category": "reduction",
    "dtypes": ["bfloat16", "float16"],
    "tolerance": {"bfloat16": {"atol": 0.5, "rtol": 1e-2}, "float16": {"atol": 5e-2, "rtol": 2e-3}},
    "sizes": {
        "small": {"M": 16, "D": 200},
        "ragged": {"M": 1001, "D": 1536},
        "large": {"M": 16384, "D": 4096},
    },
    "baseline_notes": "One program per row, a 1024-column vector loop accumulating q * d in fp32, one tl.sum at the "
                      "end; stored in the input dtype.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """q and d [M, D] in the activation dtype."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    q = torch.randn(s["M"], s["D"], generator=g).to(dt)
    d = torch.randn(s["M"], s["D"], generator=g).to(dt)
    return q.to(device), d.to(device)


def reference(q: torch.Tensor, d: torch.Tensor) -> torch.Tensor:
    return (q.float() * d.float()).sum(-1).to(q.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    return {"bytes": (2 * s["M"] * s["D"] + s["M"]) * item, "flops": 2 * s["M"] * s["D"]}

"""Inner product of two long vectors (torch.dot(a, b)), fp32."""
import torch

META = {
    "name": "vector_dot",
    "level": 1,
    "category": "reduction",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-2, "rtol": 1e-4}},
    "sizes": {
        "small": {"N": 10007},
        "ragged": {"N": 1000003},
        "large": {"N": 33554432},
    },
    "baseline_notes": "Two stages: cdiv(N, 32768) programs each reduce 8 blocks of 4096 products into one partial, "
                      "then one program sums the partials (deterministic, no atomics); 8 warps.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """a [N], b [N] (e.g. flattened gradient and update for a cosine / projection step)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    return torch.randn(s["N"], generator=g).to(dt).to(device), torch.randn(s["N"], generator=g).to(dt).to(device)


def reference(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    return torch.dot(a.double(), b.double()).to(a.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    n = META["sizes"][size]["N"]
    return {"bytes": 2 * n * getattr(torch, dtype or META["dtypes"][0]).itemsize, "flops": 2 * n}

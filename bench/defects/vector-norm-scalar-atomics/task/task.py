"""L2 norm of a whole tensor, torch.linalg.vector_norm(x) with dim=None, ord=2 (FlagGems vector_norm / l2_norm), accumulated in fp32."""
import torch

META = {
    "name": "vector_norm",
    "level": 1,
    "category": "reduction",
    "dtypes": ["float16", "bfloat16", "float32"],
    "tolerance": {"float16": {"atol": 1e-3, "rtol": 1e-4}, "bfloat16": {"atol": 1e-3, "rtol": 1e-4},
                  "float32": {"atol": 1e-3, "rtol": 1e-4}},
    "sizes": {
        "small": {"N": 70001},
        "ragged": {"N": 10_000_019},
        "large": {"N": 67_108_864},
    },
    "baseline_notes": "Two stages as FlagGems l2_norm: BLOCK = next_power_of_2(ceil(sqrt(N))) elements per "
                      "program into an fp32 partial, then one program sums the partials and takes the sqrt; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [N] of standard normals."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    return (torch.randn(s["N"], generator=g).to(getattr(torch, dtype or META["dtypes"][0])).to(device),)


def reference(x: torch.Tensor) -> torch.Tensor:
    return torch.linalg.vector_norm(x.double()).float()


def cost(size: str, dtype: str | None = None) -> dict:
    n = META["sizes"][size]["N"]
    return {"bytes": n * getattr(torch, dtype or META["dtypes"][0]).itemsize + 4, "flops": 2 * n}

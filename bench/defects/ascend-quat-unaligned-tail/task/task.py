"""Normalise a batch of quaternions [N, 4] (q / |q|), as in pose pipelines; a local task for the
unaligned-tail-axis defect case (each row is 16 bytes, under the 32-byte UB alignment)."""
import torch

META = {
    "name": "quat_normalize",
    "level": 1,
    "category": "norm",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-5}},
    "sizes": {
        "small": {"N": 1000},
        "ragged": {"N": 100_003},
        "large": {"N": 16 * 1024 * 1024},
    },
    "baseline_notes": "Flat 1-D tile of 4*BLOCK contiguous floats, reshaped to [BLOCK, 4] on chip, "
                      "sum of squares along axis 1, scale, reshape back, one flat store; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """One [N, 4] tensor of standard normals (never all-zero rows in practice)."""
    n = META["sizes"][size]["N"]
    g = torch.Generator().manual_seed(seed)
    q = torch.randn(n, 4, generator=g)
    return (q.to(device=device, dtype=getattr(torch, dtype or META["dtypes"][0])),)


def reference(q: torch.Tensor) -> torch.Tensor:
    return q / torch.linalg.vector_norm(q, dim=-1, keepdim=True)


def cost(size: str, dtype: str | None = None) -> dict:
    n = META["sizes"][size]["N"]
    return {"bytes": 2 * 4 * 4 * n, "flops": 9 * n}

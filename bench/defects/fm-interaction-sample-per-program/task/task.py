"""DeepFM / pytorch-fm FactorizationMachine(reduce_sum=True): the second-order term
0.5 * sum_d ((sum_f v_fd)^2 - sum_f v_fd^2) over the F field embeddings of each sample."""
import torch

META = {
    "name": "fm_interaction",
    "level": 1,
    "category": "reduction",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 1e-2, "rtol": 1e-3}},
    "sizes": {
        "small": {"B": 37, "F": 39, "D": 16},
        "ragged": {"B": 1001, "F": 26, "D": 16},
        "large": {"B": 65536, "F": 39, "D": 16},
    },
    "baseline_notes": "Program per 16 samples: one [16, 64, 16] tile (fields padded to 64), the sum over fields and "
                      "the sum of squares in fp32, then the sum over the embedding dim; 4 warps.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [B, F, D]: the stacked field embeddings (Criteo: 13 bucketised dense + 26 sparse fields, dim 16)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    x = 0.1 * torch.randn(s["B"], s["F"], s["D"], generator=g)
    return (x.to(dt).to(device),)


def reference(x: torch.Tensor) -> torch.Tensor:
    v = x.float()
    square_of_sum = v.sum(dim=1) ** 2
    sum_of_square = (v * v).sum(dim=1)
    return 0.5 * (square_of_sum - sum_of_square).sum(dim=1, keepdim=True)   # [B, 1] fp32


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    n = s["B"] * s["F"] * s["D"]
    return {"bytes": item * n + 4 * s["B"], "flops": 3 * n}

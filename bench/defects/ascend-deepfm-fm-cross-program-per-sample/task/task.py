"""Second-order factorization-machine interaction of DeepFM / torchrec.modules.FactorizationMachine:
for each sample, out = 0.5 * sum_k((sum_f v[f, k])^2 - sum_f v[f, k]^2) over the F sparse-field
embeddings v [F, K]. Input float32 [B, F, K], output float32 [B]."""
import torch

META = {
    "name": "fm_second_order_interaction",
    "level": 1,
    "category": "reduction",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-4}},
    "sizes": {
        "small": {"B": 37, "F": 5, "K": 16},
        "ragged": {"B": 101, "F": 13, "K": 24},
        "large": {"B": 16384, "F": 26, "K": 128},
    },
    "baseline_notes": "Grid sized to the 40 vector cores; each program loops over its samples, loading one "
                      "[F_PAD, K] field tile per sample into UB and reducing over fields then over K in fp32.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """emb [B, F, K]: the pooled embeddings of the F categorical fields of each sample."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    emb = torch.randn(s["B"], s["F"], s["K"], generator=g) * 0.1
    return (emb.to(dt).to(device),)


def reference(emb: torch.Tensor) -> torch.Tensor:
    v = emb.double()
    square_of_sum = v.sum(dim=1) ** 2
    sum_of_square = (v * v).sum(dim=1)
    return (0.5 * (square_of_sum - sum_of_square).sum(dim=1)).to(torch.float32)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["B"] * s["F"] * s["K"]
    return {"bytes": 4 * n + 4 * s["B"], "flops": 3 * n + 3 * s["B"] * s["K"]}

"""Two-tower candidate retrieval scoring, first stage of a two-stage top-k (YouTube DNN / DSSM
two-tower recall, brute-force inner-product scoring as in Faiss IndexFlatIP / TorchRec retrieval):
a batch of user vectors is scored against the whole item-embedding corpus and, for every bucket of
128 consecutive items, the best inner product per user is kept; a torch.topk over the bucket
winners then picks the buckets whose items are re-ranked exactly.

Output layout is bucket-major: best[t, u] = max_{n in bucket t} <user_u, item_n>.
"""
import torch

BUCKET = 128

META = {
    "name": "two_tower_bucket_max_scores",
    "level": 2,
    "category": "recommendation",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 1e-2, "rtol": 1e-2}},
    "sizes": {
        "small": {"U": 8, "N": 300, "D": 32},
        "ragged": {"U": 13, "N": 517, "D": 64},
        "large": {"U": 1024, "N": 1048576, "D": 128},
    },
    "baseline_notes": "Grid = 20 programs (AI cores) striding over the 128-item buckets; each loads its "
                      "[128, D] item tile once, loops over blocks of 128 users, tl.dot in bf16 with "
                      "fp32 accumulation, masked row max, contiguous fp32 store of the [128] user maxima.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """users [U, D], items [N, D] (L2-normalised tower outputs)."""
    s = META["sizes"][size]
    U, N, D = s["U"], s["N"], s["D"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    users = torch.nn.functional.normalize(torch.randn(U, D, generator=g), dim=1)
    items = torch.nn.functional.normalize(torch.randn(N, D, generator=g), dim=1)
    return users.to(dt).to(device), items.to(dt).to(device)


def reference(users: torch.Tensor, items: torch.Tensor) -> torch.Tensor:
    U, N = users.shape[0], items.shape[0]
    nt = (N + BUCKET - 1) // BUCKET
    s = items.double() @ users.double().T
    pad = torch.full((nt * BUCKET - N, U), float("-inf"), dtype=s.dtype, device=s.device)
    return torch.cat([s, pad]).view(nt, BUCKET, U).amax(1).float()


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    U, N, D = s["U"], s["N"], s["D"]
    nt = (N + BUCKET - 1) // BUCKET
    return {"bytes": 2 * (U * D + N * D) + 4 * nt * U, "flops": 2 * U * N * D + U * N}

"""Sparse CSR matrix-vector product y = A x (the SpMV of a PageRank power iteration on a
column-normalised web-graph adjacency): int32 crow / col indices, fp32 values and x."""
import torch

META = {
    "name": "csr_spmv",
    "level": 2,
    "category": "sparse",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"N": 300, "DEG": 24},
        "ragged": {"N": 1001, "DEG": 37},
        "large": {"N": 1048576, "DEG": 32},
    },
    "baseline_notes": "One program per row; the row's nonzeros are read 64 at a time (masked vector loads of "
                      "col and val, one gather of x), multiplied and summed with tl.sum; 4 warps.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """crow [N + 1] int32, col [nnz] int32, val [nnz], x [N]; row lengths spread over [DEG/2, 3 DEG/2], some rows empty."""
    s = META["sizes"][size]
    n, deg = s["N"], s["DEG"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    lengths = torch.randint(deg // 2, deg + deg // 2 + 1, (n,), generator=g)
    lengths[torch.rand(n, generator=g) < 0.02] = 0
    crow = torch.zeros(n + 1, dtype=torch.int64)
    crow[1:] = torch.cumsum(lengths, 0)
    nnz = int(crow[-1])
    col = torch.randint(0, n, (nnz,), generator=g)
    val = torch.rand(nnz, generator=g) / deg
    x = torch.rand(n, generator=g)
    return (crow.to(torch.int32).to(device), col.to(torch.int32).to(device), val.to(dt).to(device),
            x.to(dt).to(device))


def reference(crow: torch.Tensor, col: torch.Tensor, val: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
    n = crow.numel() - 1
    rows = torch.repeat_interleave(torch.arange(n, device=crow.device), (crow[1:] - crow[:-1]).long())
    prod = val.double() * x.double()[col.long()]
    y = torch.zeros(n, dtype=torch.float64, device=x.device).index_add_(0, rows, prod)
    return y.to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n, nnz = s["N"], s["N"] * s["DEG"]
    return {"bytes": 4 * (n + 1) + 12 * nnz + 4 * n, "flops": 2 * nnz}

"""CSR sparse x dense matmul (torch.sparse.mm(A_csr, X), the GCN / DGL / PyG message-passing aggregation)."""
import torch

META = {
    "name": "csr_spmm",
    "level": 2,
    "category": "sparse",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"M": 48, "F": 16, "max_deg": 20},
        "ragged": {"M": 61, "F": 20, "max_deg": 37},
        "large": {"M": 169343, "F": 128, "max_deg": 28},
    },
    "baseline_notes": "One program per sparse row; the row's nonzeros are walked in chunks of 32 and each chunk gathers "
                      "a [32, F] tile of X rows (contiguous along F), weights it and reduces over the chunk; 4 warps.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """indptr int32 [M+1], indices int32 [nnz], values [nnz], dense X [M, F] (square adjacency, ogbn-arxiv-like)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    M, F = s["M"], s["F"]
    # skewed degrees: mostly small, a few hubs, some empty rows
    deg = (torch.rand(M, generator=g) ** 3 * s["max_deg"]).to(torch.int64)
    indptr = torch.zeros(M + 1, dtype=torch.int64)
    indptr[1:] = torch.cumsum(deg, 0)
    nnz = int(indptr[-1])
    indices = torch.randint(0, M, (nnz,), generator=g)
    values = torch.rand(nnz, generator=g) / 4.0
    x = torch.randn(M, F, generator=g)
    return (indptr.to(torch.int32).to(device), indices.to(torch.int32).to(device),
            values.to(dt).to(device), x.to(dt).to(device))


def reference(indptr: torch.Tensor, indices: torch.Tensor, values: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
    M = indptr.numel() - 1
    counts = (indptr[1:] - indptr[:-1]).long()
    rows = torch.repeat_interleave(torch.arange(M, device=x.device), counts)
    msg = values.double()[:, None] * x.double()[indices.long()]
    out = torch.zeros(M, x.shape[1], dtype=torch.float64, device=x.device).index_add_(0, rows, msg)
    return out.to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    nnz = int(s["M"] * s["max_deg"] / 4)  # E[u^3] = 1/4
    F = s["F"]
    return {"bytes": 4 * (s["M"] + 1) + 8 * nnz + 4 * nnz * F + 4 * s["M"] * F, "flops": 2 * nnz * F}

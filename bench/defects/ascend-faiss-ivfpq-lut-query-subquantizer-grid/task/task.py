"""Product-quantisation distance lookup tables (FAISS ProductQuantizer::compute_distance_tables, IVFPQ/IndexPQ search).

For each query x and sub-quantiser m, table[q, m, k] = || x[q, m*dsub:(m+1)*dsub] - codebook[m, k] ||^2
over the ksub = 256 centroids of the sub-space (8-bit codes). The ADC scan then sums M table
entries per encoded database vector.
"""
import torch

DSUB = 8
KSUB = 256

META = {
    "name": "pq_distance_tables",
    "level": 2,
    "category": "retrieval",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-5}},
    "sizes": {
        "small": {"nq": 5, "M": 4},
        "ragged": {"nq": 19, "M": 6},
        "large": {"nq": 512, "M": 96},
    },
    "baseline_notes": "Persistent grid of 40 programs (vector cores) over (sub-quantiser, block of 16 queries) "
                      "items: the [256, 8] codebook of the sub-space is loaded once per item and each query of "
                      "the block computes its 256 squared distances (reduce over the contiguous dsub axis).",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """queries [nq, M * 8], codebook [M, 256, 8] (the sub-space centroids)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    nq, M = s["nq"], s["M"]
    codebook = torch.randn(M, KSUB, DSUB, generator=g) * 0.5
    queries = torch.randn(nq, M * DSUB, generator=g) * 0.5
    return queries.to(dt).to(device), codebook.to(dt).to(device)


def reference(queries: torch.Tensor, codebook: torch.Tensor) -> torch.Tensor:
    nq = queries.shape[0]
    M = codebook.shape[0]
    x = queries.double().view(nq, M, 1, DSUB)
    table = (x - codebook.double()[None]).pow(2).sum(-1)
    return table.to(queries.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    nq, M = s["nq"], s["M"]
    return {"bytes": 4 * (nq * M * DSUB + M * KSUB * DSUB + nq * M * KSUB),
            "flops": 3 * nq * M * KSUB * DSUB}

"""IVF coarse-quantizer L2 distances (FAISS IndexIVF quantizer search on Ascend, IndexFlatL2 over the centroids).

dist[i, j] = ||x_i||^2 + ||c_j||^2 - 2 <x_i, c_j> for a batch of queries against every IVF centroid;
the centroid norms are precomputed when the index is trained, as FAISS does. The nprobe smallest
entries of each row pick the inverted lists to scan.
"""
import torch

META = {
    "name": "ivf_coarse_l2_distances",
    "level": 2,
    "category": "retrieval",
    "dtypes": ["float16"],
    "tolerance": {"float16": {"atol": 2e-2, "rtol": 1e-3}},
    "sizes": {
        "small": {"nq": 24, "nlist": 80, "d": 64},
        "ragged": {"nq": 37, "nlist": 150, "d": 64},
        "large": {"nq": 1024, "nlist": 65536, "d": 128},
    },
    "baseline_notes": "Persistent grid of 20 programs (AI cores) looping over 128 x 128 output tiles; "
                      "fp16 query and centroid tiles, inner products with tl.dot (fp32 accumulate), "
                      "query norms from the loaded tile, precomputed centroid norms added in the epilogue.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """queries [nq, d], centroids [nlist, d] (input dtype), centroid_norms [nlist] fp32."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    centroids = torch.randn(s["nlist"], s["d"], generator=g).to(dt)
    # queries lie near some centroid, as in a trained index
    near = torch.randint(0, s["nlist"], (s["nq"],), generator=g)
    queries = (centroids[near].float() + 0.5 * torch.randn(s["nq"], s["d"], generator=g)).to(dt)
    norms = centroids.float().pow(2).sum(1)
    return queries.to(device), centroids.to(device), norms.to(device)


def reference(queries: torch.Tensor, centroids: torch.Tensor, centroid_norms: torch.Tensor) -> torch.Tensor:
    q = queries.double()
    c = centroids.double()
    dist = q.pow(2).sum(1, keepdim=True) + centroid_norms.double()[None, :] - 2.0 * (q @ c.T)
    return dist.float()


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    nq, nlist, d = s["nq"], s["nlist"], s["d"]
    return {"bytes": item * (nq + nlist) * d + 4 * nlist + 4 * nq * nlist,
            "flops": 2 * nq * nlist * d + 3 * nq * nlist}

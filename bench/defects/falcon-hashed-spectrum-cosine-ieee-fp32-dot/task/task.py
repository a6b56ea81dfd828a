"""Exact inner-product search of MS/MS spectrum vectors in one precursor bucket (falcon spectrum clustering).

falcon bins each preprocessed spectrum (at most 50 peaks of 101-1500 m/z, 0.05 m/z bins), maps the
sparse binned vector to hash_len = 800 dimensions with a sparse random projection and L2-normalises
it; neighbours are then found by inner-product search (FAISS) inside a 1 m/z precursor bucket of one
charge, and DBSCAN runs on the cosine distance 1 - <q, x>. This task is the dense exact search stage:
a batch of query vectors q [M, 800] against the bucket's index vectors x [N, 800] (fp32, unit norm),
returning the cosine distances fp32 [M, N].
"""
import torch

HASH_LEN = 800
MIN_MZ, MAX_MZ, BIN = 101.0, 1500.0, 0.05
N_BINS = int((MAX_MZ - MIN_MZ) / BIN) + 1

META = {
    "name": "spectrum_cosine_search",
    "level": 2,
    "category": "proteomics",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 2e-3, "rtol": 1e-3}},
    "sizes": {
        "small": {"M": 40, "N": 96},
        "ragged": {"M": 77, "N": 133},
        "large": {"M": 8192, "N": 32768},
    },
    "baseline_notes": "One 128x128 distance tile per program over K = 800 in steps of 32 (tl.dot of the query tile "
                      "with the transposed index tile, Triton's default fp32 dot precision), grouped program order "
                      "(GROUP_M = 8), 8 warps, 3 stages; the epilogue writes 1 - dot.",
    "deterministic": True,
}


def _vectors(n: int, proto_mz: torch.Tensor, proto_int: torch.Tensor, proj: torch.Tensor,
             g: torch.Generator) -> torch.Tensor:
    """n spectra drawn around random prototypes, binned, projected to HASH_LEN dims and L2-normalised."""
    n_proto, n_peaks = proto_mz.shape
    pick = torch.randint(0, n_proto, (n,), generator=g)
    mz = proto_mz[pick] + 0.01 * torch.randn(n, n_peaks, generator=g)
    inten = proto_int[pick] * torch.exp(0.25 * torch.randn(n, n_peaks, generator=g))
    noise = torch.rand(n, n_peaks, generator=g) < 0.2          # a fifth of the peaks are noise
    mz = torch.where(noise, MIN_MZ + (MAX_MZ - MIN_MZ) * torch.rand(n, n_peaks, generator=g), mz)
    inten = torch.where(noise, 0.1 * torch.rand(n, n_peaks, generator=g), inten)
    bins = ((mz.clamp(MIN_MZ, MAX_MZ) - MIN_MZ) / BIN).long()
    rows = torch.arange(n)[:, None].expand(n, n_peaks)
    binned = torch.sparse_coo_tensor(torch.stack([rows.reshape(-1), bins.reshape(-1)]),
                                     inten.reshape(-1).sqrt(), (n, N_BINS),
                                     check_invariants=True).coalesce()
    v = torch.sparse.mm(binned, proj)
    return v / v.norm(dim=1, keepdim=True).clamp(min=1e-12)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Query vectors fp32 [M, 800] and index vectors fp32 [N, 800], unit L2 norm."""
    s = META["sizes"][size]
    m, n = s["M"], s["N"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    # sparse random projection (Achlioptas / Li: density 1 / sqrt(N_BINS), entries +-1)
    density = N_BINS ** -0.5
    proj = torch.where(torch.rand(N_BINS, HASH_LEN, generator=g) < density,
                       torch.where(torch.rand(N_BINS, HASH_LEN, generator=g) < 0.5, -1.0, 1.0), 0.0)
    n_proto = max(4, (m + n) // 16)
    proto_mz = MIN_MZ + (MAX_MZ - MIN_MZ) * torch.rand(n_proto, 50, generator=g)
    proto_int = torch.rand(n_proto, 50, generator=g) ** 3
    q = _vectors(m, proto_mz, proto_int, proj, g)
    x = _vectors(n, proto_mz, proto_int, proj, g)
    return q.to(device=device, dtype=dt), x.to(device=device, dtype=dt)


def reference(q: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
    return (1.0 - q.double() @ x.double().T).to(q.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 4 * (s["M"] + s["N"]) * HASH_LEN + 4 * s["M"] * s["N"], "flops": 2 * s["M"] * s["N"] * HASH_LEN}

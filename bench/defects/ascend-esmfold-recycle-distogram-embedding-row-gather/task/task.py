"""ESMFold recycling distogram embedding (esm/esmfold/v1/trunk.py, FoldingTrunk.distogram + recycle_disto).

Between recycles ESMFold bins the squared distances of the previous structure's C-beta atoms
against 14 squared boundaries (linspace(3.375, 21.375, 14) ** 2, 15 bins) and adds the bin's row
of nn.Embedding(15, c_z) to the pair representation: out[i, j] = z[i, j] + emb[bin(i, j)].
"""
import torch

META = {
    "name": "recycle_distogram_embed",
    "level": 2,
    "category": "embedding",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-5}},
    "sizes": {
        "small": {"L": 20, "C": 128},
        "ragged": {"L": 37, "C": 128},
        "large": {"L": 1024, "C": 128},
    },
    "baseline_notes": "40 programs (vector cores) loop over tiles of one pair row x 32 columns: the C-beta "
                      "records as one [32, 4] tile, squared distance, bin = count of squared boundaries "
                      "below it, the embedding table held in UB for the whole program and the bin's row "
                      "picked with tl.gather, added to the [32, 128] pair tile.",
    "deterministic": True,
}
MIN_BIN, MAX_BIN, NUM_BINS = 3.375, 21.375, 15


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """pair z [L, L, C], C-beta positions cb [L, 3] (a random-walk chain of 5.7 A steps), squared boundaries [14], table [15, C]."""
    s = META["sizes"][size]
    L, C = s["L"], s["C"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    z = torch.randn(L, L, C, generator=g)
    steps = torch.randn(L, 3, generator=g)
    steps = 5.7 * steps / steps.norm(dim=1, keepdim=True)
    cb = torch.cumsum(steps, dim=0)
    bounds2 = torch.linspace(MIN_BIN, MAX_BIN, NUM_BINS - 1) ** 2
    emb = torch.randn(NUM_BINS, C, generator=g)
    return z.to(dt).to(device), cb.to(dt).to(device), bounds2.to(dt).to(device), emb.to(dt).to(device)


def reference(z: torch.Tensor, cb: torch.Tensor, bounds2: torch.Tensor, emb: torch.Tensor) -> torch.Tensor:
    d = cb[None, :, :] - cb[:, None, :]
    d2 = (d * d).sum(dim=-1, keepdim=True)
    bins = torch.sum(d2 > bounds2, dim=-1)
    return z + emb[bins]


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    L, C = s["L"], s["C"]
    return {"bytes": 4 * (2 * L * L * C + 3 * L + NUM_BINS * C), "flops": L * L * (C + 2 * NUM_BINS + 8)}

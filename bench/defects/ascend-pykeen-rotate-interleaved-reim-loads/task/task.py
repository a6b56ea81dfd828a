"""RotatE triple scores over complex-dtype embedding tables (PyKEEN RotatE with torch.cfloat tables, RotatE distance).

The entity and relation tables are complex (torch.cfloat) and are passed as their view_as_real
storage, [rows, D, 2] fp32 with re/im interleaved. Relations are unit-modulus rotations. For each
triple (h, r, t) the score is gamma - sum_k |h_k * r_k - t_k| (Sun et al. 2019, gamma = 9).
"""
import math

import torch

GAMMA = 9.0

META = {
    "name": "rotate_triple_scores",
    "level": 2,
    "category": "embedding",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-4}},
    "sizes": {
        "small": {"E": 50, "R": 7, "D": 24, "T": 12},
        "ragged": {"E": 61, "R": 5, "D": 37, "T": 23},
        "large": {"E": 14541, "R": 237, "D": 1000, "T": 262144},
    },
    "baseline_notes": "40 programs looping over triples: scalar head/relation/tail ids, each row read in 512-value "
                      "chunks as one contiguous [BLOCK_D, 2] tile split into re/im on chip, complex rotate, modulus, sum.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """ent [E, D, 2], rel [R, D, 2] (unit modulus), heads/rels/tails [T] int32."""
    s = META["sizes"][size]
    E, R, D, T = s["E"], s["R"], s["D"], s["T"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    bound = (GAMMA + 2.0) / D
    ent = (torch.rand(E, D, 2, generator=g) * 2 - 1) * bound
    phase = (torch.rand(R, D, generator=g) * 2 - 1) * math.pi
    rel = torch.stack([torch.cos(phase), torch.sin(phase)], dim=-1)
    heads = torch.randint(0, E, (T,), generator=g, dtype=torch.int32)
    rels = torch.randint(0, R, (T,), generator=g, dtype=torch.int32)
    tails = torch.randint(0, E, (T,), generator=g, dtype=torch.int32)
    return (ent.to(dt).to(device), rel.to(dt).to(device),
            heads.to(device), rels.to(device), tails.to(device))


def reference(ent, rel, heads, rels, tails) -> torch.Tensor:
    e = torch.view_as_complex(ent.double().contiguous())
    r = torch.view_as_complex(rel.double().contiguous())
    h, rr, t = e[heads.long()], r[rels.long()], e[tails.long()]
    return (GAMMA - (h * rr - t).abs().sum(-1)).to(ent.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    D, T = s["D"], s["T"]
    return {"bytes": T * (3 * 2 * D * 4 + 12 + 4), "flops": 12 * T * D}

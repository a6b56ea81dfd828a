"""DeePMD-kit se_e2_a environment matrix (descriptor/env_mat.py `_make_env_mat`, the ProdEnvMatA op), NPU port.

For every local atom i and neighbour slot j of its type-sorted neighbour list (sel = [46, 92] for
water, padded slots hold a zero displacement), with r = |r_ij|:
    sw(r) = u^3 (-6 u^2 + 15 u - 10) + 1,   u = (clamp(r, rcut_smth, rcut) - rcut_smth) / (rcut - rcut_smth)
    em[i, j] = (sw / r, sw x / r^2, sw y / r^2, sw z / r^2)          (0 for padded slots)
    out[i, j, c] = (em[i, j, c] - davg[type_i, c]) / dstd[type_i, c]
The neighbour gather (coord[nlist] - coord[i]) is done beforehand; se_a's statistics are the same for
every slot of a type (DeePMD tiles [avg_r, 0, 0, 0] over the slots), so they are passed as [ntypes, 4].
"""
import torch

META = {
    "name": "deepmd_se_a_env_mat",
    "level": 2,
    "category": "molecular-dynamics",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"NLOC": 6, "SEL0": 4, "SEL1": 6},
        "ragged": {"NLOC": 7, "SEL0": 9, "SEL1": 14},
        "large": {"NLOC": 49152, "SEL0": 46, "SEL1": 92},
    },
    "baseline_notes": "Persistent grid of 40 programs (the A2's vector cores), each looping over atoms: "
                      "per atom one [next_pow2(nnei), 4] tile (displacement in columns 1-3), switch, "
                      "scale, per-type normalisation, one contiguous store; no autotune.",
    "deterministic": True,
}
RCUT_SMTH = 0.5
RCUT = 6.0
NTYPES = 2


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """rij [NLOC, NNEI, 3] (Angstrom, type-sorted sections, zero padding), atype [NLOC] int32,
    davg [NTYPES, 4], dstd [NTYPES, 4]."""
    s = META["sizes"][size]
    nloc, sel = s["NLOC"], (s["SEL0"], s["SEL1"])
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    sections = []
    for width in sel:
        d = torch.randn(nloc, width, 3, generator=g)
        d = d / d.norm(dim=-1, keepdim=True)
        r = 0.9 + (RCUT - 0.9) * torch.rand(nloc, width, 1, generator=g)
        r, _ = torch.sort(r, dim=1)
        real = torch.randint(width // 2, width + 1, (nloc, 1), generator=g)
        keep = (torch.arange(width)[None, :] < real).unsqueeze(-1)
        sections.append(torch.where(keep, d * r, torch.zeros(())))
    rij = torch.cat(sections, dim=1)
    atype = (torch.arange(nloc) >= nloc // 3).to(torch.int32)  # O first, then H (atoms sorted by type)
    davg = torch.zeros(NTYPES, 4)
    davg[:, 0] = 0.05 + 0.1 * torch.rand(NTYPES, generator=g)
    davg[:, 1:] = 0.01 * torch.randn(NTYPES, 3, generator=g)
    dstd = 0.1 + 0.2 * torch.rand(NTYPES, 4, generator=g)
    return (rij.to(device=device, dtype=dt), atype.to(device), davg.to(device=device, dtype=dt),
            dstd.to(device=device, dtype=dt))


def reference(rij: torch.Tensor, atype: torch.Tensor, davg: torch.Tensor, dstd: torch.Tensor) -> torch.Tensor:
    d = rij.double()
    r2 = (d * d).sum(-1)
    valid = r2 > 0
    r = torch.sqrt(torch.where(valid, r2, torch.ones_like(r2)))
    uu = (r.clamp(RCUT_SMTH, RCUT) - RCUT_SMTH) / (RCUT - RCUT_SMTH)
    sw = torch.where(valid, uu ** 3 * (-6 * uu ** 2 + 15 * uu - 10) + 1, torch.zeros_like(uu))
    em = torch.cat([(sw / r).unsqueeze(-1), d * (sw / (r * r)).unsqueeze(-1)], dim=-1)
    t = atype.long()
    out = (em - davg.double()[t][:, None, :]) / dstd.double()[t][:, None, :]
    return out.to(rij.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    nnei = s["SEL0"] + s["SEL1"]
    return {"bytes": s["NLOC"] * nnei * (12 + 16) + 4 * s["NLOC"] + 64, "flops": 40 * s["NLOC"] * nnei}

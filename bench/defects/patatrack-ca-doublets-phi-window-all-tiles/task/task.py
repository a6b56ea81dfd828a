"""Pixel doublet building between two barrel layers (CMS Patatrack CA, getDoubletsFromHisto).

Hits are Patatrack-style SoA per layer: iphi (int16, phi * 32768 / pi), r and z (fp32, cm, on the
1/64 cm grid of the hit SoA's fixed-point packing), each layer sorted by iphi. For every inner hit i
the kernel counts the outer hits j that form an acceptable doublet (the cell candidates of the CA):

    idphi = int16(iphi_j - iphi_i),  |idphi| <= phi_cut                 phi window
    dr = r_j - r_i,  0 <= dr <= max_dr
    |z_i * r_j - r_i * z_j| <= z0_cut * dr                              line z at the beam axis
    dphi * dphi * (r2t4 - r_i * r_j) <= dr * dr,  dphi = idphi * pi/32768   pt cut (circle radius)

with r2t4 = 4 * min_radius^2 (min_radius = 87.78 cm/GeV * pt_min at 3.8 T). Returns the doublet
count per inner hit (int32 [n_inner]), the per-hit sizes Patatrack turns into cell offsets.
"""
import math

import torch

META = {
    "name": "ca_pixel_doublets",
    "level": 2,
    "category": "tracking",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 0.0, "rtol": 0.0}},
    "sizes": {
        "small": {"n_inner": 150, "n_outer": 130},
        "ragged": {"n_inner": 201, "n_outer": 177},
        "large": {"n_inner": 40000, "n_outer": 36000},
    },
    "baseline_notes": "One program per 64 phi-sorted inner hits; it takes the phi range of its hits, widens "
                      "it by phi_cut and binary-searches the phi-sorted outer layer for that window (with "
                      "the +-pi wrap as a virtual index range), then loops over only the 64-hit outer tiles "
                      "inside it, applying the z0 and pt cuts on the 64x64 pair tile and counting per inner "
                      "hit. 4 warps, no autotune.",
    "deterministic": True,
}

PHI_UNIT = math.pi / 32768.0   # radians per int16 phi unit
R_INNER, R_OUTER = 3.0, 6.1    # Phase-2 TBPX layer 1 and 2 radii, cm
PT_MIN = 0.9                   # GeV
CM_PER_GEV = 87.78             # helix radius per GeV at 3.8 T


def _quantize(x: torch.Tensor) -> torch.Tensor:
    return torch.round(x * 64.0) / 64.0


def _iphi(phi: torch.Tensor) -> torch.Tensor:
    phi = torch.remainder(phi + math.pi, 2 * math.pi) - math.pi
    ip = torch.round(phi / PHI_UNIT).long()
    return (((ip + 32768) % 65536) - 32768).to(torch.int16)


def _layer(n: int, n_trk: int, radius: float, trk: dict, g: torch.Generator) -> tuple:
    r = radius + (torch.rand(n, generator=g) - 0.5) * 0.4
    phi = torch.rand(n, generator=g) * 2 * math.pi - math.pi
    z = (torch.rand(n, generator=g) - 0.5) * 50.0
    rt = r[:n_trk]
    phi[:n_trk] = trk["phi0"] - trk["q"] * torch.asin(rt / (2.0 * trk["radius"]))
    z[:n_trk] = trk["zv"] + rt * trk["cot"]
    z = z.clamp(-28.0, 28.0)
    ip = _iphi(phi)
    order = torch.argsort(ip.long(), stable=True)
    return ip[order], _quantize(r)[order], _quantize(z)[order]


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Inner and outer layer SoA (iphi int16, r, z) sorted by iphi, then the cuts
    (phi_cut int, z0_cut, r2t4, max_dr floats)."""
    s = META["sizes"][size]
    ni, no = s["n_inner"], s["n_outer"]
    g = torch.Generator().manual_seed(seed)
    n_trk = int(0.75 * min(ni, no))
    pt = 1.0 / (torch.rand(n_trk, generator=g) * (1 / 0.5 - 1 / 20.0) + 1 / 20.0)
    eta = (torch.rand(n_trk, generator=g) - 0.5) * 5.0
    trk = {
        "phi0": torch.rand(n_trk, generator=g) * 2 * math.pi - math.pi,
        "q": torch.where(torch.rand(n_trk, generator=g) < 0.5, -1.0, 1.0),
        "radius": pt * CM_PER_GEV,
        "zv": torch.randn(n_trk, generator=g) * 5.0,
        "cot": torch.sinh(eta),
    }
    dt = getattr(torch, dtype or META["dtypes"][0])
    inner = _layer(ni, n_trk, R_INNER, trk, g)
    outer = _layer(no, n_trk, R_OUTER, trk, g)
    r2t4 = 4.0 * (PT_MIN * CM_PER_GEV) ** 2
    ip_i, r_i, z_i = inner
    ip_o, r_o, z_o = outer
    return (ip_i.to(device), r_i.to(device=device, dtype=dt), z_i.to(device=device, dtype=dt),
            ip_o.to(device), r_o.to(device=device, dtype=dt), z_o.to(device=device, dtype=dt),
            522, 12.0, r2t4, 20.0)


def reference(in_iphi, in_r, in_z, out_iphi, out_r, out_z, phi_cut, z0_cut, r2t4, max_dr):
    f32 = torch.float32
    dev = in_r.device
    unit = torch.tensor(PHI_UNIT, dtype=f32, device=dev)
    z0c = torch.tensor(z0_cut, dtype=f32, device=dev)
    r2 = torch.tensor(r2t4, dtype=f32, device=dev)
    mdr = torch.tensor(max_dr, dtype=f32, device=dev)
    po = out_iphi.int()[None, :]
    ro, zo = out_r.float()[None, :], out_z.float()[None, :]
    counts = torch.empty(in_r.shape[0], dtype=torch.int32, device=dev)
    for start in range(0, in_r.shape[0], 256):
        sl = slice(start, start + 256)
        pi = in_iphi[sl].int()[:, None]
        ri, zi = in_r[sl].float()[:, None], in_z[sl].float()[:, None]
        idphi = ((po - pi + 32768) & 65535) - 32768
        dr = ro - ri
        z0_ok = (zi * ro - ri * zo).abs() <= z0c * dr
        dphi = idphi.to(f32) * unit
        pt_ok = dphi * dphi * (r2 - ri * ro) <= dr * dr
        ok = (idphi.abs() <= phi_cut) & (dr >= 0) & (dr <= mdr) & z0_ok & pt_ok
        counts[sl] = ok.sum(dim=1).to(torch.int32)
    return counts


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    ni, no = s["n_inner"], s["n_outer"]
    window = (2 * 522 + 1) / 65536.0
    return {"bytes": 10 * (ni + no) + 4 * ni, "flops": int(30 * ni * no * window)}

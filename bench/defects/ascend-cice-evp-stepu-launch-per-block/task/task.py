"""CICE EVP momentum update `stepu` (ice_dyn_shared.F90, B grid), one EVP subcycle over all CICE blocks.

CICE keeps every field as (nx_block, ny_block, iblk) with one ghost cell around each block; here a field is
[nblocks, ny_block, nx_block] and the stress work array str is [nblocks, 8, ny_block, nx_block]. At every
U point of the ice mask (iceUmask = 1; 0 on ghost cells and ice-free points):
  vrel    = aiU rhow Cw sqrt((uocn - u)^2 + (vocn - v)^2)
  cca     = (brlx + revp) umassdti + vrel cosw,      ccb = fm + sign(fm) vrel sinw,      ab2 = cca^2 + ccb^2
  strintx = uarear (str1(i,j) + str2(i+1,j) + str3(i,j+1) + str4(i+1,j+1))
  strinty = uarear (str5(i,j) + str6(i,j+1) + str7(i+1,j) + str8(i+1,j+1))
  cc1     = strintx + forcex + vrel waterx + umassdti (brlx u + revp uvel_init)
  cc2     = strinty + forcey + vrel watery + umassdti (brlx v + revp vvel_init)
  u'      = (cca cc1 + ccb cc2) / ab2,               v' = (cca cc2 - ccb cc1) / ab2
with rhow = 1026, a zero turning angle (cosw = 1, sinw = 0), no seabed stress, classic EVP (revp = 0,
brlx = ndte = 120). Returns (uvel, vvel, strintx, strinty), each [nblocks, ny_block, nx_block], zero off
the mask (dyn_prep2 zeroes them there; the halo update follows outside this kernel).
"""
import torch

META = {
    "name": "cice_evp_stepu",
    "level": 2,
    "category": "stencil",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-4}},
    "sizes": {
        "small": {"nblocks": 6, "block_x": 8, "block_y": 6},
        "ragged": {"nblocks": 7, "block_x": 11, "block_y": 5},
        "large": {"nblocks": 256, "block_x": 20, "block_y": 24},
    },
    "baseline_notes": "One launch: 40 programs (the 910B4's vector cores) loop over the CICE blocks; each block "
                      "(nx_block * ny_block cells, contiguous) is one flat tile of next_power_of_2(cells) lanes, the "
                      "i+1 / j+1 / i+1,j+1 neighbours are the same tile shifted by 1, nx_block and nx_block + 1; "
                      "no autotune.",
    "deterministic": True,
}
RHOW = 1026.0
BRLX = 120.0
REVP = 0.0


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """uvel, vvel, uvel_init, vvel_init, aiu, cw, uocn, vocn, waterx, watery, forcex, forcey, umassdti, fm,
    uarear, iceumask (0/1), each [nblocks, ny_block, nx_block]; str [nblocks, 8, ny_block, nx_block]."""
    s = META["sizes"][size]
    nb, ny, nx = s["nblocks"], s["block_y"] + 2, s["block_x"] + 2
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])

    def rnd(scale, shift=0.0):
        return shift + scale * torch.randn(nb, ny, nx, generator=g)

    uvel, vvel = rnd(0.15), rnd(0.15)
    uvel_init, vvel_init = uvel + rnd(0.01), vvel + rnd(0.01)
    aiu = torch.rand(nb, ny, nx, generator=g)
    cw = torch.full((nb, ny, nx), 0.00536)
    uocn, vocn = rnd(0.08), rnd(0.08)
    waterx, watery = uocn.clone(), vocn.clone()                     # cosw = 1, sinw = 0
    forcex, forcey = rnd(0.05), rnd(0.05)                            # air stress + sea-surface tilt (N/m^2)
    umass = aiu * (917.0 * (0.2 + 3.0 * torch.rand(nb, ny, nx, generator=g)))
    umassdti = umass / 3600.0
    lat = torch.rand(nb, 1, 1, generator=g) * 2.0 - 1.0              # one hemisphere sign per block
    fm = umass * 1.4584e-4 * lat
    uarear = 1.0 / (4.0e9 * (0.5 + torch.rand(nb, ny, nx, generator=g)))
    str8 = 1.0e7 * torch.randn(nb, 8, ny, nx, generator=g)           # stress terms * edge lengths (N)
    mask = (aiu > 0.05).float()
    mask[:, 0, :] = 0.0
    mask[:, -1, :] = 0.0
    mask[:, :, 0] = 0.0
    mask[:, :, -1] = 0.0
    out = (uvel, vvel, uvel_init, vvel_init, aiu, cw, uocn, vocn, waterx, watery, forcex, forcey,
           umassdti, fm, uarear, mask, str8)
    return tuple(t.to(device=device, dtype=dt).contiguous() for t in out)


def reference(uvel, vvel, uvel_init, vvel_init, aiu, cw, uocn, vocn, waterx, watery, forcex, forcey,
              umassdti, fm, uarear, iceumask, str8):
    d = lambda t: t.double()
    u, v, ma = d(uvel), d(vvel), d(umassdti)
    s = d(str8)
    pad = torch.nn.functional.pad(s, (0, 1, 0, 1))                   # i+1 / j+1 of the last ghost row: unused
    at = lambda k, dj, di: pad[:, k, dj:dj + s.shape[2], di:di + s.shape[3]]
    vrel = d(aiu) * RHOW * d(cw) * torch.sqrt((d(uocn) - u) ** 2 + (d(vocn) - v) ** 2)
    cca = (BRLX + REVP) * ma + vrel
    ccb = d(fm)
    ab2 = cca * cca + ccb * ccb
    strintx = d(uarear) * (at(0, 0, 0) + at(1, 0, 1) + at(2, 1, 0) + at(3, 1, 1))
    strinty = d(uarear) * (at(4, 0, 0) + at(5, 1, 0) + at(6, 0, 1) + at(7, 1, 1))
    cc1 = strintx + d(forcex) + vrel * d(waterx) + ma * (BRLX * u + REVP * d(uvel_init))
    cc2 = strinty + d(forcey) + vrel * d(watery) + ma * (BRLX * v + REVP * d(vvel_init))
    un = (cca * cc1 + ccb * cc2) / ab2
    vn = (cca * cc2 - ccb * cc1) / ab2
    on = d(iceumask) > 0.5
    z = torch.zeros_like(un)
    outs = (torch.where(on, un, z), torch.where(on, vn, z), torch.where(on, strintx, z), torch.where(on, strinty, z))
    return tuple(o.to(uvel.dtype) for o in outs)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    cells = s["nblocks"] * (s["block_y"] + 2) * (s["block_x"] + 2)
    return {"bytes": 4 * cells * (16 + 8 + 4), "flops": 40 * cells}

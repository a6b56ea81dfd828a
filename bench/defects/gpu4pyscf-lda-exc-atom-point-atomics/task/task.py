"""LDA exchange-correlation on a molecular DFT grid, integrated per atom (gpu4pyscf nr_rks / grid response).

The grid of a molecule is the union of Becke-partitioned atomic grids, generated atom by atom, so the
owning atom of each point (gpu4pyscf `grids.atm_idx`) is a non-decreasing array. For every point the
spin-unpolarised LDA functional "LDA,PW" (libxc LDA_X + LDA_C_PW: Slater exchange and Perdew-Wang 92
correlation) is evaluated at the density rho:

    eps_x = -(3/4) (3/pi)^(1/3) rho^(1/3),                   v_x = (4/3) eps_x
    rs    = (3 / (4 pi rho))^(1/3)
    eps_c = -2A (1 + a1 rs) ln(1 + 1 / (2A (b1 rs^1/2 + b2 rs + b3 rs^3/2 + b4 rs^2)))
    v_c   = eps_c - (rs / 3) d eps_c / d rs

Points with rho <= 1e-10 (libxc's density threshold) contribute nothing. Returns the per-atom XC
energy E_A = sum_{g in A} w_g rho_g (eps_x + eps_c), the per-atom electron count N_A = sum_{g in A}
w_g rho_g (both fp32 [natm]) and the weighted potential wv_g = w_g (v_x + v_c) (fp32 [ngrids]) that the
Vxc matrix build consumes.
"""
import math

import torch

META = {
    "name": "lda_exc_per_atom",
    "level": 2,
    "category": "quantum-chemistry",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"natm": 5, "heavy": 2, "pts_heavy": 300, "pts_h": 170},
        "ragged": {"natm": 7, "heavy": 3, "pts_heavy": 411, "pts_h": 233},
        "large": {"natm": 128, "heavy": 48, "pts_heavy": 13000, "pts_h": 8500},
    },
    "baseline_notes": "One program per 1024 grid points evaluates Slater + PW92 in fp32 and stores wv; "
                      "because atm_idx is sorted a block spans one or two atoms, so each program reduces "
                      "its energy and electron-count contributions per atom present in the block and adds "
                      "each with a single scalar atomic. 4 warps, no autotune.",
    "deterministic": True,
}

PW_A, PW_A1 = 0.031091, 0.21370
PW_B = (7.5957, 3.5876, 1.6382, 0.49294)
RHO_CUT = 1e-10


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Density rho [ngrids], quadrature weights [ngrids], owning atom atm_idx [ngrids] int32 (sorted), natm."""
    s = META["sizes"][size]
    natm, heavy = s["natm"], s["heavy"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    rhos, ws, owners = [], [], []
    for a in range(natm):
        is_heavy = a < heavy
        base = s["pts_heavy"] if is_heavy else s["pts_h"]
        n = base + int(torch.randint(-base // 10, base // 10 + 1, (1,), generator=g))
        # Becke radial map r = R (1 + x) / (1 - x) (Gauss-Chebyshev x), pruned beyond ~20 bohr
        radius, z, core, valence = (0.7, 5.7, 2.0, 0.65) if is_heavy else (1.0, 1.0, 1.0, 0.0)
        x = torch.rand(n, generator=g) * 1.9 - 0.999
        r = radius * (1 + x) / (1 - x)
        rho = core * z ** 3 / math.pi * torch.exp(-2 * z * r) + valence * torch.exp(-1.6 * r)
        rho = torch.where(torch.rand(n, generator=g) < 0.02, torch.zeros_like(rho), rho)  # screened points
        becke = torch.rand(n, generator=g)  # partition weight of the owning atom
        w = 4 * math.pi * r ** 2 * radius * 2 / (1 - x) ** 2 * (1.9 / n) * becke * 2
        rhos.append(rho)
        ws.append(w)
        owners.append(torch.full((n,), a, dtype=torch.int32))
    rho = torch.cat(rhos).to(device=device, dtype=dt)
    w = torch.cat(ws).to(device=device, dtype=dt)
    atm_idx = torch.cat(owners).to(device=device)
    return rho, w, atm_idx, natm


def lda_pw(rho: torch.Tensor) -> tuple:
    """(eps_xc, v_xc) of Slater + PW92 in the input's precision; zero where rho <= RHO_CUT."""
    ok = rho > RHO_CUT
    r = torch.where(ok, rho, torch.ones_like(rho))
    cx = -0.75 * (3.0 / math.pi) ** (1.0 / 3.0)
    ex = cx * r ** (1.0 / 3.0)
    rs = (3.0 / (4.0 * math.pi * r)) ** (1.0 / 3.0)
    srs = rs.sqrt()
    b1, b2, b3, b4 = PW_B
    q0 = -2.0 * PW_A * (1.0 + PW_A1 * rs)
    q1 = 2.0 * PW_A * (b1 * srs + b2 * rs + b3 * rs * srs + b4 * rs * rs)
    q1p = PW_A * (b1 / srs + 2.0 * b2 + 3.0 * b3 * srs + 4.0 * b4 * rs)
    lg = torch.log1p(1.0 / q1)
    ec = q0 * lg
    dec = -2.0 * PW_A * PW_A1 * lg - q0 * q1p / (q1 * q1 + q1)
    eps = torch.where(ok, ex + ec, torch.zeros_like(r))
    v = torch.where(ok, 4.0 / 3.0 * ex + ec - rs / 3.0 * dec, torch.zeros_like(r))
    return eps, v


def reference(rho: torch.Tensor, w: torch.Tensor, atm_idx: torch.Tensor, natm: int) -> tuple:
    eps, v = lda_pw(rho.double())
    den = w.double() * torch.where(rho.double() > RHO_CUT, rho.double(), torch.zeros_like(eps))
    idx = atm_idx.long()
    exc = torch.zeros(natm, dtype=torch.float64, device=rho.device).index_add_(0, idx, den * eps)
    nel = torch.zeros(natm, dtype=torch.float64, device=rho.device).index_add_(0, idx, den)
    wv = w.double() * v
    return exc.to(rho.dtype), nel.to(rho.dtype), wv.to(rho.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["heavy"] * s["pts_heavy"] + (s["natm"] - s["heavy"]) * s["pts_h"]
    return {"bytes": 16 * n, "flops": 60 * n}

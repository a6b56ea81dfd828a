"""PFMG prolongation and coarse-grid correction along the semicoarsened x axis (hypre struct multigrid).

hypre's PFMG (struct_ls/pfmg_setup_interp.c, pfmg_interp / semi_interp.c) semicoarsens one axis at a time
by a factor of two: coarse point I sits on fine point 2I. The interpolation operator P has two weights per
fine point between two coarse points, built in setup from the collapsed stencil
(pw = a_w / (a_w + a_e), pe = a_e / (a_w + a_e), smaller near strong anisotropy), so

    e_f[2I]     = e_c[I]                                (injection of the coarse points)
    e_f[2I + 1] = pw[I] * e_c[I] + pe[I] * e_c[I + 1]   (e_c beyond the box is the zero boundary)

and the cycle corrects the fine iterate x_f <- x_f + e_f. With x the coarsened axis, every (k, j) grid
line of nxf fine points takes its nxc = ceil(nxf / 2) coarse values. Returns the corrected fine iterate
[nz, ny, nxf] (inputs unchanged).
"""
import torch

META = {
    "name": "pfmg_interp_correct_x",
    "level": 2,
    "category": "sparse-solver",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-5}},
    "sizes": {
        "small": {"nz": 2, "ny": 3, "nxf": 16},
        "ragged": {"nz": 3, "ny": 2, "nxf": 21},
        "large": {"nz": 256, "ny": 256, "nxf": 256},
    },
    "baseline_notes": "min(40, nz*ny) programs (the A2's vector cores) stride over the grid lines; a line "
                      "loads its coarse values e_c[I], e_c[I + 1] and the weights pw, pe as contiguous "
                      "tiles of nxc, forms the even (injected) and odd (interpolated) values, interleaves "
                      "them on chip (tl.interleave) into the fine order and adds them to the contiguous "
                      "fine row. No autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x_f [nz, ny, nxf] fine iterate, e_c [nz, ny, nxc] coarse correction, pw, pe [nz, ny, nxc] weights."""
    s = META["sizes"][size]
    nz, ny, nxf = s["nz"], s["ny"], s["nxf"]
    nxc = (nxf + 1) // 2
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    xf = torch.randn(nz, ny, nxf, generator=g)
    ec = torch.randn(nz, ny, nxc, generator=g) * 0.1
    aw = 0.5 + torch.rand(nz, ny, nxc, generator=g)
    ae = 0.5 + torch.rand(nz, ny, nxc, generator=g)
    pw, pe = aw / (aw + ae), ae / (aw + ae)
    return tuple(t.to(device=device, dtype=dt) for t in (xf, ec, pw, pe))


def reference(xf: torch.Tensor, ec: torch.Tensor, pw: torch.Tensor, pe: torch.Tensor) -> torch.Tensor:
    nxf = xf.shape[-1]
    ecd = ec.double()
    right = torch.nn.functional.pad(ecd[..., 1:], (0, 1))          # e_c[I + 1], zero past the box
    ef = torch.empty(*xf.shape[:-1], 2 * ec.shape[-1], dtype=torch.float64, device=xf.device)
    ef[..., 0::2] = ecd
    ef[..., 1::2] = pw.double() * ecd + pe.double() * right
    return (xf.double() + ef[..., :nxf]).to(xf.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    nf = s["nz"] * s["ny"] * s["nxf"]
    nc = s["nz"] * s["ny"] * ((s["nxf"] + 1) // 2)
    return {"bytes": 4 * (2 * nf + 3 * nc), "flops": 4 * nf}

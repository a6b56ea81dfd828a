"""MODFLOW 6 IMS outer-iteration convergence check on a structured (DIS) model.

After each outer (Picard/Newton) iteration IMS compares the largest head change with OUTER_DVCLOSE
and the linear residual with INNER_RCLOSE. Over the active cells (idomain > 0; inactive cells hold
HNOFLO = 1e30 and are skipped):
    dv_n   = x_new[n] - x_old[n]
    locdv  = the first active cell n with the largest |dv_n|   (0-based node number)
    dvmax  = dv_locdv                                           (signed, as IMS reports it)
    rnorm  = sqrt(sum_n r_n^2)                                  (L2 norm of the residual b - A x)
Returns (dvmax [1] fp32, locdv [1] int32, rnorm [1] fp32).
"""
import torch

META = {
    "name": "ims_convergence_check",
    "level": 1,
    "category": "groundwater",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-4}},
    "sizes": {
        "small": {"nlay": 2, "nrow": 30, "ncol": 41},
        "ragged": {"nlay": 3, "nrow": 37, "ncol": 53},
        "large": {"nlay": 8, "nrow": 1500, "ncol": 1500},
    },
    "baseline_notes": "1024 programs each stride over blocks of 1024 cells, keeping per-lane running "
                      "max |dv| (first index wins), its signed dv and index, and the sum of r^2; each writes "
                      "one partial, and a one-program kernel reduces the 1024 partials. 4 warps, no autotune.",
    "deterministic": True,
}
HNOFLO = 1.0e30


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Heads of two successive outer iterations, the residual and idomain, shape [nlay, nrow, ncol]."""
    s = META["sizes"][size]
    nlay, nrow, ncol = s["nlay"], s["nrow"], s["ncol"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    # irregular active domain: an ellipse-like basin outline, plus a few pass-through (-1) cells
    yy = torch.linspace(-1.0, 1.0, nrow)[:, None]
    xx = torch.linspace(-1.0, 1.0, ncol)[None, :]
    wobble = 0.08 * torch.sin(5.0 * torch.atan2(yy, xx))
    inside = (xx / 0.95) ** 2 + (yy / 0.8) ** 2 < (1.0 + wobble)
    idomain = inside[None].expand(nlay, nrow, ncol).to(torch.int32).clone()
    passthrough = torch.rand(nlay, nrow, ncol, generator=g) < 0.02
    idomain[passthrough & (idomain > 0)] = -1
    base = 100.0 + 20.0 * xx + 5.0 * yy ** 2 - torch.arange(nlay, dtype=torch.float32)[:, None, None] * 0.5
    x_old = base + 0.5 * torch.randn(nlay, nrow, ncol, generator=g)
    dv = 0.01 * torch.randn(nlay, nrow, ncol, generator=g)
    dv = dv * torch.exp(2.0 * torch.rand(nlay, nrow, ncol, generator=g))  # a few cells change more
    x_new = x_old + dv
    resid = 1e-3 * torch.randn(nlay, nrow, ncol, generator=g)
    active = idomain > 0
    x_old = torch.where(active, x_old, torch.full_like(x_old, HNOFLO))
    x_new = torch.where(active, x_new, torch.full_like(x_new, HNOFLO))
    to = lambda t: t.to(device=device, dtype=dt).contiguous()
    return to(x_new), to(x_old), to(resid), idomain.to(device).contiguous()


def reference(x_new: torch.Tensor, x_old: torch.Tensor, resid: torch.Tensor, idomain: torch.Tensor) -> tuple:
    active = (idomain > 0).reshape(-1)
    dv = (x_new - x_old).reshape(-1)  # same fp32 rounding as the kernels: the argmax must agree
    mag = torch.where(active, dv.abs(), torch.full_like(dv, -1.0))
    loc = torch.argmax(mag)  # first occurrence of the maximum
    r = resid.reshape(-1).double()
    rnorm = torch.sqrt((torch.where(active, r, torch.zeros_like(r)) ** 2).sum())
    return (dv[loc].reshape(1).clone(), loc.reshape(1).to(torch.int32),
            rnorm.reshape(1).to(x_new.dtype))


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["nlay"] * s["nrow"] * s["ncol"]
    return {"bytes": 16 * n, "flops": 5 * n}

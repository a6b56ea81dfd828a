"""Gauss-linear gradient of a cell vector field over the internal faces (OpenFOAM fvc::grad(U), gaussGrad).

OpenFOAM face addressing: internal faces in upper-triangular order (owner < neighbour, faces sorted
by owner, then neighbour), Sf pointing from owner to neighbour, linear weights w (U_f = w U_own +
(1 - w) U_nei). The lduAddressing also gives ownerStartAddr (faces of each owner, a CSR row pointer
over the sorted owner list) and losortAddr / losortStartAddr (faces reordered by neighbour).
gradU[c] = (sum_{f owned by c} Sf (x) U_f - sum_{f with neighbour c} Sf (x) U_f) / V_c, a 3 x 3 tensor per cell.
The mesh is a periodic hex box whose face area vectors are perturbed to be mildly non-orthogonal.
"""
import torch

META = {
    "name": "fv_gauss_grad_vector",
    "level": 2,
    "category": "scatter",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"NX": 4, "NY": 4, "NZ": 3},
        "ragged": {"NX": 5, "NY": 3, "NZ": 7},
        "large": {"NX": 256, "NY": 256, "NZ": 128},
    },
    "baseline_notes": "Cell-centric: one program per 128 cells walks each cell's owner faces (ownerStartAddr) and "
                      "neighbour faces (losortAddr), accumulates the 3 x 3 outer products in registers and "
                      "stores gradU / V once; 4 warps, no autotune.",
    "deterministic": True,
}


def _mesh(nx: int, ny: int, nz: int, g: torch.Generator):
    idx = torch.arange(nx * ny * nz).reshape(nz, ny, nx)
    own, nei, sf = [], [], []
    for axis, area in ((2, 1.0), (1, 1.0), (0, 1.0)):
        plus = torch.roll(idx, shifts=-1, dims=axis).reshape(-1)
        c = idx.reshape(-1)
        lo, hi = torch.minimum(c, plus), torch.maximum(c, plus)
        sign = torch.where(lo == c, 1.0, -1.0)          # the periodic wrap face points the other way
        n = torch.zeros(c.numel(), 3)
        n[:, 2 - axis] = sign * area
        own.append(lo), nei.append(hi), sf.append(n)
    own, nei, sf = torch.cat(own), torch.cat(nei), torch.cat(sf)
    order = torch.argsort(own * (nx * ny * nz) + nei)
    own, nei, sf = own[order], nei[order], sf[order]
    sf = sf + 0.05 * torch.randn(sf.shape, generator=g)
    return own, nei, sf


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """U [N,3], Sf [F,3], w [F], V [N] (dtype); owner, neighbour [F], ownerStart [N+1], losort [F], losortStart [N+1] int32."""
    s = META["sizes"][size]
    nx, ny, nz = s["NX"], s["NY"], s["NZ"]
    n = nx * ny * nz
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    own, nei, sf = _mesh(nx, ny, nz, g)
    w = 0.5 + 0.1 * (torch.rand(own.numel(), generator=g) - 0.5)
    vol = 1.0 + 0.1 * (torch.rand(n, generator=g) - 0.5)
    u = torch.randn(n, 3, generator=g) * torch.tensor([10.0, 1.0, 1.0])
    own_start = torch.zeros(n + 1, dtype=torch.int64)
    own_start[1:] = torch.cumsum(torch.bincount(own, minlength=n), 0)
    losort = torch.argsort(nei, stable=True)
    lo_start = torch.zeros(n + 1, dtype=torch.int64)
    lo_start[1:] = torch.cumsum(torch.bincount(nei, minlength=n), 0)
    i32 = lambda t: t.to(torch.int32).to(device)  # noqa: E731
    return (u.to(dt).to(device), sf.to(dt).to(device), w.to(dt).to(device), vol.to(dt).to(device),
            i32(own), i32(nei), i32(own_start), i32(losort), i32(lo_start))


def reference(u, sf, w, vol, owner, neighbour, own_start, losort, lo_start) -> torch.Tensor:
    own, nei = owner.long(), neighbour.long()
    wf = w.double()[:, None]
    uf = wf * u.double()[own] + (1.0 - wf) * u.double()[nei]
    flux = sf.double()[:, :, None] * uf[:, None, :]
    grad = torch.zeros(u.shape[0], 3, 3, dtype=torch.float64, device=u.device)
    grad.index_add_(0, own, flux)
    grad.index_add_(0, nei, -flux)
    return (grad / vol.double()[:, None, None]).to(u.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["NX"] * s["NY"] * s["NZ"]
    f = 3 * n
    return {"bytes": f * (12 + 4 + 8 + 4) + n * (12 + 4 + 8 + 36), "flops": f * 2 * (6 + 18)}

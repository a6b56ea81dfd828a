"""Local expectation values <O_i> on every site of an iMPS unit cell (TeNPy MPS.expectation_value on a
B-form (right-canonical) MPS, e.g. the magnetisation profile after an iDMRG run on a cylinder).

B holds the unit cell's right-canonical tensors, legs (vL, p, vR) = [L, chi, d, chi] with d = 2 (spin-1/2);
S[i] are the Schmidt values on the bond left of site i ([L, chi], sum_a S[i, a]^2 = 1). With
theta_i = S[i] * B[i] and the right environment the identity (right-canonical form),
    <O_i> = sum_{a, b} sum_{s, s'} theta_i[a, s, b] O[s, s'] theta_i[a, s', b]
          = sum_a S[i, a]^2 sum_b sum_{s, s'} B[i, a, s, b] O[s, s'] B[i, a, s', b].
O is a real 2x2 operator, the spin component cos(t) Sz + sin(t) Sx. Returns float32 [L].
"""
import torch

META = {
    "name": "imps_site_expectation_values",
    "level": 2,
    "category": "tensor-networks",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-4}},
    "sizes": {
        "small": {"L": 4, "chi": 32},
        "ragged": {"L": 3, "chi": 45},
        "large": {"L": 8, "chi": 2048},
    },
    "baseline_notes": "Grid (sites, row blocks of 32): each program streams the [32, 2, chi] slab of its site's "
                      "B in [32, 128] tiles (both physical components, contiguous along vR), forms the 2x2 "
                      "quadratic form, sums along vR, weights the rows by S^2 and adds its partial into the "
                      "site's output with one atomic. 4 warps.",
    "deterministic": True,
}
D = 2


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """B float32 [L, chi, 2, chi] (rows normalised), S float32 [L, chi] (decaying, sum S^2 = 1), op float32 [2, 2]."""
    s = META["sizes"][size]
    n_sites, chi = s["L"], s["chi"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    b = torch.randn(n_sites, chi, D, chi, generator=g)
    b /= b.pow(2).sum(dim=(2, 3), keepdim=True).sqrt()       # each vL row a unit vector, as in B B^dag = 1
    decay = torch.rand(n_sites, 1, generator=g) * 6.0 + 2.0
    sv = torch.exp(-decay * torch.arange(chi) / chi)
    sv /= sv.pow(2).sum(dim=1, keepdim=True).sqrt()
    sx = torch.tensor([[0.0, 0.5], [0.5, 0.0]])
    sz = torch.tensor([[0.5, 0.0], [0.0, -0.5]])
    angle = torch.rand(1, generator=g).item() * 3.141592653589793
    op = torch.cos(torch.tensor(angle)) * sz + torch.sin(torch.tensor(angle)) * sx   # spin along a direction in xz
    return b.to(device=device, dtype=dt), sv.to(device=device, dtype=dt), op.to(device=device, dtype=dt)


def reference(b: torch.Tensor, sv: torch.Tensor, op: torch.Tensor) -> torch.Tensor:
    bd = b.double()
    ob = torch.einsum("st,latb->lasb", op.double(), bd)
    per_row = (bd * ob).sum(dim=(2, 3))
    return (sv.double().pow(2) * per_row).sum(dim=1).to(b.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["L"] * s["chi"] * D * s["chi"]
    return {"bytes": 4 * n, "flops": 4 * n}

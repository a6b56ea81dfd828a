"""Element-assembled (EA) operator application of MFEM's DiffusionIntegrator on Q1 hexahedra.

With AssemblyLevel::ELEMENT, MFEM stores every element matrix (ea_data, Reshape(ND, ND, NE): entry A(i, j, e)
at i + ND * (j + ND * e)) and applies the operator as L-vector -> E-vector (ElementRestriction) -> element
matrices -> E-vector -> L-vector. This task is the middle step, EABilinearFormExtension::Mult's element loop:
    Y(j, e) = sum_i A(i, j, e) * X(i, e)
with X, Y E-vectors laid out [NE, ND] (dof index contiguous). Here ea is given as [NE, ND, ND] with
ea[e, j, i] = A(i, j, e) (MFEM's memory order) and the result is Y [NE, ND]. Q1 hexahedra: ND = 8.
The element matrices are those of -div(kappa grad u) on an h-cube with a per-element coefficient kappa_e and
a small symmetric per-element perturbation (distorted elements).
"""
import torch

META = {
    "name": "mfem_ea_diffusion_apply",
    "level": 2,
    "category": "finite-elements",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-4}},
    "sizes": {
        "small": {"nx": 2, "ny": 2, "nz": 2},       # 8 hexahedra
        "ragged": {"nx": 3, "ny": 3, "nz": 5},      # 45 hexahedra
        "large": {"nx": 96, "ny": 96, "nz": 96},    # 884,736 hexahedra
    },
    "baseline_notes": "min(40, blocks) programs (the 910B4's vector cores) loop over blocks of 64 elements: one "
                      "[64, 8, 8] tile of element matrices (16 KiB contiguous) and one [64, 8] E-vector tile per "
                      "step, product reduced along the contiguous i axis, one [64, 8] store. No autotune.",
    "deterministic": True,
}
ND = 8


def _q1_reference_stiffness() -> torch.Tensor:
    """Q1 Laplace stiffness on the unit cube, dof index i = ix + 2 iy + 4 iz (lexicographic, x fastest)."""
    k = torch.tensor([[1.0, -1.0], [-1.0, 1.0]], dtype=torch.float64)
    m = torch.tensor([[1.0 / 3, 1.0 / 6], [1.0 / 6, 1.0 / 3]], dtype=torch.float64)
    return torch.kron(torch.kron(k, m), m) + torch.kron(torch.kron(m, k), m) + torch.kron(torch.kron(m, m), k)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """ea [NE, 8, 8] element matrices (MFEM order), x_e [NE, 8] E-vector."""
    s = META["sizes"][size]
    ne = s["nx"] * s["ny"] * s["nz"]
    h = 1.0 / max(s["nx"], s["ny"], s["nz"])
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    kappa = 0.5 + 1.5 * torch.rand(ne, 1, 1, generator=g, dtype=torch.float64)
    noise = 0.05 * torch.randn(ne, ND, ND, generator=g, dtype=torch.float64)
    ea = kappa * h * (_q1_reference_stiffness() + noise + noise.transpose(1, 2))
    x_e = torch.randn(ne, ND, generator=g, dtype=torch.float64)
    return ea.to(dt).contiguous().to(device), x_e.to(dt).contiguous().to(device)


def reference(ea: torch.Tensor, x_e: torch.Tensor) -> torch.Tensor:
    return torch.einsum("eji,ei->ej", ea.double(), x_e.double()).to(x_e.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    ne = s["nx"] * s["ny"] * s["nz"]
    return {"bytes": 4 * ne * (ND * ND + 2 * ND), "flops": 2 * ne * ND * ND}

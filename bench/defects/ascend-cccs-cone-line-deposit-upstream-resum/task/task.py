"""Collapsed-cone convolution/superposition: energy deposited along the transport lines of one cone.

In collapsed-cone convolution (Ahnesjo 1989; the cumulative-kernel CCK form of Lu et al. 2005 that
GPU CCCS engines such as UCLA's dosecalc-gpu use), the point-spread kernel of one cone direction is
fitted by two exponentials, primary (A, a) and scatter (B, b), in radiological depth. The energy released
in voxel j of a transport line (TERMA x mass, E_j) is carried downstream along the line, attenuated by
exp(-a x_k) over every voxel k it crosses (x_k = rho_k * dl_k, the voxel's radiological thickness in
g/cm^2), and voxel i absorbs the fraction (1 - exp(-a x_i)) of what reaches it plus its own release:

    D_i = sum_{c in (A,a),(B,b)} amp_c * (1 - exp(-mu_c x_i)) * (E_i + sum_{j<i} E_j * prod_{k=j}^{i-1} exp(-mu_c x_k))

Lines are stored step-major, [S, L]: step s of all L lines is contiguous (the ray-parallel layout the
line tracer writes). Returns D [S, L] fp32; the mapping of line samples back to dose voxels follows
outside this kernel.
"""
import torch

META = {
    "name": "cccs_cone_line_deposit",
    "level": 2,
    "category": "scan",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"L": 48, "S": 12},
        "ragged": {"L": 70, "S": 17},
        "large": {"L": 65536, "S": 256},
    },
    "baseline_notes": "min(40, blocks) programs (the A2's vector cores) loop over blocks of 1024 lines; each "
                      "walks its lines' S steps once, loading the step's energy and thickness rows "
                      "(contiguous), depositing, and carrying the two attenuated upstream fluxes in "
                      "registers (Ahnesjo's recursion); no autotune.",
    "deterministic": True,
}

# One cone of a 6 MV polyenergetic kernel fitted as A e^{-a r} + B e^{-b r} (per g/cm^2).
KERNEL = (0.041, 4.2, 0.0065, 0.38)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """energy [S, L] (released energy per line voxel), thick [S, L] (g/cm^2), then amp_a, mu_a, amp_b, mu_b."""
    s = META["sizes"][size]
    n_lines, n_steps = s["L"], s["S"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    # CT densities along each line: air before the body, soft tissue with lung and bone segments.
    rho = torch.full((n_steps, n_lines), 1.0)
    rho += 0.05 * torch.randn(n_steps, n_lines, generator=g)
    entry = torch.randint(0, max(1, n_steps // 8), (n_lines,), generator=g)
    steps = torch.arange(n_steps)[:, None]
    rho = torch.where(steps < entry[None, :], torch.full_like(rho, 0.0012), rho)
    lung = (steps > n_steps // 4) & (steps < n_steps // 2) & (torch.rand(1, n_lines, generator=g) < 0.4)
    rho = torch.where(lung, 0.25 + 0.05 * torch.rand(n_steps, n_lines, generator=g), rho)
    bone = torch.rand(n_steps, n_lines, generator=g) < 0.04
    rho = torch.where(bone, torch.full_like(rho, 1.8), rho).clamp(min=0.0012)
    dl = 0.25 * (1.0 + 0.4 * torch.rand(1, n_lines, generator=g))          # cm per step along the line
    thick = rho * dl
    depth = torch.cumsum(thick, dim=0)
    fluence = 1000.0 * (0.5 + torch.rand(1, n_lines, generator=g))     # energy fluence, MeV/cm^2
    energy = fluence * 0.0496 * torch.exp(-0.0496 * depth) * thick          # mu/rho of 6 MV water
    amp_a, mu_a, amp_b, mu_b = KERNEL
    return energy.to(device=device, dtype=dt), thick.to(device=device, dtype=dt), amp_a, mu_a, amp_b, mu_b


def reference(energy: torch.Tensor, thick: torch.Tensor, amp_a: float, mu_a: float,
              amp_b: float, mu_b: float) -> torch.Tensor:
    e, x = energy.double(), thick.double()
    dose = torch.empty_like(e)
    flux_a = torch.zeros_like(e[0])
    flux_b = torch.zeros_like(e[0])
    trans_a, trans_b = torch.exp(-mu_a * x), torch.exp(-mu_b * x)
    for i in range(e.shape[0]):
        ta, tb = trans_a[i], trans_b[i]
        dose[i] = amp_a * (1 - ta) * (e[i] + flux_a) + amp_b * (1 - tb) * (e[i] + flux_b)
        flux_a = (flux_a + e[i]) * ta
        flux_b = (flux_b + e[i]) * tb
    return dose.to(energy.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["L"] * s["S"]
    return {"bytes": 12 * n, "flops": 14 * n}

"""Monte Carlo dose and its statistical uncertainty by the batch method (gDPM-style post-processing).

gDPM (GPU Dose Planning Method, Jia et al. 2011) splits the simulated histories into NB independent
batches and tallies the energy deposited in every voxel per batch, edep[b, v] (MeV). The dose is the
batch mean converted to Gy, and its uncertainty is the standard error of that mean over the batches:

    m_v      = (1/NB) sum_b edep[b, v]
    dose_v   = m_v * scale / rho_v                                  (scale = MeV->J / voxel volume)
    stderr_v = sqrt(max(0, (1/NB) sum_b edep[b, v]^2 - m_v^2) / (NB - 1)) * scale / rho_v

Inputs: edep [NB, V] fp32 (the transport kernel's per-batch tallies), rho [V] fp32 (g/cm^3), scale (float).
Returns (dose [V] fp32, stderr [V] fp32).
"""
import torch

META = {
    "name": "mc_batch_dose_stderr",
    "level": 1,
    "category": "reduction",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-3}},
    "sizes": {
        "small": {"NB": 4, "V": 1000},
        "ragged": {"NB": 5, "V": 1237},
        "large": {"NB": 10, "V": 256 * 256 * 128},
    },
    "baseline_notes": "One launch: min(40, blocks) programs loop over blocks of 4096 voxels; each keeps the "
                      "batch sum and sum of squares in registers while it loops over the NB batch rows "
                      "(contiguous 16 KiB loads), then writes dose and standard error once; no autotune.",
    "deterministic": True,
}

VOXEL_CM = 0.25      # 2.5 mm dose grid
MEV_TO_J = 1.602176634e-13


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """edep [NB, V] per-batch energy tallies (MeV), rho [V] (g/cm^3), scale (Gy g cm^-3 per MeV)."""
    s = META["sizes"][size]
    nb, nv = s["NB"], s["V"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    u = torch.rand(nv, generator=g)
    rho = torch.where(u < 0.1, torch.full((nv,), 0.0012), 0.25 + 1.6 * torch.rand(nv, generator=g))
    # expected deposit: a beam profile that falls off with depth; a fifth of the grid is out of field
    expected = 2.0e8 * rho * torch.exp(-3.0 * torch.rand(nv, generator=g))
    expected = torch.where(torch.rand(nv, generator=g) < 0.2, torch.zeros(nv), expected)
    noise = 0.05 + 0.25 * torch.rand(nv, generator=g)                   # relative batch-to-batch spread
    edep = expected[None, :] * (1.0 + noise[None, :] * torch.randn(nb, nv, generator=g)).clamp(min=0.0)
    scale = MEV_TO_J * 1.0e3 / VOXEL_CM ** 3                             # J/MeV * g/kg / cm^3
    return edep.to(device=device, dtype=dt), rho.to(device=device, dtype=dt), scale


def reference(edep: torch.Tensor, rho: torch.Tensor, scale: float) -> tuple:
    e = edep.double()
    nb = e.shape[0]
    mean = e.mean(dim=0)
    var = (e.pow(2).mean(dim=0) - mean.pow(2)).clamp(min=0.0) / (nb - 1)
    to_gy = scale / rho.double()
    return (mean * to_gy).to(edep.dtype), (var.sqrt() * to_gy).to(edep.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 4 * s["V"] * (s["NB"] + 3), "flops": 3 * s["NB"] * s["V"] + 8 * s["V"]}

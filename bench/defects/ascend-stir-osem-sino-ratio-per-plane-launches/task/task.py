"""OSEM/MLEM sinogram-space ratio of PET reconstruction (STIR PoissonLogLikelihoodWithLinearModelForMeanAndProjData).

Before the back projection of an (OS)EM sub-iteration every sinogram bin i gets
    ybar_i  = mult_i * fwd_i + add_i                       (the model's expected counts)
    q_i     = 0                          if y_i <= 0       (STIR's divide_and_truncate)
            = MAX_QUOTIENT               if ybar_i * MAX_QUOTIENT <= y_i
            = y_i / ybar_i               otherwise
    out_i   = mult_i * q_i                                  (what the back projector reads)
where y are the measured prompts, fwd the geometric forward projection of the current image, mult the
multiplicative factors (normalisation x attenuation, 0 in detector gaps) and add the additive term
(randoms + scatter, already in measured-count units). The sinogram is [planes, views, tangential]
(STIR order: all segments' axial positions stacked, then views, then tangential positions).
"""
import torch

META = {
    "name": "osem_sino_ratio",
    "level": 1,
    "category": "elementwise",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"P": 3, "V": 6, "R": 20},
        "ragged": {"P": 5, "V": 7, "R": 33},
        "large": {"P": 837, "V": 252, "R": 344},
    },
    "baseline_notes": "One launch over the whole flattened sinogram: 40 programs (the 910B's vector cores) "
                      "loop over 2048-bin blocks, each loads the four inputs once, computes ybar, the "
                      "truncated quotient and mult * q, and stores once; no autotune.",
    "deterministic": True,
}
MAX_QUOTIENT = 10000.0


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """prompts, fwd, mult, additive [P, V, R] fp32 and the max quotient (float)."""
    s = META["sizes"][size]
    shape = (s["P"], s["V"], s["R"])
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    r = torch.linspace(-1.0, 1.0, s["R"])
    # object-like tangential profile, attenuation path through a 60 cm body, component normalisation
    profile = torch.clamp(1.0 - r * r, min=0.0).sqrt()
    fwd = (8.0 * profile * (0.6 + 0.8 * torch.rand(shape, generator=g))).contiguous()
    fwd[torch.rand(shape, generator=g) < 0.02] = 0.0
    atten = torch.exp(-0.096 * 30.0 * profile * torch.rand(shape, generator=g))
    norm = 0.5 + torch.rand(shape, generator=g)
    norm[torch.rand(shape, generator=g) < 0.05] = 0.0          # detector gaps
    mult = norm * atten
    add = 0.05 + 0.25 * torch.rand(shape, generator=g)
    add[torch.rand(shape, generator=g) < 0.01] = 0.0
    truth = mult * fwd * (0.5 + torch.rand(shape, generator=g)) + add
    prompts = torch.poisson(truth, generator=g)
    return (prompts.to(device=device, dtype=dt), fwd.to(device=device, dtype=dt),
            mult.to(device=device, dtype=dt), add.to(device=device, dtype=dt), MAX_QUOTIENT)


def reference(prompts: torch.Tensor, fwd: torch.Tensor, mult: torch.Tensor, additive: torch.Tensor,
              max_quotient: float) -> torch.Tensor:
    ybar = mult * fwd + additive
    q = torch.where(ybar * max_quotient <= prompts, torch.full_like(ybar, max_quotient), prompts / ybar)
    q = torch.where(prompts > 0, q, torch.zeros_like(q))
    return mult * q


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["P"] * s["V"] * s["R"]
    return {"bytes": 20 * n, "flops": 6 * n}

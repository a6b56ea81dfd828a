"""sCMOS pixel-wise camera correction of an SMLM movie (SMAP camera converter with the sCMOS noise model of
Huang et al., Nat. Methods 2013).

An sCMOS camera has its own offset o, gain g (ADU per photoelectron) and read-noise variance var (ADU^2)
for every pixel, calibrated from dark and flat stacks. Before spot detection and the sCMOS-aware MLE fit,
every frame of the raw uint16 movie is converted to photoelectrons and the pixel's read noise is folded
in as the Poisson-equivalent term gamma = var / g^2 (the fit then treats data + gamma as Poisson):
    out[t, y, x] = (raw[t, y, x] - o[y, x]) / g[y, x] + var[y, x] / g[y, x]^2
"""
import torch

META = {
    "name": "scmos_photon_convert",
    "level": 1,
    "category": "elementwise",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-5}},
    "sizes": {
        "small": {"T": 3, "H": 32, "W": 48},
        "ragged": {"T": 5, "H": 37, "W": 53},
        "large": {"T": 500, "H": 512, "W": 512},
    },
    "baseline_notes": "40 programs (the A2's vector cores) loop over (frame, pixel block) pairs: the frame "
                      "and the block inside the frame are scalars of the loop counter, so the raw tile, the "
                      "three calibration-map tiles and the output tile are contiguous 2048-pixel DMAs; "
                      "the uint16 -> fp32 cast happens in the kernel. No autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """raw uint16 [T, H, W] (ADU), offset [H, W] (ADU), gain [H, W] (ADU / e-), variance [H, W] (ADU^2)."""
    s = META["sizes"][size]
    t, h, w = s["T"], s["H"], s["W"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    offset = 100.0 + 3.0 * torch.randn(h, w, generator=g)
    gain = 2.2 * (1.0 + 0.05 * torch.randn(h, w, generator=g))
    var = 3.0 * torch.exp(0.6 * torch.randn(h, w, generator=g))  # log-normal: a few hot pixels
    photons = 20.0 + 200.0 * torch.rand(t, h, w, generator=g) ** 8  # background plus sparse bright spots
    electrons = torch.poisson(photons, generator=g)
    adu = offset + gain * electrons + var.sqrt() * torch.randn(t, h, w, generator=g)
    raw = adu.round().clamp(0, 65535).to(torch.int32).to(torch.uint16)
    return raw.to(device), offset.to(dt).to(device), gain.to(dt).to(device), var.to(dt).to(device)


def reference(raw: torch.Tensor, offset: torch.Tensor, gain: torch.Tensor, var: torch.Tensor) -> torch.Tensor:
    adu = raw.to(torch.float64)
    o, gn, v = offset.double(), gain.double(), var.double()
    return ((adu - o) / gn + v / (gn * gn)).to(offset.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n, hw = s["T"] * s["H"] * s["W"], s["H"] * s["W"]
    return {"bytes": 6 * n + 12 * hw, "flops": 5 * n}

"""Bandpass normalisation of one baseline's time-frequency data (AOFlagger NormalizeBandpass::NormalizeSmooth).

AOFlagger holds a baseline as images of width = time and height = channel, one real and one imaginary
image per polarisation, with a single flag mask shared by all of them. Before thresholding, the
bandpass is flattened: for every channel c the RMS of the unflagged complex samples of all
polarisations is taken,

    rms_c = sqrt( sum_{p, t : !flag[c, t]} (re[p, c, t]^2 + im[p, c, t]^2) / (P * n_unflagged_c) ),

and every image row c (flagged samples included) is multiplied by 1 / rms_c, or by 0 when the channel
is fully flagged (rms_c = 0). AOFlagger uses a winsorised RMS; this task uses the plain RMS over
unflagged samples. Input data fp32 [P, 2, C, T] (time contiguous), flags bool [C, T]; output fp32
[P, 2, C, T].
"""
import torch

META = {
    "name": "normalize_bandpass_rms",
    "level": 2,
    "category": "radio-astronomy",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"P": 2, "C": 6, "T": 40},
        "ragged": {"P": 4, "C": 13, "T": 77},
        "large": {"P": 4, "C": 2048, "T": 8192},
    },
    "baseline_notes": "Two launches: a per-channel statistics kernel (programs of 4 channels looping over "
                      "time in 256-sample tiles for all 2P images, masked sum of squares and unflagged "
                      "count) writes 1/rms per channel once; a 2-D elementwise kernel over (channel block, "
                      "time block) scales every image by it. 4 warps, no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Visibilities data [P, 2, C, T] with a bandpass shape and RFI, flags [C, T] (bool)."""
    s = META["sizes"][size]
    p, c, t = s["P"], s["C"], s["T"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    chan = torch.linspace(-1.0, 1.0, c)
    bandpass = 0.2 + torch.exp(-(chan / 0.8) ** 8) * (1.0 + 0.1 * torch.cos(40.0 * chan))
    data = torch.randn(p, 2, c, t, generator=g) * bandpass[None, None, :, None]
    rfi = torch.rand(c, t, generator=g) < 0.02
    data = data + 30.0 * rfi * torch.rand(p, 2, c, t, generator=g)
    flags = rfi | (torch.rand(c, t, generator=g) < 0.03)
    flags[c // 3] = True  # a channel flagged completely (e.g. a known RFI channel)
    return data.to(device=device, dtype=dt), flags.to(device=device)


def reference(data: torch.Tensor, flags: torch.Tensor) -> torch.Tensor:
    x = data.double()
    keep = (~flags).double()
    power = (x * x).sum(dim=(0, 1))  # [C, T]: re^2 + im^2 summed over polarisations
    n = keep.sum(dim=1) * data.shape[0]
    ms = (power * keep).sum(dim=1) / n.clamp(min=1)
    rms = ms.sqrt()
    scale = torch.where(rms > 0, 1.0 / torch.where(rms > 0, rms, torch.ones_like(rms)), torch.zeros_like(rms))
    return (x * scale[None, None, :, None]).to(data.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["P"] * 2 * s["C"] * s["T"]
    return {"bytes": 2 * 4 * n + s["C"] * s["T"], "flops": 3 * n}

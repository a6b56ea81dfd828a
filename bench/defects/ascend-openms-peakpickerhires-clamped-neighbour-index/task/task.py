"""Profile-spectrum peak picking / centroiding (OpenMS PeakPickerHiRes, without its spline refinement).

Every scan s of an LC-MS run is a profile spectrum sampled on an increasing m/z axis mz[s, :] with
intensities inten[s, :]. Point i is a peak apex when it rises strictly above both neighbours and its
signal-to-noise against the scan's noise level passes the threshold:
    apex[s, i] = inten[i] > inten[i-1]  and  inten[i] > inten[i+1]  and  inten[i] >= SNR * noise[s]
The first and last point of a scan are never apexes. At an apex the centroid is the intensity-weighted
m/z of the three points around it (the initial estimate PeakPickerHiRes refines),
    cmz[s, i] = (mz[i-1] * inten[i-1] + mz[i] * inten[i] + mz[i+1] * inten[i+1]) / (inten[i-1] + inten[i] + inten[i+1])
and the centroid intensity is the apex intensity; both outputs are 0 at every other point (the
compaction into a peak list follows outside this kernel). Returns (cmz [S, N] fp32, cint [S, N] fp32).
"""
import torch

SNR = 3.0

META = {
    "name": "profile_peak_pick",
    "level": 2,
    "category": "stencil",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-5}},
    "sizes": {
        "small": {"S": 3, "N": 700},
        "ragged": {"S": 5, "N": 1337},
        "large": {"S": 1024, "N": 32768},
    },
    "baseline_notes": "40 programs (the 910B4's vector cores) loop over (scan, 4096-point segment) tiles; "
                      "the left and right neighbours are contiguous loads of the same segment shifted by one "
                      "point, masked at the scan's ends (other=+inf for intensity, so edge points never pass "
                      "the apex test); apex test, 3-point weighted centroid and two stores per tile.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """mz [S, N] (increasing, Orbitrap-like spacing growing with m/z), inten [S, N], noise [S]."""
    s = META["sizes"][size]
    S, N = s["S"], s["N"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    start = 350.0 + 50.0 * torch.rand(S, 1, generator=g)
    # sampling interval grows like m/z^1.5 (Orbitrap); about 1e-3 Th near 400 m/z
    step = 1.0e-3 * (1.0 + 0.05 * torch.rand(S, N, generator=g))
    mz = start + torch.cumsum(step, dim=1) * (1.0 + torch.linspace(0.0, 1.5, N))
    noise = 50.0 + 50.0 * torch.rand(S, generator=g)
    spikes = (torch.rand(S, N, generator=g) < 0.01).float() * torch.rand(S, N, generator=g).pow(3) * 2.0e5
    taps = torch.exp(-0.5 * (torch.arange(-4, 5, dtype=torch.float32) / 1.6) ** 2)
    peaks = torch.nn.functional.conv1d(spikes[:, None, :], taps[None, None, :], padding=4)[:, 0, :]
    inten = peaks + noise[:, None] * torch.rand(S, N, generator=g) * 2.0
    return mz.to(dt).to(device), inten.to(dt).to(device), noise.to(dt).to(device)


def reference(mz: torch.Tensor, inten: torch.Tensor, noise: torch.Tensor) -> tuple:
    S, N = inten.shape
    thr = (noise * SNR)[:, None]  # fp32 product, as the kernel forms it
    left = torch.full_like(inten, float("inf"))
    right = torch.full_like(inten, float("inf"))
    left[:, 1:] = inten[:, :-1]
    right[:, :-1] = inten[:, 1:]
    apex = (inten > left) & (inten > right) & (inten >= thr)
    m, i = mz.double(), inten.double()
    ml = torch.zeros_like(m)
    mr = torch.zeros_like(m)
    il = torch.zeros_like(i)
    ir = torch.zeros_like(i)
    ml[:, 1:], il[:, 1:] = m[:, :-1], i[:, :-1]
    mr[:, :-1], ir[:, :-1] = m[:, 1:], i[:, 1:]
    c = (ml * il + m * i + mr * ir) / (il + i + ir)
    cmz = torch.where(apex, c, torch.zeros_like(c)).to(mz.dtype)
    cint = torch.where(apex, inten, torch.zeros_like(inten))
    return cmz, cint


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["S"] * s["N"]
    return {"bytes": 16 * n + 4 * s["S"], "flops": 12 * n}

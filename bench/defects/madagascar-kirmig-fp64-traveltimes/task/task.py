"""2-D prestack Kirchhoff depth migration by diffraction summation (straight rays, v(z)).

image[x, z] = sum over shots s and receivers r of data[s, r, t] linearly interpolated at
    t = (sqrt(z^2 + (x - xs)^2) + sqrt(z^2 + (x - xr)^2)) / vavg(z)
(zero past the end of the record), with vavg the average velocity down to depth z. data is
[shot, receiver, time] fp32 sampled every dt; the image is [NX, NZ] fp32.
"""
import torch

META = {
    "name": "kirchhoff_prestack_migration",
    "level": 2,
    "category": "imaging",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-1, "rtol": 2e-3}},
    "sizes": {
        "small": {"S": 2, "R": 3, "T": 48, "NX": 12, "NZ": 20},
        "ragged": {"S": 3, "R": 5, "T": 75, "NX": 13, "NZ": 37},
        "large": {"S": 240, "R": 96, "T": 750, "NX": 737, "NZ": 251},
    },
    "baseline_notes": "2-D grid of [4, 64] image tiles (x, z); each program loops over every shot and receiver, "
                      "two fp32 tl.sqrt traveltimes, divide by vavg*dt, truncate to the sample, two masked "
                      "gathers from the trace and a linear interpolation into an fp32 accumulator; 4 warps, "
                      "no autotune.",
    "deterministic": True,
}
RECORD_S = 3.0                  # record length (s): 750 samples at 4 ms
REFLECTORS = ((400.0, 1.0), (900.0, -0.7), (1400.0, 0.8), (1900.0, 0.6), (2400.0, -0.5), (2800.0, 0.9))


def _vavg(z: torch.Tensor) -> torch.Tensor:
    return 1500.0 + 0.6 * z


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """data [S, R, T] (flat-reflector hyperbolas, 25 Hz Ricker at 4 ms, noise), src_x [S], rec_x [S, R]
    (end-on spread, 200-2,575 m offsets), img_x [NX] over 0-9,200 m, img_z [NZ] over 0-3,000 m,
    vavg [NZ], and the sample interval dt."""
    s = META["sizes"][size]
    S, R, T, NX, NZ = s["S"], s["R"], s["T"], s["NX"], s["NZ"]
    g = torch.Generator().manual_seed(seed)
    dt = RECORD_S / T
    src_x = 3000.0 + torch.linspace(0.0, 5975.0, S, dtype=torch.float64)
    offsets = 200.0 + torch.linspace(0.0, 2375.0, R, dtype=torch.float64)
    rec_x = src_x[:, None] - offsets[None, :]
    t = torch.arange(T, dtype=torch.float64) * dt
    fpeak = min(25.0, 0.125 / dt)
    data = 0.05 * torch.randn(S, R, T, generator=g, dtype=torch.float64)
    for depth, amp in REFLECTORS:
        v = 1500.0 + 0.6 * depth
        t_refl = 2.0 * torch.sqrt(depth ** 2 + (offsets / 2.0) ** 2) / v
        a = (torch.pi * fpeak * (t[None, None, :] - t_refl[None, :, None])) ** 2
        data += amp * (1 - 2 * a) * torch.exp(-a)
    img_x = torch.linspace(0.0, 9200.0, NX, dtype=torch.float64)
    img_z = torch.linspace(0.0, 3000.0, NZ, dtype=torch.float64)
    f32 = getattr(torch, dtype or META["dtypes"][0])
    to = lambda x: x.to(f32).to(device)  # noqa: E731
    return to(data), to(src_x), to(rec_x), to(img_x), to(img_z), to(_vavg(img_z)), dt


def reference(data, src_x, rec_x, img_x, img_z, vavg, dt: float) -> torch.Tensor:
    S, R, T = data.shape
    x = img_x.double()[None, :, None]
    z2 = img_z.double()[None, None, :] ** 2
    vdt = vavg.double()[None, None, :] * dt
    image = torch.zeros(img_x.shape[0], img_z.shape[0], dtype=torch.float64, device=data.device)
    for s in range(S):
        ts = torch.sqrt(z2 + (x - src_x[s].double()) ** 2)
        tr = torch.sqrt(z2 + (x - rec_x[s].double()[:, None, None]) ** 2)
        idx = (ts + tr) / vdt
        i0 = torch.floor(idx)
        frac = idx - i0
        i0 = i0.long().clamp(max=T).view(R, -1)
        trace = torch.nn.functional.pad(data[s].double(), (0, 2))
        d0 = torch.gather(trace, 1, i0).view(frac.shape)
        d1 = torch.gather(trace, 1, i0 + 1).view(frac.shape)
        image += (d0 + frac * (d1 - d0)).sum(0)
    return image.to(data.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    pairs = s["S"] * s["R"] * s["NX"] * s["NZ"]
    return {"bytes": 4 * (s["S"] * s["R"] * s["T"] + s["NX"] * s["NZ"]), "flops": 16 * pairs}

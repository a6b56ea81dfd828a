"""Image-domain gridding of visibilities onto subgrids (IDG kernel_gridder, as used by WSClean -use-idg).

Each subgrid is an S x S patch of the uv grid that collects a run of time steps of one baseline. Its
metadata row is (first visibility row, number of time steps, x, y), x and y being the grid
coordinates of the patch's corner. For every subgrid pixel (x, y) with direction cosines

    l = (x + 0.5 - S/2) * image_size / S,  m = (y + 0.5 - S/2) * image_size / S,  n = 1 - sqrt(1 - l^2 - m^2)

(n evaluated as (l^2 + m^2) / (1 + sqrt(1 - l^2 - m^2)), as IDG does, to avoid the cancellation)

the gridder sums the visibilities of all its time steps t and channels c with a phasor:

    phase_index = u_t l + v_t m + w_t n                       (uvw in metres)
    phase_offset = u_off l + v_off m,   u_off = (x0 + S/2 - G/2) * 2 pi / image_size (v_off likewise)
    pixel[pol] += vis[t, c, pol] * exp(i (phase_offset - phase_index * wavenumber_c))

then multiplies by the spheroidal taper and stores the pixel fft-shifted by S/2 along both axes.
A-terms are identity and the w offset is 0 (no w-stacking). Visibilities are complex XX, XY, YX, YY
stored as fp32 [rows, C, 4, 2]; the output is fp32 [n_subgrids, 4, S, S, 2].
"""
import math

import torch

SPEED_OF_LIGHT = 299792458.0

META = {
    "name": "idg_gridder",
    "level": 3,
    "category": "radio-astronomy",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 2e-1, "rtol": 2e-3}},
    "sizes": {
        "small": {"subgrids": 3, "S": 8, "C": 2, "T": 5, "G": 256},
        "ragged": {"subgrids": 5, "S": 8, "C": 3, "T": 7, "G": 256},
        "large": {"subgrids": 1024, "S": 32, "C": 16, "T": 128, "G": 2048},
    },
    "baseline_notes": "One launch over (subgrid pixel row, subgrid); each program reads its subgrid's "
                      "metadata, holds one row of S pixels against a block of 32 time steps, loops over "
                      "time blocks and channels computing the phasors with tl.cos / tl.sin and "
                      "accumulating the four complex polarisations elementwise, reduces over time once, "
                      "applies the taper and stores fft-shifted. 4 warps, no autotune.",
    "deterministic": True,
}
IMAGE_SIZE = 0.08  # radians across the image (about 4.6 degrees, a LOFAR HBA field)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """uvw [rows, 3], wavenumbers [C], vis [rows, C, 4, 2], spheroidal [S, S], metadata [n, 4] int32,
    grid size G (int), image size (float)."""
    s = META["sizes"][size]
    n_sub, sub, n_chan, t_max, g_size = s["subgrids"], s["S"], s["C"], s["T"], s["G"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    freqs = 150e6 + 195312.5 * torch.arange(n_chan, dtype=torch.float64)  # LOFAR HBA subband channels
    wavenumbers = 2.0 * math.pi * freqs / SPEED_OF_LIGHT
    # subgrids: runs of a baseline's time steps (the last run of a baseline is shorter)
    n_steps = torch.randint(t_max // 2, t_max + 1, (n_sub,), generator=g)
    n_steps[::4] = t_max
    row0 = torch.cumsum(n_steps, 0) - n_steps
    rows = int(n_steps.sum())
    # earth-rotation tracks: baseline vector (metres) rotated by the hour angle, declination 52 deg
    max_uv_m = 0.4 * (g_size / 2) / IMAGE_SIZE * SPEED_OF_LIGHT / freqs[-1].item()
    base = (torch.rand(n_sub, 3, generator=g, dtype=torch.float64) - 0.5) * 2.0 * max_uv_m
    base[:, 2] *= 0.1
    ha0 = (torch.rand(n_sub, generator=g, dtype=torch.float64) - 0.5) * math.pi
    step = torch.arange(rows, dtype=torch.float64) - torch.repeat_interleave(row0, n_steps).double()
    sub_of_row = torch.repeat_interleave(torch.arange(n_sub), n_steps)
    ha = ha0[sub_of_row] + step * (10.0 / 86164.0) * 2.0 * math.pi  # 10 s integrations
    dec = math.radians(52.0)
    bx, by, bz = base[sub_of_row].unbind(1)
    u = torch.sin(ha) * bx + torch.cos(ha) * by
    v = -math.sin(dec) * torch.cos(ha) * bx + math.sin(dec) * torch.sin(ha) * by + math.cos(dec) * bz
    w = math.cos(dec) * torch.cos(ha) * bx - math.cos(dec) * torch.sin(ha) * by + math.sin(dec) * bz
    uvw = torch.stack([u, v, w], 1)
    # subgrid corner: the track's middle in grid pixels, minus half a subgrid
    mid = row0 + n_steps // 2
    lam_mid = SPEED_OF_LIGHT / freqs[n_chan // 2].item()
    px = torch.floor(uvw[mid, :2] / lam_mid * IMAGE_SIZE).long() + g_size // 2 - sub // 2
    metadata = torch.stack([row0, n_steps, px[:, 0], px[:, 1]], 1).to(torch.int32)
    # sky: a few point sources plus noise
    n_src = 5
    src_lm = (torch.rand(n_src, 2, generator=g, dtype=torch.float64) - 0.5) * IMAGE_SIZE * 0.8
    src_flux = 0.5 + torch.rand(n_src, generator=g, dtype=torch.float64)
    src_n = 1.0 - torch.sqrt(1.0 - (src_lm ** 2).sum(1))
    geo = uvw @ torch.cat([src_lm, src_n[:, None]], 1).T  # [rows, n_src] metres
    ph = -geo[:, None, :] * wavenumbers[None, :, None]
    stokes_i = (src_flux * torch.exp(1j * ph)).sum(-1)  # [rows, C]
    vis = torch.zeros(rows, n_chan, 4, dtype=torch.complex128)
    vis[:, :, 0] = stokes_i
    vis[:, :, 3] = stokes_i
    vis += 0.3 * torch.complex(torch.randn(rows, n_chan, 4, generator=g, dtype=torch.float64),
                               torch.randn(rows, n_chan, 4, generator=g, dtype=torch.float64))
    vis = torch.view_as_real(vis)
    ys = torch.arange(sub, dtype=torch.float64)
    taper1d = torch.exp(-0.5 * ((ys + 0.5 - sub / 2) / (0.35 * sub)) ** 2)  # stands in for the prolate spheroidal
    spheroidal = taper1d[:, None] * taper1d[None, :]
    cast = lambda x: x.to(device=device, dtype=dt)  # noqa: E731
    return (cast(uvw), cast(wavenumbers), cast(vis), cast(spheroidal), metadata.to(device),
            g_size, IMAGE_SIZE)


def reference(uvw, wavenumbers, vis, spheroidal, metadata, grid_size: int, image_size: float) -> torch.Tensor:
    sub = spheroidal.shape[0]
    dev = uvw.device
    coords = (torch.arange(sub, dtype=torch.float64, device=dev) + 0.5 - sub / 2) * image_size / sub
    l = coords[None, :].expand(sub, sub).reshape(-1)  # pixel (y, x) -> l from x
    m = coords[:, None].expand(sub, sub).reshape(-1)
    n = 1.0 - torch.sqrt(1.0 - l * l - m * m)
    wn = wavenumbers.double()
    vis_c = torch.view_as_complex(vis.double().contiguous())
    out = torch.empty(metadata.shape[0], 4, sub, sub, 2, dtype=vis.dtype, device=dev)
    shift = (torch.arange(sub, device=dev) + sub // 2) % sub
    for s, (r0, nt, x0, y0) in enumerate(metadata.tolist()):
        uvw_s = uvw[r0:r0 + nt].double()
        u_off = (x0 + sub / 2 - grid_size / 2) * 2.0 * math.pi / image_size
        v_off = (y0 + sub / 2 - grid_size / 2) * 2.0 * math.pi / image_size
        index = uvw_s[:, 0:1] * l + uvw_s[:, 1:2] * m + uvw_s[:, 2:3] * n  # [nt, S*S]
        phase = (u_off * l + v_off * m)[None, None, :] - index[:, None, :] * wn[None, :, None]
        phasor = torch.exp(1j * phase).reshape(nt * wn.shape[0], sub * sub)
        pix = vis_c[r0:r0 + nt].reshape(nt * wn.shape[0], 4).T @ phasor  # [4, S*S]
        pix = pix.reshape(4, sub, sub) * spheroidal.double()
        pix = pix[:, shift][:, :, shift]  # dst[(y + S/2) % S] = src[y]
        out[s] = torch.view_as_real(pix).to(vis.dtype)
    return out


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    phasors = s["subgrids"] * s["S"] ** 2 * s["C"] * s["T"] * 3 // 4
    return {"bytes": s["subgrids"] * s["T"] * s["C"] * 32 * 3 // 4 + s["subgrids"] * s["S"] ** 2 * 32,
            "flops": phasors * 40}

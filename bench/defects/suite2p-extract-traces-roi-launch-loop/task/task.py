"""Suite2p ROI fluorescence and neuropil extraction for one batch of registered frames.

Suite2p's extraction (suite2p.extraction.extract_traces) reads the registered movie in batches of
`batch_size` = 500 frames (int16, [T, Ly, Lx]) and, for every detected ROI n,
    F[n, t]    = sum_p lam_p * mov[t, ipix_p]        (cell mask, lam normalised to sum 1)
    Fneu[n, t] = mean_q mov[t, neu_ipix_q]           (neuropil annulus, equal weights)
The cell masks are the ROI pixels with their weights; the neuropil mask is the ring starting
`inner_neuropil_radius` = 2 px outside the cell, grown until it holds `min_neuropil_pixels` = 350
pixels that belong to no cell. Masks are stored CSR-style: cell_ptr [n+1] int32, cell_ipix [nnz]
int32 (flat y*Lx + x, ascending, as np.nonzero gives them), cell_lam [nnz] fp32, neu_ptr [n+1]
int32, neu_ipix [nnz_neu] int32. Returns (F, Fneu), both fp32 [ncells, T]; the neuropil
subtraction F - 0.7 * Fneu follows outside this kernel.
"""
import math

import torch

META = {
    "name": "roi_trace_extraction",
    "level": 2,
    "category": "gather-reduce",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-4}},
    "sizes": {
        "small": {"T": 16, "Ly": 32, "Lx": 32, "ncells": 6, "min_neu": 60},
        "ragged": {"T": 23, "Ly": 40, "Lx": 37, "ncells": 9, "min_neu": 60},
        "large": {"T": 500, "Ly": 512, "Lx": 512, "ncells": 1200, "min_neu": 350},
    },
    "baseline_notes": "One launch over a (ROI, block of 32 frames) grid; each program reads its ROI's CSR "
                      "range, gathers [32 frames x 64 pixels] int16 tiles of the movie at the (ascending, "
                      "mostly run-contiguous) pixel indices, accumulates lam-weighted sums and neuropil sums "
                      "in fp32 registers, and stores F and Fneu rows. 4 warps, no autotune.",
    "deterministic": True,
}
INNER_NEUROPIL_RADIUS = 2.0
WINDOW = 32  # half-width of the search window for a neuropil ring, pixels


def _masks(ncells, Ly, Lx, min_neu, g):
    """Disk-shaped somata with Gaussian weights and their neuropil rings (Suite2p create_masks style)."""
    r = 3.5 + 2.0 * torch.rand(ncells, generator=g)
    cy = r + 1.0 + torch.rand(ncells, generator=g) * (Ly - 2.0 * r - 2.0)
    cx = r + 1.0 + torch.rand(ncells, generator=g) * (Lx - 2.0 * r - 2.0)
    yy = torch.arange(Ly, dtype=torch.float32)[:, None].expand(Ly, Lx)
    xx = torch.arange(Lx, dtype=torch.float32)[None, :].expand(Ly, Lx)
    excluded = torch.zeros(Ly, Lx, dtype=torch.bool)
    cell_pix, cell_lam = [], []
    for n in range(ncells):
        y0, y1 = max(0, int(cy[n] - r[n]) - 3), min(Ly, int(cy[n] + r[n]) + 4)
        x0, x1 = max(0, int(cx[n] - r[n]) - 3), min(Lx, int(cx[n] + r[n]) + 4)
        d = ((yy[y0:y1, x0:x1] - cy[n]) ** 2 + (xx[y0:y1, x0:x1] - cx[n]) ** 2).sqrt()
        inside = d <= r[n]
        excluded[y0:y1, x0:x1] |= d <= r[n] + INNER_NEUROPIL_RADIUS
        flat = ((yy[y0:y1, x0:x1] * Lx + xx[y0:y1, x0:x1]).long())[inside]
        w = torch.exp(-0.5 * (d[inside] / (0.6 * r[n])) ** 2)
        w = w * (0.8 + 0.4 * torch.rand(w.shape[0], generator=g))
        order = torch.argsort(flat)
        cell_pix.append(flat[order])
        cell_lam.append((w / w.sum())[order])
    neu_pix = []
    for n in range(ncells):
        y0, y1 = max(0, int(cy[n]) - WINDOW), min(Ly, int(cy[n]) + WINDOW + 1)
        x0, x1 = max(0, int(cx[n]) - WINDOW), min(Lx, int(cx[n]) + WINDOW + 1)
        d = ((yy[y0:y1, x0:x1] - cy[n]) ** 2 + (xx[y0:y1, x0:x1] - cx[n]) ** 2).sqrt()
        free = (~excluded[y0:y1, x0:x1]) & (d > r[n] + INNER_NEUROPIL_RADIUS)
        dist = d[free]
        flat = ((yy[y0:y1, x0:x1] * Lx + xx[y0:y1, x0:x1]).long())[free]
        if dist.numel() > min_neu:
            radius = torch.kthvalue(dist, min_neu).values
            flat = flat[dist <= radius]
        neu_pix.append(torch.sort(flat).values)
    return cell_pix, cell_lam, neu_pix


def _csr(parts):
    ptr = torch.zeros(len(parts) + 1, dtype=torch.int64)
    ptr[1:] = torch.cumsum(torch.tensor([p.numel() for p in parts]), 0)
    return ptr.to(torch.int32), torch.cat(parts)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """mov int16 [T, Ly, Lx], cell_ptr, cell_ipix, cell_lam, neu_ptr, neu_ipix (see module docstring)."""
    s = META["sizes"][size]
    T, Ly, Lx, ncells = s["T"], s["Ly"], s["Lx"], s["ncells"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    cell_pix, cell_lam, neu_pix = _masks(ncells, Ly, Lx, s["min_neu"], g)
    cell_ptr, cell_ipix = _csr(cell_pix)
    neu_ptr, neu_ipix = _csr(neu_pix)
    lam = torch.cat(cell_lam)
    # movie: slowly varying neuropil background + GCaMP-like transients in each soma + shot noise
    yy = torch.arange(Ly, dtype=torch.float32)[:, None]
    xx = torch.arange(Lx, dtype=torch.float32)[None, :]
    bg = 250.0 + 120.0 * torch.cos(yy / 37.0) * torch.cos(xx / 53.0) + 60.0 * torch.sin((xx + yy) / 29.0)
    tt = torch.arange(T, dtype=torch.float32)
    drift = 1.0 + 0.08 * torch.sin(tt / 41.0) + 0.03 * torch.randn(T, generator=g)
    spikes = (torch.rand(ncells, T, generator=g) < 0.04).float() * (0.5 + torch.rand(ncells, T, generator=g))
    calcium = torch.zeros(ncells, T)
    c = torch.zeros(ncells)
    for t in range(T):
        c = 0.93 * c + spikes[:, t]
        calcium[:, t] = c
    f0 = 150.0 + 250.0 * torch.rand(ncells, generator=g)
    mov = (bg[None] * drift[:, None, None]).reshape(T, Ly * Lx)
    seg = torch.repeat_interleave(torch.arange(ncells), (cell_ptr[1:] - cell_ptr[:-1]).long())
    shape = lam / lam.max()
    mov.index_add_(1, cell_ipix, (f0[:, None] * (1.0 + calcium))[seg].T * shape[None, :])
    mov += 18.0 * torch.randn(T, Ly * Lx, generator=g)
    mov = mov.round().clamp(0, 32767).to(torch.int16).reshape(T, Ly, Lx)
    return (mov.to(device), cell_ptr.to(device), cell_ipix.to(torch.int32).to(device), lam.to(dt).to(device),
            neu_ptr.to(device), neu_ipix.to(torch.int32).to(device))


def reference(mov, cell_ptr, cell_ipix, cell_lam, neu_ptr, neu_ipix) -> tuple:
    T = mov.shape[0]
    ncells = cell_ptr.numel() - 1
    flat = mov.reshape(T, -1)
    ids = torch.arange(ncells, device=mov.device)
    n_cell = (cell_ptr[1:] - cell_ptr[:-1]).long()
    n_neu = (neu_ptr[1:] - neu_ptr[:-1]).long()
    cell_seg, neu_seg = torch.repeat_interleave(ids, n_cell), torch.repeat_interleave(ids, n_neu)
    ci, ni, lam = cell_ipix.long(), neu_ipix.long(), cell_lam.double()
    F = torch.zeros(ncells, T, dtype=torch.float64, device=mov.device)
    Fneu = torch.zeros_like(F)
    for t0 in range(0, T, 16):
        x = flat[t0:t0 + 16].double()
        F[:, t0:t0 + 16] = torch.zeros(ncells, x.shape[0], dtype=torch.float64, device=mov.device).index_add_(
            0, cell_seg, (x[:, ci] * lam[None, :]).T)
        Fneu[:, t0:t0 + 16] = torch.zeros(ncells, x.shape[0], dtype=torch.float64, device=mov.device).index_add_(
            0, neu_seg, x[:, ni].T)
    Fneu = Fneu / n_neu.clamp(min=1)[:, None].double()
    return F.to(cell_lam.dtype), Fneu.to(cell_lam.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    nnz = s["ncells"] * (math.pi * 4.5 ** 2 + s["min_neu"])
    return {"bytes": int(s["T"] * nnz * 2 + 8 * s["ncells"] * s["T"]), "flops": int(2 * s["T"] * nnz)}

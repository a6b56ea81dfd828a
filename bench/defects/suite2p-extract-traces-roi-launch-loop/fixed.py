"""Suite2p extract_traces: lam-weighted ROI fluorescence and neuropil mean for a batch of frames."""
import torch
import triton
import triton.language as tl

BLOCK_T = 32
BLOCK_P = 64


@triton.jit
def _roi_traces(mov, cell_ptr, cell_ipix, cell_lam, neu_ptr, neu_ipix, F, Fneu,
                T, npix, BLOCK_T: tl.constexpr, BLOCK_P: tl.constexpr):
    roi = tl.program_id(0)
    t = tl.program_id(1) * BLOCK_T + tl.arange(0, BLOCK_T)
    t_ok = t < T
    frame = t * npix
    # soma: lam-weighted sum over the cell's pixels
    lo = tl.load(cell_ptr + roi)
    hi = tl.load(cell_ptr + roi + 1)
    acc = tl.zeros([BLOCK_T, BLOCK_P], dtype=tl.float32)
    for p0 in range(lo, hi, BLOCK_P):
        p = p0 + tl.arange(0, BLOCK_P)
        p_ok = p < hi
        pix = tl.load(cell_ipix + p, mask=p_ok, other=0)
        lam = tl.load(cell_lam + p, mask=p_ok, other=0.0)
        x = tl.load(mov + frame[:, None] + pix[None, :], mask=t_ok[:, None] & p_ok[None, :], other=0)
        acc += x.to(tl.float32) * lam[None, :]
    f = tl.sum(acc, axis=1)
    # neuropil: plain mean over the ring
    lo = tl.load(neu_ptr + roi)
    hi = tl.load(neu_ptr + roi + 1)
    acc = tl.zeros([BLOCK_T, BLOCK_P], dtype=tl.float32)
    for p0 in range(lo, hi, BLOCK_P):
        p = p0 + tl.arange(0, BLOCK_P)
        p_ok = p < hi
        pix = tl.load(neu_ipix + p, mask=p_ok, other=0)
        x = tl.load(mov + frame[:, None] + pix[None, :], mask=t_ok[:, None] & p_ok[None, :], other=0)
        acc += x.to(tl.float32)
    fneu = tl.sum(acc, axis=1) / tl.maximum(hi - lo, 1).to(tl.float32)
    tl.store(F + roi * T + t, f, mask=t_ok)
    tl.store(Fneu + roi * T + t, fneu, mask=t_ok)


def run(mov, cell_ptr, cell_ipix, cell_lam, neu_ptr, neu_ipix):
    T, Ly, Lx = mov.shape
    ncells = cell_ptr.shape[0] - 1
    F = torch.empty((ncells, T), device=mov.device, dtype=torch.float32)
    Fneu = torch.empty((ncells, T), device=mov.device, dtype=torch.float32)
    grid = (ncells, triton.cdiv(T, BLOCK_T))
    _roi_traces[grid](mov, cell_ptr, cell_ipix, cell_lam, neu_ptr, neu_ipix, F, Fneu,
                      T, Ly * Lx, BLOCK_T=BLOCK_T, BLOCK_P=BLOCK_P, num_warps=4)
    return F, Fneu

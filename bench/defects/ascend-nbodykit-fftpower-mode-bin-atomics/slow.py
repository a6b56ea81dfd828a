"""nbodykit FFTPower (1-D) binning: weighted |delta(k)|^2, |k| and mode counts per linear k bin, r2c half mesh."""
import math

import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
BY = 8
BZ = 16


@triton.jit
def _bin_modes(p3d, psum, ksum, msum, N, NZ, kf, bin_scale,
               N_BINS: tl.constexpr, BINS_P2: tl.constexpr, BY: tl.constexpr, BZ: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    n_yb = tl.cdiv(N, BY)
    n_zb = tl.cdiv(NZ, BZ)
    per_plane = n_yb * n_zb
    n_f = N.to(tl.float32)
    nz_f = NZ.to(tl.float32)
    for t in range(pid, N * per_plane, nprog):
        ix = t // per_plane
        rest = t - ix * per_plane
        yb = rest // n_zb
        zb = rest - yb * n_zb
        iy = yb * BY + tl.arange(0, BY)
        iz = zb * BZ + tl.arange(0, BZ)
        p = tl.load(p3d + (ix * N + iy)[:, None] * NZ + iz[None, :],
                    mask=(iy < N)[:, None] & (iz < NZ)[None, :], other=0.0)
        # fftfreq folding in fp32 (integers are exact): only the squares enter |k|
        ix_f = ix.to(tl.float32)
        iy_f = iy.to(tl.float32)
        iz_f = iz.to(tl.float32)
        fx = tl.minimum(ix_f, n_f - ix_f)
        fy = tl.minimum(iy_f, n_f - iy_f)
        f2 = (fx * fx + fy * fy)[:, None] + (iz_f * iz_f)[None, :]
        root = tl.sqrt(f2)
        bf = tl.floor(root * bin_scale)
        keep = (bf < N_BINS) & (iy_f < n_f)[:, None] & (iz_f < nz_f)[None, :]
        wz = tl.where((iz_f == 0.0) | (iz_f + iz_f == n_f), 1.0, 2.0)
        w = tl.zeros([BY, BZ], dtype=tl.float32) + wz[None, :]
        pw = p * w
        kw = root * kf * w
        b = bf.to(tl.int32)
        tl.atomic_add(psum + b, pw, mask=keep)
        tl.atomic_add(ksum + b, kw, mask=keep)
        tl.atomic_add(msum + b, w, mask=keep)


@triton.jit
def _finish(psum, ksum, msum, k_out, p_out, m_out, N_BINS: tl.constexpr, BINS_P2: tl.constexpr):
    kb = tl.arange(0, BINS_P2)
    ok = kb < N_BINS
    m = tl.load(msum + kb, mask=ok, other=0.0)
    has = m > 0.0
    safe = tl.maximum(m, 1.0)
    ks = tl.load(ksum + kb, mask=ok, other=0.0)
    ps = tl.load(psum + kb, mask=ok, other=0.0)
    tl.store(k_out + kb, tl.where(has, ks / safe, 0.0), mask=ok)
    tl.store(p_out + kb, tl.where(has, ps / safe, 0.0), mask=ok)
    tl.store(m_out + kb, (m + 0.5).to(tl.int32), mask=ok)


def run(p3d: torch.Tensor, box: float, n_bins: int) -> tuple:
    n, _, nz = p3d.shape
    dev = p3d.device
    sums = torch.zeros((3, n_bins), device=dev, dtype=torch.float32)
    k = torch.empty(n_bins, device=dev, dtype=p3d.dtype)
    power = torch.empty(n_bins, device=dev, dtype=p3d.dtype)
    modes = torch.empty(n_bins, device=dev, dtype=torch.int32)
    bins_p2 = triton.next_power_of_2(n_bins)
    tiles = n * triton.cdiv(n, BY) * triton.cdiv(nz, BZ)
    grid = (min(_VECTOR_CORES, tiles),)
    _bin_modes[grid](p3d, sums[0], sums[1], sums[2], n, nz, 2.0 * math.pi / box, 2.0 * n_bins / n,
                     N_BINS=n_bins, BINS_P2=bins_p2, BY=BY, BZ=BZ)
    _finish[(1,)](sums[0], sums[1], sums[2], k, power, modes, N_BINS=n_bins, BINS_P2=bins_p2)
    return k, power, modes

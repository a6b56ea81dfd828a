"""pytorch_wavelets DWTForward(J=1, mode='zero'): separable analysis filter bank, width pass then height pass."""
import torch
import triton
import triton.language as tl

ROW_BLOCK_R = 8
ROW_BLOCK_W = 128
COL_BLOCK_H = 128
COL_BLOCK_W = 16


@triton.jit
def _dwt_rows(x, dec_lo, dec_hi, lo_w, hi_w, n_rows, W, Wo,
              L: tl.constexpr, BLOCK_R: tl.constexpr, BLOCK_W: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_R + tl.arange(0, BLOCK_R)
    cols = tl.program_id(1) * BLOCK_W + tl.arange(0, BLOCK_W)
    row_ok = rows < n_rows
    col_ok = cols < Wo
    acc_lo = tl.zeros([BLOCK_R, BLOCK_W], dtype=tl.float32)
    acc_hi = tl.zeros([BLOCK_R, BLOCK_W], dtype=tl.float32)
    for k in tl.static_range(L):
        h0 = tl.load(dec_lo + k)
        h1 = tl.load(dec_hi + k)
        src = 2 * cols + 1 - k
        src_ok = col_ok & (src >= 0) & (src < W)
        v = tl.load(x + rows[:, None] * W + src[None, :], mask=row_ok[:, None] & src_ok[None, :], other=0.0)
        acc_lo += h0 * v
        acc_hi += h1 * v
    out = rows[:, None] * Wo + cols[None, :]
    keep = row_ok[:, None] & col_ok[None, :]
    tl.store(lo_w + out, acc_lo, mask=keep)
    tl.store(hi_w + out, acc_hi, mask=keep)


@triton.jit
def _dwt_cols(lo_w, hi_w, dec_lo, dec_hi, ca, det, H, Ho, Wo,
              L: tl.constexpr, BLOCK_H: tl.constexpr, BLOCK_W: tl.constexpr):
    cols = tl.program_id(0) * BLOCK_W + tl.arange(0, BLOCK_W)
    oh = tl.program_id(1) * BLOCK_H + tl.arange(0, BLOCK_H)
    plane = tl.program_id(2)
    oh_ok = oh < Ho
    col_ok = cols < Wo
    src_base = plane * H * Wo + cols[None, :]
    aa = tl.zeros([BLOCK_H, BLOCK_W], dtype=tl.float32)
    da = tl.zeros([BLOCK_H, BLOCK_W], dtype=tl.float32)
    ad = tl.zeros([BLOCK_H, BLOCK_W], dtype=tl.float32)
    dd = tl.zeros([BLOCK_H, BLOCK_W], dtype=tl.float32)
    for k in tl.static_range(L):
        h0 = tl.load(dec_lo + k)
        h1 = tl.load(dec_hi + k)
        src = 2 * oh + 1 - k
        src_ok = oh_ok & (src >= 0) & (src < H)
        m = src_ok[:, None] & col_ok[None, :]
        a = tl.load(lo_w + src_base + src[:, None] * Wo, mask=m, other=0.0)
        b = tl.load(hi_w + src_base + src[:, None] * Wo, mask=m, other=0.0)
        aa += h0 * a
        da += h1 * a
        ad += h0 * b
        dd += h1 * b
    band = Ho * Wo
    out = oh[:, None] * Wo + cols[None, :]
    keep = oh_ok[:, None] & col_ok[None, :]
    tl.store(ca + plane * band + out, aa, mask=keep)
    det_base = det + plane * 3 * band + out
    tl.store(det_base, da, mask=keep)
    tl.store(det_base + band, ad, mask=keep)
    tl.store(det_base + 2 * band, dd, mask=keep)


def run(x: torch.Tensor, dec_lo: torch.Tensor, dec_hi: torch.Tensor) -> tuple:
    N, C, H, W = x.shape
    L = dec_lo.numel()
    Ho, Wo = (H + L - 1) // 2, (W + L - 1) // 2
    planes = N * C
    lo_w = torch.empty((planes, H, Wo), device=x.device, dtype=torch.float32)
    hi_w = torch.empty((planes, H, Wo), device=x.device, dtype=torch.float32)
    grid_rows = (triton.cdiv(planes * H, ROW_BLOCK_R), triton.cdiv(Wo, ROW_BLOCK_W))
    _dwt_rows[grid_rows](x, dec_lo, dec_hi, lo_w, hi_w, planes * H, W, Wo,
                         L=L, BLOCK_R=ROW_BLOCK_R, BLOCK_W=ROW_BLOCK_W, num_warps=4)
    ca = torch.empty((N, C, Ho, Wo), device=x.device, dtype=x.dtype)
    det = torch.empty((N, C, 3, Ho, Wo), device=x.device, dtype=x.dtype)
    grid_cols = (triton.cdiv(Wo, COL_BLOCK_W), triton.cdiv(Ho, COL_BLOCK_H), planes)
    _dwt_cols[grid_cols](lo_w, hi_w, dec_lo, dec_hi, ca, det, H, Ho, Wo,
                         L=L, BLOCK_H=COL_BLOCK_H, BLOCK_W=COL_BLOCK_W, num_warps=4)
    return ca, det

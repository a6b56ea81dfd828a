"""TomoPy remove_stripe_sf profile: per-sinogram column mean over angles minus its box-smoothed version."""
import torch
import triton
import triton.language as tl

BLOCK_A = 32
BLOCK_D = 128
BLOCK_P = 1024


@triton.jit
def _column_mean(proj, avrg, n_ang, n_row, n_det,
                 BLOCK_A: tl.constexpr, BLOCK_D: tl.constexpr):
    d = tl.program_id(0) * BLOCK_D + tl.arange(0, BLOCK_D)
    z = tl.program_id(1)
    d_ok = d < n_det
    acc = tl.zeros([BLOCK_A, BLOCK_D], dtype=tl.float32)
    for a0 in range(0, n_ang, BLOCK_A):
        a = a0 + tl.arange(0, BLOCK_A)
        ptrs = proj + a[:, None] * (n_row * n_det) + z * n_det + d[None, :]
        acc += tl.load(ptrs, mask=(a[:, None] < n_ang) & d_ok[None, :], other=0.0)
    tl.store(avrg + z * n_det + d, tl.sum(acc, axis=0) / n_ang, mask=d_ok)


@triton.jit
def _stripe_profile(avrg, profile, n_det, SIZE: tl.constexpr, BLOCK_P: tl.constexpr):
    d = tl.program_id(0) * BLOCK_P + tl.arange(0, BLOCK_P)
    row = avrg + tl.program_id(1) * n_det
    ok = d < n_det
    centre = tl.load(row + d, mask=ok, other=0.0)
    smooth = tl.zeros([BLOCK_P], dtype=tl.float32)
    for k in tl.static_range(SIZE):
        nb = tl.minimum(tl.maximum(d + (k - SIZE // 2), 0), n_det - 1)
        smooth += tl.load(row + nb, mask=ok, other=0.0)
    tl.store(profile + tl.program_id(1) * n_det + d, centre - smooth / SIZE, mask=ok)


def run(proj: torch.Tensor, size: int) -> torch.Tensor:
    n_ang, n_row, n_det = proj.shape
    avrg = torch.empty((n_row, n_det), device=proj.device, dtype=torch.float32)
    profile = torch.empty_like(avrg)
    _column_mean[(triton.cdiv(n_det, BLOCK_D), n_row)](proj, avrg, n_ang, n_row, n_det,
                                                       BLOCK_A=BLOCK_A, BLOCK_D=BLOCK_D, num_warps=4)
    _stripe_profile[(triton.cdiv(n_det, BLOCK_P), n_row)](avrg, profile, n_det, SIZE=size, BLOCK_P=BLOCK_P,
                                                          num_warps=4)
    return profile

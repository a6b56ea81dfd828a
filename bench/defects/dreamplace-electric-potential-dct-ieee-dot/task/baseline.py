"""ePlace electric potential and field: spectral Poisson solve with the DCT as GEMMs against cached bases."""
import math

import torch
import triton
import triton.language as tl

PI = tl.constexpr(math.pi)


@triton.jit
def _spectral_gemm(a, b, c, M, N, K, s_am, s_ak, s_bk, s_bn, s_cm, s_cn, scale,
                   POISSON: tl.constexpr, EVEN_K: tl.constexpr, BLOCK_M: tl.constexpr,
                   BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr):
    pid = tl.program_id(0)
    num_m = tl.cdiv(M, BLOCK_M)
    num_n = tl.cdiv(N, BLOCK_N)
    per_group = GROUP_M * num_n
    first_m = (pid // per_group) * GROUP_M
    group_rows = tl.minimum(num_m - first_m, GROUP_M)
    pid_m = first_m + (pid % per_group) % group_rows
    pid_n = (pid % per_group) // group_rows
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    a_ptrs = a + (rm % M)[:, None] * s_am + rk[None, :] * s_ak
    b_ptrs = b + rk[:, None] * s_bk + (rn % N)[None, :] * s_bn
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        if EVEN_K:
            a_tile = tl.load(a_ptrs)
            b_tile = tl.load(b_ptrs)
        else:
            a_tile = tl.load(a_ptrs, mask=rk[None, :] < K - k, other=0.0)
            b_tile = tl.load(b_ptrs, mask=rk[:, None] < K - k, other=0.0)
        acc = tl.dot(a_tile, b_tile, acc, input_precision="tf32x3")
        a_ptrs += BLOCK_K * s_ak
        b_ptrs += BLOCK_K * s_bk
    if POISSON:
        wu = PI * rm.to(tl.float32)
        wv = PI * rn.to(tl.float32)
        den = wu[:, None] * wu[:, None] + wv[None, :] * wv[None, :]
        acc = tl.where(den > 0, acc * scale / tl.where(den > 0, den, 1.0), 0.0)
    c_ptrs = c + rm[:, None] * s_cm + rn[None, :] * s_cn
    tl.store(c_ptrs, acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


def _gemm(a, b, poisson=False, scale=1.0):
    M, K = a.shape
    N = b.shape[1]
    c = torch.empty((M, N), device=a.device, dtype=torch.float32)
    BM, BN, BK = 64, 64, 32
    grid = (triton.cdiv(M, BM) * triton.cdiv(N, BN),)
    _spectral_gemm[grid](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                         c.stride(0), c.stride(1), scale, POISSON=poisson, EVEN_K=K % BK == 0,
                         BLOCK_M=BM, BLOCK_N=BN, BLOCK_K=BK, GROUP_M=8, num_warps=4, num_stages=3)
    return c


def run(density, cos_x, sin_x_w, cos_y, sin_y_w):
    mx, my = density.shape
    coef = _gemm(_gemm(cos_x, density), cos_y.t(), poisson=True, scale=4.0 / (mx * my))
    p1 = _gemm(coef, cos_y)
    potential = _gemm(cos_x.t(), p1)
    field_x = _gemm(sin_x_w.t(), p1)
    field_y = _gemm(cos_x.t(), _gemm(coef, sin_y_w))
    return potential, field_x, field_y

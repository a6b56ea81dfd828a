"""OpenPIV correlation_to_displacement + sig2noise (peak2peak): first and second correlation peak,
Gaussian three-point sub-pixel fit, one program per interrogation window."""
import torch
import triton
import triton.language as tl

EPS = 1e-7
WIDTH = 2


@triton.jit
def _peak_fit(corr, u, v, s2n, row, n_cols, M, eps,
              BM: tl.constexpr, WIDTH: tl.constexpr):
    w = row * n_cols + tl.program_id(0)
    base = corr + w * M * M
    kk = tl.arange(0, BM * BM)
    ii = kk // BM
    jj = kk % BM
    inside = (ii < M) & (jj < M)
    c = tl.load(base + ii * M + jj, mask=inside, other=float("-inf"))

    # first peak: row-major argmax of the map
    p1, k1 = tl.max(c, axis=0, return_indices=True)
    i1 = k1 // BM
    j1 = k1 % BM
    # second peak: the largest value outside the +-WIDTH square around the first
    near = (tl.abs(ii - i1) <= WIDTH) & (tl.abs(jj - j1) <= WIDTH)
    c2 = tl.where(near, float("-inf"), c)
    p2, k2 = tl.max(c2, axis=0, return_indices=True)
    i2 = k2 // BM
    j2 = k2 % BM

    edge1 = (i1 == 0) | (i1 == M - 1) | (j1 == 0) | (j1 == M - 1)
    edge2 = (i2 == 0) | (i2 == M - 1) | (j2 == 0) | (j2 == M - 1)
    flag = (p1 < 1e-3) | (p2 < 1e-3) | edge1 | edge2
    ratio = tl.where(p2 > 0, p1 / tl.maximum(p2, 1e-30), 0.0)
    ratio = tl.where(flag, 0.0, ratio)

    # Gaussian three-point fit around the first peak (centre of the map if the peak is on the border)
    half = M // 2
    ic = tl.where(edge1, half, i1)
    jc = tl.where(edge1, half, j1)
    at = base + ic * M + jc
    lc = tl.log(tl.load(at) + eps)
    ll = tl.log(tl.load(at - M) + eps)
    lr = tl.log(tl.load(at + M) + eps)
    ld = tl.log(tl.load(at - 1) + eps)
    lu = tl.log(tl.load(at + 1) + eps)
    den1 = 2.0 * ll - 4.0 * lc + 2.0 * lr
    den2 = 2.0 * ld - 4.0 * lc + 2.0 * lu
    di = tl.where(den1 != 0.0, (ll - lr) / tl.where(den1 != 0.0, den1, 1.0), 0.0)
    dj = tl.where(den2 != 0.0, (ld - lu) / tl.where(den2 != 0.0, den2, 1.0), 0.0)
    vy = tl.where(edge1, 0.0, (ic - half).to(tl.float32) + di)
    vx = tl.where(edge1, 0.0, (jc - half).to(tl.float32) + dj)
    tl.store(u + w, vx)
    tl.store(v + w, vy)
    tl.store(s2n + w, ratio)


def run(corr: torch.Tensor, n_rows: int, n_cols: int) -> tuple:
    n, M, _ = corr.shape
    u = torch.empty(n_rows, n_cols, device=corr.device, dtype=torch.float32)
    v = torch.empty_like(u)
    s2n = torch.empty_like(u)
    for k in range(n_rows):
        _peak_fit[(n_cols,)](corr, u, v, s2n, k, n_cols, M, EPS,
                             BM=triton.next_power_of_2(M), WIDTH=WIDTH, num_warps=4)
    return u, v, s2n

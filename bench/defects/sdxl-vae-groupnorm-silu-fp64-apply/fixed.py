"""SDXL VAE decoder GroupNorm + SiLU: split Welford group statistics, then a per-channel apply pass."""
import torch
import triton
import triton.language as tl


@triton.jit
def _welford_merge(mean_a, m2_a, n_a, mean_b, m2_b, n_b):
    n = n_a + n_b
    delta = mean_b - mean_a
    frac = tl.where(n > 0, n_b / tl.maximum(n, 1.0), 0.0)
    return mean_a + delta * frac, m2_a + m2_b + delta * delta * n_a * frac, n


@triton.jit
def _group_partial_stats_kernel(x_ptr, ws_ptr, group_size, chunk, n_split,
                                BLOCK: tl.constexpr):
    row = tl.program_id(0)
    part = tl.program_id(1)
    base = x_ptr + row.to(tl.int64) * group_size
    lo = part * chunk
    hi = tl.minimum(lo + chunk, group_size)
    mean = tl.zeros([BLOCK], dtype=tl.float32)
    m2 = tl.zeros([BLOCK], dtype=tl.float32)
    cnt = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(lo, hi, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        m = offs < hi
        v = tl.load(base + offs, mask=m, other=0.0).to(tl.float32)
        cnt_new = cnt + m
        delta = tl.where(m, v - mean, 0.0)
        mean += delta / tl.maximum(cnt_new, 1.0)
        m2 += delta * (v - mean)
        cnt = cnt_new
    g_mean, g_m2, g_cnt = tl.reduce((mean, m2, cnt), 0, _welford_merge)
    out = ws_ptr + (row * n_split + part) * 3
    tl.store(out, g_mean)
    tl.store(out + 1, g_m2)
    tl.store(out + 2, g_cnt)


@triton.jit
def _fold_partials(ws_ptr, row, n_split, eps, SPLIT_P: tl.constexpr):
    idx = tl.arange(0, SPLIT_P)
    m = idx < n_split
    src = ws_ptr + (row * n_split + idx) * 3
    p_mean = tl.load(src, mask=m, other=0.0)
    p_m2 = tl.load(src + 1, mask=m, other=0.0)
    p_cnt = tl.load(src + 2, mask=m, other=0.0)
    mean, m2, cnt = tl.reduce((p_mean, p_m2, p_cnt), 0, _welford_merge)
    rstd = 1.0 / tl.sqrt(m2 / cnt + eps)
    return mean, rstd


@triton.jit
def _norm_silu_apply_kernel(x_ptr, w_ptr, b_ptr, ws_ptr, y_ptr, C, HW, CPG, G, n_split, eps,
                            SPLIT_P: tl.constexpr, BLOCK_HW: tl.constexpr):
    nc = tl.program_id(0)
    blk = tl.program_id(1)
    n = nc // C
    c = nc % C
    row = n * G + c // CPG
    mean, rstd = _fold_partials(ws_ptr, row, n_split, eps, SPLIT_P)
    scale = rstd * tl.load(w_ptr + c).to(tl.float32)
    shift = tl.load(b_ptr + c).to(tl.float32) - mean * scale
    offs = blk * BLOCK_HW + tl.arange(0, BLOCK_HW)
    m = offs < HW
    plane = nc.to(tl.int64) * HW
    xv = tl.load(x_ptr + plane + offs, mask=m, other=0.0).to(tl.float32)
    h = xv * scale + shift
    y = h * tl.sigmoid(h)
    tl.store(y_ptr + plane + offs, y.to(y_ptr.dtype.element_ty), mask=m)


def run(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor, groups: int) -> torch.Tensor:
    N, C, H, W = x.shape
    HW = H * W
    cpg = C // groups
    group_size = cpg * HW
    BLOCK = min(4096, triton.next_power_of_2(group_size))
    chunk = BLOCK * 16
    n_split = triton.cdiv(group_size, chunk)
    ws = torch.empty((N * groups, n_split, 3), device=x.device, dtype=torch.float32)
    y = torch.empty_like(x)
    stats_opts = {"num_warps": 8}
    apply_opts = {"num_warps": 8}
    _group_partial_stats_kernel[(N * groups, n_split)](x, ws, group_size, chunk, n_split, BLOCK=BLOCK, **stats_opts)
    BLOCK_HW = min(4096, triton.next_power_of_2(HW))
    _norm_silu_apply_kernel[(N * C, triton.cdiv(HW, BLOCK_HW))](
        x, weight, bias, ws, y, C, HW, cpg, groups, n_split, 1e-6,
        SPLIT_P=triton.next_power_of_2(n_split), BLOCK_HW=BLOCK_HW, **apply_opts)
    return y

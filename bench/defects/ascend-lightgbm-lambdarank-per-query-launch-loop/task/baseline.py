"""LightGBM lambdarank: per-document lambdas and hessians from the pairs of each query."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
_BI = 16    # documents whose lambdas one block accumulates
_BJ = 128   # partner documents per tile


@triton.jit
def _rank_block(scores, ranks, start, end, i0, BI: tl.constexpr, BJ: tl.constexpr):
    # stable descending rank: partners with a larger score, or an equal score at an earlier position
    rows = i0 + tl.arange(0, BI)
    rmask = rows < end
    s_i = tl.load(scores + rows, mask=rmask, other=0.0)
    pos_i = (rows - start).to(tl.float32)
    acc = tl.zeros([BI], dtype=tl.float32)
    for j0 in range(start, end, BJ):
        cols = j0 + tl.arange(0, BJ)
        s_j = tl.load(scores + cols, mask=cols < end, other=-float("inf"))
        pos_j = (cols - start).to(tl.float32)
        ahead = (s_j[None, :] > s_i[:, None]) | ((s_j[None, :] == s_i[:, None]) & (pos_j[None, :] < pos_i[:, None]))
        acc += tl.sum(ahead.to(tl.float32), axis=1)
    tl.store(ranks + rows, acc, mask=rmask)


@triton.jit
def _lambda_block(scores, labels, ranks, lambdas, hessians, start, end, inv_max_dcg, sigma, trunc, i0,
                  BI: tl.constexpr, BJ: tl.constexpr):
    rows = i0 + tl.arange(0, BI)
    rmask = rows < end
    s_i = tl.load(scores + rows, mask=rmask, other=0.0)
    l_i = tl.load(labels + rows, mask=rmask, other=0.0)
    r_i = tl.load(ranks + rows, mask=rmask, other=0.0)
    g_i = tl.exp2(l_i) - 1.0
    d_i = 1.0 / tl.log2(r_i + 2.0)
    lam = tl.zeros([BI], dtype=tl.float32)
    hes = tl.zeros([BI], dtype=tl.float32)
    for j0 in range(start, end, BJ):
        cols = j0 + tl.arange(0, BJ)
        cmask = cols < end
        s_j = tl.load(scores + cols, mask=cmask, other=0.0)
        l_j = tl.load(labels + cols, mask=cmask, other=-1.0)
        r_j = tl.load(ranks + cols, mask=cmask, other=0.0)
        g_j = tl.exp2(l_j) - 1.0
        d_j = 1.0 / tl.log2(r_j + 2.0)
        sign = tl.where(l_i[:, None] > l_j[None, :], 1.0, -1.0)
        delta = sign * (s_i[:, None] - s_j[None, :])          # s_high - s_low
        dndcg = tl.abs(g_i[:, None] - g_j[None, :]) * tl.abs(d_i[:, None] - d_j[None, :]) * inv_max_dcg
        p = 1.0 / (1.0 + tl.exp(sigma * delta))
        pair = (l_i[:, None] != l_j[None, :]) & (l_j[None, :] >= 0.0) \
            & (tl.minimum(r_i[:, None], r_j[None, :]) < trunc)
        lam += tl.sum(tl.where(pair, -sign * sigma * p * dndcg, 0.0), axis=1)
        hes += tl.sum(tl.where(pair, sigma * sigma * p * (1.0 - p) * dndcg, 0.0), axis=1)
    tl.store(lambdas + rows, lam, mask=rmask)
    tl.store(hessians + rows, hes, mask=rmask)


@triton.jit
def _rank_kernel(scores, ranks, offsets, Q, BI: tl.constexpr, BJ: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    for q in range(pid, Q, nprog):
        start = tl.load(offsets + q)
        end = tl.load(offsets + q + 1)
        for i0 in range(start, end, BI):
            _rank_block(scores, ranks, start, end, i0, BI, BJ)


@triton.jit
def _lambda_kernel(scores, labels, ranks, offsets, inverse_max_dcg, lambdas, hessians, Q, sigma, trunc,
                   BI: tl.constexpr, BJ: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    for q in range(pid, Q, nprog):
        start = tl.load(offsets + q)
        end = tl.load(offsets + q + 1)
        inv = tl.load(inverse_max_dcg + q)
        for i0 in range(start, end, BI):
            _lambda_block(scores, labels, ranks, lambdas, hessians, start, end, inv, sigma, trunc, i0, BI, BJ)


def run(scores: torch.Tensor, labels: torch.Tensor, query_offsets: torch.Tensor,
        inverse_max_dcg: torch.Tensor, sigma: float, truncation_level: int) -> tuple:
    n = scores.numel()
    q = query_offsets.numel() - 1
    ranks = torch.empty(n, device=scores.device, dtype=torch.float32)
    lambdas = torch.empty(n, device=scores.device, dtype=torch.float32)
    hessians = torch.empty(n, device=scores.device, dtype=torch.float32)
    grid = (min(_VECTOR_CORES, max(q, 1)),)
    _rank_kernel[grid](scores, ranks, query_offsets, q, BI=_BI, BJ=_BJ)
    _lambda_kernel[grid](scores, labels, ranks, query_offsets, inverse_max_dcg, lambdas, hessians, q,
                         float(sigma), float(truncation_level), BI=_BI, BJ=_BJ)
    return lambdas, hessians

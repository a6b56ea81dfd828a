"""Normalised cross-correlation of many templates against one continuous channel (matched filter)."""
import torch
import triton
import triton.language as tl

BLOCK_M = 16   # templates per program
BLOCK_T = 64   # lags (window start samples) per program
BLOCK_K = 16   # template samples per step


@triton.jit
def _normxcorr(data, tmpl, cc, n_lags, n_tmpl, tmpl_len,
               BLOCK_M: tl.constexpr, BLOCK_T: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_t = tl.program_id(0)
    pid_m = tl.program_id(1)
    m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    t = pid_t * BLOCK_T + tl.arange(0, BLOCK_T)
    m_ok = m < n_tmpl
    t_ok = t < n_lags
    acc = tl.zeros([BLOCK_M, BLOCK_T], dtype=tl.float32)   # sum_k w[m, k] * data[t + k]
    s_w = tl.zeros([BLOCK_M], dtype=tl.float32)
    s_ww = tl.zeros([BLOCK_M], dtype=tl.float32)
    s_d = tl.zeros([BLOCK_T], dtype=tl.float32)
    s_dd = tl.zeros([BLOCK_T], dtype=tl.float32)
    for k0 in range(0, tmpl_len, BLOCK_K):
        k = k0 + tl.arange(0, BLOCK_K)
        k_ok = k < tmpl_len
        w = tl.load(tmpl + m[:, None] * tmpl_len + k[None, :],
                    mask=m_ok[:, None] & k_ok[None, :], other=0.0)            # [BLOCK_M, BLOCK_K]
        win = tl.load(data + t[:, None] + k[None, :],
                      mask=t_ok[:, None] & k_ok[None, :], other=0.0)          # [BLOCK_T, BLOCK_K]: row = window at lag t
        acc += tl.sum(w[:, None, :] * win[None, :, :], axis=2)
        s_w += tl.sum(w, axis=1)
        s_ww += tl.sum(w * w, axis=1)
        s_d += tl.sum(win, axis=1)
        s_dd += tl.sum(win * win, axis=1)
    mean_w = s_w / tmpl_len
    mean_d = s_d / tmpl_len
    num = acc - tmpl_len * mean_w[:, None] * mean_d[None, :]  # sum_k (w - mean_w) * d
    ss_w = s_ww - tmpl_len * mean_w * mean_w                   # sum_k (w - mean_w)^2
    ss_d = s_dd - tmpl_len * mean_d * mean_d                   # sum_k (d - mean_d)^2 per window
    den = tl.sqrt(ss_w[:, None] * ss_d[None, :])
    out = tl.where(den > 0.0, num / den, 0.0)
    tl.store(cc + m[:, None] * n_lags + t[None, :], out, mask=m_ok[:, None] & t_ok[None, :])


def run(data: torch.Tensor, templates: torch.Tensor) -> torch.Tensor:
    n_tmpl, tmpl_len = templates.shape
    n_lags = data.shape[0] - tmpl_len + 1
    cc = torch.empty((n_tmpl, n_lags), device=data.device, dtype=torch.float32)
    grid = (triton.cdiv(n_lags, BLOCK_T), triton.cdiv(n_tmpl, BLOCK_M))
    _normxcorr[grid](data, templates, cc, n_lags, n_tmpl, tmpl_len,
                     BLOCK_M=BLOCK_M, BLOCK_T=BLOCK_T, BLOCK_K=BLOCK_K, num_warps=4)
    return cc

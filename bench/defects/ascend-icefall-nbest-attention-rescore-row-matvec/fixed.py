"""n-best attention rescoring: decoder output layer + log-softmax + target gather -> per-token nll."""
import torch
import triton
import triton.language as tl

_AI_CORES = 20


@triton.jit
def _decoder_nll_fwd(hidden, weight, bias, ys_out, nll, R, V,
                     D: tl.constexpr, BM: tl.constexpr, BV: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    d = tl.arange(0, D)
    for blk in range(pid, tl.cdiv(R, BM), nprog):
        rows = blk * BM + tl.arange(0, BM)
        rmask = rows < R
        x = tl.load(hidden + rows[:, None] * D + d[None, :], mask=rmask[:, None], other=0.0)
        y = tl.load(ys_out + rows, mask=rmask, other=-1)
        m_i = tl.full((BM,), -float("inf"), tl.float32)
        l_i = tl.zeros((BM,), tl.float32)
        t_i = tl.zeros((BM,), tl.float32)
        for v0 in range(0, V, BV):
            cols = v0 + tl.arange(0, BV)
            cmask = cols < V
            w = tl.load(weight + cols[:, None] * D + d[None, :], mask=cmask[:, None], other=0.0)
            b = tl.load(bias + cols, mask=cmask, other=-float("inf")).to(tl.float32)
            z = tl.dot(x, tl.trans(w)) + b[None, :]
            t_i += tl.sum(tl.where(cols[None, :] == y[:, None], z, 0.0), axis=1)
            m_new = tl.maximum(m_i, tl.max(z, axis=1))
            l_i = l_i * tl.exp(m_i - m_new) + tl.sum(tl.exp(z - m_new[:, None]), axis=1)
            m_i = m_new
        out = tl.where(y.to(tl.float32) >= 0.0, m_i + tl.log(l_i) - t_i, 0.0)
        tl.store(nll + rows, out, mask=rmask)


def run(hidden: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor, ys_out: torch.Tensor) -> torch.Tensor:
    P, L1, D = hidden.shape
    V = weight.shape[0]
    R = P * L1
    nll = torch.empty((P, L1), device=hidden.device, dtype=torch.float32)
    BM, BV = 64, 128
    grid = (min(_AI_CORES, triton.cdiv(R, BM)),)
    _decoder_nll_fwd[grid](hidden, weight, bias, ys_out, nll, R, V, D=D, BM=BM, BV=BV)
    return nll

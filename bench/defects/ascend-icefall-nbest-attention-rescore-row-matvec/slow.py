"""n-best attention rescoring: decoder output layer + log-softmax + target gather -> per-token nll."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _decoder_nll_fwd(hidden, weight, bias, ys_out, nll, R, V,
                     D: tl.constexpr, BV: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    d = tl.arange(0, D)
    for r in range(pid, R, nprog):
        x = tl.load(hidden + r * D + d).to(tl.float32)
        y = tl.load(ys_out + r)
        m_i = -float("inf")
        l_i = 0.0
        t_i = 0.0
        for v0 in range(0, V, BV):
            cols = v0 + tl.arange(0, BV)
            cmask = cols < V
            w = tl.load(weight + cols[:, None] * D + d[None, :], mask=cmask[:, None], other=0.0)
            b = tl.load(bias + cols, mask=cmask, other=-float("inf")).to(tl.float32)
            z = tl.sum(w.to(tl.float32) * x[None, :], axis=1) + b
            t_i += tl.sum(tl.where(cols == y, z, 0.0), axis=0)
            m_new = tl.maximum(m_i, tl.max(z, axis=0))
            l_i = l_i * tl.exp(m_i - m_new) + tl.sum(tl.exp(z - m_new), axis=0)
            m_i = m_new
        out = tl.where(y.to(tl.float32) >= 0.0, m_i + tl.log(l_i) - t_i, 0.0)
        tl.store(nll + r, out)


def run(hidden: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor, ys_out: torch.Tensor) -> torch.Tensor:
    P, L1, D = hidden.shape
    V = weight.shape[0]
    R = P * L1
    nll = torch.empty((P, L1), device=hidden.device, dtype=torch.float32)
    BV = 16
    grid = (min(_VECTOR_CORES, R),)
    _decoder_nll_fwd[grid](hidden, weight, bias, ys_out, nll, R, V, D=D, BV=BV)
    return nll

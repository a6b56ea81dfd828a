"""Default times from copula uniforms on BackwardFlat piecewise hazard curves (Lambda(tau) = -log u)."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _default_times(u, knots, lam, tau, C, S, K: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    nsb = tl.cdiv(S, BLOCK)
    for blk in range(pid, C * nsb, nprog):
        name = blk // nsb
        cols = (blk % nsb) * BLOCK + tl.arange(0, BLOCK)
        m = cols < S
        offs = name * S + cols
        e = -tl.log(tl.load(u + offs, mask=m, other=1.0))
        t_lo = tl.zeros([BLOCK], dtype=tl.float32)
        big_lo = tl.zeros([BLOCK], dtype=tl.float32)
        h_sel = tl.full([BLOCK], 1.0, dtype=tl.float32)
        big = 0.0
        t_prev = 0.0
        for k in range(K):
            h = tl.load(lam + name * K + k)
            t_k = tl.load(knots + k)
            hit = e >= big
            t_lo = tl.where(hit, t_prev, t_lo)
            big_lo = tl.where(hit, big, big_lo)
            h_sel = tl.where(hit, h, h_sel)
            big = big + h * (t_k - t_prev)
            t_prev = t_k
        tl.store(tau + offs, t_lo + (e - big_lo) / h_sel, mask=m)


def run(u: torch.Tensor, knots: torch.Tensor, lam: torch.Tensor) -> torch.Tensor:
    C, S = u.shape
    K = knots.numel()
    tau = torch.empty((C, S), device=u.device, dtype=torch.float32)
    BLOCK = 2048
    grid = (min(_VECTOR_CORES, C * triton.cdiv(S, BLOCK)),)
    _default_times[grid](u, knots, lam, tau, C, S, K=K, BLOCK=BLOCK)
    return tau

"""Log-domain Sinkhorn dual update: v[j] = log_b[j] - logsumexp_i(u[i] - M[i, j] / reg)."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _dual_lse_update_cols(cost, pot, log_marg, out, R, C, stride_i, stride_j, inv_reg,
                          BR: tl.constexpr, BC: tl.constexpr):
    # Reduction over the rows i of M for a block of BR columns j: tiles are [BC rows, BR columns],
    # read along the contiguous column axis, and reduced over axis 0.
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    for rb in range(pid, tl.cdiv(R, BR), nprog):
        rows = rb * BR + tl.arange(0, BR)
        rmask = rows < R
        run_max = tl.full([BR], float("-inf"), dtype=tl.float32)
        run_sum = tl.zeros([BR], dtype=tl.float32)
        for c0 in range(0, C, BC):
            cols = c0 + tl.arange(0, BC)
            cmask = cols < C
            k = tl.load(cost + cols[:, None] * stride_i + rows[None, :] * stride_j,
                        mask=cmask[:, None] & rmask[None, :], other=0.0)
            p = tl.load(pot + cols, mask=cmask, other=float("-inf"))
            z = p[:, None] - k * inv_reg
            new_max = tl.maximum(run_max, tl.max(z, axis=0))
            run_sum = run_sum * tl.exp(run_max - new_max) + tl.sum(tl.exp(z - new_max[None, :]), axis=0)
            run_max = new_max
        lm = tl.load(log_marg + rows, mask=rmask, other=0.0)
        tl.store(out + rows, lm - (run_max + tl.log(run_sum)), mask=rmask)


def run(M: torch.Tensor, u: torch.Tensor, log_b: torch.Tensor, reg: float) -> torch.Tensor:
    n, m = M.shape
    v = torch.empty((m,), device=M.device, dtype=torch.float32)
    BR, BC = 64, 128
    grid = (min(_VECTOR_CORES, triton.cdiv(m, BR)),)
    # v-update: reduce over the rows of M with tiles read along M's contiguous column axis.
    _dual_lse_update_cols[grid](M, u, log_b, v, m, n, M.stride(0), M.stride(1), 1.0 / reg, BR=BR, BC=BC)
    return v

"""Log-domain Sinkhorn dual update: out[r] = log_marg[r] - logsumexp_c(pot[c] - K[r, c] / reg)."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _dual_lse_update(cost, pot, log_marg, out, R, C, stride_r, stride_c, inv_reg,
                     BR: tl.constexpr, BC: tl.constexpr):
    # One generic kernel for both Sinkhorn half-steps: rows r of the (possibly transposed) cost view
    # are the potentials being updated, the columns c are reduced over.
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
            k = tl.load(cost + rows[:, None] * stride_r + cols[None, :] * stride_c,
                        mask=rmask[:, None] & cmask[None, :], other=0.0)
            p = tl.load(pot + cols, mask=cmask, other=float("-inf"))
            z = p[None, :] - k * inv_reg
            new_max = tl.maximum(run_max, tl.max(z, axis=1))
            run_sum = run_sum * tl.exp(run_max - new_max) + tl.sum(tl.exp(z - new_max[:, None]), axis=1)
            run_max = new_max
        lm = tl.load(log_marg + rows, mask=rmask, other=0.0)
        tl.store(out + rows, lm - (run_max + tl.log(run_sum)), mask=rmask)


def run(M: torch.Tensor, u: torch.Tensor, log_b: torch.Tensor, reg: float) -> torch.Tensor:
    n, m = M.shape
    v = torch.empty((m,), device=M.device, dtype=torch.float32)
    BR, BC = 64, 128
    grid = (min(_VECTOR_CORES, triton.cdiv(m, BR)),)
    # v-update: reduce over the rows of M, i.e. run the row kernel on the transposed view M^T
    # (rows of the view = columns j of M, stride 1; columns of the view = rows i of M, stride m).
    _dual_lse_update[grid](M, u, log_b, v, m, n, M.stride(1), M.stride(0), 1.0 / reg, BR=BR, BC=BC)
    return v

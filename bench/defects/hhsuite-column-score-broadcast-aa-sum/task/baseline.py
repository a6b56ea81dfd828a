"""HHblits column score matrix: S[i, j] = log2(sum_a q_i(a) t_j(a)) + shift for query x template columns."""
import torch
import triton
import triton.language as tl

N_AA = 20


@triton.jit
def _column_scores(q_ptr, t_ptr, s_ptr, Lq, Nt, shift,
                   N_AA: tl.constexpr, BLOCK_Q: tl.constexpr, BLOCK_T: tl.constexpr, BLOCK_A: tl.constexpr):
    pid_q = tl.program_id(0)
    pid_t = tl.program_id(1)
    rows = pid_q * BLOCK_Q + tl.arange(0, BLOCK_Q)
    cols = pid_t * BLOCK_T + tl.arange(0, BLOCK_T)
    aa = tl.arange(0, BLOCK_A)
    aa_ok = aa < N_AA
    q = tl.load(q_ptr + rows[:, None] * N_AA + aa[None, :],
                mask=(rows[:, None] < Lq) & aa_ok[None, :], other=0.0)
    t = tl.load(t_ptr + cols[:, None] * N_AA + aa[None, :],
                mask=(cols[:, None] < Nt) & aa_ok[None, :], other=0.0)
    # 20-term scalar product of every query column with every template column
    prob = tl.dot(q, tl.trans(t))
    score = tl.log2(prob) + shift
    tl.store(s_ptr + rows[:, None] * Nt + cols[None, :], score,
             mask=(rows[:, None] < Lq) & (cols[None, :] < Nt))


def run(q: torch.Tensor, t: torch.Tensor, shift: float) -> torch.Tensor:
    Lq, Nt = q.shape[0], t.shape[0]
    s = torch.empty((Lq, Nt), device=q.device, dtype=torch.float32)
    BLOCK_Q, BLOCK_T = 32, 32
    grid = (triton.cdiv(Lq, BLOCK_Q), triton.cdiv(Nt, BLOCK_T))
    _column_scores[grid](q, t, s, Lq, Nt, shift, N_AA=N_AA, BLOCK_Q=BLOCK_Q, BLOCK_T=BLOCK_T,
                         BLOCK_A=32, num_warps=4)
    return s

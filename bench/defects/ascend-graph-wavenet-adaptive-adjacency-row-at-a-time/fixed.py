"""Graph WaveNet adaptive adjacency: softmax(relu(nodevec1 @ nodevec2), dim=1) for N sensors."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _adaptive_adj(e1_ptr, e2_ptr, out_ptr, N, stride_o,
                  D: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    m_off = tl.arange(0, BLOCK_M)
    n_off = tl.arange(0, BLOCK_N)
    for rb in range(pid, tl.cdiv(N, BLOCK_M), nprog):
        rows = rb * BLOCK_M + m_off
        rmask = rows < N
        # sweep 1: online row max and exp-sum of relu(E1 E2)
        run_max = tl.zeros([BLOCK_M], dtype=tl.float32)  # scores are >= 0 after relu
        run_sum = tl.zeros([BLOCK_M], dtype=tl.float32)
        for c0 in range(0, N, BLOCK_N):
            cols = c0 + n_off
            cmask = cols < N
            s = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
            for k in tl.static_range(D):
                a = tl.load(e1_ptr + rows * D + k, mask=rmask, other=0.0)
                b = tl.load(e2_ptr + k * N + cols, mask=cmask, other=0.0)
                s += a[:, None] * b[None, :]
            s = tl.maximum(s, 0.0)
            s = tl.where(cmask[None, :], s, -float("inf"))
            new_max = tl.maximum(run_max, tl.max(s, axis=1))
            run_sum = run_sum * tl.exp(run_max - new_max) + tl.sum(tl.exp(s - new_max[:, None]), axis=1)
            run_max = new_max
        inv = 1.0 / run_sum
        # sweep 2: recompute the scores and write the normalised row
        for c0 in range(0, N, BLOCK_N):
            cols = c0 + n_off
            cmask = cols < N
            s = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
            for k in tl.static_range(D):
                a = tl.load(e1_ptr + rows * D + k, mask=rmask, other=0.0)
                b = tl.load(e2_ptr + k * N + cols, mask=cmask, other=0.0)
                s += a[:, None] * b[None, :]
            s = tl.maximum(s, 0.0)
            p = tl.exp(s - run_max[:, None]) * inv[:, None]
            tl.store(out_ptr + rows[:, None] * stride_o + cols[None, :], p,
                     mask=rmask[:, None] & cmask[None, :])


def run(nodevec1: torch.Tensor, nodevec2: torch.Tensor) -> torch.Tensor:
    N, D = nodevec1.shape
    out = torch.empty((N, N), device=nodevec1.device, dtype=torch.float32)
    BLOCK_M, BLOCK_N = 8, 512
    grid = (min(_VECTOR_CORES, triton.cdiv(N, BLOCK_M)),)
    _adaptive_adj[grid](nodevec1, nodevec2, out, N, out.stride(0), D=D, BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N)
    return out

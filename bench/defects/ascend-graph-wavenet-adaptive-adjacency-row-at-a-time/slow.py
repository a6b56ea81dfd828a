"""Graph WaveNet adaptive adjacency: softmax(relu(nodevec1 @ nodevec2), dim=1) for N sensors."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _adaptive_adj(e1_ptr, e2_ptr, out_ptr, N, stride_o,
                  D: tl.constexpr, BLOCK_N: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    n_off = tl.arange(0, BLOCK_N)
    for row in range(pid, N, nprog):
        # sweep 1: online max and exp-sum of relu(E1[row] . E2) over the row
        run_max = 0.0  # scores are >= 0 after relu
        run_sum = 0.0
        for c0 in range(0, N, BLOCK_N):
            cols = c0 + n_off
            cmask = cols < N
            s = tl.zeros([BLOCK_N], dtype=tl.float32)
            for k in tl.static_range(D):
                a = tl.load(e1_ptr + row * D + k)
                b = tl.load(e2_ptr + k * N + cols, mask=cmask, other=0.0)
                s += a * b
            s = tl.maximum(s, 0.0)
            s = tl.where(cmask, s, -float("inf"))
            new_max = tl.maximum(run_max, tl.max(s, axis=0))
            run_sum = run_sum * tl.exp(run_max - new_max) + tl.sum(tl.exp(s - new_max), axis=0)
            run_max = new_max
        inv = 1.0 / run_sum
        # sweep 2: recompute the scores and write the normalised row
        for c0 in range(0, N, BLOCK_N):
            cols = c0 + n_off
            cmask = cols < N
            s = tl.zeros([BLOCK_N], dtype=tl.float32)
            for k in tl.static_range(D):
                a = tl.load(e1_ptr + row * D + k)
                b = tl.load(e2_ptr + k * N + cols, mask=cmask, other=0.0)
                s += a * b
            s = tl.maximum(s, 0.0)
            p = tl.exp(s - run_max) * inv
            tl.store(out_ptr + row * stride_o + cols, p, mask=cmask)


def run(nodevec1: torch.Tensor, nodevec2: torch.Tensor) -> torch.Tensor:
    N, D = nodevec1.shape
    out = torch.empty((N, N), device=nodevec1.device, dtype=torch.float32)
    BLOCK_N = 512
    grid = (min(_VECTOR_CORES, N),)
    _adaptive_adj[grid](nodevec1, nodevec2, out, N, out.stride(0), D=D, BLOCK_N=BLOCK_N)
    return out

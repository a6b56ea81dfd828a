"""Filtered rank of the true tail: count the unfiltered candidates scoring above / equal to the true one."""
import torch
import triton
import triton.language as tl

NUM_VECTOR_CORES = 40


@triton.jit
def _filtered_rank(scores, true, known, rank, B, N, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    for b in range(pid, B, nprog):
        row = scores + b * N
        frow = known + b * N
        s_true = tl.load(row + tl.load(true + b))
        n_gt = tl.zeros([BLOCK], dtype=tl.float32)
        n_eq = tl.zeros([BLOCK], dtype=tl.float32)
        for n0 in range(0, N, BLOCK):
            offs = n0 + tl.arange(0, BLOCK)
            s = tl.load(row + offs, mask=offs < N, other=float("-inf"))
            f = tl.load(frow + offs, mask=offs < N, other=1).to(tl.float32)
            s = tl.where(f == 0.0, s, float("-inf"))
            n_gt += tl.where(s > s_true, 1.0, 0.0)
            n_eq += tl.where(s == s_true, 1.0, 0.0)
        gt = tl.sum(n_gt, axis=0).to(tl.int32)
        eq = tl.sum(n_eq, axis=0).to(tl.int32)
        tl.store(rank + b, 1 + gt + eq // 2)


def run(scores: torch.Tensor, true: torch.Tensor, known: torch.Tensor) -> torch.Tensor:
    B, N = scores.shape
    rank = torch.empty(B, device=scores.device, dtype=torch.int32)
    grid = (min(B, NUM_VECTOR_CORES),)
    _filtered_rank[grid](scores, true, known, rank, B, N, BLOCK=min(4096, triton.next_power_of_2(N)))
    return rank

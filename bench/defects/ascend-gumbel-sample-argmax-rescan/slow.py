"""vLLM random_sample (probs / Exp(1) noise, argmax) for triton-ascend: rows strided over the
vector cores; each row's maximum ratio is found first, then the first column that reaches it."""
import torch
import triton
import triton.language as tl

NUM_VECTOR_CORES = 40


@triton.jit
def _race_ratio(p_row, q_row, offs, V):
    m = offs < V
    p = tl.load(p_row + offs, mask=m, other=-1.0)
    q = tl.load(q_row + offs, mask=m, other=1.0)
    return p / q


@triton.jit
def race_sample_kernel(p_ptr, q_ptr, out_ptr, n_rows, V, BLOCK: tl.constexpr, NUM_CORES: tl.constexpr):
    pid = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    for row in range(pid, n_rows, NUM_CORES):
        p_row = p_ptr + row * V
        q_row = q_ptr + row * V
        best = tl.full([BLOCK], -1.0, tl.float32)
        for start in range(0, V, BLOCK):
            offs = start + cols
            best = tl.maximum(best, _race_ratio(p_row, q_row, offs, V))
        top = tl.max(best, axis=0)
        first = tl.full([BLOCK], V, dtype=tl.int32)
        for start in range(0, V, BLOCK):
            offs = start + cols
            r = _race_ratio(p_row, q_row, offs, V)
            first = tl.minimum(first, tl.where(r == top, offs, V))
        pick = tl.min(first, axis=0)
        tl.store(out_ptr + row, pick.to(tl.int64))


def run(probs: torch.Tensor, q: torch.Tensor) -> torch.Tensor:
    n_rows, V = probs.shape
    out = torch.empty(n_rows, dtype=torch.int64, device=probs.device)
    block = 4096
    grid = (min(NUM_VECTOR_CORES, n_rows),)
    race_sample_kernel[grid](probs, q, out, n_rows, V, BLOCK=block, NUM_CORES=grid[0])
    return out

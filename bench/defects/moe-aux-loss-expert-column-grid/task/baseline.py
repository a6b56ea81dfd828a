"""Mean router probability per expert: per-chunk column sums over many programs, then one small finishing launch."""
import torch
import triton
import triton.language as tl


@triton.jit
def chunk_colsum_kernel(probs_ptr, part_ptr, T, E, CHUNK: tl.constexpr,
                        BLOCK_T: tl.constexpr, BLOCK_E: tl.constexpr):
    chunk = tl.program_id(0)
    cols = tl.arange(0, BLOCK_E)
    col_ok = cols < E
    acc = tl.zeros((BLOCK_T, BLOCK_E), dtype=tl.float32)
    for start in range(chunk * CHUNK, chunk * CHUNK + CHUNK, BLOCK_T):
        rows = start + tl.arange(0, BLOCK_T)
        acc += tl.load(probs_ptr + rows[:, None] * E + cols[None, :],
                       mask=(rows[:, None] < T) & col_ok[None, :], other=0.0)
    tl.store(part_ptr + chunk * E + cols, tl.sum(acc, axis=0), mask=col_ok)


@triton.jit
def finish_mean_kernel(part_ptr, out_ptr, n_chunks, T, E, BLOCK_C: tl.constexpr, BLOCK_E: tl.constexpr):
    cols = tl.program_id(0) * BLOCK_E + tl.arange(0, BLOCK_E)
    col_ok = cols < E
    acc = tl.zeros((BLOCK_C, BLOCK_E), dtype=tl.float32)
    for start in range(0, n_chunks, BLOCK_C):
        rows = start + tl.arange(0, BLOCK_C)
        acc += tl.load(part_ptr + rows[:, None] * E + cols[None, :],
                       mask=(rows[:, None] < n_chunks) & col_ok[None, :], other=0.0)
    tl.store(out_ptr + cols, tl.sum(acc, axis=0) / T, mask=col_ok)


def run(probs: torch.Tensor) -> torch.Tensor:
    T, E = probs.shape
    CHUNK = 1024
    BLOCK_E = triton.next_power_of_2(E)
    n_chunks = triton.cdiv(T, CHUNK)
    part = torch.empty((n_chunks, E), dtype=torch.float32, device=probs.device)
    out = torch.empty(E, dtype=torch.float32, device=probs.device)
    chunk_colsum_kernel[(n_chunks,)](probs, part, T, E, CHUNK=CHUNK, BLOCK_T=32, BLOCK_E=BLOCK_E, num_warps=4)
    finish_mean_kernel[(triton.cdiv(E, 64),)](part, out, n_chunks, T, E, BLOCK_C=32, BLOCK_E=64, num_warps=4)
    return out

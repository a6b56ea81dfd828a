"""Baichuan2 ALiBi causal pse for triton-ascend: vector cores loop over (head, query tile, key tile)
tasks and write [queries, keys] fp16 tiles."""
import torch
import triton
import triton.language as tl

NUM_VECTOR_CORES = 40


@triton.jit
def _alibi_tile(slope, q_pos, k_pos):
    bias = slope * k_pos.to(tl.float32)
    return tl.where(k_pos <= q_pos, bias, float("-inf"))


@triton.jit
def alibi_pse_kernel(slopes_ptr, out_ptr, S, n_qt, n_kt, n_tasks,
                     BLOCK_Q: tl.constexpr, BLOCK_K: tl.constexpr, NUM_CORES: tl.constexpr):
    pid = tl.program_id(0)
    per_head = n_qt * n_kt
    for task in range(pid, n_tasks, NUM_CORES):
        h = task // per_head
        rem = task - h * per_head
        qt = rem // n_kt
        kt = rem - qt * n_kt
        slope = tl.load(slopes_ptr + h)
        q_pos = qt * BLOCK_Q + tl.arange(0, BLOCK_Q)[:, None]
        k_pos = kt * BLOCK_K + tl.arange(0, BLOCK_K)[None, :]
        tile = _alibi_tile(slope, q_pos, k_pos)
        m = (q_pos < S) & (k_pos < S)
        tl.store(out_ptr + h * S * S + q_pos * S + k_pos, tile.to(tl.float16), mask=m)


def run(slopes: torch.Tensor, seq_len: int) -> torch.Tensor:
    H = slopes.numel()
    out = torch.empty((H, seq_len, seq_len), dtype=torch.float16, device=slopes.device)
    block_q, block_k = 64, 256
    n_qt, n_kt = triton.cdiv(seq_len, block_q), triton.cdiv(seq_len, block_k)
    n_tasks = H * n_qt * n_kt
    cores = min(NUM_VECTOR_CORES, n_tasks)
    alibi_pse_kernel[(cores,)](slopes, out, seq_len, n_qt, n_kt, n_tasks,
                               BLOCK_Q=block_q, BLOCK_K=block_k, NUM_CORES=cores)
    return out

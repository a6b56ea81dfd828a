"""Block-wise 128 x 128 absmax int8 weight quantisation (DeepSeek-V3 block-scaling recipe)."""
import torch
import triton
import triton.language as tl

NUM_VECTOR_CORES = 40


@triton.jit
def _block_quant_kernel(w_ptr, q_ptr, s_ptr, N, K, stride_w, stride_q, n_kb, n_blocks,
                        BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    offs = tl.arange(0, BLOCK)
    for blk in range(pid, n_blocks, nprog):
        bn = blk // n_kb
        bk = blk - bn * n_kb
        rows = bn * BLOCK + offs
        cols = bk * BLOCK + offs
        mask = (rows < N)[:, None] & (cols < K)[None, :]
        w = tl.load(w_ptr + rows[:, None] * stride_w + cols[None, :], mask=mask, other=0.0)
        amax = tl.max(tl.max(tl.abs(w), axis=1), axis=0).to(tl.float32)
        scale = tl.maximum(amax, 1e-5) * (1.0 / 127.0)
        q = tl.floor(w.to(tl.float32) / scale + 0.5)
        q = tl.minimum(tl.maximum(q, -127.0), 127.0)
        tl.store(q_ptr + rows[:, None] * stride_q + cols[None, :], q.to(tl.int8), mask=mask)
        tl.store(s_ptr + blk, scale)


def run(w: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    N, K = w.shape
    BLOCK = 128
    n_nb, n_kb = triton.cdiv(N, BLOCK), triton.cdiv(K, BLOCK)
    q = torch.empty((N, K), dtype=torch.int8, device=w.device)
    scale = torch.empty((n_nb, n_kb), dtype=torch.float32, device=w.device)
    n_blocks = n_nb * n_kb
    grid = (min(n_blocks, NUM_VECTOR_CORES),)
    _block_quant_kernel[grid](w, q, scale, N, K, w.stride(0), q.stride(0), n_kb, n_blocks, BLOCK=BLOCK)
    return q, scale

"""Block-wise 128 x 128 absmax int8 weight quantisation (DeepSeek-V3 block-scaling recipe)."""
import torch
import triton
import triton.language as tl


@triton.jit
def _block_quant_kernel(w_ptr, q_ptr, s_ptr, N, K, stride_w, stride_q, stride_s, BLOCK: tl.constexpr):
    bn = tl.program_id(0)
    bk = tl.program_id(1)
    rows = bn * BLOCK + tl.arange(0, BLOCK)
    cols = bk * BLOCK + tl.arange(0, BLOCK)
    mask = (rows < N)[:, None] & (cols < K)[None, :]
    w = tl.load(w_ptr + rows[:, None] * stride_w + cols[None, :], mask=mask, other=0.0)
    amax = tl.max(tl.max(tl.abs(w), axis=1), axis=0).to(tl.float32)
    scale = tl.maximum(amax, 1e-5) * (1.0 / 127.0)
    q = tl.floor(w.to(tl.float32) / scale + 0.5)
    q = tl.minimum(tl.maximum(q, -127.0), 127.0)
    tl.store(q_ptr + rows[:, None] * stride_q + cols[None, :], q.to(tl.int8), mask=mask)
    tl.store(s_ptr + bn * stride_s + bk, scale)


def run(w: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    N, K = w.shape
    BLOCK = 128
    q = torch.empty((N, K), dtype=torch.int8, device=w.device)
    scale = torch.empty((triton.cdiv(N, BLOCK), triton.cdiv(K, BLOCK)), dtype=torch.float32, device=w.device)
    grid = (triton.cdiv(N, BLOCK), triton.cdiv(K, BLOCK))
    _block_quant_kernel[grid](w, q, scale, N, K, w.stride(0), q.stride(0), scale.stride(0), BLOCK=BLOCK)
    return q, scale

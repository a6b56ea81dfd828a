"""Adam-mini q/k step: partial sums of g^2 over a (head, chunk) grid, then a (head, chunk) update grid."""
import torch
import triton
import triton.language as tl

CHUNK = 4096


@triton.jit
def _moment_and_param(p, g, m, lr, beta1, weight_decay, step_scale, denom):
    m = beta1 * m + (1.0 - beta1) * g
    p = p * (1.0 - lr * weight_decay) - step_scale * m / denom
    return p, m


@triton.jit
def _head_sq_partial_kernel(g_ptr, part_ptr, head_numel, n_chunks, CHUNK_SIZE: tl.constexpr, BLOCK: tl.constexpr):
    head = tl.program_id(0)
    chunk = tl.program_id(1)
    base = head.to(tl.int64) * head_numel
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, CHUNK_SIZE, BLOCK):
        offs = chunk * CHUNK_SIZE + start + tl.arange(0, BLOCK)
        mask = offs < head_numel
        g = tl.load(g_ptr + base + offs, mask=mask, other=0.0)
        acc += g * g
    tl.store(part_ptr + head * n_chunks + chunk, tl.sum(acc, axis=0))


@triton.jit
def _adam_mini_update_kernel(p_ptr, g_ptr, m_ptr, v_ptr, part_ptr, p_out_ptr, m_out_ptr, v_out_ptr,
                             head_numel, n_chunks, lr, beta1, beta2, eps, weight_decay, step_scale, inv_bc2_sqrt,
                             CHUNK_SIZE: tl.constexpr, CHUNKS_P2: tl.constexpr, BLOCK: tl.constexpr):
    head = tl.program_id(0)
    chunk = tl.program_id(1)
    c = tl.arange(0, CHUNKS_P2)
    parts = tl.load(part_ptr + head * n_chunks + c, mask=c < n_chunks, other=0.0)
    v = beta2 * tl.load(v_ptr + head) + (1.0 - beta2) * (tl.sum(parts, axis=0) / head_numel)
    if chunk == 0:
        tl.store(v_out_ptr + head, v)
    denom = tl.sqrt(v) * inv_bc2_sqrt + eps
    base = head.to(tl.int64) * head_numel
    for start in range(0, CHUNK_SIZE, BLOCK):
        offs = chunk * CHUNK_SIZE + start + tl.arange(0, BLOCK)
        mask = offs < head_numel
        p = tl.load(p_ptr + base + offs, mask=mask, other=0.0)
        g = tl.load(g_ptr + base + offs, mask=mask, other=0.0)
        m = tl.load(m_ptr + base + offs, mask=mask, other=0.0)
        p, m = _moment_and_param(p, g, m, lr, beta1, weight_decay, step_scale, denom)
        tl.store(p_out_ptr + base + offs, p, mask=mask)
        tl.store(m_out_ptr + base + offs, m, mask=mask)


def run(param, grad, exp_avg, v_mean, n_heads, step, lr, beta1, beta2, eps, weight_decay):
    head_numel = param.numel() // n_heads
    p_out = torch.empty_like(param)
    m_out = torch.empty_like(exp_avg)
    v_out = torch.empty_like(v_mean)
    step_scale = lr / (1.0 - beta1 ** step)
    inv_bc2_sqrt = 1.0 / (1.0 - beta2 ** step) ** 0.5
    BLOCK = min(triton.next_power_of_2(head_numel), 1024)
    chunk_size = min(triton.next_power_of_2(head_numel), CHUNK)
    n_chunks = triton.cdiv(head_numel, chunk_size)
    launch = {"num_warps": 4}
    partials = torch.empty((n_heads, n_chunks), device=param.device, dtype=torch.float32)
    grid = (n_heads, n_chunks)
    _head_sq_partial_kernel[grid](grad, partials, head_numel, n_chunks, CHUNK_SIZE=chunk_size, BLOCK=BLOCK, **launch)
    _adam_mini_update_kernel[grid](param, grad, exp_avg, v_mean, partials, p_out, m_out, v_out,
                                   head_numel, n_chunks, lr, beta1, beta2, eps, weight_decay, step_scale, inv_bc2_sqrt,
                                   CHUNK_SIZE=chunk_size, CHUNKS_P2=triton.next_power_of_2(n_chunks), BLOCK=BLOCK,
                                   **launch)
    return p_out, m_out, v_out

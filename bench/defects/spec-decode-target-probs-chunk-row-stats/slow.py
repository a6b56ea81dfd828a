"""Speculative-decoding target probabilities: temperature expansion, then a (row, vocab chunk) grid
that writes the normalised probabilities."""
import torch
import triton
import triton.language as tl

LOG2E = tl.constexpr(1.4426950408889634)


@triton.jit
def expand_temperature_kernel(temp_ptr, cu_ptr, out_ptr, replace_from, replace_to, BLOCK: tl.constexpr):
    req = tl.program_id(0)
    if req == 0:
        start = 0
    else:
        start = tl.load(cu_ptr + req - 1)
    end = tl.load(cu_ptr + req)
    t = tl.load(temp_ptr + req)
    t = tl.where(t == replace_from, replace_to, t)
    for first in range(start, end, BLOCK):
        offs = first + tl.arange(0, BLOCK)
        tl.store(out_ptr + offs, tl.zeros([BLOCK], tl.float32) + t, mask=offs < end)


@triton.jit
def _load_scaled(row_ptr, offs, n_cols, scale):
    x = tl.load(row_ptr + offs, mask=offs < n_cols, other=float("-inf"))
    return x * scale


@triton.jit
def _row_max_and_sum(row_ptr, n_cols, scale, BLOCK: tl.constexpr):
    m = tl.full([BLOCK], float("-inf"), tl.float32)
    s = tl.zeros([BLOCK], tl.float32)
    for start in range(0, n_cols, BLOCK):
        x = _load_scaled(row_ptr, start + tl.arange(0, BLOCK), n_cols, scale)
        m_new = tl.maximum(m, x)
        live = m_new != float("-inf")
        s = s * tl.where(live, tl.exp2(m - m_new), 0.0) + tl.where(live, tl.exp2(x - m_new), 0.0)
        m = m_new
    row_max = tl.max(m, axis=0)
    row_sum = tl.sum(s * tl.exp2(m - row_max), axis=0)
    return row_max, row_sum


@triton.jit
def target_probs_kernel(logits_ptr, token_temp_ptr, probs_ptr, vocab_size, stride_l, stride_p,
                        BLOCK_V: tl.constexpr):
    row = tl.program_id(0)
    chunk = tl.program_id(1)
    scale = LOG2E / tl.load(token_temp_ptr + row)
    row_ptr = logits_ptr + row * stride_l
    row_max, row_sum = _row_max_and_sum(row_ptr, vocab_size, scale, BLOCK_V)
    offs = chunk * BLOCK_V + tl.arange(0, BLOCK_V)
    x = _load_scaled(row_ptr, offs, vocab_size, scale)
    tl.store(probs_ptr + row * stride_p + offs, tl.exp2(x - row_max) / row_sum, mask=offs < vocab_size)


def run(target_logits: torch.Tensor, temperature: torch.Tensor, cu_num_draft_tokens: torch.Tensor) -> torch.Tensor:
    num_tokens, vocab_size = target_logits.shape
    num_reqs = temperature.shape[0]
    dev = target_logits.device
    token_temp = torch.empty(num_tokens, dtype=torch.float32, device=dev)
    expand_temperature_kernel[(num_reqs,)](temperature, cu_num_draft_tokens, token_temp, -1.0, 1.0, BLOCK=16)

    BLOCK_V = min(4096, triton.next_power_of_2(vocab_size))
    launch = {"num_warps": 8}
    probs = torch.empty((num_tokens, vocab_size), dtype=torch.float32, device=dev)
    grid = (num_tokens, triton.cdiv(vocab_size, BLOCK_V))
    target_probs_kernel[grid](target_logits, token_temp, probs, vocab_size,
                              target_logits.stride(0), probs.stride(0), BLOCK_V=BLOCK_V, **launch)
    return probs

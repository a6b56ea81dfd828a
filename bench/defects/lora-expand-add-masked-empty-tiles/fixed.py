"""Punica-style multi-LoRA expand with add_inputs: grid (m-tile x n-tile, adapter slot) over the
adapter-sorted tokens; each program gathers its slot's token rows and adds x @ B^T to the base output."""
import torch
import triton
import triton.language as tl


@triton.jit
def _gather_token_rows(token_indices_ptr, start, offs_m, m_len):
    m_mask = offs_m < m_len
    tok = tl.load(token_indices_ptr + start + offs_m, mask=m_mask, other=0)
    return tok.to(tl.int64), m_mask


@triton.jit
def _expand_tile(x_ptr, b_ptr, tok, m_mask, offs_n, n_mask, stride_xm, stride_bn, RANK: tl.constexpr):
    offs_r = tl.arange(0, RANK)
    x = tl.load(x_ptr + tok[:, None] * stride_xm + offs_r[None, :], mask=m_mask[:, None], other=0.0)
    b = tl.load(b_ptr + offs_n[None, :] * stride_bn + offs_r[:, None], mask=n_mask[None, :], other=0.0)
    return tl.dot(x.to(b.dtype), b)


@triton.jit
def lora_expand_kernel(
    x_ptr, lora_b_ptr, base_ptr, out_ptr,
    token_indices_ptr, num_tokens_per_lora_ptr, lora_token_start_loc_ptr, lora_ids_ptr,
    N, stride_xm, stride_bl, stride_bn, stride_om,
    RANK: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
):
    pid = tl.program_id(0)
    slot = tl.program_id(1)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    pid_m = pid // num_pid_n
    pid_n = pid % num_pid_n

    lora_id = tl.load(lora_ids_ptr + slot)
    if lora_id == -1:
        return
    m_len = tl.load(num_tokens_per_lora_ptr + slot)
    cta_m_offset = pid_m * BLOCK_M
    if cta_m_offset >= m_len:
        return
    start = tl.load(lora_token_start_loc_ptr + slot)
    tok, m_mask = _gather_token_rows(token_indices_ptr, start, cta_m_offset + tl.arange(0, BLOCK_M), m_len)

    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    n_mask = offs_n < N
    b_ptr = lora_b_ptr + lora_id.to(tl.int64) * stride_bl
    acc = _expand_tile(x_ptr, b_ptr, tok, m_mask, offs_n, n_mask, stride_xm, stride_bn, RANK)

    tile = tok[:, None] * stride_om + offs_n[None, :]
    io_mask = m_mask[:, None] & n_mask[None, :]
    base = tl.load(base_ptr + tile, mask=io_mask, other=0.0)
    tl.store(out_ptr + tile, (acc + base.to(tl.float32)).to(out_ptr.dtype.element_ty), mask=io_mask)


def run(shrink: torch.Tensor, lora_b: torch.Tensor, base: torch.Tensor, token_indices: torch.Tensor,
        num_tokens_per_lora: torch.Tensor, lora_token_start_loc: torch.Tensor,
        active_lora_ids: torch.Tensor) -> torch.Tensor:
    num_tokens, rank = shrink.shape
    max_loras, n_out, _ = lora_b.shape
    out = torch.empty_like(base)
    config = {"BLOCK_M": 64, "BLOCK_N": 128, "num_warps": 4, "num_stages": 2}
    grid = (triton.cdiv(num_tokens, config["BLOCK_M"]) * triton.cdiv(n_out, config["BLOCK_N"]),
            active_lora_ids.shape[0])
    lora_expand_kernel[grid](
        shrink, lora_b, base, out,
        token_indices, num_tokens_per_lora, lora_token_start_loc, active_lora_ids,
        n_out, shrink.stride(0), lora_b.stride(0), lora_b.stride(1), base.stride(0),
        RANK=rank, **config,
    )
    return out

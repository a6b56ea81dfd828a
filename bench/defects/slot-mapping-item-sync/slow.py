"""vLLM slot mapping: a per-request kernel, then the scheduled-token count is read back to size the padding launch."""
import torch
import triton
import triton.language as tl

PAD_SLOT_ID = -1


@triton.jit
def slot_mapping_kernel(pos_ptr, qsl_ptr, bt_ptr, out_ptr, bt_stride, BLOCK_SIZE: tl.constexpr, BLOCK: tl.constexpr):
    r = tl.program_id(0)
    start = tl.load(qsl_ptr + r)
    end = tl.load(qsl_ptr + r + 1)
    for i in range(start, end, BLOCK):
        t = i + tl.arange(0, BLOCK)
        m = t < end
        pos = tl.load(pos_ptr + t, mask=m, other=0)
        block = tl.load(bt_ptr + r * bt_stride + pos // BLOCK_SIZE, mask=m, other=0).to(tl.int64)
        tl.store(out_ptr + t, block * BLOCK_SIZE + pos % BLOCK_SIZE, mask=m)


@triton.jit
def pad_kernel(out_ptr, start, n, PAD: tl.constexpr, BLOCK: tl.constexpr):
    t = start + tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + t, tl.full((BLOCK,), PAD, tl.int64), mask=t < n)


def run(positions, qsl, block_table, block_size) -> torch.Tensor:
    R = block_table.shape[0]
    n_max = positions.shape[0]
    out = torch.empty_like(positions)
    slot_mapping_kernel[(R,)](positions, qsl, block_table, out, block_table.stride(0), BLOCK_SIZE=block_size,
                              BLOCK=256)
    num_tokens = int(qsl[R].item())
    if num_tokens < n_max:
        pad_kernel[(triton.cdiv(n_max - num_tokens, 1024),)](out, num_tokens, n_max, PAD=PAD_SLOT_ID, BLOCK=1024)
    return out

"""vLLM slot mapping: one launch of R + 1 programs; the last reads the scheduled-token count on the device and pads."""
import torch
import triton
import triton.language as tl

PAD_SLOT_ID = -1


@triton.jit
def slot_mapping_kernel(pos_ptr, qsl_ptr, bt_ptr, out_ptr, bt_stride, R, n_max, PAD: tl.constexpr,
                        BLOCK_SIZE: tl.constexpr, BLOCK: tl.constexpr):
    r = tl.program_id(0)
    if r == R:
        for i in range(tl.load(qsl_ptr + R), n_max, BLOCK):
            t = i + tl.arange(0, BLOCK)
            tl.store(out_ptr + t, tl.full((BLOCK,), PAD, tl.int64), mask=t < n_max)
    else:
        start = tl.load(qsl_ptr + r)
        end = tl.load(qsl_ptr + r + 1)
        for i in range(start, end, BLOCK):
            t = i + tl.arange(0, BLOCK)
            m = t < end
            pos = tl.load(pos_ptr + t, mask=m, other=0)
            block = tl.load(bt_ptr + r * bt_stride + pos // BLOCK_SIZE, mask=m, other=0).to(tl.int64)
            tl.store(out_ptr + t, block * BLOCK_SIZE + pos % BLOCK_SIZE, mask=m)


def run(positions, qsl, block_table, block_size) -> torch.Tensor:
    R = block_table.shape[0]
    out = torch.empty_like(positions)
    slot_mapping_kernel[(R + 1,)](positions, qsl, block_table, out, block_table.stride(0), R, positions.shape[0],
                                  PAD=PAD_SLOT_ID, BLOCK_SIZE=block_size, BLOCK=256)
    return out

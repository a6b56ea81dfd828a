# backend: ascend
# absent: ascend-repeated-address-load
import triton
import triton.language as tl


@triton.jit
def apply_bitmask_kernel(logits_ptr, mask_ptr, vocab, BLOCK: tl.constexpr):
    for start in range(tl.program_id(0) * BLOCK, vocab, tl.num_programs(0) * BLOCK):
        w = start // 32 + tl.arange(0, BLOCK // 32)
        words = tl.load(mask_ptr + w)
        bits = tl.reshape((words[:, None] >> tl.arange(0, 32)[None, :]) & 1, (BLOCK,))
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(logits_ptr + cols, mask=cols < vocab, other=0.0)
        tl.store(logits_ptr + cols, tl.where(bits != 0, x, float("-inf")), mask=cols < vocab)


def run(logits, mask):
    apply_bitmask_kernel[(40,)](logits, mask, logits.numel(), BLOCK=4096)
    return logits

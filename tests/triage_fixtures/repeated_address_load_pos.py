# backend: ascend
import triton
import triton.language as tl


@triton.jit
def apply_bitmask_kernel(logits_ptr, mask_ptr, vocab, BLOCK: tl.constexpr):
    for start in range(tl.program_id(0) * BLOCK, vocab, tl.num_programs(0) * BLOCK):
        cols = start + tl.arange(0, BLOCK)
        words = tl.load(mask_ptr + cols // 32, mask=cols < vocab, other=0)  # expect: ascend-repeated-address-load
        keep = ((words >> (cols % 32)) & 1) != 0
        x = tl.load(logits_ptr + cols, mask=cols < vocab, other=0.0)
        tl.store(logits_ptr + cols, tl.where(keep, x, float("-inf")), mask=cols < vocab)


def run(logits, mask):
    apply_bitmask_kernel[(40,)](logits, mask, logits.numel(), BLOCK=4096)
    return logits

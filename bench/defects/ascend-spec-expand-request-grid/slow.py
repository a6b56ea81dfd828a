"""expand_batch_to_tokens on triton-ascend, ported with the GPU launch: one program per request."""
import torch
import triton
import triton.language as tl

MAX_SPEC_LEN = 128   # upper bound on draft tokens per request, as in vLLM's rejection sampler


@triton.jit(do_not_specialize=["replace_from", "replace_to"])
def expand_kernel(out_ptr, x_ptr, cu_ptr, replace_from, replace_to, MAX_NUM_TOKENS: tl.constexpr):
    req = tl.program_id(0)
    if req == 0:
        start = 0
    else:
        start = tl.load(cu_ptr + req - 1)
    end = tl.load(cu_ptr + req)
    val = tl.load(x_ptr + req)
    val = tl.where(val == replace_from, replace_to, val)
    offs = tl.arange(0, MAX_NUM_TOKENS)
    tl.store(out_ptr + start + offs, tl.full([MAX_NUM_TOKENS], val, tl.float32), mask=offs < end - start)


def expand_batch_to_tokens(x, cu_num_tokens, num_tokens, replace_from=0.0, replace_to=0.0):
    batch = x.shape[0]
    out = torch.empty(num_tokens, dtype=x.dtype, device=x.device)
    expand_kernel[(batch,)](out, x, cu_num_tokens, replace_from, replace_to, MAX_NUM_TOKENS=MAX_SPEC_LEN)
    return out


def run(x, cu_num_tokens, num_tokens, replace_from, replace_to):
    return expand_batch_to_tokens(x, cu_num_tokens, num_tokens, replace_from, replace_to)

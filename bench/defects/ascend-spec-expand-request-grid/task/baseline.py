"""expand_batch_to_tokens on triton-ascend: one program per vector core, each walking its share of requests."""
import torch
import triton
import triton.language as tl

MAX_SPEC_LEN = 128   # upper bound on draft tokens per request, as in vLLM's rejection sampler
NUM_VECTOR_CORES = 48  # Atlas A2 (910B) vector cores; get_vectorcore_num() on the device


@triton.jit(do_not_specialize=["replace_from", "replace_to", "batch"])
def expand_kernel(out_ptr, x_ptr, cu_ptr, replace_from, replace_to, batch, MAX_NUM_TOKENS: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    offs = tl.arange(0, MAX_NUM_TOKENS)
    for req in range(pid, batch, nprog):
        if req == 0:
            start = 0
        else:
            start = tl.load(cu_ptr + req - 1)
        end = tl.load(cu_ptr + req)
        val = tl.load(x_ptr + req)
        val = tl.where(val == replace_from, replace_to, val)
        tl.store(out_ptr + start + offs, tl.full([MAX_NUM_TOKENS], val, tl.float32), mask=offs < end - start)


def expand_batch_to_tokens(x, cu_num_tokens, num_tokens, replace_from=0.0, replace_to=0.0):
    batch = x.shape[0]
    out = torch.empty(num_tokens, dtype=x.dtype, device=x.device)
    grid = (min(NUM_VECTOR_CORES, batch),)
    expand_kernel[grid](out, x, cu_num_tokens, replace_from, replace_to, batch, MAX_NUM_TOKENS=MAX_SPEC_LEN)
    return out


def run(x, cu_num_tokens, num_tokens, replace_from, replace_to):
    return expand_batch_to_tokens(x, cu_num_tokens, num_tokens, replace_from, replace_to)

"""(IA)^3 mixed-batch rescaling: out[t, :] = x[t, :] * ia3[ids[t], :] for a batch of tokens from several adapters."""
import torch
import triton
import triton.language as tl

NUM_VECTOR_CORES = 40


@triton.jit
def _ia3_scale(x_ptr, ia3_ptr, ids_ptr, out_ptr, T, C, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    offs = tl.arange(0, BLOCK)
    for tok in range(pid, T, nprog):
        adapter = tl.load(ids_ptr + tok)
        x_row = x_ptr + tok * C
        s_row = ia3_ptr + adapter * C
        o_row = out_ptr + tok * C
        for c0 in range(0, C, BLOCK):
            cols = c0 + offs
            m = cols < C
            x = tl.load(x_row + cols, mask=m, other=0.0).to(tl.float32)
            s = tl.load(s_row + cols, mask=m, other=0.0).to(tl.float32)
            tl.store(o_row + cols, (x * s).to(out_ptr.dtype.element_ty), mask=m)


def run(x: torch.Tensor, ia3: torch.Tensor, ids: torch.Tensor) -> torch.Tensor:
    T, C = x.shape
    out = torch.empty_like(x)
    grid = (min(NUM_VECTOR_CORES, T),)
    _ia3_scale[grid](x, ia3, ids, out, T, C, BLOCK=4096)
    return out

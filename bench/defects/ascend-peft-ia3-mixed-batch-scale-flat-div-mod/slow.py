"""(IA)^3 mixed-batch rescaling: out[t, :] = x[t, :] * ia3[ids[t], :] for a batch of tokens from several adapters."""
import torch
import triton
import triton.language as tl

NUM_VECTOR_CORES = 40


@triton.jit
def _ia3_scale(x_ptr, ia3_ptr, ids_ptr, out_ptr, N, C, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    num_blocks = tl.cdiv(N, BLOCK)
    for blk in range(pid, num_blocks, nprog):
        offs = blk * BLOCK + tl.arange(0, BLOCK)
        m = offs < N
        tok = offs // C
        ch = offs % C
        adapter = tl.load(ids_ptr + tok, mask=m, other=0)
        x = tl.load(x_ptr + offs, mask=m, other=0.0).to(tl.float32)
        s = tl.load(ia3_ptr + adapter * C + ch, mask=m, other=0.0).to(tl.float32)
        tl.store(out_ptr + offs, (x * s).to(out_ptr.dtype.element_ty), mask=m)


def run(x: torch.Tensor, ia3: torch.Tensor, ids: torch.Tensor) -> torch.Tensor:
    T, C = x.shape
    out = torch.empty_like(x)
    N = T * C
    grid = (min(NUM_VECTOR_CORES, triton.cdiv(N, 4096)),)
    _ia3_scale[grid](x, ia3, ids, out, N, C, BLOCK=4096)
    return out

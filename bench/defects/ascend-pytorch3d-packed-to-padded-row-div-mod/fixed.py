"""pytorch3d packed_to_padded: copy each mesh's packed rows into its zero-padded slab."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _packed_to_padded_fwd(inp, first_idxs, out, N, F, max_size, D,
                          BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    for n in range(N):
        start = tl.load(first_idxs + n).to(tl.int32)
        end = tl.load(first_idxs + n + 1, mask=n + 1 < N, other=F).to(tl.int32)
        total = (end - start) * D
        src = inp + start * D
        dst = out + n * max_size * D
        for f0 in range(pid * BLOCK, total, nprog * BLOCK):
            f = f0 + tl.arange(0, BLOCK)
            fmask = f < total
            v = tl.load(src + f, mask=fmask)
            tl.store(dst + f, v, mask=fmask)


def run(inputs: torch.Tensor, first_idxs: torch.Tensor, max_size: int) -> torch.Tensor:
    F, D = inputs.shape
    N = first_idxs.shape[0]
    out = torch.zeros((N, max_size, D), device=inputs.device, dtype=inputs.dtype)
    BLOCK = 8192
    grid = (_VECTOR_CORES,)
    _packed_to_padded_fwd[grid](inputs, first_idxs, out, N, F, max_size, D, BLOCK=BLOCK)
    return out

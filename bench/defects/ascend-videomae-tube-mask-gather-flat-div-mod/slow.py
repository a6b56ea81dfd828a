"""VideoMAE tube masking: copy each clip's visible token rows into x_vis [B, V, C]."""
import torch
import triton
import triton.language as tl


@triton.jit
def _tube_gather_flat(x, ids, out, N, V, C, total, n_blocks, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    for blk in range(pid, n_blocks, nprog):
        e = blk * BLOCK + tl.arange(0, BLOCK)
        m = e < total
        row = e // C
        col = e % C
        b = row // V
        tok = tl.load(ids + row, mask=m, other=0)
        val = tl.load(x + (b * N + tok) * C + col, mask=m, other=0.0)
        tl.store(out + e, val, mask=m)


def run(x: torch.Tensor, ids: torch.Tensor) -> torch.Tensor:
    B, N, C = x.shape
    V = ids.shape[1]
    out = torch.empty((B, V, C), device=x.device, dtype=x.dtype)
    total = B * V * C
    BLOCK = 4096
    n_blocks = triton.cdiv(total, BLOCK)
    _tube_gather_flat[(min(40, n_blocks),)](x, ids, out, N, V, C, total, n_blocks, BLOCK=BLOCK)
    return out

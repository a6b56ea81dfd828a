# backend: cuda
import torch
import triton
import triton.language as tl


@triton.jit
def selected_blocks_kernel(q_ptr, k_ptr, ids_ptr, out_ptr, NUM_BLOCKS, NSEL: tl.constexpr, BLOCK: tl.constexpr,
                           D: tl.constexpr):
    rows = tl.arange(0, 16)
    d = tl.arange(0, D)
    t = tl.arange(0, BLOCK)
    q = tl.load(q_ptr + rows[:, None] * D + d[None, :])
    chosen = tl.load(ids_ptr + tl.arange(0, NSEL))
    best = tl.full([16], float("-inf"), dtype=tl.float32)
    for blk in range(NUM_BLOCKS):
        keep = tl.sum((chosen == blk).to(tl.int32), axis=0) > 0
        k = tl.load(k_ptr + (blk * BLOCK + t)[:, None] * D + d[None, :])
        s = tl.dot(q, tl.trans(k))
        s = tl.where(keep, s, float("-inf"))  # expect: common-gated-iteration
        best = tl.maximum(best, tl.max(s, axis=1))
    tl.store(out_ptr + rows, best)


def run(q, k, ids):
    out = torch.empty(16, device=q.device)
    selected_blocks_kernel[(1,)](q, k, ids, out, k.shape[0] // 64, NSEL=16, BLOCK=64, D=64)
    return out

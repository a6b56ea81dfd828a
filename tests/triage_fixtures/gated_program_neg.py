# backend: cuda
# absent: common-gated-program
import torch
import triton
import triton.language as tl


@triton.jit
def kept_blocks_scores(q_ptr, k_ptr, kept_ptr, out_ptr, n_blk, seq, BLOCK: tl.constexpr, D: tl.constexpr):
    # the grid runs over the kept blocks only: nothing is computed to be dropped
    i = tl.program_id(0)
    head = tl.program_id(1)
    blk = tl.load(kept_ptr + i)
    r = tl.arange(0, BLOCK)
    d = tl.arange(0, D)
    q = tl.load(q_ptr + head * seq * D + ((blk // n_blk) * BLOCK + r)[:, None] * D + d[None, :])
    k = tl.load(k_ptr + head * seq * D + ((blk % n_blk) * BLOCK + r)[:, None] * D + d[None, :])
    tl.store(out_ptr + (head * 4096 + i) * BLOCK * BLOCK + r[:, None] * BLOCK + r[None, :], tl.dot(q, tl.trans(k)))


@triton.jit
def early_exit_scores(q_ptr, k_ptr, slots_ptr, out_ptr, n_blk, seq, BLOCK: tl.constexpr, D: tl.constexpr):
    # the flag is tested before the loads: a dropped program leaves at once
    pid = tl.program_id(0)
    slot = tl.load(slots_ptr + pid)
    if slot >= 0:
        r = tl.arange(0, BLOCK)
        d = tl.arange(0, D)
        q = tl.load(q_ptr + ((pid // n_blk) * BLOCK + r)[:, None] * D + d[None, :])
        k = tl.load(k_ptr + ((pid % n_blk) * BLOCK + r)[:, None] * D + d[None, :])
        tl.store(out_ptr + slot * BLOCK * BLOCK + r[:, None] * BLOCK + r[None, :], tl.dot(q, tl.trans(k)),
                 mask=slot >= 0)


@triton.jit
def row_copy(x_ptr, idx_ptr, out_ptr, N, BLOCK: tl.constexpr):
    # a per-element data mask on a tile (a tile, not one flag for the program)
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    idx = tl.load(idx_ptr + offs)
    tl.store(out_ptr + offs, tl.load(x_ptr + offs), mask=idx >= 0)


def run(q, k, kept, slots, x, idx):
    h, seq, d = q.shape
    n_blk = seq // 64
    out = torch.empty((h, 4096, 64, 64), device=q.device, dtype=torch.float32)
    kept_blocks_scores[(kept.numel(), h)](q, k, kept, out, n_blk, seq, BLOCK=64, D=d)
    early_exit_scores[(n_blk * n_blk,)](q, k, slots, out, n_blk, seq, BLOCK=64, D=d)
    y = torch.empty_like(x)
    row_copy[(triton.cdiv(x.numel(), 1024),)](x, idx, y, x.numel(), BLOCK=1024)
    return out, y

# backend: cuda
import torch
import triton
import triton.language as tl


@triton.jit
def _tile(ptr, base, blk, BLOCK: tl.constexpr, D: tl.constexpr):
    r = tl.arange(0, BLOCK)
    d = tl.arange(0, D)
    return tl.load(ptr + base + (blk * BLOCK + r)[:, None] * D + d[None, :])


@triton.jit
def block_sparse_scores(q_ptr, k_ptr, slots_ptr, out_ptr, n_blk, seq, BLOCK: tl.constexpr, D: tl.constexpr):
    pid = tl.program_id(0)
    head = tl.program_id(1)
    base = head * seq * D
    dst = tl.load(slots_ptr + pid)
    s = tl.dot(_tile(q_ptr, base, pid // n_blk, BLOCK, D), tl.trans(_tile(k_ptr, base, pid % n_blk, BLOCK, D)))
    r = tl.arange(0, BLOCK)
    out = out_ptr + (head * n_blk * n_blk + tl.maximum(dst, 0)) * BLOCK * BLOCK
    keep = dst != -1
    tl.store(out + r[:, None] * BLOCK + r[None, :], s, mask=keep)  # expect: common-gated-program


def run(q, k, slots):
    h, seq, d = q.shape
    n_blk = seq // 64
    out = torch.empty((h, n_blk * n_blk, 64, 64), device=q.device, dtype=torch.float32)
    block_sparse_scores[(n_blk * n_blk, h)](q, k, slots, out, n_blk, seq, BLOCK=64, D=d)
    return out

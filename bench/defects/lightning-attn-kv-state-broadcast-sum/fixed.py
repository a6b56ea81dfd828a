"""Lightning attention block KV state: one program per (head, block), K^T diag(decay) V with tl.dot."""
import torch
import triton
import triton.language as tl


@triton.jit
def block_kv_kernel(k_ptr, v_ptr, slope_ptr, kv_ptr, N, NB,
                    BLOCK: tl.constexpr, D: tl.constexpr, E: tl.constexpr):
    bh = tl.program_id(0)
    blk = tl.program_id(1)
    slope = tl.load(slope_ptr + bh)
    t = tl.arange(0, BLOCK)
    d = tl.arange(0, D)
    e = tl.arange(0, E)
    base = bh.to(tl.int64) * N + blk * BLOCK
    k = tl.load(k_ptr + (base + t)[:, None] * D + d[None, :])
    v = tl.load(v_ptr + (base + t)[:, None] * E + e[None, :])
    decay = tl.exp(-slope * (BLOCK - 1 - t).to(tl.float32))
    kd = (k.to(tl.float32) * decay[:, None]).to(v.dtype)
    kv = tl.dot(tl.trans(kd), v)
    out = kv_ptr + (bh.to(tl.int64) * NB + blk) * D * E
    tl.store(out + d[:, None] * E + e[None, :], kv)


def run(k: torch.Tensor, v: torch.Tensor, slopes: torch.Tensor, block: int) -> torch.Tensor:
    bh, n, d = k.shape
    e = v.shape[-1]
    nb = n // block
    kv = torch.empty((bh, nb, d, e), device=k.device, dtype=torch.float32)
    block_kv_kernel[(bh, nb)](k, v, slopes, kv, n, nb, BLOCK=block, D=d, E=e, num_warps=8)
    return kv

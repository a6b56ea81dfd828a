"""Lightning attention block KV state: one program per (head, block), decayed outer products summed in 8-token slices."""
import torch
import triton
import triton.language as tl


@triton.jit
def block_kv_kernel(k_ptr, v_ptr, slope_ptr, kv_ptr, N, NB,
                    BLOCK: tl.constexpr, D: tl.constexpr, E: tl.constexpr, SUB: tl.constexpr):
    bh = tl.program_id(0)
    blk = tl.program_id(1)
    slope = tl.load(slope_ptr + bh)
    d = tl.arange(0, D)
    e = tl.arange(0, E)
    s = tl.arange(0, SUB)
    base = bh.to(tl.int64) * N + blk * BLOCK
    kv = tl.zeros((D, E), dtype=tl.float32)
    for start in range(0, BLOCK, SUB):
        t = start + s
        k = tl.load(k_ptr + (base + t)[:, None] * D + d[None, :]).to(tl.float32)
        v = tl.load(v_ptr + (base + t)[:, None] * E + e[None, :]).to(tl.float32)
        decay = tl.exp(-slope * (BLOCK - 1 - t).to(tl.float32))
        kd = k * decay[:, None]
        # kv += kd^T @ v for this slice: [SUB, D, 1] * [SUB, 1, E] summed over the tokens
        kv += tl.sum(kd[:, :, None] * v[:, None, :], axis=0)
    out = kv_ptr + (bh.to(tl.int64) * NB + blk) * D * E
    tl.store(out + d[:, None] * E + e[None, :], kv)


def run(k: torch.Tensor, v: torch.Tensor, slopes: torch.Tensor, block: int) -> torch.Tensor:
    bh, n, d = k.shape
    e = v.shape[-1]
    nb = n // block
    kv = torch.empty((bh, nb, d, e), device=k.device, dtype=torch.float32)
    block_kv_kernel[(bh, nb)](k, v, slopes, kv, n, nb, BLOCK=block, D=d, E=e, SUB=8, num_warps=8)
    return kv

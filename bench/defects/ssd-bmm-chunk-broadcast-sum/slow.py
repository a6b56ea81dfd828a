"""Mamba-2 SSD chunked C B^T on a 3-D grid; each dstate step is a broadcast multiply reduced with tl.sum."""
import torch
import triton
import triton.language as tl


@triton.jit
def bmm_chunk_kernel(c_ptr, b_ptr, out_ptr, L, G, CS, stride_l, stride_g,
                     N: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    tiles_n = tl.cdiv(CS, BLOCK_N)
    pid_m = tl.program_id(0) // tiles_n
    pid_n = tl.program_id(0) % tiles_n
    chunk = tl.program_id(1)
    bg = tl.program_id(2)
    batch = bg // G
    grp = bg % G
    base = batch.to(tl.int64) * L * stride_l + grp * stride_g + chunk.to(tl.int64) * CS * stride_l
    valid = tl.minimum(CS, L - chunk * CS)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in tl.static_range(0, N, BLOCK_K):
        c = tl.load(c_ptr + base + rm[:, None] * stride_l + (k + rk)[None, :], mask=rm[:, None] < valid, other=0.0)
        b = tl.load(b_ptr + base + rn[None, :] * stride_l + (k + rk)[:, None], mask=rn[None, :] < valid, other=0.0)
        acc += tl.sum(c.to(tl.float32)[:, :, None] * b.to(tl.float32)[None, :, :], axis=1)
    out = out_ptr + ((batch.to(tl.int64) * tl.num_programs(1) + chunk) * G + grp) * CS * CS
    tl.store(out + rm[:, None] * CS + rn[None, :], acc, mask=(rm[:, None] < CS) & (rn[None, :] < CS))


def run(C: torch.Tensor, B: torch.Tensor, chunk_size: int) -> torch.Tensor:
    batch, L, G, N = C.shape
    nchunks = triton.cdiv(L, chunk_size)
    out = torch.empty((batch, nchunks, G, chunk_size, chunk_size), dtype=torch.float32, device=C.device)
    bm = bn = 32
    grid = (triton.cdiv(chunk_size, bm) * triton.cdiv(chunk_size, bn), nchunks, batch * G)
    bmm_chunk_kernel[grid](C, B, out, L, G, chunk_size, C.stride(1), C.stride(2), N=N, BLOCK_M=bm, BLOCK_N=bn,
                           BLOCK_K=8)
    return out

"""GMRES classical Gram-Schmidt: h[j] = <v_j, w> for the first k Krylov basis vectors (VecMDot)."""
import torch
import triton
import triton.language as tl

BLOCK = 1024
NUM_WARPS = 4
CHUNK = 8 * BLOCK


@triton.jit
def _masked_product(v_row, w_ptr, offs, n):
    m = offs < n
    return tl.load(v_row + offs, mask=m, other=0.0) * tl.load(w_ptr + offs, mask=m, other=0.0)


@triton.jit
def cgs_mdot_partial_kernel(v_ptr, w_ptr, part_ptr, n, stride_v, num_chunks,
                            CHUNK: tl.constexpr, BLOCK: tl.constexpr):
    j = tl.program_id(0)
    c = tl.program_id(1)
    v_row = v_ptr + j * stride_v
    acc = tl.zeros([BLOCK], dtype=tl.float64)
    for start in range(c * CHUNK, c * CHUNK + CHUNK, BLOCK):
        acc += _masked_product(v_row, w_ptr, start + tl.arange(0, BLOCK), n)
    tl.store(part_ptr + j * num_chunks + c, tl.sum(acc, axis=0))


@triton.jit
def cgs_mdot_finish_kernel(part_ptr, h_ptr, num_chunks, BLOCK_C: tl.constexpr):
    j = tl.program_id(0)
    offs = tl.arange(0, BLOCK_C)
    p = tl.load(part_ptr + j * num_chunks + offs, mask=offs < num_chunks, other=0.0)
    tl.store(h_ptr + j, tl.sum(p, axis=0))


def run(v: torch.Tensor, w: torch.Tensor, k: int) -> torch.Tensor:
    n = w.shape[0]
    num_chunks = triton.cdiv(n, CHUNK)
    partials = torch.empty((k, num_chunks), device=w.device, dtype=w.dtype)
    h = torch.empty(k, device=w.device, dtype=w.dtype)
    cgs_mdot_partial_kernel[(k, num_chunks)](v, w, partials, n, v.stride(0), num_chunks,
                                             CHUNK=CHUNK, BLOCK=BLOCK, num_warps=NUM_WARPS)
    cgs_mdot_finish_kernel[(k,)](partials, h, num_chunks, BLOCK_C=triton.next_power_of_2(num_chunks))
    return h

"""CSR SpMM: one program per sparse row, gathering [BLOCK_E, F] tiles of X along its contiguous feature axis."""
import torch
import triton
import triton.language as tl


@triton.jit
def _row_bounds(indptr_ptr, row):
    start = tl.load(indptr_ptr + row)
    end = tl.load(indptr_ptr + row + 1)
    return start, end


@triton.jit
def csr_spmm_kernel(indptr_ptr, indices_ptr, values_ptr, x_ptr, out_ptr, F, stride_x, stride_out,
                    BLOCK_E: tl.constexpr, BLOCK_F: tl.constexpr):
    row = tl.program_id(0)
    start, end = _row_bounds(indptr_ptr, row)
    f = tl.arange(0, BLOCK_F)
    fm = f < F
    acc = tl.zeros((BLOCK_F,), dtype=tl.float32)
    for e0 in range(start, end, BLOCK_E):
        e = e0 + tl.arange(0, BLOCK_E)
        em = e < end
        col = tl.load(indices_ptr + e, mask=em, other=0)
        val = tl.load(values_ptr + e, mask=em, other=0.0)
        xt = tl.load(x_ptr + col[:, None] * stride_x + f[None, :], mask=em[:, None] & fm[None, :], other=0.0)
        acc += tl.sum(val[:, None] * xt, axis=0)
    tl.store(out_ptr + row * stride_out + f, acc, mask=fm)


def run(indptr: torch.Tensor, indices: torch.Tensor, values: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
    M = indptr.numel() - 1
    F = x.shape[1]
    out = torch.empty((M, F), device=x.device, dtype=x.dtype)
    meta = {"BLOCK_E": 32, "BLOCK_F": triton.next_power_of_2(F), "num_warps": 4}
    csr_spmm_kernel[(M,)](indptr, indices, values, x, out, F, x.stride(0), out.stride(0), **meta)
    return out

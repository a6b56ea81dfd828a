"""SiluAndMul on triton-ascend mirroring forward_native's x.float() ... .to(dtype): cast kernels around an fp32 kernel."""
import torch
import triton
import triton.language as tl

NUM_VECTOR_CORES = 48  # Atlas A2 (910B)


@triton.jit
def cast_kernel(src_ptr, dst_ptr, n, BLOCK: tl.constexpr):
    for start in range(tl.program_id(0) * BLOCK, n, tl.num_programs(0) * BLOCK):
        offs = start + tl.arange(0, BLOCK)
        m = offs < n
        tl.store(dst_ptr + offs, tl.load(src_ptr + offs, mask=m).to(dst_ptr.dtype.element_ty), mask=m)


@triton.jit
def silu_and_mul_kernel(x_ptr, out_ptr, T, INTER, BLOCK: tl.constexpr):
    for row in range(tl.program_id(0), T, tl.num_programs(0)):
        for c in range(0, INTER, BLOCK):
            cols = c + tl.arange(0, BLOCK)
            m = cols < INTER
            gate = tl.load(x_ptr + row * 2 * INTER + cols, mask=m, other=0.0)
            up = tl.load(x_ptr + row * 2 * INTER + INTER + cols, mask=m, other=0.0)
            tl.store(out_ptr + row * INTER + cols, gate * tl.sigmoid(gate) * up, mask=m)


def _cast(x: torch.Tensor, dtype: torch.dtype) -> torch.Tensor:
    out = torch.empty(x.shape, dtype=dtype, device=x.device)
    cast_kernel[(NUM_VECTOR_CORES,)](x, out, x.numel(), BLOCK=8192)
    return out


def run(x: torch.Tensor) -> torch.Tensor:
    T, two_i = x.shape
    i = two_i // 2
    x32 = _cast(x, torch.float32)
    out32 = torch.empty((T, i), dtype=torch.float32, device=x.device)
    silu_and_mul_kernel[(min(NUM_VECTOR_CORES, T),)](x32, out32, T, i, BLOCK=4096)
    return _cast(out32, x.dtype)

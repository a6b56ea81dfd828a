"""SwitchBack global int8 quantize + transpose: row-major tiles of w, transposed on chip."""
import torch
import triton
import triton.language as tl


@triton.jit
def _quantize(x, inv_scale):
    v = x.to(tl.float32) * inv_scale
    return tl.where(v >= 0, tl.floor(v + 0.5), tl.ceil(v - 0.5)).to(tl.int8)


@triton.jit
def quantize_global_transpose_kernel(w_ptr, absmax_ptr, out_ptr, N, K, stride_wn, stride_on,
                                     BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_n = tl.program_id(0)
    pid_k = tl.program_id(1)
    inv_scale = 127.0 / tl.load(absmax_ptr)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = pid_k * BLOCK_K + tl.arange(0, BLOCK_K)
    mask = (rn[:, None] < N) & (rk[None, :] < K)
    w = tl.load(w_ptr + rn[:, None] * stride_wn + rk[None, :], mask=mask, other=0.0)
    q = tl.trans(_quantize(w, inv_scale))
    tl.store(out_ptr + rk[:, None] * stride_on + rn[None, :], q, mask=tl.trans(mask))


def run(w: torch.Tensor, absmax: torch.Tensor) -> torch.Tensor:
    N, K = w.shape
    out = torch.empty((K, N), device=w.device, dtype=torch.int8)
    BLOCK_N, BLOCK_K = 64, 64
    grid = (triton.cdiv(N, BLOCK_N), triton.cdiv(K, BLOCK_K))
    quantize_global_transpose_kernel[grid](w, absmax, out, N, K, w.stride(0), out.stride(0),
                                           BLOCK_N=BLOCK_N, BLOCK_K=BLOCK_K, num_warps=4)
    return out

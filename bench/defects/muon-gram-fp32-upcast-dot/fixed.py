"""Muon Newton-Schulz step A = X @ X^T as a batched Triton GEMM (X read twice, once as the
transposed right operand), bf16 tiles into tl.dot with an fp32 accumulator."""
import torch
import triton
import triton.language as tl


@triton.autotune(
    configs=[
        triton.Config({"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 64}, num_stages=3, num_warps=8),
    ],
    key=["M", "K"],
)
@triton.jit
def ns_gram_kernel(x_ptr, a_ptr, M, K, stride_xb, stride_xm, stride_ab, stride_am,
                   BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    b = tl.program_id(2)
    x_ptr += b * stride_xb
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        kk = k0 + rk
        lhs = tl.load(x_ptr + rm[:, None] * stride_xm + kk[None, :],
                      mask=(rm[:, None] < M) & (kk[None, :] < K), other=0.0)
        rhs = tl.load(x_ptr + rn[None, :] * stride_xm + kk[:, None],
                      mask=(rn[None, :] < M) & (kk[:, None] < K), other=0.0)
        acc += tl.dot(lhs, rhs)
    out = a_ptr + b * stride_ab + rm[:, None] * stride_am + rn[None, :]
    tl.store(out, acc.to(a_ptr.dtype.element_ty), mask=(rm[:, None] < M) & (rn[None, :] < M))


def run(X: torch.Tensor) -> torch.Tensor:
    X = X.contiguous()
    B, M, K = X.shape
    A = torch.empty(B, M, M, dtype=X.dtype, device=X.device)
    grid = lambda meta: (triton.cdiv(M, meta["BLOCK_M"]), triton.cdiv(M, meta["BLOCK_N"]), B)
    ns_gram_kernel[grid](X, A, M, K, X.stride(0), X.stride(1), A.stride(0), A.stride(1))
    return A

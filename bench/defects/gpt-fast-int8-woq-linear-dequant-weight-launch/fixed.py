"""gpt-fast WeightOnlyInt8Linear: y = (x @ weight.T) * scales with int8 weights and bf16 activations."""
import torch
import triton
import triton.language as tl

BLOCK_M = 16
BLOCK_N = 32
BLOCK_K = 128


@triton.jit
def _linear_scaled(x_ptr, w_ptr, s_ptr, y_ptr, M, N, K,
                   BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid = tl.program_id(0)
    rm = tl.arange(0, BLOCK_M)
    rn = pid * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    m_ok = rm < M
    n_ok = rn < N
    acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        kk = k0 + rk
        k_ok = kk < K
        a = tl.load(x_ptr + rm[:, None] * K + kk[None, :], mask=m_ok[:, None] & k_ok[None, :], other=0.0)
        w = tl.load(w_ptr + rn[:, None] * K + kk[None, :], mask=n_ok[:, None] & k_ok[None, :], other=0)
        acc = tl.dot(a, tl.trans(w.to(tl.float32).to(x_ptr.dtype.element_ty)), acc)
    scale = tl.load(s_ptr + rn, mask=n_ok, other=0.0).to(tl.float32)
    y = acc * scale[None, :]
    tl.store(y_ptr + rm[:, None] * N + rn[None, :], y.to(y_ptr.dtype.element_ty),
             mask=m_ok[:, None] & n_ok[None, :])


def run(x: torch.Tensor, w_int8: torch.Tensor, scales: torch.Tensor) -> torch.Tensor:
    M, K = x.shape
    N = w_int8.shape[0]
    # the int8 weight goes straight into the kernel, which converts each tile to x.dtype in registers
    y = torch.empty(M, N, device=x.device, dtype=x.dtype)
    _linear_scaled[(triton.cdiv(N, BLOCK_N),)](x, w_int8, scales, y, M, N, K,
                                               BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, BLOCK_K=BLOCK_K,
                                               num_warps=4, num_stages=4)
    return y

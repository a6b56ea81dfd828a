"""instant-NGP rgb MLP: a dense-layer kernel applied per layer (32->64 ReLU, 64->64 ReLU, 64->3 sigmoid)."""
import torch
import triton
import triton.language as tl


@triton.jit
def _weight_tile(w_ptr, K, N, BLOCK_K: tl.constexpr, BLOCK_N: tl.constexpr):
    k = tl.arange(0, BLOCK_K)
    n = tl.arange(0, BLOCK_N)
    return tl.load(w_ptr + k[:, None] * N + n[None, :], mask=(k[:, None] < K) & (n[None, :] < N), other=0.0)


@triton.jit
def _activation(x, ACT: tl.constexpr):
    if ACT == 1:
        x = tl.maximum(x, 0.0)
    elif ACT == 2:
        x = tl.sigmoid(x)
    return x


@triton.jit
def dense_layer_kernel(x_ptr, w_ptr, y_ptr, M, K, N, ACT: tl.constexpr,
                       BLOCK_M: tl.constexpr, BLOCK_K: tl.constexpr, BLOCK_N: tl.constexpr):
    pid = tl.program_id(0)
    rows = pid * BLOCK_M + tl.arange(0, BLOCK_M)
    rm = rows < M
    k = tl.arange(0, BLOCK_K)
    x = tl.load(x_ptr + rows[:, None] * K + k[None, :], mask=rm[:, None] & (k[None, :] < K), other=0.0)
    y = _activation(tl.dot(x, _weight_tile(w_ptr, K, N, BLOCK_K, BLOCK_N)), ACT)
    n = tl.arange(0, BLOCK_N)
    tl.store(y_ptr + rows[:, None] * N + n[None, :], y.to(y_ptr.dtype.element_ty),
             mask=rm[:, None] & (n[None, :] < N))


def _dense(x, w, out, act):
    M, K = x.shape
    N = w.shape[1]
    BLOCK_M = 128
    dims = {"BLOCK_K": triton.next_power_of_2(K), "BLOCK_N": max(16, triton.next_power_of_2(N))}
    dense_layer_kernel[(triton.cdiv(M, BLOCK_M),)](x, w, out, M, K, N, act, BLOCK_M=BLOCK_M, num_warps=4, **dims)
    return out


def run(x, w1, w2, w3):
    M = x.shape[0]
    h1 = torch.empty((M, w1.shape[1]), device=x.device, dtype=x.dtype)
    h2 = torch.empty((M, w2.shape[1]), device=x.device, dtype=x.dtype)
    out = torch.empty((M, w3.shape[1]), device=x.device, dtype=torch.float32)
    _dense(x, w1, h1, 1)
    _dense(h1, w2, h2, 1)
    _dense(h2, w3, out, 2)
    return out

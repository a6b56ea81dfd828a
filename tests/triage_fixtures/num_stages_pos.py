# backend: cuda
import torch
import triton
import triton.language as tl


@triton.jit
def kloop(a_ptr, b_ptr, c_ptr, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :])
        b = tl.load(b_ptr + (k + rk)[:, None] * BN + rn[None, :])
        acc += tl.dot(a, b)
    tl.store(c_ptr + rm[:, None] * BN + rn[None, :], acc)


def run(a, b):
    c = torch.empty(64, 64)
    kloop[(1,)](a, b, c, a.shape[1], BM=64, BN=64, BK=32, num_stages=1)  # expect: cuda-kloop-unpipelined
    return c

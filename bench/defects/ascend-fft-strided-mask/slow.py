"""FFT pad/window/pack with stride-2 even/odd loads and stores, each masked on a strided index."""
import torch
import triton
import triton.language as tl


def fft_size(n: int) -> int:
    """Smallest even 2^a 3^b 5^c that is >= n (host-side shape logic)."""
    m = max(n, 2)
    while True:
        if m % 2 == 0:
            r = m
            for p in (2, 3, 5):
                while r % p == 0:
                    r //= p
            if r == 1:
                return m
        m += 1


@triton.jit
def pad_window_pack_kernel(x_ptr, w_ptr, out_ptr, N, HALF, stride_x, BLOCK: tl.constexpr):
    sig = tl.program_id(0)
    j = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    even = 2 * j
    odd = even + 1
    xe = tl.load(x_ptr + sig * stride_x + even, mask=even < N, other=0.0)
    xo = tl.load(x_ptr + sig * stride_x + odd, mask=odd < N, other=0.0)
    we = tl.load(w_ptr + even, mask=even < N, other=0.0)
    wo = tl.load(w_ptr + odd, mask=odd < N, other=0.0)
    base = out_ptr + sig * 2 * HALF + 2 * j
    tl.store(base, xe * we, mask=j < HALF)
    tl.store(base + 1, xo * wo, mask=j < HALF)


def run(x: torch.Tensor, window: torch.Tensor) -> torch.Tensor:
    B, N = x.shape
    half = fft_size(N) // 2
    out = torch.empty((B, half, 2), dtype=x.dtype, device=x.device)
    pad_window_pack_kernel[(B, triton.cdiv(half, 1024))](x, window, out, N, half, x.stride(0),
                                                         BLOCK=1024)
    return out

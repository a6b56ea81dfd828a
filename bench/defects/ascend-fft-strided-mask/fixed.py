"""FFT pad/window/pack as one contiguous flat pass: packed (re, im) pairs are the padded signal in order."""
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
    # (re, im) pairs are (even, odd) samples in order, so the packed output is the windowed,
    # zero-padded signal itself: one contiguous load, multiply and store per element.
    sig = tl.program_id(0)
    i = tl.program_id(1) * (2 * BLOCK) + tl.arange(0, 2 * BLOCK)
    inside = i < N
    x = tl.load(x_ptr + sig * stride_x + i, mask=inside, other=0.0)
    w = tl.load(w_ptr + i, mask=inside, other=0.0)
    tl.store(out_ptr + sig * 2 * HALF + i, x * w, mask=i < 2 * HALF)


def run(x: torch.Tensor, window: torch.Tensor) -> torch.Tensor:
    B, N = x.shape
    half = fft_size(N) // 2
    out = torch.empty((B, half, 2), dtype=x.dtype, device=x.device)
    pad_window_pack_kernel[(B, triton.cdiv(half, 1024))](x, window, out, N, half, x.stride(0),
                                                         BLOCK=1024)
    return out

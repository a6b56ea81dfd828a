"""3-D separable Gaussian smoothing (MONAI GaussianSmooth): one 1-D pass per spatial axis."""
import torch
import triton
import triton.language as tl


@triton.jit
def _smooth_line(src, dst, taps, L, inner, K: tl.constexpr, BLOCK: tl.constexpr):
    line = tl.program_id(0)
    outer = line // inner
    base = outer * L * inner + (line - outer * inner)
    pos = tl.arange(0, BLOCK)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for k in range(K):
        w = tl.load(taps + k)
        q = pos + (k - K // 2)
        v = tl.load(src + base + q * inner, mask=(q >= 0) & (q < L), other=0.0)
        acc += w * v
    tl.store(dst + base + pos * inner, acc, mask=pos < L)


def _smooth_axis(src, dst, taps, L, inner):
    lines = src.numel() // L
    _smooth_line[(lines,)](src, dst, taps, L, inner, K=taps.numel(),
                           BLOCK=triton.next_power_of_2(L), num_warps=4)


def run(vol: torch.Tensor, taps: torch.Tensor) -> torch.Tensor:
    C, H, W, D = vol.shape
    a = torch.empty_like(vol)
    b = torch.empty_like(vol)
    _smooth_axis(vol, a, taps, H, W * D)
    _smooth_axis(a, b, taps, W, D)
    _smooth_axis(b, a, taps, D, 1)
    return a

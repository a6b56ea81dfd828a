# backend: cuda
import torch
import triton
import triton.language as tl


@triton.jit
def shifted_log_softmax(x_ptr, shift_ptr, out_ptr, N, stride, BLOCK: tl.constexpr):
    # the whole row in one tile, a row-free load after the reduction, and the tile sized by an
    # attribute the launcher's class set from a helper's tuple
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * stride + cols, mask=cols < N, other=float("-inf"))
    m = tl.max(x, axis=0)  # expect: cuda-whole-row-lse
    lse = m + tl.log(tl.sum(tl.exp(x - m), axis=0))
    shift = tl.load(shift_ptr + row)
    tl.store(out_ptr + row * stride + cols, x - lse + shift, mask=cols < N)


def _config(n):
    return triton.next_power_of_2(n), 16


class Scorer:
    def __init__(self, n):
        self.block, self.warps = _config(n)

    def __call__(self, x, shift):
        out = torch.empty_like(x)
        shifted_log_softmax[(x.shape[0],)](x, shift, out, x.shape[1], x.stride(0), BLOCK=self.block,
                                           num_warps=self.warps)
        return out


def run(x, shift):
    return Scorer(x.shape[1])(x, shift)

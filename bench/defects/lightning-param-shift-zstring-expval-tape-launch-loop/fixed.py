"""<Z-string> per tape for a batch of parameter-shifted state vectors, one program per tape."""
import torch
import triton
import triton.language as tl


@triton.jit
def _parity(x):
    x = x ^ (x >> 16)
    x = x ^ (x >> 8)
    x = x ^ (x >> 4)
    x = x ^ (x >> 2)
    x = x ^ (x >> 1)
    return x & 1


@triton.jit
def _zstring_expval(re_ptr, im_ptr, out_ptr, zmask, D, stride_t, BLOCK: tl.constexpr):
    tape = tl.program_id(0)
    re_row = re_ptr + tape * stride_t
    im_row = im_ptr + tape * stride_t
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, D, BLOCK):
        idx = start + tl.arange(0, BLOCK)
        in_state = idx < D
        a = tl.load(re_row + idx, mask=in_state, other=0.0)
        b = tl.load(im_row + idx, mask=in_state, other=0.0)
        p = a * a + b * b
        odd = _parity(idx & zmask)
        acc += tl.where(odd == 1, -p, p)
    tl.store(out_ptr + tape, tl.sum(acc, axis=0))


def run(re: torch.Tensor, im: torch.Tensor, zmask: int) -> torch.Tensor:
    T, D = re.shape
    out = torch.empty(T, device=re.device, dtype=torch.float32)
    BLOCK = min(2048, triton.next_power_of_2(D))
    _zstring_expval[(T,)](re, im, out, zmask, D, re.stride(0), BLOCK=BLOCK, num_warps=4)
    return out

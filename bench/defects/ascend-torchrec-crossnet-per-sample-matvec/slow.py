"""DCN-v2 cross layer (TorchRec CrossNet): x0 * (W @ xl + b) + xl."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


def _block(D: int, cap: int) -> int:
    """Largest power of two <= cap that divides D."""
    b = cap
    while D % b:
        b //= 2
    return b


@triton.jit
def _cross_layer_fwd(x0_ptr, xl_ptr, w_ptr, b_ptr, out_ptr, B,
                     D: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    for row in range(pid, B, nprog):
        for n0 in range(0, D, BN):
            cols = n0 + tl.arange(0, BN)
            acc = tl.zeros([BN], dtype=tl.float32)
            for k0 in range(0, D, BK):
                ks = k0 + tl.arange(0, BK)
                x = tl.load(xl_ptr + row * D + ks).to(tl.float32)
                w = tl.load(w_ptr + cols[:, None] * D + ks[None, :]).to(tl.float32)
                acc += tl.sum(w * x[None, :], axis=1)
            bias = tl.load(b_ptr + cols).to(tl.float32)
            x0 = tl.load(x0_ptr + row * D + cols).to(tl.float32)
            xc = tl.load(xl_ptr + row * D + cols).to(tl.float32)
            y = x0 * (acc + bias) + xc
            tl.store(out_ptr + row * D + cols, y.to(out_ptr.dtype.element_ty))


def run(x0: torch.Tensor, xl: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    B, D = x0.shape
    out = torch.empty_like(x0)
    BN, BK = _block(D, 64), _block(D, 128)
    grid = (min(_VECTOR_CORES, B),)
    _cross_layer_fwd[grid](x0, xl, weight, bias, out, B, D=D, BN=BN, BK=BK)
    return out

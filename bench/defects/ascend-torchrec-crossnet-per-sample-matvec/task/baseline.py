"""DCN-v2 cross layer (TorchRec CrossNet): x0 * (W @ xl + b) + xl."""
import torch
import triton
import triton.language as tl

_AI_CORES = 20
BM = 64


def _block(D: int, cap: int) -> int:
    """Largest power of two <= cap that divides D."""
    b = cap
    while D % b:
        b //= 2
    return b


@triton.jit
def _cross_layer_fwd(x0_ptr, xl_ptr, w_ptr, b_ptr, out_ptr, B,
                     D: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    for m0 in range(pid * BM, B, nprog * BM):
        rows = m0 + tl.arange(0, BM)
        rmask = rows < B
        for n0 in range(0, D, BN):
            cols = n0 + tl.arange(0, BN)
            acc = tl.zeros([BM, BN], dtype=tl.float32)
            for k0 in range(0, D, BK):
                ks = k0 + tl.arange(0, BK)
                x = tl.load(xl_ptr + rows[:, None] * D + ks[None, :], mask=rmask[:, None], other=0.0)
                w = tl.load(w_ptr + cols[:, None] * D + ks[None, :])
                acc = tl.dot(x, tl.trans(w), acc)
            bias = tl.load(b_ptr + cols).to(tl.float32)
            x0 = tl.load(x0_ptr + rows[:, None] * D + cols[None, :], mask=rmask[:, None], other=0.0).to(tl.float32)
            xc = tl.load(xl_ptr + rows[:, None] * D + cols[None, :], mask=rmask[:, None], other=0.0).to(tl.float32)
            y = x0 * (acc + bias[None, :]) + xc
            tl.store(out_ptr + rows[:, None] * D + cols[None, :], y.to(out_ptr.dtype.element_ty), mask=rmask[:, None])


def run(x0: torch.Tensor, xl: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    B, D = x0.shape
    out = torch.empty_like(x0)
    BN, BK = _block(D, 64), _block(D, 128)
    grid = (min(_AI_CORES, triton.cdiv(B, BM)),)
    _cross_layer_fwd[grid](x0, xl, weight, bias, out, B, D=D, BM=BM, BN=BN, BK=BK)
    return out

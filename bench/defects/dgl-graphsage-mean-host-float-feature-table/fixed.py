"""GraphSAGE mean aggregation: gather the sampled neighbours' feature rows and average them."""
import torch
import triton
import triton.language as tl


@triton.jit
def _sage_mean(feat, nbr, out, n_dst, F, FANOUT: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_F: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_N + tl.arange(0, BLOCK_N)
    rm = rows < n_dst
    cols = tl.arange(0, BLOCK_F)
    cm = cols < F
    acc = tl.zeros([BLOCK_N, BLOCK_F], dtype=tl.float32)
    count = tl.zeros([BLOCK_N], dtype=tl.float32)
    for k in range(FANOUT):
        idx = tl.load(nbr + rows * FANOUT + k, mask=rm, other=-1)
        ok = idx >= 0
        x = tl.load(feat + idx[:, None] * F + cols[None, :], mask=ok[:, None] & cm[None, :], other=0.0)
        acc += x.to(tl.float32)
        count += ok.to(tl.float32)
    mean = acc / tl.maximum(count, 1.0)[:, None]
    tl.store(out + rows[:, None] * F + cols[None, :], mean.to(out.dtype.element_ty), mask=rm[:, None] & cm[None, :])


def run(feat: torch.Tensor, nbr: torch.Tensor) -> torch.Tensor:
    n_dst, fanout = nbr.shape
    F = feat.shape[1]
    out = torch.empty((n_dst, F), device=feat.device, dtype=feat.dtype)
    _sage_mean[(triton.cdiv(n_dst, 32),)](feat, nbr, out, n_dst, F, FANOUT=fanout, BLOCK_N=32,
                                          BLOCK_F=triton.next_power_of_2(F), num_warps=4)
    return out

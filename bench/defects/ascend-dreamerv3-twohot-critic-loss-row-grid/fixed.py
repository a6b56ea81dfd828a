"""DreamerV3 critic loss: NLL of symlog two-hot value targets under the critic's 255-bin softmax."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _twohot_nll(logits, target, bins, loss, N, K, stride, BR: tl.constexpr, BK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    cols = tl.arange(0, BK)
    cm = cols < K
    colf = cols.to(tl.float32)
    b = tl.load(bins + cols, mask=cm, other=float("inf"))
    for blk in range(pid, tl.cdiv(N, BR), nprog):
        rows = blk * BR + tl.arange(0, BR)
        rm = rows < N
        mask = rm[:, None] & cm[None, :]
        x = tl.load(logits + rows[:, None] * stride + cols[None, :], mask=mask, other=-float("inf"))
        t = tl.load(target + rows, mask=rm, other=0.0)
        y = tl.where(t < 0, -1.0, 1.0) * tl.log(1.0 + tl.abs(t))
        n_le = tl.sum((b[None, :] <= y[:, None]).to(tl.float32), axis=1)
        n_gt = tl.sum((b[None, :] > y[:, None]).to(tl.float32), axis=1)
        below = tl.minimum(tl.maximum(n_le - 1.0, 0.0), K - 1.0)
        above = tl.minimum(tl.maximum(BK - n_gt, 0.0), K - 1.0)  # padded bins are +inf: always > y
        is_below = colf[None, :] == below[:, None]
        is_above = colf[None, :] == above[:, None]
        b_below = tl.sum(tl.where(is_below, b[None, :], 0.0), axis=1)
        b_above = tl.sum(tl.where(is_above, b[None, :], 0.0), axis=1)
        equal = below == above
        d_below = tl.where(equal, 1.0, tl.abs(b_below - y))
        d_above = tl.where(equal, 1.0, tl.abs(b_above - y))
        total = d_below + d_above
        m = tl.max(x, axis=1)
        lse = m + tl.log(tl.sum(tl.exp(x - m[:, None]), axis=1))
        x_below = tl.sum(tl.where(is_below, x, 0.0), axis=1)
        x_above = tl.sum(tl.where(is_above, x, 0.0), axis=1)
        nll = -(d_above / total * (x_below - lse) + d_below / total * (x_above - lse))
        tl.store(loss + rows, nll, mask=rm)


def run(logits: torch.Tensor, target: torch.Tensor, bins: torch.Tensor) -> torch.Tensor:
    N, K = logits.shape
    loss = torch.empty((N,), device=logits.device, dtype=logits.dtype)
    BK = triton.next_power_of_2(K)
    BR = max(1, 4096 // BK)
    grid = (min(_VECTOR_CORES, triton.cdiv(N, BR)),)
    _twohot_nll[grid](logits, target, bins, loss, N, K, logits.stride(0), BR=BR, BK=BK)
    return loss

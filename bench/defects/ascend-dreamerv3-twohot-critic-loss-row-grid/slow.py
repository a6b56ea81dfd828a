"""DreamerV3 critic loss: NLL of symlog two-hot value targets under the critic's 255-bin softmax."""
import torch
import triton
import triton.language as tl


@triton.jit
def _twohot_nll(logits, target, bins, loss, K, stride, BK: tl.constexpr):
    r = tl.program_id(0)
    cols = tl.arange(0, BK)
    cm = cols < K
    colf = cols.to(tl.float32)
    b = tl.load(bins + cols, mask=cm, other=float("inf"))
    x = tl.load(logits + r * stride + cols, mask=cm, other=-float("inf"))
    t = tl.load(target + r)
    y = tl.where(t < 0, -1.0, 1.0) * tl.log(1.0 + tl.abs(t))
    n_le = tl.sum((b <= y).to(tl.float32), axis=0)
    n_gt = tl.sum((b > y).to(tl.float32), axis=0)
    below = tl.minimum(tl.maximum(n_le - 1.0, 0.0), K - 1.0)
    above = tl.minimum(tl.maximum(BK - n_gt, 0.0), K - 1.0)  # padded bins are +inf: always > y
    is_below = colf == below
    is_above = colf == above
    b_below = tl.sum(tl.where(is_below, b, 0.0), axis=0)
    b_above = tl.sum(tl.where(is_above, b, 0.0), axis=0)
    equal = below == above
    d_below = tl.where(equal, 1.0, tl.abs(b_below - y))
    d_above = tl.where(equal, 1.0, tl.abs(b_above - y))
    total = d_below + d_above
    m = tl.max(x, axis=0)
    lse = m + tl.log(tl.sum(tl.exp(x - m), axis=0))
    x_below = tl.sum(tl.where(is_below, x, 0.0), axis=0)
    x_above = tl.sum(tl.where(is_above, x, 0.0), axis=0)
    nll = -(d_above / total * (x_below - lse) + d_below / total * (x_above - lse))
    tl.store(loss + r, nll)


def run(logits: torch.Tensor, target: torch.Tensor, bins: torch.Tensor) -> torch.Tensor:
    N, K = logits.shape
    loss = torch.empty((N,), device=logits.device, dtype=logits.dtype)
    BK = triton.next_power_of_2(K)
    _twohot_nll[(N,)](logits, target, bins, loss, K, logits.stride(0), BK=BK)
    return loss

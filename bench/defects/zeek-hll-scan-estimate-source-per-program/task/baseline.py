"""HyperLogLog cardinality estimate per source (Zeek CardinalityCounter::Size) for scan thresholds."""
import torch
import triton
import triton.language as tl

ROWS = 32


@triton.jit
def _hll_estimate(regs, est_out, n_src, alpha, M: tl.constexpr, ROWS: tl.constexpr):
    src = tl.program_id(0) * ROWS + tl.arange(0, ROWS)
    live = src < n_src
    j = tl.arange(0, M)
    r = tl.load(regs + src[:, None] * M + j[None, :], mask=live[:, None], other=0).to(tl.float32)
    inv_sum = tl.sum(tl.exp2(-r), axis=1)
    empty = tl.sum((r == 0.0).to(tl.float32), axis=1)
    raw = alpha * M * M / inv_sum
    linear = M * tl.log(M / tl.maximum(empty, 1.0))
    est = tl.where((raw <= 2.5 * M) & (empty > 0.0), linear, raw)
    tl.store(est_out + src, est, mask=live)


def run(registers: torch.Tensor) -> torch.Tensor:
    n_src, m = registers.shape
    est = torch.empty(n_src, device=registers.device, dtype=torch.float32)
    alpha = 0.7213 / (1.0 + 1.079 / m)
    _hll_estimate[(triton.cdiv(n_src, ROWS),)](registers, est, n_src, alpha, M=m, ROWS=ROWS, num_warps=4)
    return est

"""XGBoost split evaluation: best split gain of each (node, feature) histogram."""
import torch
import triton
import triton.language as tl

REG_LAMBDA = tl.constexpr(1.0)
MIN_CHILD_WEIGHT = tl.constexpr(1.0)


@triton.jit
def _split_gain(hist, best, n_bins, stride_feat, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    row = hist + pid * stride_feat
    bins = tl.arange(0, BLOCK)
    inside = bins < n_bins
    grad = tl.load(row + 2 * bins, mask=inside, other=0.0)
    hess = tl.load(row + 2 * bins + 1, mask=inside, other=0.0)
    g_tot = tl.sum(grad, axis=0)
    h_tot = tl.sum(hess, axis=0)
    parent = g_tot * g_tot / (h_tot + REG_LAMBDA)
    gl = tl.cumsum(grad, axis=0)
    hl = tl.cumsum(hess, axis=0)
    gr = g_tot - gl
    hr = h_tot - hl
    gain = gl * gl / (hl + REG_LAMBDA) + gr * gr / (hr + REG_LAMBDA) - parent
    ok = inside & (hl >= MIN_CHILD_WEIGHT) & (hr >= MIN_CHILD_WEIGHT)
    top = tl.max(tl.where(ok, gain, 0.0), axis=0)
    tl.store(best + pid, tl.maximum(top, 0.0))


def run(hist: torch.Tensor) -> torch.Tensor:
    nodes, features, n_bins, _ = hist.shape
    best = torch.empty(nodes, features, device=hist.device, dtype=torch.float32)
    BLOCK = triton.next_power_of_2(n_bins)
    _split_gain[(nodes * features,)](hist, best, n_bins, hist.stride(1), BLOCK=BLOCK, num_warps=4)
    return best

"""Soft-argmin disparity regression: pixel tiles, online softmax along the disparity axis."""
import torch
import triton
import triton.language as tl


@triton.jit
def _online_update(m_i, l_i, s_i, x, dval):
    m_new = tl.maximum(m_i, tl.max(x, axis=0))
    scale = tl.exp(m_i - m_new)
    e = tl.exp(x - m_new[None, :])
    l_i = l_i * scale + tl.sum(e, axis=0)
    s_i = s_i * scale + tl.sum(e * dval[:, None], axis=0)
    return m_new, l_i, s_i


@triton.jit
def disparity_regression_kernel(cost_ptr, out_ptr, D, HW, BLOCK_D: tl.constexpr, BLOCK_P: tl.constexpr):
    b = tl.program_id(0)
    pb = tl.program_id(1)
    pix = pb * BLOCK_P + tl.arange(0, BLOCK_P)
    pm = pix < HW
    base = cost_ptr + b * D * HW
    m_i = tl.full([BLOCK_P], float("-inf"), dtype=tl.float32)
    l_i = tl.zeros([BLOCK_P], dtype=tl.float32)
    s_i = tl.zeros([BLOCK_P], dtype=tl.float32)
    for d0 in range(0, D, BLOCK_D):
        d = d0 + tl.arange(0, BLOCK_D)
        dm = d < D
        x = tl.load(base + d[:, None] * HW + pix[None, :], mask=dm[:, None] & pm[None, :], other=float("-inf"))
        m_i, l_i, s_i = _online_update(m_i, l_i, s_i, x, d.to(tl.float32))
    tl.store(out_ptr + b * HW + pix, s_i / l_i, mask=pm)


def run(cost: torch.Tensor) -> torch.Tensor:
    B, D, H, W = cost.shape
    out = torch.empty((B, H, W), device=cost.device, dtype=cost.dtype)
    HW = H * W
    cfg = {"BLOCK_D": 16, "BLOCK_P": 128, "num_warps": 4}
    grid = (B, triton.cdiv(HW, cfg["BLOCK_P"]))
    disparity_regression_kernel[grid](cost, out, D, HW, **cfg)
    return out

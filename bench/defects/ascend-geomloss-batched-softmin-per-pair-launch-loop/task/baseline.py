"""GeomLoss soft-min f_i = -eps * logsumexp_j(h_j - |x_i - y_j|^2 / (2 eps)) for a batch of cloud pairs."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _softmin_sqdist(x, y, h, out, B, N, M, stride_xb, stride_xn, stride_yb, stride_yn, stride_hb,
                    stride_ob, neg_half_inv_eps, eps,
                    BI: tl.constexpr, BJ: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    n_row_blocks = tl.cdiv(N, BI)
    for blk in range(pid, B * n_row_blocks, nprog):
        b = blk // n_row_blocks
        ib = blk - b * n_row_blocks
        xb = x + b * stride_xb
        yb = y + b * stride_yb
        hb = h + b * stride_hb
        rows = ib * BI + tl.arange(0, BI)
        rmask = rows < N
        x0 = tl.load(xb + rows * stride_xn + 0, mask=rmask, other=0.0)
        x1 = tl.load(xb + rows * stride_xn + 1, mask=rmask, other=0.0)
        x2 = tl.load(xb + rows * stride_xn + 2, mask=rmask, other=0.0)
        run_max = tl.full([BI], float("-inf"), dtype=tl.float32)
        run_sum = tl.zeros([BI], dtype=tl.float32)
        for j0 in range(0, M, BJ):
            cols = j0 + tl.arange(0, BJ)
            cmask = cols < M
            y0 = tl.load(yb + cols * stride_yn + 0, mask=cmask, other=0.0)
            y1 = tl.load(yb + cols * stride_yn + 1, mask=cmask, other=0.0)
            y2 = tl.load(yb + cols * stride_yn + 2, mask=cmask, other=0.0)
            hj = tl.load(hb + cols, mask=cmask, other=float("-inf"))
            d0 = x0[:, None] - y0[None, :]
            d1 = x1[:, None] - y1[None, :]
            d2 = x2[:, None] - y2[None, :]
            z = hj[None, :] + (d0 * d0 + d1 * d1 + d2 * d2) * neg_half_inv_eps
            new_max = tl.maximum(run_max, tl.max(z, axis=1))
            run_sum = run_sum * tl.exp(run_max - new_max) + tl.sum(tl.exp(z - new_max[:, None]), axis=1)
            run_max = new_max
        tl.store(out + b * stride_ob + rows, -eps * (run_max + tl.log(run_sum)), mask=rmask)


def run(x: torch.Tensor, y: torch.Tensor, h: torch.Tensor, eps: float) -> torch.Tensor:
    B, N, _ = x.shape
    M = y.shape[1]
    f = torch.empty((B, N), device=x.device, dtype=torch.float32)
    BI, BJ = 64, 256
    grid = (min(_VECTOR_CORES, B * triton.cdiv(N, BI)),)
    _softmin_sqdist[grid](x, y, h, f, B, N, M, x.stride(0), x.stride(1), y.stride(0), y.stride(1),
                          h.stride(0), f.stride(0), -0.5 / eps, eps, BI=BI, BJ=BJ)
    return f

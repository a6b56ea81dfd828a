"""GraphCast grid output head: out = x_last + (h @ W + b) * diff_std + diff_mean per grid node."""
import torch
import triton
import triton.language as tl

_AI_CORES = 20  # tl.dot runs on the cube: one program per AI core (mixed cube + vector kernel)


@triton.jit
def _grid_output_head(h_ptr, w_ptr, b_ptr, std_ptr, mean_ptr, x_ptr, out_ptr, G, K, C,
                      stride_h, stride_w, stride_x, stride_o,
                      BM: tl.constexpr, BK: tl.constexpr, BC: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    ks = tl.arange(0, BK)
    cs = tl.arange(0, BC)
    cmask = cs < C
    bias = tl.load(b_ptr + cs, mask=cmask, other=0.0)
    std = tl.load(std_ptr + cs, mask=cmask, other=0.0)
    mean = tl.load(mean_ptr + cs, mask=cmask, other=0.0)
    for blk in range(pid, tl.cdiv(G, BM), nprog):
        rows = blk * BM + tl.arange(0, BM)
        rmask = rows < G
        acc = tl.zeros([BM, BC], dtype=tl.float32)
        for k0 in range(0, K, BK):
            hk = tl.load(h_ptr + rows[:, None] * stride_h + (k0 + ks)[None, :], mask=rmask[:, None], other=0.0)
            wk = tl.load(w_ptr + (k0 + ks)[:, None] * stride_w + cs[None, :], mask=cmask[None, :], other=0.0)
            acc = tl.dot(hk, wk, acc)
        omask = rmask[:, None] & cmask[None, :]
        x = tl.load(x_ptr + rows[:, None] * stride_x + cs[None, :], mask=omask, other=0.0)
        y = x + (acc + bias[None, :]) * std[None, :] + mean[None, :]
        tl.store(out_ptr + rows[:, None] * stride_o + cs[None, :], y, mask=omask)


def run(h, w, b, diff_std, diff_mean, x_last) -> torch.Tensor:
    G, K = h.shape
    C = w.shape[1]
    out = torch.empty((G, C), device=h.device, dtype=torch.float32)
    BM = 64
    BK = 64
    BC = triton.next_power_of_2(C)
    grid = (min(_AI_CORES, triton.cdiv(G, BM)),)
    _grid_output_head[grid](h, w, b, diff_std, diff_mean, x_last, out, G, K, C,
                            h.stride(0), w.stride(0), x_last.stride(0), out.stride(0), BM=BM, BK=BK, BC=BC)
    return out

"""GraphCast grid output head: out = x_last + (h @ W + b) * diff_std + diff_mean per grid node."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _grid_output_head(h_ptr, w_ptr, b_ptr, std_ptr, mean_ptr, x_ptr, out_ptr, G, K, C,
                      stride_h, stride_w, stride_x, stride_o,
                      BK: tl.constexpr, BC: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    ks = tl.arange(0, BK)
    cs = tl.arange(0, BC)
    cmask = cs < C
    bias = tl.load(b_ptr + cs, mask=cmask, other=0.0)
    std = tl.load(std_ptr + cs, mask=cmask, other=0.0)
    mean = tl.load(mean_ptr + cs, mask=cmask, other=0.0)
    for g in range(pid, G, nprog):
        acc = tl.zeros([BC], dtype=tl.float32)
        for k0 in range(0, K, BK):
            hk = tl.load(h_ptr + g * stride_h + k0 + ks).to(tl.float32)
            wk = tl.load(w_ptr + (k0 + ks)[:, None] * stride_w + cs[None, :], mask=cmask[None, :], other=0.0)
            acc += tl.sum(hk[:, None] * wk.to(tl.float32), axis=0)
        x = tl.load(x_ptr + g * stride_x + cs, mask=cmask, other=0.0)
        y = x + (acc + bias) * std + mean
        tl.store(out_ptr + g * stride_o + cs, y, mask=cmask)


def run(h, w, b, diff_std, diff_mean, x_last) -> torch.Tensor:
    G, K = h.shape
    C = w.shape[1]
    out = torch.empty((G, C), device=h.device, dtype=torch.float32)
    BK = 64
    BC = triton.next_power_of_2(C)
    grid = (min(_VECTOR_CORES, G),)
    _grid_output_head[grid](h, w, b, diff_std, diff_mean, x_last, out, G, K, C,
                            h.stride(0), w.stride(0), x_last.stride(0), out.stride(0), BK=BK, BC=BC)
    return out

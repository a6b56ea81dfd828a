"""Rolling mean and unbiased rolling std over full windows of W samples, one series per row."""
import torch
import triton
import triton.language as tl


@triton.jit
def _rolling_mean_std(x, mean, std, T, T_out, W, stride_x, stride_o, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    j = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    valid = j < T_out
    x_row = x + row * stride_x
    s1 = tl.zeros([BLOCK], dtype=tl.float32)
    s2 = tl.zeros([BLOCK], dtype=tl.float32)
    for k in range(0, W):
        v = tl.load(x_row + j + k, mask=valid, other=0.0)
        s1 += v
        s2 += v * v
    mu = s1 / W
    var = tl.maximum((s2 - s1 * mu) / (W - 1), 0.0)
    tl.store(mean + row * stride_o + j, mu, mask=valid)
    tl.store(std + row * stride_o + j, tl.sqrt(var), mask=valid)


def run(returns: torch.Tensor, window: int):
    S, T = returns.shape
    T_out = T - window + 1
    mean = torch.empty((S, T_out), device=returns.device, dtype=torch.float32)
    std = torch.empty_like(mean)
    BLOCK = 512
    grid = (S, triton.cdiv(T_out, BLOCK))
    _rolling_mean_std[grid](returns, mean, std, T, T_out, window, returns.stride(0), mean.stride(0),
                            BLOCK=BLOCK, num_warps=4)
    return mean, std

"""Rolling mean and unbiased rolling std over full windows of W samples, one series per row."""
import torch
import triton
import triton.language as tl


@triton.jit
def _rolling_mean_std(x, mean, std, T, T_out, W, stride_x, stride_o, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    x_row = x + row * stride_x
    cols = tl.arange(0, BLOCK)
    s1 = tl.zeros([BLOCK], dtype=tl.float32)
    s2 = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, W, BLOCK):
        v = tl.load(x_row + start + cols, mask=start + cols < W, other=0.0)
        s1 += v
        s2 += v * v
    run1 = tl.sum(s1, axis=0)
    run2 = tl.sum(s2, axis=0)
    for start in range(0, T_out, BLOCK):
        j = start + cols
        step = (j > 0) & (j < T_out)
        enter = tl.load(x_row + j + W - 1, mask=step, other=0.0)
        leave = tl.load(x_row + j - 1, mask=step, other=0.0)
        d1 = enter - leave
        d2 = enter * enter - leave * leave
        w1 = run1 + tl.cumsum(d1, axis=0)
        w2 = run2 + tl.cumsum(d2, axis=0)
        run1 += tl.sum(d1, axis=0)
        run2 += tl.sum(d2, axis=0)
        mu = w1 / W
        var = tl.maximum((w2 - w1 * mu) / (W - 1), 0.0)
        valid = j < T_out
        tl.store(mean + row * stride_o + j, mu, mask=valid)
        tl.store(std + row * stride_o + j, tl.sqrt(var), mask=valid)


def run(returns: torch.Tensor, window: int):
    S, T = returns.shape
    T_out = T - window + 1
    mean = torch.empty((S, T_out), device=returns.device, dtype=torch.float32)
    std = torch.empty_like(mean)
    _rolling_mean_std[(S,)](returns, mean, std, T, T_out, window, returns.stride(0), mean.stride(0),
                            BLOCK=512, num_warps=4)
    return mean, std

"""Per-sensor z-score statistics (mean, std over valid non-zero readings) of a [T, N] speed matrix."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _sensor_zscore_fit(x_ptr, mean_ptr, std_ptr, T, N, stride_t,
                       BLOCK_T: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    t_off = tl.arange(0, BLOCK_T)
    for n in range(pid, N, nprog):
        # pass 1: masked sum and count of this sensor's valid readings
        acc = tl.zeros([BLOCK_T], dtype=tl.float32)
        cnt = tl.zeros([BLOCK_T], dtype=tl.float32)
        for t0 in range(0, T, BLOCK_T):
            steps = t0 + t_off
            v = tl.load(x_ptr + steps * stride_t + n, mask=steps < T, other=0.0)
            acc += v
            cnt += (v != 0.0).to(tl.float32)
        n_ok = tl.sum(cnt, axis=0)
        mu = tl.sum(acc, axis=0) / tl.maximum(n_ok, 1.0)
        # pass 2: centred sum of squares over the same readings
        sq = tl.zeros([BLOCK_T], dtype=tl.float32)
        for t0 in range(0, T, BLOCK_T):
            steps = t0 + t_off
            v = tl.load(x_ptr + steps * stride_t + n, mask=steps < T, other=0.0)
            d = tl.where(v != 0.0, v - mu, 0.0)
            sq += d * d
        sd = tl.sqrt(tl.sum(sq, axis=0) / tl.maximum(n_ok, 1.0))
        sd = tl.where(sd == 0.0, 1.0, sd)
        tl.store(mean_ptr + n, mu)
        tl.store(std_ptr + n, sd)


def run(x: torch.Tensor) -> tuple:
    T, N = x.shape
    mean = torch.empty(N, device=x.device, dtype=torch.float32)
    std = torch.empty(N, device=x.device, dtype=torch.float32)
    BLOCK_T = 4096
    grid = (min(_VECTOR_CORES, N),)
    _sensor_zscore_fit[grid](x, mean, std, T, N, x.stride(0), BLOCK_T=BLOCK_T)
    return mean, std

"""Per-sensor z-score statistics (mean, std over valid non-zero readings) of a [T, N] speed matrix."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _sensor_zscore_fit(x_ptr, mean_ptr, std_ptr, T, N, stride_t,
                       BLOCK_T: tl.constexpr, BLOCK_N: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    t_off = tl.arange(0, BLOCK_T)
    n_off = tl.arange(0, BLOCK_N)
    for nb in range(pid, tl.cdiv(N, BLOCK_N), nprog):
        sensors = nb * BLOCK_N + n_off
        nmask = sensors < N
        # pass 1: masked sum and count of valid readings
        acc = tl.zeros([BLOCK_T, BLOCK_N], dtype=tl.float32)
        cnt = tl.zeros([BLOCK_T, BLOCK_N], dtype=tl.float32)
        for t0 in range(0, T, BLOCK_T):
            steps = t0 + t_off
            m = (steps < T)[:, None] & nmask[None, :]
            v = tl.load(x_ptr + steps[:, None] * stride_t + sensors[None, :], mask=m, other=0.0)
            acc += v
            cnt += (v != 0.0).to(tl.float32)
        n_ok = tl.sum(cnt, axis=0)
        mu = tl.sum(acc, axis=0) / tl.maximum(n_ok, 1.0)
        # pass 2: centred sum of squares over the same readings
        sq = tl.zeros([BLOCK_T, BLOCK_N], dtype=tl.float32)
        for t0 in range(0, T, BLOCK_T):
            steps = t0 + t_off
            m = (steps < T)[:, None] & nmask[None, :]
            v = tl.load(x_ptr + steps[:, None] * stride_t + sensors[None, :], mask=m, other=0.0)
            d = tl.where(v != 0.0, v - mu[None, :], 0.0)
            sq += d * d
        sd = tl.sqrt(tl.sum(sq, axis=0) / tl.maximum(n_ok, 1.0))
        sd = tl.where(sd == 0.0, 1.0, sd)
        tl.store(mean_ptr + sensors, mu, mask=nmask)
        tl.store(std_ptr + sensors, sd, mask=nmask)


def run(x: torch.Tensor) -> tuple:
    T, N = x.shape
    mean = torch.empty(N, device=x.device, dtype=torch.float32)
    std = torch.empty(N, device=x.device, dtype=torch.float32)
    BLOCK_T, BLOCK_N = 64, 64
    grid = (min(_VECTOR_CORES, triton.cdiv(N, BLOCK_N)),)
    _sensor_zscore_fit[grid](x, mean, std, T, N, x.stride(0), BLOCK_T=BLOCK_T, BLOCK_N=BLOCK_N)
    return mean, std

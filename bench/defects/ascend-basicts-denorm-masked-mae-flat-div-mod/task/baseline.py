"""Masked MAE (null 0.0) of per-sensor de-normalised forecasts: pred * std[n] + mean[n] vs target."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _denorm_mae_partials(pred_ptr, tgt_ptr, mean_ptr, std_ptr, part_err, part_cnt, R, N,
                         BLOCK_R: tl.constexpr, BLOCK_N: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    sensors = tl.arange(0, BLOCK_N)
    nmask = sensors < N
    mu = tl.load(mean_ptr + sensors, mask=nmask, other=0.0)
    sd = tl.load(std_ptr + sensors, mask=nmask, other=0.0)
    r_off = tl.arange(0, BLOCK_R)
    err = tl.zeros([BLOCK_R, BLOCK_N], dtype=tl.float32)
    cnt = tl.zeros([BLOCK_R, BLOCK_N], dtype=tl.float32)
    for rb in range(pid, tl.cdiv(R, BLOCK_R), nprog):
        rows = rb * BLOCK_R + r_off
        m = (rows < R)[:, None] & nmask[None, :]
        offs = rows[:, None] * N + sensors[None, :]
        p = tl.load(pred_ptr + offs, mask=m, other=0.0)
        y = tl.load(tgt_ptr + offs, mask=m, other=0.0)
        yhat = p * sd[None, :] + mu[None, :]
        ok = y != 0.0
        err += tl.where(ok, tl.abs(yhat - y), 0.0)
        cnt += ok.to(tl.float32)
    tl.store(part_err + pid, tl.sum(tl.sum(err, axis=1), axis=0))
    tl.store(part_cnt + pid, tl.sum(tl.sum(cnt, axis=1), axis=0))


@triton.jit
def _mae_finish(part_err, part_cnt, out_ptr, P, BLOCK_P: tl.constexpr):
    i = tl.arange(0, BLOCK_P)
    e = tl.sum(tl.load(part_err + i, mask=i < P, other=0.0), axis=0)
    c = tl.sum(tl.load(part_cnt + i, mask=i < P, other=0.0), axis=0)
    tl.store(out_ptr, tl.where(c > 0.0, e / tl.maximum(c, 1.0), 0.0))


def run(pred: torch.Tensor, target: torch.Tensor, mean: torch.Tensor, std: torch.Tensor) -> torch.Tensor:
    S, L, N = pred.shape
    R = S * L
    BLOCK_N = triton.next_power_of_2(N)
    BLOCK_R = max(1, 2048 // BLOCK_N)
    P = min(_VECTOR_CORES, triton.cdiv(R, BLOCK_R))
    part_err = torch.empty(P, device=pred.device, dtype=torch.float32)
    part_cnt = torch.empty(P, device=pred.device, dtype=torch.float32)
    out = torch.empty((), device=pred.device, dtype=torch.float32)
    _denorm_mae_partials[(P,)](pred, target, mean, std, part_err, part_cnt, R, N,
                               BLOCK_R=BLOCK_R, BLOCK_N=BLOCK_N)
    _mae_finish[(1,)](part_err, part_cnt, out, P, BLOCK_P=triton.next_power_of_2(P))
    return out

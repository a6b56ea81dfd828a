"""Masked MAE (null 0.0) of per-sensor de-normalised forecasts: pred * std[n] + mean[n] vs target."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _denorm_mae_partials(pred_ptr, tgt_ptr, mean_ptr, std_ptr, part_err, part_cnt, total, N,
                         BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    lanes = tl.arange(0, BLOCK)
    err = tl.zeros([BLOCK], dtype=tl.float32)
    cnt = tl.zeros([BLOCK], dtype=tl.float32)
    for b in range(pid, tl.cdiv(total, BLOCK), nprog):
        offs = b * BLOCK + lanes
        m = offs < total
        sensor = offs % N
        p = tl.load(pred_ptr + offs, mask=m, other=0.0)
        y = tl.load(tgt_ptr + offs, mask=m, other=0.0)
        mu = tl.load(mean_ptr + sensor, mask=m, other=0.0)
        sd = tl.load(std_ptr + sensor, mask=m, other=0.0)
        yhat = p * sd + mu
        ok = y != 0.0
        err += tl.where(ok, tl.abs(yhat - y), 0.0)
        cnt += ok.to(tl.float32)
    tl.store(part_err + pid, tl.sum(err, axis=0))
    tl.store(part_cnt + pid, tl.sum(cnt, axis=0))


@triton.jit
def _mae_finish(part_err, part_cnt, out_ptr, P, BLOCK_P: tl.constexpr):
    i = tl.arange(0, BLOCK_P)
    e = tl.sum(tl.load(part_err + i, mask=i < P, other=0.0), axis=0)
    c = tl.sum(tl.load(part_cnt + i, mask=i < P, other=0.0), axis=0)
    tl.store(out_ptr, tl.where(c > 0.0, e / tl.maximum(c, 1.0), 0.0))


def run(pred: torch.Tensor, target: torch.Tensor, mean: torch.Tensor, std: torch.Tensor) -> torch.Tensor:
    S, L, N = pred.shape
    total = S * L * N
    BLOCK = 2048
    P = min(_VECTOR_CORES, triton.cdiv(total, BLOCK))
    part_err = torch.empty(P, device=pred.device, dtype=torch.float32)
    part_cnt = torch.empty(P, device=pred.device, dtype=torch.float32)
    out = torch.empty((), device=pred.device, dtype=torch.float32)
    _denorm_mae_partials[(P,)](pred, target, mean, std, part_err, part_cnt, total, N, BLOCK=BLOCK)
    _mae_finish[(1,)](part_err, part_cnt, out, P, BLOCK_P=triton.next_power_of_2(P))
    return out

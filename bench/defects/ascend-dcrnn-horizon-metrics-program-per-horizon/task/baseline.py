"""DCRNN test metrics per horizon: masked MAE / MAPE / RMSE of un-normalised predictions (null_val = 0)."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _horizon_partials(y_pred, y_true, part, M, mean, std, SPLIT: tl.constexpr, BLOCK: tl.constexpr):
    # SPLIT programs share one forecast horizon: each strides over its contiguous S*N block
    t = tl.program_id(0)
    s = tl.program_id(1)
    base = t * M
    lanes = tl.arange(0, BLOCK)
    acc_ae = tl.zeros([BLOCK], dtype=tl.float32)
    acc_ape = tl.zeros([BLOCK], dtype=tl.float32)
    acc_se = tl.zeros([BLOCK], dtype=tl.float32)
    acc_n = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(s * BLOCK, M, SPLIT * BLOCK):
        offs = start + lanes
        inb = offs < M
        p = tl.load(y_pred + base + offs, mask=inb, other=0.0) * std + mean
        y = tl.load(y_true + base + offs, mask=inb, other=0.0)
        valid = y != 0.0
        e = p - y
        ae = tl.where(valid, tl.abs(e), 0.0)
        acc_ae += ae
        acc_ape += ae / tl.where(valid, tl.abs(y), 1.0)
        acc_se += tl.where(valid, e * e, 0.0)
        acc_n += valid.to(tl.float32)
    row = part + (s * tl.num_programs(0) + t) * 4  # part[s, t, :]
    tl.store(row + 0, tl.sum(acc_ae, axis=0))
    tl.store(row + 1, tl.sum(acc_ape, axis=0))
    tl.store(row + 2, tl.sum(acc_se, axis=0))
    tl.store(row + 3, tl.sum(acc_n, axis=0))


@triton.jit
def _finish(part, out, T, P, BT: tl.constexpr):
    # part is [P, T, 4] (sum |e|, sum |e|/|y|, sum e^2, count); out is [T, 3] (mae, mape, rmse)
    t = tl.arange(0, BT)
    k = tl.arange(0, 4)
    tm = (t < T)[:, None]
    acc = tl.zeros([BT, 4], dtype=tl.float32)
    for j in range(0, P):
        acc += tl.load(part + j * T * 4 + t[:, None] * 4 + k[None, :], mask=tm, other=1.0)
    n = tl.sum(tl.where(k[None, :] == 3, acc, 0.0), axis=1)
    q = acc / n[:, None]
    res = tl.where(k[None, :] == 2, tl.sqrt(q), q)
    tl.store(out + t[:, None] * 3 + k[None, :], res, mask=tm & (k[None, :] < 3))


def run(y_pred: torch.Tensor, y_true: torch.Tensor, mean: float, std: float) -> torch.Tensor:
    T, S, N = y_pred.shape
    M = S * N
    split = max(1, _VECTOR_CORES // T)
    part = torch.empty((split, T, 4), device=y_pred.device, dtype=torch.float32)
    out = torch.empty((T, 3), device=y_pred.device, dtype=torch.float32)
    _horizon_partials[(T, split)](y_pred, y_true, part, M, float(mean), float(std), SPLIT=split, BLOCK=2048)
    _finish[(1,)](part, out, T, split, BT=triton.next_power_of_2(T))
    return out

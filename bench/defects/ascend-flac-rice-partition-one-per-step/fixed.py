"""FLAC Rice coding estimate: per-partition |residual| sums, Rice parameters and coded bits."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
_RICE_LIMIT = 15  # 4-bit parameters; 15 is the escape code


@triton.jit
def _rice_estimate(tot, cnt, RICE_LIMIT: tl.constexpr):
    # k = smallest k with cnt * 2^k >= tot (capped), bits as in count_rice_bits_in_partition_
    tot_f = tot.to(tl.float32)
    cnt_f = cnt.to(tl.float32)
    rice = tot_f * 0.0
    scale = rice + 2.0
    thr = cnt_f
    for _ in tl.static_range(RICE_LIMIT - 1):
        lt = thr < tot_f
        rice = tl.where(lt, rice + 1.0, rice)
        scale = tl.where(lt, scale * 0.5, scale)
        thr = thr * 2.0
    bits = 4.0 + (1.0 + rice) * cnt_f + tl.floor(tot_f * scale) - tl.floor(cnt_f * 0.5)
    return rice.to(tl.int32), bits.to(tl.int32)


@triton.jit
def _rice_partitions(res, order, sums_out, param_out, bits_out, NB, N, P, PS,
                     BP: tl.constexpr, BS: tl.constexpr, RICE_LIMIT: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    q = tl.arange(0, BP)
    s = tl.arange(0, BS)
    qmask = q < P
    m = qmask[:, None] & (s < PS)[None, :]
    for b in range(pid, NB, nprog):
        r = tl.load(res + b * N + q[:, None] * PS + s[None, :], mask=m, other=0)
        tot = tl.sum(tl.abs(r), axis=1)
        k0 = tl.load(order + b)
        cnt = PS - tl.where(q.to(tl.float32) == 0.0, k0, 0)  # partition 0 holds the warm-up samples
        rice, bits = _rice_estimate(tot, cnt, RICE_LIMIT)
        t = b * P + q
        tl.store(sums_out + t, tot, mask=qmask)
        tl.store(param_out + t, rice, mask=qmask)
        tl.store(bits_out + t, bits, mask=qmask)


def run(residual: torch.Tensor, order: torch.Tensor, partition_order: int) -> tuple:
    NB, N = residual.shape
    P = 1 << partition_order
    PS = N // P
    sums = torch.empty((NB, P), device=residual.device, dtype=torch.int32)
    params = torch.empty_like(sums)
    bits = torch.empty_like(sums)
    BP = triton.next_power_of_2(P)
    BS = triton.next_power_of_2(PS)
    grid = (min(_VECTOR_CORES, NB),)
    _rice_partitions[grid](residual, order, sums, params, bits, NB, N, P, PS,
                           BP=BP, BS=BS, RICE_LIMIT=_RICE_LIMIT)
    return sums, params, bits

"""HSTU history truncation + padding: the last max_len rows of each user's jagged history, zero-padded."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _truncate_pad_fwd(values, offsets, out, B, L, D, stride_v, stride_ob, stride_ot,
                      BT: tl.constexpr, BD: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    n_tb = tl.cdiv(L, BT)
    cols = tl.arange(0, BD)
    cmask = cols < D
    for item in range(pid, B * n_tb, nprog):
        b = item // n_tb
        t = (item % n_tb) * BT + tl.arange(0, BT)
        start = tl.load(offsets + b).to(tl.int32)
        end = tl.load(offsets + b + 1).to(tl.int32)
        n = tl.minimum(end - start, L)
        src = values + (end - n + t)[:, None] * stride_v + cols[None, :]
        x = tl.load(src, mask=(t < n)[:, None] & cmask[None, :], other=0.0)
        dst = out + b * stride_ob + t[:, None] * stride_ot + cols[None, :]
        tl.store(dst, x, mask=(t < L)[:, None] & cmask[None, :])


def run(values: torch.Tensor, offsets: torch.Tensor, max_len: int) -> torch.Tensor:
    B = offsets.numel() - 1
    D = values.shape[1]
    out = torch.empty((B, max_len, D), device=values.device, dtype=values.dtype)
    BT, BD = 64, triton.next_power_of_2(D)
    items = B * triton.cdiv(max_len, BT)
    grid = (max(1, min(_VECTOR_CORES, items)),)
    _truncate_pad_fwd[grid](values, offsets, out, B, max_len, D, values.stride(0),
                            out.stride(0), out.stride(1), BT=BT, BD=BD)
    return out

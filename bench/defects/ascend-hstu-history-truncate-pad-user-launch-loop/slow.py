"""HSTU history truncation + padding: the last max_len rows of each user's jagged history, zero-padded."""
import torch
import triton
import triton.language as tl


@triton.jit
def _truncate_pad_fwd(values, offsets, out_b, b, L, D, stride_v, stride_ot,
                      BT: tl.constexpr, BD: tl.constexpr):
    t = tl.program_id(0) * BT + tl.arange(0, BT)
    cols = tl.arange(0, BD)
    cmask = cols < D
    start = tl.load(offsets + b).to(tl.int32)
    end = tl.load(offsets + b + 1).to(tl.int32)
    n = tl.minimum(end - start, L)
    src = values + (end - n + t)[:, None] * stride_v + cols[None, :]
    x = tl.load(src, mask=(t < n)[:, None] & cmask[None, :], other=0.0)
    dst = out_b + t[:, None] * stride_ot + cols[None, :]
    tl.store(dst, x, mask=(t < L)[:, None] & cmask[None, :])


def run(values: torch.Tensor, offsets: torch.Tensor, max_len: int) -> torch.Tensor:
    B = offsets.numel() - 1
    D = values.shape[1]
    out = torch.empty((B, max_len, D), device=values.device, dtype=values.dtype)
    BT, BD = 64, triton.next_power_of_2(D)
    grid = (triton.cdiv(max_len, BT),)
    for b in range(B):
        _truncate_pad_fwd[grid](values, offsets, out[b], b, max_len, D, values.stride(0),
                                out.stride(1), BT=BT, BD=BD)
    return out

"""HSTU relative time/position attention bias (rab), written to every head of [B, H, N, N]."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _hstu_rab_fwd(ts, ts_w, pos_w, out, B, N, NB, H, stride_tb, stride_ob, stride_oh,
                  BM: tl.constexpr, BN: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    n_ct = tl.cdiv(N, BN)
    tiles = tl.cdiv(N, BM) * n_ct
    for item in range(pid, B * tiles, nprog):
        b = item // tiles
        t = item % tiles
        rows = (t // n_ct) * BM + tl.arange(0, BM)
        cols = (t % n_ct) * BN + tl.arange(0, BN)
        rmask = rows < N
        cmask = cols < N
        mask = rmask[:, None] & cmask[None, :]
        ts_b = ts + b * stride_tb
        last = tl.load(ts_b + N - 1)
        tq = tl.load(ts_b + rows + 1, mask=rows + 1 < N, other=last)
        tk = tl.load(ts_b + cols, mask=cmask, other=0)
        dt = (tq[:, None] - tk[None, :]).to(tl.float32)
        q = tl.log(tl.maximum(tl.abs(dt), 1.0)) / 0.301
        bucket = tl.minimum(q, NB).to(tl.int32)
        tb = tl.load(ts_w + bucket, mask=mask, other=0.0)
        pb = tl.load(pos_w + (N - 1) + cols[None, :] - rows[:, None], mask=mask, other=0.0)
        bias = (tb + pb).to(out.dtype.element_ty)
        o = out + b * stride_ob + rows[:, None] * N + cols[None, :]
        for h in range(H):
            tl.store(o + h * stride_oh, bias, mask=mask)


def run(ts: torch.Tensor, ts_w: torch.Tensor, pos_w: torch.Tensor, num_heads: int) -> torch.Tensor:
    B, N = ts.shape
    out = torch.empty((B, num_heads, N, N), device=ts.device, dtype=torch.bfloat16)
    BM, BN = 16, 256
    tiles = B * triton.cdiv(N, BM) * triton.cdiv(N, BN)
    grid = (min(_VECTOR_CORES, tiles),)
    _hstu_rab_fwd[grid](ts, ts_w, pos_w, out, B, N, ts_w.numel() - 1, num_heads,
                        ts.stride(0), out.stride(0), out.stride(1), BM=BM, BN=BN)
    return out

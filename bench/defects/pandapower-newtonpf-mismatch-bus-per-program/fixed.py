"""Newton-Raphson power-flow mismatch V * conj(Ybus V) - Sbus over a batch of scenarios, Ybus in CSR."""
import torch
import triton
import triton.language as tl


@triton.jit
def _mismatch(vr, vi, sr, si, indptr, indices, yr, yi, out, N, stride_s, plane,
              ROWS: tl.constexpr, SLOTS: tl.constexpr):
    buses = tl.program_id(0) * ROWS + tl.arange(0, ROWS)
    row = tl.program_id(1) * stride_s
    ok = buses < N
    start = tl.load(indptr + buses, mask=ok, other=0)
    count = tl.load(indptr + buses + 1, mask=ok, other=0) - start
    slots = tl.arange(0, SLOTS)
    acc_r = tl.zeros([ROWS, SLOTS], dtype=tl.float32)
    acc_i = tl.zeros([ROWS, SLOTS], dtype=tl.float32)
    for j0 in range(0, tl.max(count, axis=0), SLOTS):
        used = (j0 + slots)[None, :] < count[:, None]
        nz = start[:, None] + j0 + slots[None, :]
        col = tl.load(indices + nz, mask=used, other=0)
        gr = tl.load(yr + nz, mask=used, other=0.0)
        gi = tl.load(yi + nz, mask=used, other=0.0)
        ur = tl.load(vr + row + col, mask=used, other=0.0)
        ui = tl.load(vi + row + col, mask=used, other=0.0)
        acc_r += gr * ur - gi * ui
        acc_i += gr * ui + gi * ur
    ir = tl.sum(acc_r, axis=1)
    ii = tl.sum(acc_i, axis=1)
    v_r = tl.load(vr + row + buses, mask=ok, other=0.0)
    v_i = tl.load(vi + row + buses, mask=ok, other=0.0)
    s_r = tl.load(sr + row + buses, mask=ok, other=0.0)
    s_i = tl.load(si + row + buses, mask=ok, other=0.0)
    tl.store(out + row + buses, v_r * ir + v_i * ii - s_r, mask=ok)
    tl.store(out + plane + row + buses, v_i * ir - v_r * ii - s_i, mask=ok)


def run(vr, vi, sr, si, indptr, indices, yr, yi) -> torch.Tensor:
    S, N = vr.shape
    out = torch.empty((2, S, N), device=vr.device, dtype=torch.float32)
    ROWS, SLOTS = 128, 8
    grid = (triton.cdiv(N, ROWS), S)
    _mismatch[grid](vr, vi, sr, si, indptr, indices, yr, yi, out, N, vr.stride(0), S * N,
                    ROWS=ROWS, SLOTS=SLOTS, num_warps=4)
    return out

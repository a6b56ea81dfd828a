"""Newton-Raphson power-flow mismatch V * conj(Ybus V) - Sbus over a batch of scenarios, Ybus in CSR."""
import torch
import triton
import triton.language as tl


@triton.jit
def _mismatch(vr, vi, sr, si, indptr, indices, yr, yi, out, N, stride_s, plane, SLOTS: tl.constexpr):
    bus = tl.program_id(0)
    row = tl.program_id(1) * stride_s
    start = tl.load(indptr + bus)
    end = tl.load(indptr + bus + 1)
    slots = tl.arange(0, SLOTS)
    acc_r = tl.zeros([SLOTS], dtype=tl.float32)
    acc_i = tl.zeros([SLOTS], dtype=tl.float32)
    for j0 in range(start, end, SLOTS):
        nz = j0 + slots
        used = nz < end
        col = tl.load(indices + nz, mask=used, other=0)
        gr = tl.load(yr + nz, mask=used, other=0.0)
        gi = tl.load(yi + nz, mask=used, other=0.0)
        ur = tl.load(vr + row + col, mask=used, other=0.0)
        ui = tl.load(vi + row + col, mask=used, other=0.0)
        acc_r += gr * ur - gi * ui
        acc_i += gr * ui + gi * ur
    ir = tl.sum(acc_r, axis=0)
    ii = tl.sum(acc_i, axis=0)
    v_r = tl.load(vr + row + bus)
    v_i = tl.load(vi + row + bus)
    s_r = tl.load(sr + row + bus)
    s_i = tl.load(si + row + bus)
    tl.store(out + row + bus, v_r * ir + v_i * ii - s_r)
    tl.store(out + plane + row + bus, v_i * ir - v_r * ii - s_i)


def run(vr, vi, sr, si, indptr, indices, yr, yi) -> torch.Tensor:
    S, N = vr.shape
    out = torch.empty((2, S, N), device=vr.device, dtype=torch.float32)
    SLOTS = 8
    _mismatch[(N, S)](vr, vi, sr, si, indptr, indices, yr, yi, out, N, vr.stride(0), S * N,
                      SLOTS=SLOTS, num_warps=1)
    return out

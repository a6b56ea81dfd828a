"""Box least squares search over phase-binned light curves (astropy BoxLeastSquares likelihood objective)."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
_MIN_FRAC = 1e-5


@triton.jit
def _bls_search(wy_ptr, w_ptr, dur_ptr, out_ptr, P, NB, ND, stride, sum_wy, sum_w, min_w,
                BN: tl.constexpr, BP: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    for pb in range(pid, tl.cdiv(P, BP), nprog):
        per = pb * BP + tl.arange(0, BP)
        pmask = per < P
        best = tl.zeros([BP], dtype=tl.float32)
        for k in range(ND):
            d = tl.load(dur_ptr + k)
            for n0 in range(0, NB, BN):
                bins = n0 + tl.arange(0, BN)
                mask = (bins < NB)[:, None] & pmask[None, :]
                offs = bins[:, None] * stride + per[None, :]
                # in-transit sums of the boxes [bin, bin + d), all BP periods at once
                y_in = tl.zeros([BN, BP], dtype=tl.float32)
                w_in = tl.zeros([BN, BP], dtype=tl.float32)
                for j in range(d):
                    y_in += tl.load(wy_ptr + offs + j * stride, mask=mask, other=0.0)
                    w_in += tl.load(w_ptr + offs + j * stride, mask=mask, other=0.0)
                w_out = sum_w - w_in
                ok = (w_in > min_w) & (w_out > min_w)
                depth = (sum_wy - y_in) / tl.where(ok, w_out, 1.0) - y_in / tl.where(ok, w_in, 1.0)
                obj = 0.5 * w_in * w_out / sum_w * depth * depth
                best = tl.maximum(best, tl.max(tl.where(ok & (depth > 0.0), obj, 0.0), axis=0))
        tl.store(out_ptr + per, best, mask=pmask)


def run(wy: torch.Tensor, w: torch.Tensor, durations: torch.Tensor, nb: int, sum_wy: float,
        sum_w: float) -> torch.Tensor:
    P = wy.shape[1]
    power = torch.empty(P, device=wy.device, dtype=torch.float32)
    BN, BP = 64, 32
    grid = (min(_VECTOR_CORES, triton.cdiv(P, BP)),)
    _bls_search[grid](wy, w, durations, power, P, nb, durations.shape[0], wy.stride(0),
                      sum_wy, sum_w, _MIN_FRAC * sum_w, BN=BN, BP=BP)
    return power

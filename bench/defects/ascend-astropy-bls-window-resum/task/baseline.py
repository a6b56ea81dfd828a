"""Box least squares search over phase-binned light curves (astropy BoxLeastSquares likelihood objective)."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
_MIN_FRAC = 1e-5


@triton.jit
def _bls_prefix(wy_ptr, w_ptr, cy_ptr, cw_ptr, P, NBX, stride, BN: tl.constexpr, BP: tl.constexpr):
    """Exclusive running sums down the bins: c[i, p] = sum of rows 0..i-1 of column p, i = 0..NBX."""
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    for pb in range(pid, tl.cdiv(P, BP), nprog):
        per = pb * BP + tl.arange(0, BP)
        pmask = per < P
        carry_y = tl.zeros([BP], dtype=tl.float32)
        carry_w = tl.zeros([BP], dtype=tl.float32)
        for n0 in range(0, NBX + 1, BN):
            bins = n0 + tl.arange(0, BN)
            offs = bins[:, None] * stride + per[None, :]
            lmask = (bins < NBX)[:, None] & pmask[None, :]
            smask = (bins < NBX + 1)[:, None] & pmask[None, :]
            a = tl.load(wy_ptr + offs, mask=lmask, other=0.0)
            b = tl.load(w_ptr + offs, mask=lmask, other=0.0)
            tl.store(cy_ptr + offs, tl.cumsum(a, axis=0) - a + carry_y[None, :], mask=smask)
            tl.store(cw_ptr + offs, tl.cumsum(b, axis=0) - b + carry_w[None, :], mask=smask)
            carry_y += tl.sum(a, axis=0)
            carry_w += tl.sum(b, axis=0)


@triton.jit
def _bls_search(cy_ptr, cw_ptr, dur_ptr, out_ptr, P, NB, ND, stride, sum_wy, sum_w, min_w,
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
                # in-transit sums of the boxes [bin, bin + d) from the running sums
                y_in = tl.load(cy_ptr + offs + d * stride, mask=mask, other=0.0) \
                    - tl.load(cy_ptr + offs, mask=mask, other=0.0)
                w_in = tl.load(cw_ptr + offs + d * stride, mask=mask, other=0.0) \
                    - tl.load(cw_ptr + offs, mask=mask, other=0.0)
                w_out = sum_w - w_in
                ok = (w_in > min_w) & (w_out > min_w)
                depth = (sum_wy - y_in) / tl.where(ok, w_out, 1.0) - y_in / tl.where(ok, w_in, 1.0)
                obj = 0.5 * w_in * w_out / sum_w * depth * depth
                best = tl.maximum(best, tl.max(tl.where(ok & (depth > 0.0), obj, 0.0), axis=0))
        tl.store(out_ptr + per, best, mask=pmask)


def run(wy: torch.Tensor, w: torch.Tensor, durations: torch.Tensor, nb: int, sum_wy: float,
        sum_w: float) -> torch.Tensor:
    NBX, P = wy.shape
    power = torch.empty(P, device=wy.device, dtype=torch.float32)
    cy = torch.empty((NBX + 1, P), device=wy.device, dtype=torch.float32)
    cw = torch.empty((NBX + 1, P), device=wy.device, dtype=torch.float32)
    BN, BP = 64, 32
    grid = (min(_VECTOR_CORES, triton.cdiv(P, BP)),)
    _bls_prefix[grid](wy, w, cy, cw, P, NBX, wy.stride(0), BN=BN, BP=BP)
    _bls_search[grid](cy, cw, durations, power, P, nb, durations.shape[0], cy.stride(0),
                      sum_wy, sum_w, _MIN_FRAC * sum_w, BN=BN, BP=BP)
    return power

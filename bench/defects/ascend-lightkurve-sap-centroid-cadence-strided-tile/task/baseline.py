"""Aperture photometry + moment centroids per cadence (lightkurve to_lightcurve / estimate_centroids)."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _sap_centroids(flux_ptr, aper_ptr, col_ptr, row_ptr, sap_ptr, ccol_ptr, crow_ptr,
                   T, P, n_tblk, n_items, BT: tl.constexpr, BP: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    p = tl.arange(0, BP)
    pm = p < P
    tl_ = tl.arange(0, BT)
    for item in range(pid, n_items, nprog):
        s = item // n_tblk
        t = (item % n_tblk) * BT + tl_
        tm = t < T
        a = tl.load(aper_ptr + s * P + p, mask=pm, other=0.0)
        pc = tl.load(col_ptr + s * P + p, mask=pm, other=0.0)
        pr = tl.load(row_ptr + s * P + p, mask=pm, other=0.0)
        f = tl.load(flux_ptr + s * T * P + t[:, None] * P + p[None, :],
                    mask=tm[:, None] & pm[None, :], other=0.0)
        fa = f * a[None, :]
        sap = tl.sum(fa, axis=1)
        ccol = tl.sum(fa * pc[None, :], axis=1) / sap
        crow = tl.sum(fa * pr[None, :], axis=1) / sap
        tl.store(sap_ptr + s * T + t, sap, mask=tm)
        tl.store(ccol_ptr + s * T + t, ccol, mask=tm)
        tl.store(crow_ptr + s * T + t, crow, mask=tm)


def run(flux: torch.Tensor, aperture: torch.Tensor, pix_col: torch.Tensor, pix_row: torch.Tensor) -> tuple:
    S, T, P = flux.shape
    sap = torch.empty((S, T), device=flux.device, dtype=flux.dtype)
    ccol = torch.empty_like(sap)
    crow = torch.empty_like(sap)
    BT = 32
    BP = triton.next_power_of_2(P)
    n_tblk = triton.cdiv(T, BT)
    n_items = S * n_tblk
    grid = (min(_VECTOR_CORES, n_items),)
    _sap_centroids[grid](flux, aperture, pix_col, pix_row, sap, ccol, crow,
                         T, P, n_tblk, n_items, BT=BT, BP=BP)
    return sap, ccol, crow

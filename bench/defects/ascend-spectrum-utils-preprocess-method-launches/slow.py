"""spectrum_utils MsmsSpectrum preprocessing chain on padded peak lists, on Ascend: one kernel per method."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
MIN_MZ, MAX_MZ, TOL, MIN_REL, PROTON = 101.0, 1500.0, 0.05, 0.01, 1.007276
MAX_CHARGE = 4


@triton.jit
def _set_mz_range(mz_ptr, int_ptr, out_ptr, S, P, LO: tl.constexpr, HI: tl.constexpr,
                  BR: tl.constexpr, BP: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    cols = tl.arange(0, BP)
    for blk in range(pid, tl.cdiv(S, BR), nprog):
        rows = blk * BR + tl.arange(0, BR)
        mask = (rows[:, None] < S) & (cols[None, :] < P)
        offs = rows[:, None] * P + cols[None, :]
        mz = tl.load(mz_ptr + offs, mask=mask, other=0.0)
        x = tl.load(int_ptr + offs, mask=mask, other=0.0)
        x = tl.where((mz >= LO) & (mz <= HI), x, 0.0)
        tl.store(out_ptr + offs, x, mask=mask)


@triton.jit
def _remove_precursor_peak(mz_ptr, int_ptr, pmz_ptr, chg_ptr, out_ptr, S, P, TOL_: tl.constexpr,
                           PROTON_: tl.constexpr, MAX_Z: tl.constexpr, BR: tl.constexpr, BP: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    cols = tl.arange(0, BP)
    for blk in range(pid, tl.cdiv(S, BR), nprog):
        rows = blk * BR + tl.arange(0, BR)
        rmask = rows < S
        mask = rmask[:, None] & (cols[None, :] < P)
        offs = rows[:, None] * P + cols[None, :]
        mz = tl.load(mz_ptr + offs, mask=mask, other=0.0)
        x = tl.load(int_ptr + offs, mask=mask, other=0.0)
        chg = tl.load(chg_ptr + rows, mask=rmask, other=0).to(tl.float32)
        neutral = (tl.load(pmz_ptr + rows, mask=rmask, other=0.0) - PROTON_) * chg
        for z in tl.static_range(1, MAX_Z + 1):
            # charges above the precursor's get an m/z no peak can be near
            rmz = tl.where(chg >= z, neutral / z + PROTON_, -1.0e6)
            x = tl.where(tl.abs(mz - rmz[:, None]) <= TOL_, 0.0, x)
        tl.store(out_ptr + offs, x, mask=mask)


@triton.jit
def _filter_intensity(int_ptr, out_ptr, S, P, REL: tl.constexpr, BR: tl.constexpr, BP: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    cols = tl.arange(0, BP)
    for blk in range(pid, tl.cdiv(S, BR), nprog):
        rows = blk * BR + tl.arange(0, BR)
        mask = (rows[:, None] < S) & (cols[None, :] < P)
        offs = rows[:, None] * P + cols[None, :]
        x = tl.load(int_ptr + offs, mask=mask, other=0.0)
        base = tl.max(x, axis=1)
        x = tl.where(x >= REL * base[:, None], x, 0.0)
        tl.store(out_ptr + offs, x, mask=mask)


@triton.jit
def _scale_intensity_root(int_ptr, out_ptr, S, P, BR: tl.constexpr, BP: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    cols = tl.arange(0, BP)
    for blk in range(pid, tl.cdiv(S, BR), nprog):
        rows = blk * BR + tl.arange(0, BR)
        mask = (rows[:, None] < S) & (cols[None, :] < P)
        offs = rows[:, None] * P + cols[None, :]
        x = tl.load(int_ptr + offs, mask=mask, other=0.0)
        r = tl.sqrt(x)
        top = tl.max(r, axis=1)
        scale = tl.where(top > 0.0, 1.0 / top, 0.0)
        tl.store(out_ptr + offs, r * scale[:, None], mask=mask)


def run(mz: torch.Tensor, inten: torch.Tensor, precursor_mz: torch.Tensor, charge: torch.Tensor) -> torch.Tensor:
    S, P = inten.shape
    BP = triton.next_power_of_2(P)
    BR = max(1, 2048 // BP)
    grid = (min(_VECTOR_CORES, triton.cdiv(S, BR)),)
    x1 = torch.empty_like(inten)
    _set_mz_range[grid](mz, inten, x1, S, P, LO=MIN_MZ, HI=MAX_MZ, BR=BR, BP=BP)
    x2 = torch.empty_like(inten)
    _remove_precursor_peak[grid](mz, x1, precursor_mz, charge, x2, S, P, TOL_=TOL, PROTON_=PROTON,
                                 MAX_Z=MAX_CHARGE, BR=BR, BP=BP)
    x3 = torch.empty_like(inten)
    _filter_intensity[grid](x2, x3, S, P, REL=MIN_REL, BR=BR, BP=BP)
    out = torch.empty_like(inten)
    _scale_intensity_root[grid](x3, out, S, P, BR=BR, BP=BP)
    return out

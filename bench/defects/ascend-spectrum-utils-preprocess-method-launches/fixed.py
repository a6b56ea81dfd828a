"""spectrum_utils MsmsSpectrum preprocessing chain on padded peak lists, on Ascend: the chain in one kernel."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
MIN_MZ, MAX_MZ, TOL, MIN_REL, PROTON = 101.0, 1500.0, 0.05, 0.01, 1.007276
MAX_CHARGE = 4


@triton.jit
def _preprocess(mz_ptr, int_ptr, pmz_ptr, chg_ptr, out_ptr, S, P, LO: tl.constexpr, HI: tl.constexpr,
                TOL_: tl.constexpr, PROTON_: tl.constexpr, MAX_Z: tl.constexpr, REL: tl.constexpr,
                BR: tl.constexpr, BP: tl.constexpr):
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
        # set_mz_range
        x = tl.where((mz >= LO) & (mz <= HI), x, 0.0)
        # remove_precursor_peak (with charge-reduced precursors)
        chg = tl.load(chg_ptr + rows, mask=rmask, other=0).to(tl.float32)
        neutral = (tl.load(pmz_ptr + rows, mask=rmask, other=0.0) - PROTON_) * chg
        for z in tl.static_range(1, MAX_Z + 1):
            # charges above the precursor's get an m/z no peak can be near
            rmz = tl.where(chg >= z, neutral / z + PROTON_, -1.0e6)
            x = tl.where(tl.abs(mz - rmz[:, None]) <= TOL_, 0.0, x)
        # filter_intensity
        base = tl.max(x, axis=1)
        x = tl.where(x >= REL * base[:, None], x, 0.0)
        # scale_intensity("root", max_intensity=1)
        r = tl.sqrt(x)
        top = tl.max(r, axis=1)
        scale = tl.where(top > 0.0, 1.0 / top, 0.0)
        tl.store(out_ptr + offs, r * scale[:, None], mask=mask)


def run(mz: torch.Tensor, inten: torch.Tensor, precursor_mz: torch.Tensor, charge: torch.Tensor) -> torch.Tensor:
    S, P = inten.shape
    BP = triton.next_power_of_2(P)
    BR = max(1, 2048 // BP)
    grid = (min(_VECTOR_CORES, triton.cdiv(S, BR)),)
    out = torch.empty_like(inten)
    _preprocess[grid](mz, inten, precursor_mz, charge, out, S, P, LO=MIN_MZ, HI=MAX_MZ, TOL_=TOL,
                      PROTON_=PROTON, MAX_Z=MAX_CHARGE, REL=MIN_REL, BR=BR, BP=BP)
    return out

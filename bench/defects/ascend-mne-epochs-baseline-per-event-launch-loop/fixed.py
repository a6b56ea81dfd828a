"""Epoching with baseline correction (mne.Epochs, baseline=(None, 0)): window each event, subtract the pre-stimulus mean."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
_ROWS = 4


@triton.jit
def _epoch_baseline(raw, onsets, out, pre, stride_raw, C, L, n_events, n_base, inv_base,
                    BR: tl.constexpr, BL: tl.constexpr, BB: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    j = tl.arange(0, BL)
    jb = tl.arange(0, BB)
    for e in range(pid, n_events, nprog):
        start = tl.load(onsets + e) - pre
        dst = out + e * C * L
        for cb in range(0, tl.cdiv(C, BR)):
            ch = cb * BR + tl.arange(0, BR)
            cmask = ch < C
            src = raw + ch[:, None] * stride_raw + start
            xb = tl.load(src + jb[None, :], mask=cmask[:, None] & (jb[None, :] < n_base), other=0.0)
            base = tl.sum(xb, axis=1) * inv_base
            mask = cmask[:, None] & (j[None, :] < L)
            x = tl.load(src + j[None, :], mask=mask, other=0.0)
            tl.store(dst + ch[:, None] * L + j[None, :], x - base[:, None], mask=mask)


def run(raw: torch.Tensor, onsets: torch.Tensor, pre: int, n_samp: int) -> torch.Tensor:
    C, _ = raw.shape
    n_events = onsets.shape[0]
    out = torch.empty((n_events, C, n_samp), device=raw.device, dtype=raw.dtype)
    n_base = pre + 1
    BL = triton.next_power_of_2(n_samp)
    BB = triton.next_power_of_2(n_base)
    grid = (min(_VECTOR_CORES, n_events),)
    _epoch_baseline[grid](raw, onsets, out, pre, raw.stride(0), C, n_samp, n_events, n_base, 1.0 / n_base,
                          BR=_ROWS, BL=BL, BB=BB)
    return out

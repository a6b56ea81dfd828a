"""Chromaprint chroma: every FFT bin in [10, 1308) folded into its pitch-class band."""
import torch
import triton
import triton.language as tl

SAMPLE_RATE = 11025
FRAME_SIZE = 4096
MIN_FREQ = 28
MAX_FREQ = 3520
N_BANDS = 12
BLOCK_F = 16
BLOCK_K = 256


@triton.jit
def _chroma_fold(spectra, notes, chroma, n_frames, stride, lo, hi,
                 N_BANDS: tl.constexpr, BANDS_POW2: tl.constexpr, BLOCK_F: tl.constexpr, BLOCK_K: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_F + tl.arange(0, BLOCK_F)
    cols = lo + tl.program_id(1) * BLOCK_K + tl.arange(0, BLOCK_K)
    row_ok = rows < n_frames
    col_ok = cols < hi
    band = tl.load(notes + cols, mask=col_ok, other=N_BANDS)
    ok = row_ok[:, None] & col_ok[None, :]
    energy = tl.load(spectra + rows[:, None] * stride + cols[None, :], mask=ok, other=0.0)
    bands = tl.arange(0, BANDS_POW2)
    one_hot = (band[:, None] == bands[None, :]).to(tl.float32)
    acc = tl.dot(energy, one_hot, input_precision="tf32x3")
    tl.atomic_add(chroma + rows[:, None] * N_BANDS + bands[None, :], acc,
                  mask=row_ok[:, None] & (bands[None, :] < N_BANDS))


def run(spectra: torch.Tensor, notes: torch.Tensor) -> torch.Tensor:
    n = spectra.shape[0]
    lo = max(1, round(FRAME_SIZE * MIN_FREQ / SAMPLE_RATE))
    hi = min(FRAME_SIZE // 2, round(FRAME_SIZE * MAX_FREQ / SAMPLE_RATE))
    chroma = torch.zeros((n, N_BANDS), device=spectra.device, dtype=torch.float32)
    grid = (triton.cdiv(n, BLOCK_F), triton.cdiv(hi - lo, BLOCK_K))
    _chroma_fold[grid](spectra, notes, chroma, n, spectra.stride(0), lo, hi,
                       N_BANDS=N_BANDS, BANDS_POW2=triton.next_power_of_2(N_BANDS),
                       BLOCK_F=BLOCK_F, BLOCK_K=BLOCK_K, num_warps=4)
    return chroma

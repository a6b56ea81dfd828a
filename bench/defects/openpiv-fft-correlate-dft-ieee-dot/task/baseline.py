"""OpenPIV fft_correlate_images (circular, normalized) over all interrogation windows of an image pair:
window extraction, normalize_intensity, 2-D DFTs as products with the DFT matrices, conj(A) * B,
inverse DFT with the fftshift folded in, scaling and clipping, one program per window pair."""
import torch
import triton
import triton.language as tl

PRECISION = "tf32"
_DFT = {}


@triton.jit
def _dft_table(cos_m, sin_m, N: tl.constexpr, BN: tl.constexpr):
    """cos and sin of 2 pi k n / N, zero-padded to [BN, BN]."""
    k = tl.arange(0, BN)[:, None]
    n = tl.arange(0, BN)[None, :]
    ok = (k < N) & (n < N)
    ang = ((k * n) % N).to(tl.float32) * (6.283185307179586 / N)
    tl.store(cos_m + k * BN + n, tl.where(ok, tl.cos(ang), 0.0))
    tl.store(sin_m + k * BN + n, tl.where(ok, tl.sin(ang), 0.0))


def _dft_matrices(N: int, BN: int, device) -> tuple:
    """The DFT matrices for window size N, built once per size and device."""
    key = (N, BN, str(device))
    if key not in _DFT:
        cos_m = torch.empty(BN, BN, device=device, dtype=torch.float32)
        sin_m = torch.empty(BN, BN, device=device, dtype=torch.float32)
        _dft_table[(1,)](cos_m, sin_m, N=N, BN=BN)
        _DFT[key] = (cos_m, sin_m)
    return _DFT[key]


@triton.jit
def _normalize(x, ok, inv_area):
    x = tl.where(ok, x - tl.sum(tl.sum(x, axis=1), axis=0) * inv_area, 0.0)
    sd = tl.sqrt(tl.sum(tl.sum(x * x, axis=1), axis=0) * inv_area)
    x = tl.where(sd > 0.0, x / tl.where(sd > 0.0, sd, 1.0), 0.0)
    return tl.maximum(x, 0.0)


@triton.jit
def _dft2(x, C, S, PRECISION: tl.constexpr):
    """Forward 2-D DFT of a real tile: F x F with F = C - iS; returns (real, imag)."""
    x1 = tl.dot(x, C, input_precision=PRECISION)
    x2 = tl.dot(x, S, input_precision=PRECISION)
    re = tl.dot(C, x1, input_precision=PRECISION) - tl.dot(S, x2, input_precision=PRECISION)
    im = -(tl.dot(C, x2, input_precision=PRECISION) + tl.dot(S, x1, input_precision=PRECISION))
    return re, im


@triton.jit
def _correlate_windows(fa, fb, cos_m, sin_m, out, W, n_cols, step, inv_area, scale,
                       N: tl.constexpr, BN: tl.constexpr, PRECISION: tl.constexpr):
    w = tl.program_id(0)
    r = w // n_cols
    c = w % n_cols
    ii = tl.arange(0, BN)[:, None]
    jj = tl.arange(0, BN)[None, :]
    ok = (ii < N) & (jj < N)
    pix = (r * step + ii) * W + c * step + jj
    a = _normalize(tl.load(fa + pix, mask=ok, other=0.0), ok, inv_area)
    b = _normalize(tl.load(fb + pix, mask=ok, other=0.0), ok, inv_area)
    C = tl.load(cos_m + ii * BN + jj)
    S = tl.load(sin_m + ii * BN + jj)

    ar, ai = _dft2(a, C, S, PRECISION)
    br, bi = _dft2(b, C, S, PRECISION)
    # conj(A) * B, times (-1)^(k + l): the fftshift of the result
    sign = tl.where(((ii + jj) % 2) == 0, 1.0, -1.0)
    pr = (ar * br + ai * bi) * sign
    pi = (ar * bi - ai * br) * sign
    # inverse: Re[(C + iS) P (C + iS)]
    yr = tl.dot(pr, C, input_precision=PRECISION) - tl.dot(pi, S, input_precision=PRECISION)
    yi = tl.dot(pr, S, input_precision=PRECISION) + tl.dot(pi, C, input_precision=PRECISION)
    res = tl.dot(C, yr, input_precision=PRECISION) - tl.dot(S, yi, input_precision=PRECISION)
    res = tl.minimum(tl.maximum(res * scale, 0.0), 1.0)
    tl.store(out + w * (N * N) + ii * N + jj, res, mask=ok)


def run(frame_a: torch.Tensor, frame_b: torch.Tensor, window: int, overlap: int) -> torch.Tensor:
    H, W = frame_a.shape
    N, step = window, window - overlap
    n_rows, n_cols = (H - N) // step + 1, (W - N) // step + 1
    BN = max(16, triton.next_power_of_2(N))
    cos_m, sin_m = _dft_matrices(N, BN, frame_a.device)
    out = torch.empty(n_rows * n_cols, N, N, device=frame_a.device, dtype=torch.float32)
    _correlate_windows[(n_rows * n_cols,)](frame_a, frame_b, cos_m, sin_m, out, W, n_cols, step,
                                           1.0 / (N * N), 1.0 / float(N) ** 4,
                                           N=N, BN=BN, PRECISION=PRECISION, num_warps=4)
    return out

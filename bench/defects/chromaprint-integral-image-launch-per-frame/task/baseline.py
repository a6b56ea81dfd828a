"""Chromaprint sub-fingerprints: integral image of the chroma image, then the 16 classifiers."""
import torch
import triton
import triton.language as tl

MAX_WIDTH = 16
BLOCK_T = 64
BLOCK = 128


@triton.jit
def _integral_image(image, ii, T, N_BANDS: tl.constexpr, BLOCK_T: tl.constexpr, COLS: tl.constexpr):
    """One program per track walks its frames in BLOCK_T-row chunks, carrying the last integral row.
    ii is band-major [B, N_BANDS + 1, T + 1] with a zero band 0 and a zero time 0."""
    b = tl.program_id(0)
    cols = tl.arange(0, COLS)
    col_in = (cols >= 1) & (cols <= N_BANDS)
    col_out = cols <= N_BANDS
    src = image + b * T * N_BANDS
    dst = ii + b * (N_BANDS + 1) * (T + 1)
    carry = tl.zeros([COLS], dtype=tl.float64)
    tl.store(dst + cols * (T + 1), carry, mask=col_out)
    for t0 in range(0, T, BLOCK_T):
        rows = t0 + tl.arange(0, BLOCK_T)
        row_ok = rows < T
        x = tl.load(src + rows[:, None] * N_BANDS + (cols[None, :] - 1),
                    mask=row_ok[:, None] & col_in[None, :], other=0.0).to(tl.float64)
        acc = tl.cumsum(tl.cumsum(x, axis=1), axis=0) + carry[None, :]
        tl.store(dst + cols[None, :] * (T + 1) + (rows[:, None] + 1), acc,
                 mask=row_ok[:, None] & col_out[None, :])
        last = tl.minimum(T - 1 - t0, BLOCK_T - 1)
        carry = tl.sum(tl.where(tl.arange(0, BLOCK_T)[:, None] == last, acc, 0.0), axis=0)


@triton.jit
def _area(img, r1, c1, r2, c2, mask, STRIDE):
    """Sum over frames [r1, r2) and bands [c1, c2) of one track's zero-padded, band-major integral image."""
    p = tl.load(img + c2 * STRIDE + r2, mask=mask, other=0.0)
    q = tl.load(img + c2 * STRIDE + r1, mask=mask, other=0.0)
    r = tl.load(img + c1 * STRIDE + r2, mask=mask, other=0.0)
    s = tl.load(img + c1 * STRIDE + r1, mask=mask, other=0.0)
    return p - q - r + s


@triton.jit
def _fingerprint(ii, filters, thresholds, fp, n_classifiers, T, n_sub, N_BANDS: tl.constexpr, BLOCK: tl.constexpr):
    b = tl.program_id(1)
    x = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    ok = x < n_sub
    S = T + 1
    img = ii + b * (N_BANDS + 1) * S
    bits = tl.zeros([BLOCK], dtype=tl.int32)
    for c in range(n_classifiers):
        kind = tl.load(filters + 4 * c)
        y = tl.load(filters + 4 * c + 1)
        h = tl.load(filters + 4 * c + 2)
        w = tl.load(filters + 4 * c + 3)
        t0 = tl.load(thresholds + 3 * c)
        t1 = tl.load(thresholds + 3 * c + 1)
        t2 = tl.load(thresholds + 3 * c + 2)
        if kind == 0:
            a = _area(img, x, y, x + w, y + h, ok, S)
            z = tl.zeros([BLOCK], dtype=tl.float64)
        elif kind == 1:
            a = _area(img, x, y + h // 2, x + w, y + h, ok, S)
            z = _area(img, x, y, x + w, y + h // 2, ok, S)
        elif kind == 2:
            a = _area(img, x + w // 2, y, x + w, y + h, ok, S)
            z = _area(img, x, y, x + w // 2, y + h, ok, S)
        elif kind == 3:
            a = (_area(img, x, y + h // 2, x + w // 2, y + h, ok, S)
                 + _area(img, x + w // 2, y, x + w, y + h // 2, ok, S))
            z = (_area(img, x, y, x + w // 2, y + h // 2, ok, S)
                 + _area(img, x + w // 2, y + h // 2, x + w, y + h, ok, S))
        elif kind == 4:
            a = _area(img, x, y + h // 3, x + w, y + 2 * (h // 3), ok, S)
            z = (_area(img, x, y, x + w, y + h // 3, ok, S)
                 + _area(img, x, y + 2 * (h // 3), x + w, y + h, ok, S))
        else:
            a = _area(img, x + w // 3, y, x + 2 * (w // 3), y + h, ok, S)
            z = (_area(img, x, y, x + w // 3, y + h, ok, S)
                 + _area(img, x + 2 * (w // 3), y, x + w, y + h, ok, S))
        v = tl.log((1.0 + a) / (1.0 + z))
        q = (v >= t0).to(tl.int32) + (v >= t1).to(tl.int32) + (v >= t2).to(tl.int32)
        bits = (bits << 2) | (q ^ (q >> 1))
    tl.store(fp + b * n_sub + x, bits, mask=ok)


def run(image: torch.Tensor, filters: torch.Tensor, thresholds: torch.Tensor) -> torch.Tensor:
    b, t, n_bands = image.shape
    n_sub = t - MAX_WIDTH + 1
    ii = torch.empty((b, n_bands + 1, t + 1), device=image.device, dtype=torch.float64)
    _integral_image[(b,)](image, ii, t, N_BANDS=n_bands, BLOCK_T=BLOCK_T,
                          COLS=triton.next_power_of_2(n_bands + 1))
    fp = torch.empty((b, n_sub), device=image.device, dtype=torch.int32)
    grid = (triton.cdiv(n_sub, BLOCK), b)
    _fingerprint[grid](ii, filters, thresholds, fp, filters.shape[0], t, n_sub, N_BANDS=n_bands, BLOCK=BLOCK)
    return fp

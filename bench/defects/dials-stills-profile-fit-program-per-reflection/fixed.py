"""Profile-fitted integration of 9x9 still shoeboxes: iteratively reweighted I = sum p(c-b)/v / sum p^2/v, v = b + I p."""
import torch
import triton
import triton.language as tl

N_ITER = 10
ROWS = 16


@triton.jit
def _profile_fit(counts, background, profile, mask, out_i, out_var, n_refl, n_pix,
                 N_ITER: tl.constexpr, ROWS: tl.constexpr, BLOCK: tl.constexpr):
    refl = tl.program_id(0) * ROWS + tl.arange(0, ROWS)
    pix = tl.arange(0, BLOCK)
    row_ok = refl < n_refl
    ok = row_ok[:, None] & (pix[None, :] < n_pix)
    idx = refl[:, None] * n_pix + pix[None, :]
    c = tl.load(counts + idx, mask=ok, other=0.0)
    b = tl.load(background + idx, mask=ok, other=1.0)
    p = tl.load(profile + idx, mask=ok, other=0.0)
    fg = tl.load(mask + idx, mask=ok, other=0) != 0
    p = tl.where(fg, p, 0.0)          # pixels outside the foreground drop out of every sum
    d = tl.where(fg, c - b, 0.0)
    intensity = tl.sum(d, axis=1)     # summation integration as the starting value
    for _ in range(N_ITER):
        v = b + tl.maximum(intensity, 0.0)[:, None] * p
        w = p / v
        intensity = tl.sum(w * d, axis=1) / tl.sum(w * p, axis=1)
    v = b + tl.maximum(intensity, 0.0)[:, None] * p
    var = 1.0 / tl.sum(p * p / v, axis=1)
    tl.store(out_i + refl, intensity, mask=row_ok)
    tl.store(out_var + refl, var, mask=row_ok)


def run(counts, background, profile, mask) -> tuple:
    n_refl, n_pix = counts.shape
    out_i = torch.empty(n_refl, device=counts.device, dtype=torch.float32)
    out_var = torch.empty(n_refl, device=counts.device, dtype=torch.float32)
    _profile_fit[(triton.cdiv(n_refl, ROWS),)](counts, background, profile, mask, out_i, out_var, n_refl, n_pix,
                                               N_ITER=N_ITER, ROWS=ROWS, BLOCK=triton.next_power_of_2(n_pix))
    return out_i, out_var

"""DeepFilterNet deep filter: complex FIR of df_order past/future frames per low STFT bin, rest copied."""
import torch
import triton
import triton.language as tl

BLOCK_T = 16
BLOCK_F = 64


@triton.jit
def _deep_filter(spec, coefs, out, T, F, NB_DF,
                 ORDER: tl.constexpr, LOOKAHEAD: tl.constexpr, BLOCK_T: tl.constexpr, BLOCK_F: tl.constexpr):
    f0 = tl.program_id(1) * BLOCK_F  # a tile of frames x bins, bins on the contiguous axis
    b = tl.program_id(2)
    t = tl.program_id(0) * BLOCK_T + tl.arange(0, BLOCK_T)[:, None]
    f = f0 + tl.arange(0, BLOCK_F)[None, :]
    t_ok = t < T
    ok = t_ok & (f < F)
    dst = ((b * T + t) * F + f) * 2
    if f0 < NB_DF:
        df_ok = t_ok & (f < NB_DF)
        acc_r = tl.zeros([BLOCK_T, BLOCK_F], dtype=tl.float32)
        acc_i = tl.zeros([BLOCK_T, BLOCK_F], dtype=tl.float32)
        for n in tl.static_range(ORDER):
            ts = t + (n - (ORDER - 1 - LOOKAHEAD))
            x_ok = df_ok & (ts >= 0) & (ts < T)
            src = ((b * T + ts) * F + f) * 2
            xr = tl.load(spec + src, mask=x_ok, other=0.0)
            xi = tl.load(spec + src + 1, mask=x_ok, other=0.0)
            c = (((b * ORDER + n) * T + t) * NB_DF + f) * 2
            cr = tl.load(coefs + c, mask=df_ok, other=0.0)
            ci = tl.load(coefs + c + 1, mask=df_ok, other=0.0)
            acc_r += xr * cr - xi * ci
            acc_i += xr * ci + xi * cr
        # a bin block straddling nb_df copies its upper bins
        keep_r = tl.load(spec + dst, mask=ok & (f >= NB_DF), other=0.0)
        keep_i = tl.load(spec + dst + 1, mask=ok & (f >= NB_DF), other=0.0)
        tl.store(out + dst, tl.where(f < NB_DF, acc_r, keep_r), mask=ok)
        tl.store(out + dst + 1, tl.where(f < NB_DF, acc_i, keep_i), mask=ok)
    else:
        tl.store(out + dst, tl.load(spec + dst, mask=ok), mask=ok)
        tl.store(out + dst + 1, tl.load(spec + dst + 1, mask=ok), mask=ok)


def run(spec: torch.Tensor, coefs: torch.Tensor, lookahead: int) -> torch.Tensor:
    n_b, n_t, n_f, _ = spec.shape
    order, nb_df = coefs.shape[1], coefs.shape[3]
    out = torch.empty_like(spec)
    grid = (triton.cdiv(n_t, BLOCK_T), triton.cdiv(n_f, BLOCK_F), n_b)
    _deep_filter[grid](spec, coefs, out, n_t, n_f, nb_df,
                       ORDER=order, LOOKAHEAD=lookahead, BLOCK_T=BLOCK_T, BLOCK_F=BLOCK_F, num_warps=4)
    return out

"""DeepFilterNet deep filter: complex FIR of df_order past/future frames per low STFT bin, rest copied."""
import torch
import triton
import triton.language as tl

BLOCK_T = 128


@triton.jit
def _deep_filter(spec, coefs, out, T, F, NB_DF,
                 ORDER: tl.constexpr, LOOKAHEAD: tl.constexpr, BLOCK_T: tl.constexpr):
    f = tl.program_id(0)          # one frequency bin per program: the filter runs along time
    b = tl.program_id(1)
    for t0 in range(0, T, BLOCK_T):
        t = t0 + tl.arange(0, BLOCK_T)
        t_ok = t < T
        dst = ((b * T + t) * F + f) * 2
        if f < NB_DF:
            acc_r = tl.zeros([BLOCK_T], dtype=tl.float32)
            acc_i = tl.zeros([BLOCK_T], dtype=tl.float32)
            for n in tl.static_range(ORDER):
                ts = t + (n - (ORDER - 1 - LOOKAHEAD))
                x_ok = t_ok & (ts >= 0) & (ts < T)
                src = ((b * T + ts) * F + f) * 2
                xr = tl.load(spec + src, mask=x_ok, other=0.0)
                xi = tl.load(spec + src + 1, mask=x_ok, other=0.0)
                c = (((b * ORDER + n) * T + t) * NB_DF + f) * 2
                cr = tl.load(coefs + c, mask=t_ok, other=0.0)
                ci = tl.load(coefs + c + 1, mask=t_ok, other=0.0)
                acc_r += xr * cr - xi * ci
                acc_i += xr * ci + xi * cr
            tl.store(out + dst, acc_r, mask=t_ok)
            tl.store(out + dst + 1, acc_i, mask=t_ok)
        else:
            tl.store(out + dst, tl.load(spec + dst, mask=t_ok), mask=t_ok)
            tl.store(out + dst + 1, tl.load(spec + dst + 1, mask=t_ok), mask=t_ok)


def run(spec: torch.Tensor, coefs: torch.Tensor, lookahead: int) -> torch.Tensor:
    n_b, n_t, n_f, _ = spec.shape
    order, nb_df = coefs.shape[1], coefs.shape[3]
    out = torch.empty_like(spec)
    _deep_filter[(n_f, n_b)](spec, coefs, out, n_t, n_f, nb_df,
                             ORDER=order, LOOKAHEAD=lookahead, BLOCK_T=BLOCK_T, num_warps=4)
    return out

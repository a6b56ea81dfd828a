"""VE/E/P/L/VL multicorrelator: carrier wipe-off and code correlation for a bank of tracking channels."""
import torch
import triton
import triton.language as tl


@triton.jit
def _veml_tap(samples, codes, ant, prn, carrier, code_nco, shifts, corr, ch, N, L, K,
              BLOCK: tl.constexpr):
    tap = tl.program_id(0)
    x_row = samples + tl.load(ant + ch) * N * 2
    code_row = codes + tl.load(prn + ch) * L
    rem_carr = tl.load(carrier + 2 * ch)
    carr_step = tl.load(carrier + 2 * ch + 1)
    rem_code = tl.load(code_nco + 2 * ch)
    code_step = tl.load(code_nco + 2 * ch + 1)
    shift = tl.load(shifts + tap)
    lanes = tl.arange(0, BLOCK)
    acc_re = tl.zeros([BLOCK], dtype=tl.float32)
    acc_im = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, N, BLOCK):
        n = start + lanes
        ok = n < N
        xr = tl.load(x_row + 2 * n, mask=ok, other=0.0)
        xi = tl.load(x_row + 2 * n + 1, mask=ok, other=0.0)
        phase = rem_carr + n.to(tl.float32) * carr_step
        c = tl.cos(phase)
        s = tl.sin(phase)
        idx = (n * code_step + shift - rem_code) >> 16
        idx = tl.where(idx < 0, idx + L, idx)
        idx = tl.where(idx >= L, idx - L, idx)
        code = tl.load(code_row + idx, mask=ok, other=0.0)
        acc_re += (xr * c + xi * s) * code
        acc_im += (xi * c - xr * s) * code
    out = corr + (ch * K + tap) * 2
    tl.store(out, tl.sum(acc_re, axis=0))
    tl.store(out + 1, tl.sum(acc_im, axis=0))


def run(samples, codes, ant, prn, carrier, code_nco, shifts):
    A, N, _ = samples.shape
    C = ant.shape[0]
    K = shifts.shape[0]
    corr = torch.empty((C, K, 2), device=samples.device, dtype=torch.float32)
    for ch in range(C):
        _veml_tap[(K,)](samples, codes, ant, prn, carrier, code_nco, shifts, corr, ch, N, codes.shape[1], K,
                        BLOCK=1024, num_warps=8)
    return corr

"""SpeexDSP preprocessor (speex_preprocess_run): per-bin noise estimate, a priori SNR and Wiener gain."""
import torch
import triton
import triton.language as tl

BLOCK = 32
NOISE_FLOOR = 10.0 ** (-15.0 / 10.0)


@triton.jit
def _bin_update(p, pl, pr, edge, smooth, smin, stmp, noise, old_ps, beta, reset, first, FLOOR: tl.constexpr):
    """One frame of update_noise_prob() + the noise / SNR / gain part of speex_preprocess_run()."""
    local = tl.where(edge, 0.2 * p, 0.1 * p + 0.05 * (pl + pr))
    smooth = 0.8 * smooth + local
    smin = tl.where(reset, tl.minimum(stmp, smooth), tl.minimum(smin, smooth))
    stmp = tl.where(reset, smooth, tl.minimum(stmp, smooth))
    u = tl.minimum(tl.maximum(1.0 - smin / (0.4 * smooth), 0.0), 1.0)
    noise = (1.0 - beta) * noise + beta * tl.minimum(p, noise) + beta * (1.0 - u) * tl.maximum(p - noise, 0.0)
    old_ps = tl.where(first, p, old_ps)
    tot = 1.0 + noise
    post = tl.minimum(p / tot - 1.0, 100.0)
    r = old_ps / (old_ps + tot)
    gamma = 0.1 + 0.89 * r * r
    prior = tl.minimum(gamma * tl.maximum(post, 0.0) + (1.0 - gamma) * old_ps / tot, 100.0)
    gw = prior / (1.0 + prior)
    g = tl.minimum(tl.maximum(gw, tl.sqrt(FLOOR * noise / (1.0 + p))), 1.0)
    old_ps = 0.2 * old_ps + 0.8 * gw * gw * p
    return g, smooth, smin, stmp, noise, old_ps


@triton.jit
def _preprocess_stream(ps, gain, noise_out, T, N, FLOOR: tl.constexpr, BLOCK: tl.constexpr):
    s = tl.program_id(0)
    i = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    ok = i < N
    edge = (i == 0) | (i == N - 1)
    smooth = tl.zeros([BLOCK], dtype=tl.float32)
    smin = tl.zeros([BLOCK], dtype=tl.float32)
    stmp = tl.zeros([BLOCK], dtype=tl.float32)
    noise = tl.full([BLOCK], 1.0, dtype=tl.float32)
    old_ps = tl.zeros([BLOCK], dtype=tl.float32)
    min_count = tl.full([], 0, dtype=tl.int32)
    for t in range(T):  # the frames of this stream, state kept in registers
        nb_adapt = tl.minimum(t + 1, 20000)
        min_count += 1
        min_range = tl.where(nb_adapt < 100, 15, tl.where(nb_adapt < 1000, 50, tl.where(nb_adapt < 10000, 150, 300)))
        reset = min_count > min_range
        min_count = tl.where(reset, 0, min_count)
        beta = tl.maximum(0.03, 1.0 / nb_adapt.to(tl.float32))
        frame = ps + (s * T + t) * N
        p = tl.load(frame + i, mask=ok, other=0.0)
        pl = tl.load(frame + i - 1, mask=ok & (i > 0), other=0.0)
        pr = tl.load(frame + i + 1, mask=i < N - 1, other=0.0)
        g, smooth, smin, stmp, noise, old_ps = _bin_update(p, pl, pr, edge, smooth, smin, stmp,
                                                           noise, old_ps, beta, reset, t == 0, FLOOR)
        tl.store(gain + (s * T + t) * N + i, g, mask=ok)
    tl.store(noise_out + s * N + i, noise, mask=ok)


def run(ps: torch.Tensor) -> tuple:
    n_s, n_t, n = ps.shape
    gain = torch.empty_like(ps)
    noise = torch.empty(n_s, n, device=ps.device, dtype=torch.float32)
    grid = (n_s, triton.cdiv(n, BLOCK))
    _preprocess_stream[grid](ps, gain, noise, n_t, n, FLOOR=NOISE_FLOOR, BLOCK=BLOCK, num_warps=1)
    return gain, noise

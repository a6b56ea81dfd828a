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
def _preprocess_frame(ps, gain, smooth_st, smin_st, stmp_st, noise_st, old_ps_st, t, T, N,
                      beta, reset, first, FLOOR: tl.constexpr, BLOCK: tl.constexpr):
    s = tl.program_id(0)
    i = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    ok = i < N
    frame = ps + (s * T + t) * N
    p = tl.load(frame + i, mask=ok, other=0.0)
    pl = tl.load(frame + i - 1, mask=ok & (i > 0), other=0.0)
    pr = tl.load(frame + i + 1, mask=i < N - 1, other=0.0)
    st = s * N + i
    smooth = tl.load(smooth_st + st, mask=ok, other=1.0)
    smin = tl.load(smin_st + st, mask=ok, other=0.0)
    stmp = tl.load(stmp_st + st, mask=ok, other=0.0)
    noise = tl.load(noise_st + st, mask=ok, other=1.0)
    old_ps = tl.load(old_ps_st + st, mask=ok, other=0.0)
    if first != 0:  # speex_preprocess_state_init()
        smooth = tl.zeros([BLOCK], dtype=tl.float32)
        smin = tl.zeros([BLOCK], dtype=tl.float32)
        stmp = tl.zeros([BLOCK], dtype=tl.float32)
        noise = tl.full([BLOCK], 1.0, dtype=tl.float32)
    g, smooth, smin, stmp, noise, old_ps = _bin_update(p, pl, pr, (i == 0) | (i == N - 1), smooth, smin, stmp,
                                                       noise, old_ps, beta, reset != 0, first != 0, FLOOR)
    tl.store(gain + (s * T + t) * N + i, g, mask=ok)
    tl.store(smooth_st + st, smooth, mask=ok)
    tl.store(smin_st + st, smin, mask=ok)
    tl.store(stmp_st + st, stmp, mask=ok)
    tl.store(noise_st + st, noise, mask=ok)
    tl.store(old_ps_st + st, old_ps, mask=ok)


def _min_range(nb_adapt: int) -> int:
    return 15 if nb_adapt < 100 else 50 if nb_adapt < 1000 else 150 if nb_adapt < 10000 else 300


def run(ps: torch.Tensor) -> tuple:
    n_s, n_t, n = ps.shape
    gain = torch.empty_like(ps)
    smooth = torch.empty(n_s, n, device=ps.device, dtype=torch.float32)
    smin = torch.empty(n_s, n, device=ps.device, dtype=torch.float32)
    stmp = torch.empty(n_s, n, device=ps.device, dtype=torch.float32)
    noise = torch.empty(n_s, n, device=ps.device, dtype=torch.float32)
    old_ps = torch.empty(n_s, n, device=ps.device, dtype=torch.float32)
    grid = (n_s, triton.cdiv(n, BLOCK))
    min_count = 0
    for t in range(n_t):  # speex_preprocess_run() once per frame
        nb_adapt = min(t + 1, 20000)
        min_count += 1
        reset = min_count > _min_range(nb_adapt)
        if reset:
            min_count = 0
        _preprocess_frame[grid](ps, gain, smooth, smin, stmp, noise, old_ps, t, n_t, n,
                                max(0.03, 1.0 / nb_adapt), int(reset), int(t == 0),
                                FLOOR=NOISE_FLOOR, BLOCK=BLOCK, num_warps=1)
    return gain, noise

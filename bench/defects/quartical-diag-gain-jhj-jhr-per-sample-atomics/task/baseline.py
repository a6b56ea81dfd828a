"""Diagonal complex gains: JHr / JHJ normal-equation terms (QuartiCal compute_jhj_jhr), scattered to both stations."""
import torch
import triton
import triton.language as tl

BLOCK_C = 64


@triton.jit
def _jhj_jhr(vis, model, ant1, ant2, gains, jhr, jhj, n_time, n_chan, n_ant, t_int,
             BLOCK_T: tl.constexpr, BLOCK_C: tl.constexpr):
    bl = tl.program_id(0)
    ti = tl.program_id(1)
    chans = tl.program_id(2) * BLOCK_C + tl.arange(0, BLOCK_C)
    steps = tl.arange(0, BLOCK_T)
    times = ti * t_int + steps
    chan_ok = chans < n_chan
    ok = ((steps < t_int) & (times < n_time))[:, None] & chan_ok[None, :]
    p = tl.load(ant1 + bl)
    q = tl.load(ant2 + bl)

    off = 2 * ((bl * n_time + times[:, None]) * n_chan + chans[None, :])
    v_re = tl.load(vis + off, mask=ok, other=0.0)
    v_im = tl.load(vis + off + 1, mask=ok, other=0.0)
    m_re = tl.load(model + off, mask=ok, other=0.0)
    m_im = tl.load(model + off + 1, mask=ok, other=0.0)
    slot_p = (ti * n_ant + p) * n_chan + chans
    slot_q = (ti * n_ant + q) * n_chan + chans
    gp_re = tl.load(gains + 2 * slot_p, mask=chan_ok, other=0.0)[None, :]
    gp_im = tl.load(gains + 2 * slot_p + 1, mask=chan_ok, other=0.0)[None, :]
    gq_re = tl.load(gains + 2 * slot_q, mask=chan_ok, other=0.0)[None, :]
    gq_im = tl.load(gains + 2 * slot_q + 1, mask=chan_ok, other=0.0)[None, :]

    # station p: z = M conj(g_q); JHr += conj(z) V, JHJ += |z|^2
    z_re = m_re * gq_re + m_im * gq_im
    z_im = m_im * gq_re - m_re * gq_im
    rp_re = z_re * v_re + z_im * v_im
    rp_im = z_re * v_im - z_im * v_re
    hp = z_re * z_re + z_im * z_im
    # station q: conj(y) conj(V) = M g_p conj(V), |y|^2 = |M|^2 |g_p|^2
    w_re = m_re * gp_re - m_im * gp_im
    w_im = m_re * gp_im + m_im * gp_re
    rq_re = w_re * v_re + w_im * v_im
    rq_im = w_im * v_re - w_re * v_im
    hq = (m_re * m_re + m_im * m_im) * (gp_re * gp_re + gp_im * gp_im)

    # sum the interval's timesteps first, then one vector atomic per station and term
    tl.atomic_add(jhr + 2 * slot_p, tl.sum(rp_re, axis=0), mask=chan_ok)
    tl.atomic_add(jhr + 2 * slot_p + 1, tl.sum(rp_im, axis=0), mask=chan_ok)
    tl.atomic_add(jhj + slot_p, tl.sum(hp, axis=0), mask=chan_ok)
    tl.atomic_add(jhr + 2 * slot_q, tl.sum(rq_re, axis=0), mask=chan_ok)
    tl.atomic_add(jhr + 2 * slot_q + 1, tl.sum(rq_im, axis=0), mask=chan_ok)
    tl.atomic_add(jhj + slot_q, tl.sum(hq, axis=0), mask=chan_ok)


def run(vis: torch.Tensor, model: torch.Tensor, ant1: torch.Tensor, ant2: torch.Tensor,
        gains: torch.Tensor, t_int: int) -> tuple:
    n_bl, n_time, n_chan = vis.shape[0], vis.shape[1], vis.shape[2]
    n_tint, n_ant = gains.shape[0], gains.shape[1]
    jhr = torch.zeros(n_tint, n_ant, n_chan, 2, device=vis.device, dtype=torch.float32)
    jhj = torch.zeros(n_tint, n_ant, n_chan, device=vis.device, dtype=torch.float32)
    grid = (n_bl, n_tint, triton.cdiv(n_chan, BLOCK_C))
    _jhj_jhr[grid](vis, model, ant1, ant2, gains, jhr, jhj, n_time, n_chan, n_ant, t_int,
                   BLOCK_T=triton.next_power_of_2(t_int), BLOCK_C=BLOCK_C, num_warps=4)
    return jhr, jhj

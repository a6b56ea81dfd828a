"""StEFCal iteration (DP3 gaincal, scalar gains): g_p' = sum_q conj(M_pq conj(g_q)) R_pq / sum_q |M_pq g_q|^2, averaged."""
import torch
import triton
import triton.language as tl

INTERVALS_PER_PROGRAM = 16


@triton.jit
def _stefcal_update(R, M, g, g_next, n_int, n_ant, BLOCK_N: tl.constexpr, CHUNK: tl.constexpr):
    p = tl.program_id(0)                          # one station and one chunk of intervals per program
    t0 = tl.program_id(1) * CHUNK
    q = tl.arange(0, BLOCK_N)
    cross = (q < n_ant) & (q != p)                # skip the autocorrelation
    for t in range(t0, tl.minimum(t0 + CHUNK, n_int)):
        row = (t * n_ant + p) * n_ant + q         # complex element (t, p, q)
        r_re = tl.load(R + 2 * row, mask=cross, other=0.0)
        r_im = tl.load(R + 2 * row + 1, mask=cross, other=0.0)
        m_re = tl.load(M + 2 * row, mask=cross, other=0.0)
        m_im = tl.load(M + 2 * row + 1, mask=cross, other=0.0)
        gq = t * n_ant + q
        gq_re = tl.load(g + 2 * gq, mask=cross, other=0.0)
        gq_im = tl.load(g + 2 * gq + 1, mask=cross, other=0.0)
        # z_q = M_pq * conj(g_q)
        z_re = m_re * gq_re + m_im * gq_im
        z_im = m_im * gq_re - m_re * gq_im
        # sum conj(z_q) R_pq and sum |z_q|^2
        num_re = tl.sum(z_re * r_re + z_im * r_im, axis=0)
        num_im = tl.sum(z_re * r_im - z_im * r_re, axis=0)
        den = tl.sum(z_re * z_re + z_im * z_im, axis=0)
        gp = t * n_ant + p
        gp_re = tl.load(g + 2 * gp)
        gp_im = tl.load(g + 2 * gp + 1)
        tl.store(g_next + 2 * gp, 0.5 * (num_re / den + gp_re))
        tl.store(g_next + 2 * gp + 1, 0.5 * (num_im / den + gp_im))


def run(R: torch.Tensor, M: torch.Tensor, g: torch.Tensor) -> torch.Tensor:
    n_int, n_ant = g.shape[0], g.shape[1]
    g_next = torch.empty_like(g)
    grid = (n_ant, triton.cdiv(n_int, INTERVALS_PER_PROGRAM))
    _stefcal_update[grid](R, M, g, g_next, n_int, n_ant,
                          BLOCK_N=triton.next_power_of_2(n_ant), CHUNK=INTERVALS_PER_PROGRAM, num_warps=4)
    return g_next

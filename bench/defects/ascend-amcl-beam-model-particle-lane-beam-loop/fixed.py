"""AMCL beam sensor model: AMCL's hit/short/max/rand mixture per (particle, beam), cube-summed per particle."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
BLOCK_P = 32
BLOCK_B = 128


@triton.jit
def _beam_model(expected, obs, w_in, w_out, P, B, stride_e,
                z_hit, short_coef, lambda_short, z_max, rand_term, inv_two_var, range_max,
                BLOCK_P: tl.constexpr, BLOCK_B: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    for tile in range(pid, tl.cdiv(P, BLOCK_P), nprog):
        rows = tile * BLOCK_P + tl.arange(0, BLOCK_P)
        rmask = rows < P
        p = tl.zeros([BLOCK_P], dtype=tl.float32)
        for b0 in range(0, B, BLOCK_B):
            beams = b0 + tl.arange(0, BLOCK_B)
            bmask = beams < B
            # beams past the end of the scan read as no return at infinity: pz = 0 there
            r = tl.load(obs + beams, mask=bmask, other=float("inf"))
            e = tl.load(expected + rows[:, None] * stride_e + beams[None, :],
                        mask=rmask[:, None] & bmask[None, :], other=0.0)
            z = r[None, :] - e
            pz = z_hit * tl.exp(-(z * z) * inv_two_var)
            short = short_coef * tl.exp(-lambda_short * r)
            pz += tl.where(z < 0.0, short[None, :], 0.0)
            per_beam = tl.where(r == range_max, z_max, 0.0) + tl.where(r < range_max, rand_term, 0.0)
            pz += per_beam[None, :]
            p += tl.sum(pz * pz * pz, axis=1)
        w = tl.load(w_in + rows, mask=rmask, other=0.0)
        tl.store(w_out + rows, w * (1.0 + p), mask=rmask)


def run(expected: torch.Tensor, obs: torch.Tensor, weights: torch.Tensor, z_hit: float, z_short: float,
        z_max: float, z_rand: float, sigma_hit: float, lambda_short: float, range_max: float) -> torch.Tensor:
    P, B = expected.shape
    out = torch.empty_like(weights)
    grid = (min(_VECTOR_CORES, triton.cdiv(P, BLOCK_P)),)
    _beam_model[grid](expected, obs, weights, out, P, B, expected.stride(0),
                      z_hit, z_short * lambda_short, lambda_short, z_max, z_rand / range_max,
                      1.0 / (2.0 * sigma_hit * sigma_hit), range_max,
                      BLOCK_P=BLOCK_P, BLOCK_B=BLOCK_B)
    return out

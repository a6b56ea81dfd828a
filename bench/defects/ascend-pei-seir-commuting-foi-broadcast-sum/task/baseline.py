"""Commuting-coupled SEIR day step: force of infection from the county mixing matrix, then the update."""
import torch
import triton
import triton.language as tl

_AI_CORES = 20


@triton.jit
def _seir_commuting_step(state, mix, rates, out, R, E, stride_c, stride_r, stride_m, stride_p,
                         BLOCK_I: tl.constexpr, BLOCK_J: tl.constexpr, BLOCK_E: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    for ti in range(pid, tl.cdiv(R, BLOCK_I), nprog):
        rows = ti * BLOCK_I + tl.arange(0, BLOCK_I)
        rmask = rows < R
        for e0 in range(0, E, BLOCK_E):
            ens = e0 + tl.arange(0, BLOCK_E)
            emask = ens < E
            # pressure[i, e] = sum_j mix[i, j] * I[j, e]
            acc = tl.zeros((BLOCK_I, BLOCK_E), dtype=tl.float32)
            for j0 in range(0, R, BLOCK_J):
                src = j0 + tl.arange(0, BLOCK_J)
                smask = src < R
                m = tl.load(mix + rows[:, None] * stride_m + src[None, :],
                            mask=rmask[:, None] & smask[None, :], other=0.0)
                inf_src = tl.load(state + 2 * stride_c + src[:, None] * stride_r + ens[None, :],
                                  mask=smask[:, None] & emask[None, :], other=0.0)
                acc += tl.dot(m, inf_src)
            beta = tl.load(rates + ens, mask=emask, other=0.0)
            sigma = tl.load(rates + stride_p + ens, mask=emask, other=0.0)
            gamma = tl.load(rates + 2 * stride_p + ens, mask=emask, other=0.0)
            tmask = rmask[:, None] & emask[None, :]
            base = rows[:, None] * stride_r + ens[None, :]
            s = tl.load(state + base, mask=tmask, other=0.0)
            e = tl.load(state + stride_c + base, mask=tmask, other=0.0)
            i = tl.load(state + 2 * stride_c + base, mask=tmask, other=0.0)
            r = tl.load(state + 3 * stride_c + base, mask=tmask, other=0.0)
            lam = beta[None, :] * acc
            new_e = s * (1.0 - tl.exp(-lam))
            new_i = e * (1.0 - tl.exp(-sigma))[None, :]
            new_r = i * (1.0 - tl.exp(-gamma))[None, :]
            tl.store(out + base, s - new_e, mask=tmask)
            tl.store(out + stride_c + base, e + new_e - new_i, mask=tmask)
            tl.store(out + 2 * stride_c + base, i + new_i - new_r, mask=tmask)
            tl.store(out + 3 * stride_c + base, r + new_r, mask=tmask)


def run(state: torch.Tensor, mix: torch.Tensor, rates: torch.Tensor) -> torch.Tensor:
    _, R, E = state.shape
    out = torch.empty_like(state)
    BLOCK_I, BLOCK_J, BLOCK_E = 64, 64, 128    # cube tiles: [64, 64] @ [64, 128] into an fp32 accumulator
    tiles = triton.cdiv(R, BLOCK_I) * triton.cdiv(E, BLOCK_E)
    grid = (min(_AI_CORES, tiles),)
    _seir_commuting_step[grid](state, mix, rates, out, R, E,
                               state.stride(0), state.stride(1), mix.stride(0), rates.stride(0),
                               BLOCK_I=BLOCK_I, BLOCK_J=BLOCK_J, BLOCK_E=BLOCK_E)
    return out

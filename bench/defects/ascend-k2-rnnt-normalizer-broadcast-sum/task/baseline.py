"""k2 simple RNN-T joiner: normalizer[b, s, t] = log sum_c exp(lm[b, s, c] + am[b, t, c])."""
import torch
import triton
import triton.language as tl

_AI_CORES = 20  # cube + vector (mix) kernel: one program per AI core
BS, BT, BC = 64, 64, 128


@triton.jit
def _rnnt_normalizers(am, lm, out, B, T, S1, C,
                      s_am_b, s_am_t, s_lm_b, s_lm_s, s_o_b, s_o_s,
                      BS: tl.constexpr, BT: tl.constexpr, BC: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    n_s = tl.cdiv(S1, BS)
    n_t = tl.cdiv(T, BT)
    for tile in range(pid, B * n_s * n_t, nprog):
        b = tile // (n_s * n_t)
        rest = tile % (n_s * n_t)
        srows = (rest // n_t) * BS + tl.arange(0, BS)
        trows = (rest % n_t) * BT + tl.arange(0, BT)
        smask = srows < S1
        tmask = trows < T
        lm_rows = lm + b * s_lm_b + srows[:, None] * s_lm_s
        am_rows = am + b * s_am_b + trows[:, None] * s_am_t

        # pass 1: row maxes over the vocabulary (k2's lm_max / am_max)
        # finite start: a padding row keeps -1e30 and its exp(-inf - max) is 0, not NaN
        lm_max = tl.full([BS], -1.0e30, tl.float32)
        am_max = tl.full([BT], -1.0e30, tl.float32)
        for c0 in range(0, C, BC):
            cols = c0 + tl.arange(0, BC)
            cmask = cols < C
            lx = tl.load(lm_rows + cols[None, :], mask=smask[:, None] & cmask[None, :], other=float("-inf"))
            ax = tl.load(am_rows + cols[None, :], mask=tmask[:, None] & cmask[None, :], other=float("-inf"))
            lm_max = tl.maximum(lm_max, tl.max(lx, axis=1))
            am_max = tl.maximum(am_max, tl.max(ax, axis=1))

        # pass 2: exp(lm - lm_max) @ exp(am - am_max)^T on the cube
        acc = tl.zeros([BS, BT], dtype=tl.float32)
        for c0 in range(0, C, BC):
            cols = c0 + tl.arange(0, BC)
            cmask = cols < C
            lx = tl.load(lm_rows + cols[None, :], mask=smask[:, None] & cmask[None, :], other=float("-inf"))
            ax = tl.load(am_rows + cols[None, :], mask=tmask[:, None] & cmask[None, :], other=float("-inf"))
            lp = tl.exp(lx - lm_max[:, None])
            ap = tl.exp(ax - am_max[:, None])
            acc = tl.dot(lp, tl.trans(ap), acc)

        # + torch.finfo(float32).tiny before the log, as k2 does
        norm = tl.log(acc + 1.1754943508222875e-38) + lm_max[:, None] + am_max[None, :]
        o_ptrs = out + b * s_o_b + srows[:, None] * s_o_s + trows[None, :]
        tl.store(o_ptrs, norm, mask=smask[:, None] & tmask[None, :])


def run(am: torch.Tensor, lm: torch.Tensor) -> torch.Tensor:
    B, T, C = am.shape
    S1 = lm.shape[1]
    out = torch.empty((B, S1, T), device=am.device, dtype=torch.float32)
    n_tiles = B * triton.cdiv(S1, BS) * triton.cdiv(T, BT)
    grid = (min(_AI_CORES, n_tiles),)
    _rnnt_normalizers[grid](am, lm, out, B, T, S1, C,
                            am.stride(0), am.stride(1), lm.stride(0), lm.stride(1),
                            out.stride(0), out.stride(1), BS=BS, BT=BT, BC=BC)
    return out

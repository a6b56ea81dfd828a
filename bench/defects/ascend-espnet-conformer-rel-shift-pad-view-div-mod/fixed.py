"""Conformer rel-pos attention weights: rel_shift(matrix_bd) + matrix_ac, scale, key padding mask, softmax."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _rel_pos_softmax_fwd(ac, bd, lens, out, H, T, n_iblk, n_blocks, scale,
                         BR: tl.constexpr, BT: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    j = tl.arange(0, BT)
    jf = j.to(tl.float32)
    jmask = j < T
    P = 2 * T - 1
    for blk in range(pid, n_blocks, nprog):
        bh = blk // n_iblk
        b = bh // H
        i = (blk - bh * n_iblk) * BR + tl.arange(0, BR)
        mask = (i < T)[:, None] & jmask[None, :]
        a = tl.load(ac + bh * T * T + i[:, None] * T + j[None, :], mask=mask, other=0.0)
        # rel_shift: query i reads its 2T-1 encodings from position T-1-i on, so the shifted
        # rows start 2T-2 elements apart (the as_strided view icefall uses)
        p = tl.load(bd + bh * T * P + (T - 1) + i[:, None] * (P - 1) + j[None, :], mask=mask, other=0.0)
        valid = jf < tl.load(lens + b).to(tl.float32)
        s = tl.where(valid[None, :], (a + p) * scale, -float("inf"))
        mx = tl.max(s, axis=1)
        e = tl.exp(s - mx[:, None])
        attn = e / tl.sum(e, axis=1)[:, None]
        tl.store(out + bh * T * T + i[:, None] * T + j[None, :], attn, mask=mask)


def run(ac: torch.Tensor, bd: torch.Tensor, lens: torch.Tensor, scale: float) -> torch.Tensor:
    B, H, T, _ = ac.shape
    out = torch.empty_like(ac)
    BT = triton.next_power_of_2(T)
    BR = max(1, min(4096 // BT, triton.next_power_of_2(T)))
    n_iblk = triton.cdiv(T, BR)
    n_blocks = B * H * n_iblk
    grid = (min(_VECTOR_CORES, n_blocks),)
    _rel_pos_softmax_fwd[grid](ac, bd, lens, out, H, T, n_iblk, n_blocks, scale, BR=BR, BT=BT)
    return out

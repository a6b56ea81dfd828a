"""SpecAugment (WeNet spec_aug): zero each utterance's time bands and frequency bands of a padded fbank batch."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _spec_aug_fwd(feats, t_bands, f_bands, out, T, F, n_tblk, n_blocks, stride_b, stride_t,
                  NT: tl.constexpr, NF: tl.constexpr, BT: tl.constexpr, BF: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    fi = tl.arange(0, BF)
    ff = fi.to(tl.float32)
    fmask = fi < F
    for blk in range(pid, n_blocks, nprog):
        b = blk // n_tblk
        ti = (blk - b * n_tblk) * BT + tl.arange(0, BT)
        tf = ti.to(tl.float32)
        keep_t = tf >= 0.0
        for k in tl.static_range(NT):
            t0 = tl.load(t_bands + (b * NT + k) * 2).to(tl.float32)
            t1 = tl.load(t_bands + (b * NT + k) * 2 + 1).to(tl.float32)
            keep_t = keep_t & ((tf < t0) | (tf >= t1))
        keep_f = ff >= 0.0
        for k in tl.static_range(NF):
            f0 = tl.load(f_bands + (b * NF + k) * 2).to(tl.float32)
            f1 = tl.load(f_bands + (b * NF + k) * 2 + 1).to(tl.float32)
            keep_f = keep_f & ((ff < f0) | (ff >= f1))
        offs = b * stride_b + ti[:, None] * stride_t + fi[None, :]
        mask = (ti < T)[:, None] & fmask[None, :]
        x = tl.load(feats + offs, mask=mask, other=0.0)
        y = tl.where(keep_t[:, None] & keep_f[None, :], x, 0.0)
        tl.store(out + offs, y, mask=mask)


def run(feats: torch.Tensor, t_bands: torch.Tensor, f_bands: torch.Tensor) -> torch.Tensor:
    B, T, F = feats.shape
    NT, NF = t_bands.shape[1], f_bands.shape[1]
    out = torch.empty_like(feats)
    BT = 32
    BF = triton.next_power_of_2(F)
    n_tblk = triton.cdiv(T, BT)
    grid = (min(_VECTOR_CORES, n_tblk),)
    # spec_aug is a per-utterance transform in WeNet: mask one utterance's [T, F] matrix per launch
    for b in range(B):
        _spec_aug_fwd[grid](feats[b], t_bands[b], f_bands[b], out[b], T, F, n_tblk, n_tblk,
                            feats.stride(0), feats.stride(1), NT=NT, NF=NF, BT=BT, BF=BF)
    return out

"""AlphaFold-Multimer MSA profile: masked mean of the one-hot MSA over sequences, per residue column."""
import torch
import triton
import triton.language as tl

VECTOR_CORES = 40  # Atlas A2 (910B4): 20 AI cores, 40 vector cores
NUM_CLASSES = 22


@triton.jit
def _msa_profile(msa, mask, out, S, R, n_blocks,
                 NC: tl.constexpr, NC_PAD: tl.constexpr, BLOCK_S: tl.constexpr, BLOCK_R: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    cls = tl.arange(0, NC_PAD)
    cls_f = cls.to(tl.float32)
    for rb in range(pid, n_blocks, nprog):
        r = rb * BLOCK_R + tl.arange(0, BLOCK_R)
        rm = r < R
        acc = tl.zeros([BLOCK_S, BLOCK_R, NC_PAD], dtype=tl.float32)
        msum = tl.zeros([BLOCK_S, BLOCK_R], dtype=tl.float32)
        for s0 in range(0, S, BLOCK_S):
            s = s0 + tl.arange(0, BLOCK_S)
            offs = s[:, None] * R + r[None, :]
            valid = (s[:, None] < S) & rm[None, :]
            tok = tl.load(msa + offs, mask=valid, other=0).to(tl.float32)
            m = tl.load(mask + offs, mask=valid, other=0.0)
            acc += tl.where(tok[:, :, None] == cls_f[None, None, :], m[:, :, None], 0.0)
            msum += m
        counts = tl.sum(acc, axis=0)
        denom = tl.sum(msum, axis=0) + 1e-10
        tl.store(out + r[:, None] * NC + cls[None, :], counts / denom[:, None],
                 mask=rm[:, None] & (cls[None, :] < NC))


def run(msa: torch.Tensor, msa_mask: torch.Tensor) -> torch.Tensor:
    S, R = msa.shape
    out = torch.empty((R, NUM_CLASSES), device=msa.device, dtype=msa_mask.dtype)
    BLOCK_R = 32
    n_blocks = triton.cdiv(R, BLOCK_R)
    grid = (min(VECTOR_CORES, n_blocks),)
    _msa_profile[grid](msa, msa_mask, out, S, R, n_blocks,
                       NC=NUM_CLASSES, NC_PAD=32, BLOCK_S=8, BLOCK_R=BLOCK_R)
    return out

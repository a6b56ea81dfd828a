"""AlphaFold-Multimer MSA profile: masked mean of the one-hot MSA over sequences, per residue column."""
import torch
import triton
import triton.language as tl

VECTOR_CORES = 40  # Atlas A2 (910B4): 20 AI cores, 40 vector cores
NUM_CLASSES = 22


@triton.jit
def _msa_profile(msa, mask, out, S, R,
                 NC: tl.constexpr, NC_PAD: tl.constexpr, BLOCK_S: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    cls = tl.arange(0, NC_PAD)
    cls_f = cls.to(tl.float32)
    for r in range(pid, R, nprog):
        acc = tl.zeros([NC_PAD, BLOCK_S], dtype=tl.float32)
        msum = tl.zeros([BLOCK_S], dtype=tl.float32)
        for s0 in range(0, S, BLOCK_S):
            s = s0 + tl.arange(0, BLOCK_S)
            valid = s < S
            tok = tl.load(msa + s * R + r, mask=valid, other=0).to(tl.float32)
            m = tl.load(mask + s * R + r, mask=valid, other=0.0)
            acc += tl.where(cls_f[:, None] == tok[None, :], m[None, :], 0.0)
            msum += m
        counts = tl.sum(acc, axis=1)
        denom = tl.sum(msum, axis=0) + 1e-10
        tl.store(out + r * NC + cls, counts / denom, mask=cls < NC)


def run(msa: torch.Tensor, msa_mask: torch.Tensor) -> torch.Tensor:
    S, R = msa.shape
    out = torch.empty((R, NUM_CLASSES), device=msa.device, dtype=msa_mask.dtype)
    grid = (min(VECTOR_CORES, R),)
    _msa_profile[grid](msa, msa_mask, out, S, R, NC=NUM_CLASSES, NC_PAD=32, BLOCK_S=256)
    return out

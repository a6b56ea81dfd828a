"""WeNet GlobalCMVN: (feats - mean) * istd over [B, T, F] log-mel features."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
BLOCK = 4096


@triton.jit
def _global_cmvn(feats, mean, istd, out, n_elem, F, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    for blk in range(pid, tl.cdiv(n_elem, BLOCK), nprog):
        offs = blk * BLOCK + tl.arange(0, BLOCK)
        mask = offs < n_elem
        f = offs % F
        x = tl.load(feats + offs, mask=mask, other=0.0)
        mu = tl.load(mean + f, mask=mask, other=0.0)
        s = tl.load(istd + f, mask=mask, other=1.0)
        tl.store(out + offs, (x - mu) * s, mask=mask)


def run(feats: torch.Tensor, mean: torch.Tensor, istd: torch.Tensor) -> torch.Tensor:
    B, T, F = feats.shape
    out = torch.empty((B, T, F), device=feats.device, dtype=feats.dtype)
    n_elem = B * T * F
    grid = (min(_VECTOR_CORES, triton.cdiv(n_elem, BLOCK)),)
    _global_cmvn[grid](feats, mean, istd, out, n_elem, F, BLOCK=BLOCK)
    return out

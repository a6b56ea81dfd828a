"""fODF sampled on a sphere: sf = sh @ B (DIPY sh_to_sf with the [K, S] sh_to_sf_matrix)."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
BV, BK, BS = 8, 8, 128


@triton.jit
def _sh_to_sf(sh, basis, sf, N, K, S, stride_sh, stride_b, stride_sf,
              BV: tl.constexpr, BK: tl.constexpr, BS: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    n_sb = tl.cdiv(S, BS)
    n_tiles = tl.cdiv(N, BV) * n_sb
    for t in range(pid, n_tiles, nprog):
        vb = t // n_sb
        sb = t % n_sb
        rows = vb * BV + tl.arange(0, BV)
        cols = sb * BS + tl.arange(0, BS)
        rmask = rows < N
        cmask = cols < S
        acc = tl.zeros([BV, BS], dtype=tl.float32)
        for k0 in range(0, K, BK):
            ks = k0 + tl.arange(0, BK)
            kmask = ks < K
            a = tl.load(sh + rows[:, None] * stride_sh + ks[None, :],
                        mask=rmask[:, None] & kmask[None, :], other=0.0)
            b = tl.load(basis + ks[:, None] * stride_b + cols[None, :],
                        mask=kmask[:, None] & cmask[None, :], other=0.0)
            acc += tl.sum(a[:, :, None] * b[None, :, :], axis=1)
        tl.store(sf + rows[:, None] * stride_sf + cols[None, :], acc,
                 mask=rmask[:, None] & cmask[None, :])


def run(sh: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
    N, K = sh.shape
    S = B.shape[1]
    sf = torch.empty((N, S), device=sh.device, dtype=sh.dtype)
    n_tiles = triton.cdiv(N, BV) * triton.cdiv(S, BS)
    grid = (min(_VECTOR_CORES, n_tiles),)
    _sh_to_sf[grid](sh, B, sf, N, K, S, sh.stride(0), B.stride(0), sf.stride(0), BV=BV, BK=BK, BS=BS)
    return sf

"""PMU linear state estimation over a window of frames: X[f, :] = Preal @ Z[f, :] for every frame f."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _lse_estimate(z, p, x, T, N, K, stride_z, stride_p, stride_x,
                  BN: tl.constexpr, BK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    for f in range(pid, T, nprog):
        for n0 in range(0, N, BN):
            rows = n0 + tl.arange(0, BN)
            rmask = rows < N
            acc = tl.zeros([BN], dtype=tl.float32)
            for k0 in range(0, K, BK):
                ks = k0 + tl.arange(0, BK)
                kmask = ks < K
                zk = tl.load(z + f * stride_z + ks, mask=kmask, other=0.0)
                pk = tl.load(p + rows[:, None] * stride_p + ks[None, :],
                             mask=rmask[:, None] & kmask[None, :], other=0.0)
                acc += tl.sum(pk * zk[None, :], axis=1)
            tl.store(x + f * stride_x + rows, acc, mask=rmask)


def run(Z: torch.Tensor, Preal: torch.Tensor) -> torch.Tensor:
    T, K = Z.shape
    N = Preal.shape[0]
    X = torch.empty((T, N), device=Z.device, dtype=Z.dtype)
    grid = (min(_VECTOR_CORES, T),)
    _lse_estimate[grid](Z, Preal, X, T, N, K, Z.stride(0), Preal.stride(0), X.stride(0),
                        BN=32, BK=256)
    return X

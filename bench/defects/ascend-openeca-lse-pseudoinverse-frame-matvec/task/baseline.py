"""PMU linear state estimation over a window of frames: X[f, :] = Preal @ Z[f, :] for every frame f."""
import torch
import triton
import triton.language as tl

_CUBE_CORES = 20


@triton.jit
def _lse_estimate(z, p, x, T, N, K, stride_z, stride_p, stride_x,
                  BT: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    n_nb = tl.cdiv(N, BN)
    for tile in range(pid, tl.cdiv(T, BT) * n_nb, nprog):
        frames = (tile // n_nb) * BT + tl.arange(0, BT)
        fmask = frames < T
        rows = (tile % n_nb) * BN + tl.arange(0, BN)
        rmask = rows < N
        acc = tl.zeros([BT, BN], dtype=tl.float32)
        for k0 in range(0, K, BK):
            ks = k0 + tl.arange(0, BK)
            kmask = ks < K
            zk = tl.load(z + frames[:, None] * stride_z + ks[None, :],
                         mask=fmask[:, None] & kmask[None, :], other=0.0)
            pk = tl.load(p + rows[:, None] * stride_p + ks[None, :],
                         mask=rmask[:, None] & kmask[None, :], other=0.0)
            acc = tl.dot(zk, tl.trans(pk), acc)
        tl.store(x + frames[:, None] * stride_x + rows[None, :], acc,
                 mask=fmask[:, None] & rmask[None, :])


def run(Z: torch.Tensor, Preal: torch.Tensor) -> torch.Tensor:
    T, K = Z.shape
    N = Preal.shape[0]
    X = torch.empty((T, N), device=Z.device, dtype=Z.dtype)
    BT, BN, BK = 128, 128, 64
    grid = (min(_CUBE_CORES, triton.cdiv(T, BT) * triton.cdiv(N, BN)),)
    _lse_estimate[grid](Z, Preal, X, T, N, K, Z.stride(0), Preal.stride(0), X.stride(0),
                        BT=BT, BN=BN, BK=BK)
    return X

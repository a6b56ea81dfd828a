"""EnCodec RVQ level: index of the nearest codebook entry for every latent frame."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _nearest_code(x_ptr, e_ptr, code_ptr, N, K, D, stride_x, stride_e,
                  BK: tl.constexpr, BD: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    d = tl.arange(0, BD)
    dmask = d < D
    for n in range(pid, N, nprog):
        x = tl.load(x_ptr + n * stride_x + d, mask=dmask, other=0.0)
        best = tl.full([BK], float("inf"), tl.float32)
        best_k = tl.zeros([BK], dtype=tl.int32)
        for k0 in range(0, K, BK):
            k = k0 + tl.arange(0, BK)
            kmask = k < K
            e = tl.load(e_ptr + k[:, None] * stride_e + d[None, :],
                        mask=kmask[:, None] & dmask[None, :], other=0.0)
            # |e|^2 / 2 - x.e ranks the codes like |x - e|^2
            score = 0.5 * tl.sum(e * e, axis=1) - tl.sum(e * x[None, :], axis=1)
            score = tl.where(kmask, score, float("inf"))
            better = score < best
            best = tl.where(better, score, best)
            best_k = tl.where(better, k, best_k)
        m = tl.min(best, axis=0)
        code = tl.min(tl.where(best == m, best_k, K), axis=0)
        tl.store(code_ptr + n, code.to(tl.int64))


def run(x: torch.Tensor, embed: torch.Tensor) -> torch.Tensor:
    N, D = x.shape
    K = embed.shape[0]
    codes = torch.empty((N,), device=x.device, dtype=torch.int64)
    BD = triton.next_power_of_2(D)
    BK = 64
    grid = (min(_VECTOR_CORES, N),)
    _nearest_code[grid](x, embed, codes, N, K, D, x.stride(0), embed.stride(0), BK=BK, BD=BD)
    return codes

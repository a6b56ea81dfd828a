"""EnCodec RVQ level: index of the nearest codebook entry for every latent frame."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _nearest_code(x_ptr, e_ptr, code_ptr, N, K, D, stride_x, stride_e,
                  BM: tl.constexpr, BK: tl.constexpr, BD: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    d = tl.arange(0, BD)
    dmask = d < D
    for blk in range(pid, tl.cdiv(N, BM), nprog):
        rows = blk * BM + tl.arange(0, BM)
        rmask = rows < N
        x = tl.load(x_ptr + rows[:, None] * stride_x + d[None, :],
                    mask=rmask[:, None] & dmask[None, :], other=0.0)
        best = tl.full([BM], float("inf"), tl.float32)
        best_k = tl.zeros([BM], dtype=tl.int32)
        for k0 in range(0, K, BK):
            k = k0 + tl.arange(0, BK)
            kmask = k < K
            e = tl.load(e_ptr + k[:, None] * stride_e + d[None, :],
                        mask=kmask[:, None] & dmask[None, :], other=0.0)
            # |e|^2 / 2 - x.e ranks the codes like |x - e|^2
            xe = tl.dot(x, tl.trans(e))
            score = 0.5 * tl.sum(e * e, axis=1)[None, :] - xe
            score = tl.where(kmask[None, :], score, float("inf"))
            m = tl.min(score, axis=1)
            arg = tl.min(tl.where(score == m[:, None], k[None, :], K), axis=1)
            better = m < best
            best = tl.where(better, m, best)
            best_k = tl.where(better, arg, best_k)
        tl.store(code_ptr + rows, best_k.to(tl.int64), mask=rmask)


def run(x: torch.Tensor, embed: torch.Tensor) -> torch.Tensor:
    N, D = x.shape
    K = embed.shape[0]
    codes = torch.empty((N,), device=x.device, dtype=torch.int64)
    BD = triton.next_power_of_2(D)
    BM = 64
    BK = 64
    grid = (min(_VECTOR_CORES, triton.cdiv(N, BM)),)
    _nearest_code[grid](x, embed, codes, N, K, D, x.stride(0), embed.stride(0), BM=BM, BK=BK, BD=BD)
    return codes

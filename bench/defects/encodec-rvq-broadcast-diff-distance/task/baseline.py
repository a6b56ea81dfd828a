"""EnCodec residual vector quantizer encode: each program keeps the residual of a block of frames
in registers and runs the Q nearest-code searches on it one after the other."""
import torch
import triton
import triton.language as tl


@triton.jit
def _code_distance(res, code):
    code_sq = tl.sum(code * code, axis=1)
    return code_sq[None, :] - 2.0 * tl.dot(res, tl.trans(code))


@triton.jit
def _nearest_code(res, embed_ptr, K, D, offs_d, BLOCK_T: tl.constexpr, BLOCK_K: tl.constexpr):
    best = tl.full([BLOCK_T], float("inf"), dtype=tl.float32)
    best_idx = tl.zeros([BLOCK_T], dtype=tl.int32)
    for k0 in range(0, K, BLOCK_K):
        offs_k = k0 + tl.arange(0, BLOCK_K)
        kmask = offs_k < K
        code = tl.load(embed_ptr + offs_k[:, None] * D + offs_d[None, :],
                       mask=kmask[:, None] & (offs_d[None, :] < D), other=0.0)
        dist = tl.where(kmask[None, :], _code_distance(res, code), float("inf"))
        blk_min, blk_idx = tl.min(dist, axis=1, return_indices=True)
        take = blk_min < best
        best = tl.where(take, blk_min, best)
        best_idx = tl.where(take, blk_idx + k0, best_idx)
    return best_idx


@triton.jit
def rvq_encode_kernel(x_ptr, embed_ptr, codes_ptr, B, D, T, Q, K,
                      BLOCK_T: tl.constexpr, BLOCK_K: tl.constexpr, BLOCK_D: tl.constexpr):
    pid_t = tl.program_id(0)
    b = tl.program_id(1)
    offs_t = pid_t * BLOCK_T + tl.arange(0, BLOCK_T)
    offs_d = tl.arange(0, BLOCK_D)
    tmask = offs_t < T
    dmask = offs_d < D
    res = tl.load(x_ptr + b * D * T + offs_d[None, :] * T + offs_t[:, None],
                  mask=tmask[:, None] & dmask[None, :], other=0.0)
    for q in range(Q):
        embed = embed_ptr + q * K * D
        idx = _nearest_code(res, embed, K, D, offs_d, BLOCK_T, BLOCK_K)
        tl.store(codes_ptr + (q * B + b) * T + offs_t, idx.to(tl.int64), mask=tmask)
        chosen = tl.load(embed + idx[:, None] * D + offs_d[None, :], mask=dmask[None, :], other=0.0)
        res = res - chosen


_LAUNCH = {"BLOCK_T": 64, "BLOCK_K": 64, "num_warps": 4, "num_stages": 2}


def run(latent: torch.Tensor, codebooks: torch.Tensor) -> torch.Tensor:
    B, D, T = latent.shape
    Q, K, _ = codebooks.shape
    codes = torch.empty((Q, B, T), dtype=torch.int64, device=latent.device)
    grid = (triton.cdiv(T, _LAUNCH["BLOCK_T"]), B)
    rvq_encode_kernel[grid](latent, codebooks, codes, B, D, T, Q, K,
                            BLOCK_D=triton.next_power_of_2(D), **_LAUNCH)
    return codes

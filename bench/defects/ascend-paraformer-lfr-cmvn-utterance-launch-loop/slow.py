"""FunASR WavFrontend apply_lfr + apply_cmvn as a triton-ascend kernel: each LFR row gathers 7 clamped
fbank frames of its utterance, adds the CMVN shift and scales; programs sized to the AI vector cores."""
import torch
import triton
import triton.language as tl

NUM_VECTOR_CORES = 40
LFR_M, LFR_N = 7, 6


@triton.jit
def _lfr_cmvn_rows(feat_base, out_base, shift, scale, row0, length, n_rows, n_mels, out_dim,
                   LFR_M: tl.constexpr, LFR_N: tl.constexpr, BLOCK_T: tl.constexpr, BLOCK_J: tl.constexpr,
                   BLOCK_F: tl.constexpr):
    row = row0 + tl.arange(0, BLOCK_T)[:, None, None]
    j = tl.arange(0, BLOCK_J)[None, :, None]
    f = tl.arange(0, BLOCK_F)[None, None, :]
    src = row * LFR_N + j - (LFR_M - 1) // 2
    src = tl.minimum(tl.maximum(src, 0), length - 1)
    ok = (row < n_rows) & (j < LFR_M) & (f < n_mels)
    x = tl.load(feat_base + src * n_mels + f, mask=ok, other=0.0)
    y = (x + shift) * scale
    tl.store(out_base + row * out_dim + j * n_mels + f, y, mask=ok)


@triton.jit
def lfr_cmvn_kernel(feat_ptr, shift_ptr, scale_ptr, out_ptr, length, n_mels,
                    LFR_M: tl.constexpr, LFR_N: tl.constexpr, BLOCK_T: tl.constexpr, BLOCK_J: tl.constexpr,
                    BLOCK_F: tl.constexpr):
    pid = tl.program_id(0)
    n_prog = tl.num_programs(0)
    out_dim = LFR_M * n_mels
    j = tl.arange(0, BLOCK_J)[None, :, None]
    f = tl.arange(0, BLOCK_F)[None, None, :]
    cm = (j < LFR_M) & (f < n_mels)
    shift = tl.load(shift_ptr + j * n_mels + f, mask=cm, other=0.0)
    scale = tl.load(scale_ptr + j * n_mels + f, mask=cm, other=0.0)
    n_rows = tl.cdiv(length, LFR_N)
    for blk in range(pid, tl.cdiv(n_rows, BLOCK_T), n_prog):
        _lfr_cmvn_rows(feat_ptr, out_ptr, shift, scale, blk * BLOCK_T, length, n_rows, n_mels, out_dim,
                       LFR_M, LFR_N, BLOCK_T, BLOCK_J, BLOCK_F)


def run(feats: torch.Tensor, lengths: torch.Tensor, neg_mean: torch.Tensor, inv_std: torch.Tensor) -> torch.Tensor:
    B, T, M = feats.shape
    t_out = triton.cdiv(T, LFR_N)
    out = torch.zeros((B, t_out, LFR_M * M), dtype=feats.dtype, device=feats.device)
    block_t, block_j, block_f = 8, triton.next_power_of_2(LFR_M), triton.next_power_of_2(M)
    for b, length in enumerate(lengths.tolist()):
        grid = (min(NUM_VECTOR_CORES, triton.cdiv(triton.cdiv(length, LFR_N), block_t)),)
        lfr_cmvn_kernel[grid](feats[b], neg_mean, inv_std, out[b], length, M, LFR_M=LFR_M, LFR_N=LFR_N,
                              BLOCK_T=block_t, BLOCK_J=block_j, BLOCK_F=block_f)
    return out

"""KIVI 2-bit per-token value quantisation: min/max per group of 32 channels, 16 channels per int32 word."""
import torch
import triton
import triton.language as tl

GROUP = 32
BITS = 2
FEAT = 32 // BITS
BLOCK_G = 128
NUM_VECTOR_CORES = 40


@triton.jit
def _kivi_value_quant(v_ptr, code_ptr, scale_ptr, mn_ptr, n_groups,
                      GROUP: tl.constexpr, FEAT: tl.constexpr, BITS: tl.constexpr, BLOCK_G: tl.constexpr):
    WORDS: tl.constexpr = GROUP // FEAT
    pid = tl.program_id(0)
    gi = tl.arange(0, BLOCK_G)
    e = tl.arange(0, GROUP)
    wi = tl.arange(0, BLOCK_G * WORDS)
    shifts = tl.arange(0, FEAT) * BITS
    for g0 in range(pid * BLOCK_G, n_groups, tl.num_programs(0) * BLOCK_G):
        gmask = g0 + gi < n_groups
        x = tl.load(v_ptr + (g0 + gi)[:, None] * GROUP + e[None, :], mask=gmask[:, None], other=0.0)
        x = x.to(tl.float32)
        mn = tl.min(x, axis=1)
        mx = tl.max(x, axis=1)
        scale = tl.maximum((mx - mn) / (2**BITS - 1), 1e-6)
        q = tl.floor((x - mn[:, None]) / scale[:, None] + 0.5)
        q = tl.minimum(tl.maximum(q, 0.0), 2**BITS - 1).to(tl.int64)
        q = tl.reshape(q, (BLOCK_G * WORDS, FEAT))
        words = tl.sum(q << shifts[None, :], axis=1)
        tl.store(code_ptr + g0 * WORDS + wi, words.to(tl.int32), mask=g0 * WORDS + wi < n_groups * WORDS)
        tl.store(scale_ptr + g0 + gi, scale, mask=gmask)
        tl.store(mn_ptr + g0 + gi, mn, mask=gmask)


def run(value: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    B, H, T, D = value.shape
    code = torch.empty((B, H, T, D // FEAT), dtype=torch.int32, device=value.device)
    scale = torch.empty((B, H, T, D // GROUP), dtype=torch.float32, device=value.device)
    mn = torch.empty((B, H, T, D // GROUP), dtype=torch.float32, device=value.device)
    n_groups = B * H * T * (D // GROUP)
    grid = (min(NUM_VECTOR_CORES, triton.cdiv(n_groups, BLOCK_G)),)
    _kivi_value_quant[grid](value, code, scale, mn, n_groups,
                            GROUP=GROUP, FEAT=FEAT, BITS=BITS, BLOCK_G=BLOCK_G)
    return code, scale, mn

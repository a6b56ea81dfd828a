"""KIVI 2-bit per-channel key quantisation: per (head, group of 32 tokens) min/max scales, 16 tokens per int32 word."""
import torch
import triton
import triton.language as tl

GROUP = 32
BITS = 2
FEAT = 32 // BITS
NUM_VECTOR_CORES = 40


@triton.jit
def _quant_pack_rows(x, BLOCK_D: tl.constexpr, GROUP: tl.constexpr, FEAT: tl.constexpr, BITS: tl.constexpr):
    """x [BLOCK_D, GROUP] fp32, one channel per row: asymmetric BITS-bit codes packed FEAT per int32."""
    mn = tl.min(x, axis=1)
    mx = tl.max(x, axis=1)
    scale = tl.maximum((mx - mn) / (2**BITS - 1), 1e-6)
    q = tl.floor((x - mn[:, None]) / scale[:, None] + 0.5)
    q = tl.minimum(tl.maximum(q, 0.0), 2**BITS - 1).to(tl.int32)
    q = tl.reshape(q, (BLOCK_D, GROUP // FEAT, FEAT))
    shifts = tl.arange(0, FEAT) * BITS
    words = tl.sum(q << shifts[None, None, :], axis=2)
    return words, scale, mn


@triton.jit
def _kivi_key_quant(k_ptr, code_ptr, scale_ptr, mn_ptr, n_tiles, n_groups, D,
                    s_kbh, s_kt, s_cbh, s_sbh,
                    GROUP: tl.constexpr, FEAT: tl.constexpr, BITS: tl.constexpr, BLOCK_D: tl.constexpr):
    pid = tl.program_id(0)
    t = tl.arange(0, GROUP)
    w = tl.arange(0, GROUP // FEAT)
    d = tl.arange(0, BLOCK_D)
    dmask = d < D
    for tile in range(pid, n_tiles, tl.num_programs(0)):
        bh = tile // n_groups
        g = tile % n_groups
        src = k_ptr + bh * s_kbh + (g * GROUP + t)[:, None] * s_kt + d[None, :]
        x = tl.load(src, mask=dmask[None, :], other=0.0).to(tl.float32)
        words, scale, mn = _quant_pack_rows(tl.trans(x), BLOCK_D, GROUP, FEAT, BITS)
        dst = code_ptr + bh * s_cbh + (g * (GROUP // FEAT) + w)[:, None] * D + d[None, :]
        tl.store(dst, tl.trans(words), mask=dmask[None, :])
        soff = bh * s_sbh + g * D + d
        tl.store(scale_ptr + soff, scale, mask=dmask)
        tl.store(mn_ptr + soff, mn, mask=dmask)


def run(key: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    B, H, T, D = key.shape
    n_groups = T // GROUP
    code = torch.empty((B, H, T // FEAT, D), dtype=torch.int32, device=key.device)
    scale = torch.empty((B, H, n_groups, D), dtype=torch.float32, device=key.device)
    mn = torch.empty((B, H, n_groups, D), dtype=torch.float32, device=key.device)
    n_tiles = B * H * n_groups
    grid = (min(NUM_VECTOR_CORES, n_tiles),)
    _kivi_key_quant[grid](key, code, scale, mn, n_tiles, n_groups, D,
                          key.stride(1), key.stride(2), code.stride(1), scale.stride(1),
                          GROUP=GROUP, FEAT=FEAT, BITS=BITS, BLOCK_D=triton.next_power_of_2(D))
    return code, scale, mn

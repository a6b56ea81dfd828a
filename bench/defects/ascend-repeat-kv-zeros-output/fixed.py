"""repeat_kv for triton-ascend: one program per vector core looping over tiles, every element of the (torch.empty) output stored once."""
import torch
import triton
import triton.language as tl

NUM_VECTOR_CORES = 48  # Atlas A2 (910B)


@triton.jit
def repeat_kv_kernel(kv_ptr, out_ptr, HKV, S, N_REP, n_tiles, D: tl.constexpr, BLOCK_S: tl.constexpr,
                     NUM_PROGRAMS: tl.constexpr):
    s_blocks = tl.cdiv(S, BLOCK_S)
    d = tl.arange(0, D)
    for tile in range(tl.program_id(0), n_tiles, NUM_PROGRAMS):
        bh = tile // s_blocks
        rows = (tile % s_blocks) * BLOCK_S + tl.arange(0, BLOCK_S)
        b = bh // (HKV * N_REP)
        src_head = b * HKV + (bh % (HKV * N_REP)) // N_REP
        m = rows[:, None] < S
        x = tl.load(kv_ptr + (src_head * S + rows)[:, None].to(tl.int64) * D + d[None, :], mask=m, other=0.0)
        tl.store(out_ptr + (bh * S + rows)[:, None].to(tl.int64) * D + d[None, :], x, mask=m)


def run(kv: torch.Tensor, n_rep: int) -> torch.Tensor:
    B, H, S, D = kv.shape
    out = torch.empty((B, H * n_rep, S, D), device=kv.device, dtype=kv.dtype)
    n_tiles = B * H * n_rep * triton.cdiv(S, 64)
    repeat_kv_kernel[(NUM_VECTOR_CORES,)](kv, out, H, S, n_rep, n_tiles, D=D, BLOCK_S=64,
                                          NUM_PROGRAMS=NUM_VECTOR_CORES)
    return out

"""CogVideoX temporal compression: first frame kept (odd T), the other frames averaged in pairs."""
import torch
import triton
import triton.language as tl

NUM_CORES = 40


@triton.jit
def _compress_time(x, out, BC, T, TO, HW, ODD, BLOCK_P: tl.constexpr, BLOCK_T: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    n_blk = tl.cdiv(HW, BLOCK_P)
    lanes = tl.arange(0, BLOCK_P)
    j = tl.arange(0, BLOCK_T)
    s1 = 2 * j + 1 - ODD
    s0 = tl.maximum(s1 - 1, 0)
    for item in range(pid, BC * n_blk, nprog):
        bc = item // n_blk
        pix = (item - bc * n_blk) * BLOCK_P + lanes
        m = (pix[:, None] < HW) & (j[None, :] < TO)
        src = x + bc * T * HW + pix[:, None]
        a = tl.load(src + s0[None, :] * HW, mask=m, other=0.0).to(tl.float32)
        b = tl.load(src + s1[None, :] * HW, mask=m, other=0.0).to(tl.float32)
        dst = out + bc * TO * HW + pix[:, None] + j[None, :] * HW
        tl.store(dst, ((a + b) * 0.5).to(out.dtype.element_ty), mask=m)


def run(x: torch.Tensor) -> torch.Tensor:
    B, C, T, H, W = x.shape
    TO = T // 2 + T % 2
    out = torch.empty((B, C, TO, H, W), device=x.device, dtype=x.dtype)
    HW = H * W
    BLOCK_T = triton.next_power_of_2(TO)
    BLOCK_P = max(16, min(4096 // BLOCK_T, triton.next_power_of_2(HW)))
    items = B * C * triton.cdiv(HW, BLOCK_P)
    _compress_time[(min(NUM_CORES, items),)](x, out, B * C, T, TO, HW, T % 2,
                                             BLOCK_P=BLOCK_P, BLOCK_T=BLOCK_T)
    return out

"""CogVideoX temporal compression: first frame kept (odd T), the other frames averaged in pairs."""
import torch
import triton
import triton.language as tl

NUM_CORES = 40


@triton.jit
def _compress_time(x, out, BC, T, TO, HW, ODD, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    n_blk = tl.cdiv(HW, BLOCK)
    lanes = tl.arange(0, BLOCK)
    for item in range(pid, BC * n_blk, nprog):
        bc = item // n_blk
        pix = (item - bc * n_blk) * BLOCK + lanes
        m = pix < HW
        src = x + bc * T * HW
        dst = out + bc * TO * HW
        for j in range(0, TO):
            s1 = 2 * j + 1 - ODD
            s0 = tl.maximum(s1 - 1, 0)
            a = tl.load(src + s0 * HW + pix, mask=m, other=0.0).to(tl.float32)
            b = tl.load(src + s1 * HW + pix, mask=m, other=0.0).to(tl.float32)
            tl.store(dst + j * HW + pix, ((a + b) * 0.5).to(out.dtype.element_ty), mask=m)


def run(x: torch.Tensor) -> torch.Tensor:
    B, C, T, H, W = x.shape
    TO = T // 2 + T % 2
    out = torch.empty((B, C, TO, H, W), device=x.device, dtype=x.dtype)
    HW = H * W
    BLOCK = min(4096, triton.next_power_of_2(HW))
    items = B * C * triton.cdiv(HW, BLOCK)
    _compress_time[(min(NUM_CORES, items),)](x, out, B * C, T, TO, HW, T % 2, BLOCK=BLOCK)
    return out

"""MaxPool2d(3, stride=2, padding=1) for triton-ascend: one program per vector core striding over
(plane, row-block) tasks; each of the nine window taps is loaded at column 2ow - 1 + kw."""
import torch
import triton
import triton.language as tl

NUM_VECTOR_CORES = 48  # Atlas A2 (910B): 24 AI cores x 2 vector units


@triton.jit
def maxpool3x3s2_kernel(x_ptr, y_ptr, n_planes, H, W, OH, OW,
                        BLOCK_OH: tl.constexpr, BLOCK_OW: tl.constexpr):
    pid = tl.program_id(0)
    row_blocks = tl.cdiv(OH, BLOCK_OH)
    n_tasks = n_planes * row_blocks
    oh_l = tl.arange(0, BLOCK_OH)
    ow = tl.arange(0, BLOCK_OW)
    col_ok = ow < OW
    for t in range(pid, n_tasks, tl.num_programs(0)):
        plane = t // row_blocks
        oh = (t % row_blocks) * BLOCK_OH + oh_l
        src = x_ptr + plane * H * W
        acc = tl.full([BLOCK_OH, BLOCK_OW], float("-inf"), tl.float32)
        for kh in tl.static_range(3):
            ih = oh * 2 - 1 + kh
            row_ok = (ih >= 0) & (ih < H) & (oh < OH)
            for kw in tl.static_range(3):
                # column 2ow - 1 + kw: a stride-2 access along the contiguous axis
                iw = ow * 2 - 1 + kw
                m = row_ok[:, None] & ((iw >= 0) & (iw < W) & col_ok)[None, :]
                v = tl.load(src + ih[:, None] * W + iw[None, :], mask=m, other=float("-inf"))
                acc = tl.maximum(acc, v.to(tl.float32))
        out = y_ptr + plane * OH * OW + oh[:, None] * OW + ow[None, :]
        tl.store(out, acc.to(y_ptr.dtype.element_ty), mask=(oh < OH)[:, None] & col_ok[None, :])


def run(x: torch.Tensor) -> torch.Tensor:
    B, C, H, W = x.shape
    OH, OW = (H - 1) // 2 + 1, (W - 1) // 2 + 1
    y = torch.empty((B, C, OH, OW), dtype=x.dtype, device=x.device)
    BLOCK_OH, BLOCK_OW = 32, triton.next_power_of_2(OW)
    n_tasks = B * C * triton.cdiv(OH, BLOCK_OH)
    grid = (min(NUM_VECTOR_CORES, n_tasks),)
    maxpool3x3s2_kernel[grid](x, y, B * C, H, W, OH, OW, BLOCK_OH=BLOCK_OH, BLOCK_OW=BLOCK_OW)
    return y

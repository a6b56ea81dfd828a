"""HAT channel attention: squeeze (spatial mean per channel) then excitation (1x1 convs, sigmoid)."""
import torch
import triton
import triton.language as tl

NUM_CORES = 40


@triton.jit
def _squeeze(x, pooled, n_planes, HW, BLOCK_HW: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    offs = tl.arange(0, BLOCK_HW)
    for plane_id in range(pid, n_planes, nprog):
        plane = x + plane_id * HW
        acc = tl.zeros([BLOCK_HW], dtype=tl.float32)
        for s0 in range(0, HW, BLOCK_HW):
            acc += tl.load(plane + s0 + offs, mask=s0 + offs < HW, other=0.0).to(tl.float32)
        tl.store(pooled + plane_id, tl.sum(acc, axis=0) / HW)


@triton.jit
def _excite(pooled, w1, b1, w2, b2, y, C, R, BLOCK_C: tl.constexpr, BLOCK_R: tl.constexpr):
    img = tl.program_id(0)
    c = tl.arange(0, BLOCK_C)
    r = tl.arange(0, BLOCK_R)
    cmask = c < C
    rmask = r < R
    p = tl.load(pooled + img * C + c, mask=cmask, other=0.0)
    w1t = tl.load(w1 + r[:, None] * C + c[None, :], mask=rmask[:, None] & cmask[None, :], other=0.0)
    hidden = tl.sum(w1t * p[None, :], axis=1) + tl.load(b1 + r, mask=rmask, other=0.0)
    hidden = tl.maximum(hidden, 0.0)
    w2t = tl.load(w2 + c[:, None] * R + r[None, :], mask=cmask[:, None] & rmask[None, :], other=0.0)
    logit = tl.sum(w2t * hidden[None, :], axis=1) + tl.load(b2 + c, mask=cmask, other=0.0)
    tl.store(y + img * C + c, tl.sigmoid(logit), mask=cmask)


def run(x: torch.Tensor, w1: torch.Tensor, b1: torch.Tensor, w2: torch.Tensor, b2: torch.Tensor) -> torch.Tensor:
    B, C, H, W = x.shape
    R = w1.shape[0]
    pooled = torch.empty((B, C), dtype=torch.float32, device=x.device)
    y = torch.empty((B, C), dtype=torch.float32, device=x.device)
    _squeeze[(min(NUM_CORES, B * C),)](x, pooled, B * C, H * W, BLOCK_HW=8192)
    _excite[(B,)](pooled, w1, b1, w2, b2, y, C, R,
                  BLOCK_C=triton.next_power_of_2(C), BLOCK_R=triton.next_power_of_2(R))
    return y

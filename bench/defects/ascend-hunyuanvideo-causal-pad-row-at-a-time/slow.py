"""HunyuanVideo CausalConv3d replicate padding: (W: 1, 1), (H: 1, 1), (T: 2, 0)."""
import torch
import triton
import triton.language as tl

NUM_CORES = 40


@triton.jit
def _causal_pad(x, out, BC, T, H, W, BLOCK_W: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    TP = T + 2
    HP = H + 2
    WP = W + 2
    cols = tl.arange(0, BLOCK_W)
    cm = cols < W
    for plane in range(pid, BC * TP, nprog):
        bc = plane // TP
        ts = tl.maximum(plane - bc * TP - 2, 0)
        src = x + (bc * T + ts) * H * W
        dst = out + plane * HP * WP
        for hp in range(0, HP):
            hs = tl.minimum(tl.maximum(hp - 1, 0), H - 1)
            row = src + hs * W
            d = dst + hp * WP
            tl.store(d + 1 + cols, tl.load(row + cols, mask=cm), mask=cm)
            tl.store(d, tl.load(row))
            tl.store(d + W + 1, tl.load(row + W - 1))


def run(x: torch.Tensor) -> torch.Tensor:
    B, C, T, H, W = x.shape
    out = torch.empty((B, C, T + 2, H + 2, W + 2), device=x.device, dtype=x.dtype)
    planes = B * C * (T + 2)
    _causal_pad[(min(NUM_CORES, planes),)](x, out, B * C, T, H, W, BLOCK_W=triton.next_power_of_2(W))
    return out

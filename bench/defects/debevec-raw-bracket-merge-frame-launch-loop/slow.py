"""Raw exposure-bracket HDR merge: hat-weighted average of the frames' radiance estimates (Debevec-Malik)."""
import torch
import triton
import triton.language as tl

BLACK = 256.0
WHITE = 4095.0
WEIGHT_FLOOR = tl.constexpr(1e-3)


@triton.jit
def _frame_term(raw, t, black, white):
    signal = raw.to(tl.float32) - black
    u = tl.minimum(tl.maximum(signal / (white - black), 0.0), 1.0)
    w = 1.0 - tl.abs(2.0 * u - 1.0) + WEIGHT_FLOOR
    return w * (signal / t), w


@triton.jit
def _accumulate_frame(frame, exposures, i, num, den, out, n_pix, black, white,
                      FIRST: tl.constexpr, LAST: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n_pix
    raw = tl.load(frame + offs, mask=m, other=0)
    t = tl.load(exposures + i)
    acc_num, acc_den = _frame_term(raw, t, black, white)
    if not FIRST:
        acc_num += tl.load(num + offs, mask=m, other=0.0)
        acc_den += tl.load(den + offs, mask=m, other=0.0)
    if LAST:
        tl.store(out + offs, acc_num / acc_den, mask=m)
    else:
        tl.store(num + offs, acc_num, mask=m)
        tl.store(den + offs, acc_den, mask=m)


def run(frames: torch.Tensor, exposures: torch.Tensor) -> torch.Tensor:
    N, H, W = frames.shape
    n_pix = H * W
    out = torch.empty(H, W, device=frames.device, dtype=torch.float32)
    num = torch.empty(H, W, device=frames.device, dtype=torch.float32)
    den = torch.empty(H, W, device=frames.device, dtype=torch.float32)
    BLOCK = 1024
    grid = (triton.cdiv(n_pix, BLOCK),)
    for i in range(N):
        _accumulate_frame[grid](frames[i], exposures, i, num, den, out, n_pix, BLACK, WHITE,
                                FIRST=i == 0, LAST=i == N - 1, BLOCK=BLOCK, num_warps=4)
    return out

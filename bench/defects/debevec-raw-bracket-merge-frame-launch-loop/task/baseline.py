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
def _merge_bracket(frames, exposures, out, n_frames, n_pix, stride_f, black, white, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n_pix
    num = tl.zeros([BLOCK], dtype=tl.float32)
    den = tl.zeros([BLOCK], dtype=tl.float32)
    for i in range(n_frames):
        raw = tl.load(frames + i * stride_f + offs, mask=m, other=0)
        t = tl.load(exposures + i)
        wr, w = _frame_term(raw, t, black, white)
        num += wr
        den += w
    tl.store(out + offs, num / den, mask=m)


def run(frames: torch.Tensor, exposures: torch.Tensor) -> torch.Tensor:
    N, H, W = frames.shape
    n_pix = H * W
    out = torch.empty(H, W, device=frames.device, dtype=torch.float32)
    BLOCK = 1024
    _merge_bracket[(triton.cdiv(n_pix, BLOCK),)](frames, exposures, out, N, n_pix, frames.stride(0),
                                                 BLACK, WHITE, BLOCK=BLOCK, num_warps=4)
    return out

"""RAFT convex upsampling in Triton: one kernel per (coarse x block, coarse row, image) walks the 9 taps,
keeping a running softmax of the mask logits and the two weighted flow sums in registers."""
import torch
import triton
import triton.language as tl

FACTOR = 8
TAPS = 9


@triton.jit
def _neighbour(flow_ptr, plane, y, xs, H, W, DY: tl.constexpr, DX: tl.constexpr):
    yy = y + DY
    xx = xs + DX
    ok = (xx >= 0) & (xx < W) & (yy >= 0) & (yy < H)
    return tl.load(flow_ptr + (plane * H + yy) * W + xx, mask=ok, other=0.0)


@triton.jit
def _fine_grid(pid_x, W, F: tl.constexpr, BLOCK_X: tl.constexpr):
    xs = pid_x * BLOCK_X + tl.arange(0, BLOCK_X)
    sub_r = tl.arange(0, F)[:, None, None]
    sub_c = tl.arange(0, F)[None, None, :]
    x3 = xs[None, :, None]
    inside = (x3 < W) & (sub_r < F) & (sub_c < F)
    return xs, sub_r, sub_c, x3, inside


@triton.jit
def convex_upsample_kernel(flow_ptr, mask_ptr, out_ptr, H, W,
                           F: tl.constexpr, TAPS: tl.constexpr, BLOCK_X: tl.constexpr):
    pid_x = tl.program_id(0)
    y = tl.program_id(1)
    n = tl.program_id(2)
    HW = H * W
    xs, sub_r, sub_c, x3, inside = _fine_grid(pid_x, W, F, BLOCK_X)
    tap0 = mask_ptr + n * TAPS * F * F * HW + (sub_r * F + sub_c) * HW + y * W + x3
    run_max = tl.full([F, BLOCK_X, F], float("-inf"), dtype=tl.float32)
    denom = tl.zeros([F, BLOCK_X, F], dtype=tl.float32)
    acc_u = tl.zeros([F, BLOCK_X, F], dtype=tl.float32)
    acc_v = tl.zeros([F, BLOCK_X, F], dtype=tl.float32)
    for k in tl.static_range(TAPS):
        logit = tl.load(tap0 + k * F * F * HW, mask=inside, other=0.0)
        fu = _neighbour(flow_ptr, 2 * n, y, xs, H, W, k // 3 - 1, k % 3 - 1) * F
        fv = _neighbour(flow_ptr, 2 * n + 1, y, xs, H, W, k // 3 - 1, k % 3 - 1) * F
        new_max = tl.maximum(run_max, logit)
        alpha = tl.exp(run_max - new_max)
        w = tl.exp(logit - new_max)
        denom = denom * alpha + w
        acc_u = acc_u * alpha + w * fu[None, :, None]
        acc_v = acc_v * alpha + w * fv[None, :, None]
        run_max = new_max
    OW = W * F
    plane = H * F * OW
    dst = (y * F + sub_r) * OW + x3 * F + sub_c
    tl.store(out_ptr + 2 * n * plane + dst, acc_u / denom, mask=inside)
    tl.store(out_ptr + (2 * n + 1) * plane + dst, acc_v / denom, mask=inside)


def run(flow: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    N, _, H, W = flow.shape
    out = torch.empty((N, 2, FACTOR * H, FACTOR * W), device=flow.device, dtype=flow.dtype)
    BLOCK_X = 32
    grid = (triton.cdiv(W, BLOCK_X), H, N)
    convex_upsample_kernel[grid](flow, mask, out, H, W, F=FACTOR, TAPS=TAPS, BLOCK_X=BLOCK_X, num_warps=4)
    return out

"""RAFT convex upsampling in Triton: a softmax kernel normalises the mask over its 9 taps, then a combine
kernel per (coarse x block, coarse row, image) sums the tap-weighted flow neighbours into the fine grid."""
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
def tap_softmax_kernel(mask_ptr, prob_ptr, HW, TAPS: tl.constexpr, SUB: tl.constexpr,
                       BLOCK_T: tl.constexpr, BLOCK_P: tl.constexpr):
    pid = tl.program_id(0)
    s = tl.program_id(1)
    n = tl.program_id(2)
    t = tl.arange(0, BLOCK_T)
    p = pid * BLOCK_P + tl.arange(0, BLOCK_P)
    m = (t < TAPS)[:, None] & (p < HW)[None, :]
    offs = (n * TAPS * SUB + t[:, None] * SUB + s) * HW + p[None, :]
    x = tl.load(mask_ptr + offs, mask=m, other=-1.0e30)
    e = tl.exp(x - tl.max(x, axis=0)[None, :])
    tl.store(prob_ptr + offs, e / tl.sum(e, axis=0)[None, :], mask=m)


@triton.jit
def convex_upsample_kernel(flow_ptr, prob_ptr, out_ptr, H, W,
                           F: tl.constexpr, TAPS: tl.constexpr, BLOCK_X: tl.constexpr):
    pid_x = tl.program_id(0)
    y = tl.program_id(1)
    n = tl.program_id(2)
    HW = H * W
    xs, sub_r, sub_c, x3, inside = _fine_grid(pid_x, W, F, BLOCK_X)
    tap0 = prob_ptr + n * TAPS * F * F * HW + (sub_r * F + sub_c) * HW + y * W + x3
    acc_u = tl.zeros([F, BLOCK_X, F], dtype=tl.float32)
    acc_v = tl.zeros([F, BLOCK_X, F], dtype=tl.float32)
    for k in tl.static_range(TAPS):
        w = tl.load(tap0 + k * F * F * HW, mask=inside, other=0.0)
        fu = _neighbour(flow_ptr, 2 * n, y, xs, H, W, k // 3 - 1, k % 3 - 1) * F
        fv = _neighbour(flow_ptr, 2 * n + 1, y, xs, H, W, k // 3 - 1, k % 3 - 1) * F
        acc_u += w * fu[None, :, None]
        acc_v += w * fv[None, :, None]
    OW = W * F
    plane = H * F * OW
    dst = (y * F + sub_r) * OW + x3 * F + sub_c
    tl.store(out_ptr + 2 * n * plane + dst, acc_u, mask=inside)
    tl.store(out_ptr + (2 * n + 1) * plane + dst, acc_v, mask=inside)


def run(flow: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    N, _, H, W = flow.shape
    out = torch.empty((N, 2, FACTOR * H, FACTOR * W), device=flow.device, dtype=flow.dtype)
    prob = torch.empty_like(mask)
    SUB = FACTOR * FACTOR
    BLOCK_P = 256
    tap_softmax_kernel[(triton.cdiv(H * W, BLOCK_P), SUB, N)](
        mask, prob, H * W, TAPS=TAPS, SUB=SUB, BLOCK_T=triton.next_power_of_2(TAPS), BLOCK_P=BLOCK_P, num_warps=4)
    BLOCK_X = 32
    grid = (triton.cdiv(W, BLOCK_X), H, N)
    convex_upsample_kernel[grid](flow, prob, out, H, W, F=FACTOR, TAPS=TAPS, BLOCK_X=BLOCK_X, num_warps=4)
    return out

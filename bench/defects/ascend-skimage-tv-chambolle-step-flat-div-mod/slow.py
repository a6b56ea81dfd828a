"""One Chambolle TV-denoising iteration (skimage denoise_tv_chambolle): divergence, gradient, dual update."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _tv_chambolle_step(img, p, out, p_new, B, H, W, tau, tau_over_w,
                       BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    HW = H * W
    N = B * HW
    for t in range(pid, tl.cdiv(N, BLOCK), nprog):
        offs = t * BLOCK + tl.arange(0, BLOCK)
        b = offs // HW
        rem = offs % HW
        i = rem // W
        j = rem % W
        valid = offs < N
        up = i >= 1
        left = j >= 1
        down = i + 1 < H
        right = j + 1 < W
        io = b * HW + i * W + j
        po = b * 2 * HW + i * W + j

        x = tl.load(img + io, mask=valid, other=0.0)
        x_d = tl.load(img + io + W, mask=valid & down, other=0.0)
        x_r = tl.load(img + io + 1, mask=valid & right, other=0.0)
        p0 = tl.load(p + po, mask=valid, other=0.0)
        p1 = tl.load(p + po + HW, mask=valid, other=0.0)
        p0_u = tl.load(p + po - W, mask=valid & up, other=0.0)
        p1_l = tl.load(p + po + HW - 1, mask=valid & left, other=0.0)
        p0_d = tl.load(p + po + W, mask=valid & down, other=0.0)
        p1_d = tl.load(p + po + HW + W, mask=valid & down, other=0.0)
        p1_dl = tl.load(p + po + HW + W - 1, mask=valid & down & left, other=0.0)
        p0_r = tl.load(p + po + 1, mask=valid & right, other=0.0)
        p1_r = tl.load(p + po + HW + 1, mask=valid & right, other=0.0)
        p0_ur = tl.load(p + po - W + 1, mask=valid & right & up, other=0.0)

        # out = image + div(p) at (i, j), (i + 1, j) and (i, j + 1)
        o = x + p0_u + p1_l - p0 - p1
        o_d = x_d + p0 + p1_dl - p0_d - p1_d
        o_r = x_r + p0_ur + p1 - p0_r - p1_r
        g0 = tl.where(down, o_d - o, 0.0)
        g1 = tl.where(right, o_r - o, 0.0)
        den = 1.0 + tau_over_w * tl.sqrt(g0 * g0 + g1 * g1)
        tl.store(out + io, o, mask=valid)
        tl.store(p_new + po, (p0 - tau * g0) / den, mask=valid)
        tl.store(p_new + po + HW, (p1 - tau * g1) / den, mask=valid)


def run(image: torch.Tensor, p: torch.Tensor, weight: float) -> tuple:
    B, H, W = image.shape
    out = torch.empty_like(image)
    p_new = torch.empty_like(p)
    BLOCK = 1024
    blocks = triton.cdiv(B * H * W, BLOCK)
    tau = 0.25
    _tv_chambolle_step[(min(_VECTOR_CORES, blocks),)](image, p, out, p_new, B, H, W, tau, tau / weight,
                                                      BLOCK=BLOCK)
    return out, p_new

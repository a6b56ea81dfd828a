"""ILT loss gradient: every SOCS field scaled by the common term (Z - Z_t)^3 Z (1 - Z) of its pixels."""
import torch
import triton
import triton.language as tl

BLOCK = 1024


@triton.jit
def _common_term(field_re, field_im, weights, target, common_out,
                 n_pix, n_kernels, dose, theta_z, i_th, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    ok = offs < n_pix
    # aerial image of these pixels, then the resist image and the loss's common term
    inten = tl.zeros([BLOCK], dtype=tl.float32)
    for j in range(0, n_kernels):
        w = tl.load(weights + j)
        re = tl.load(field_re + j * n_pix + offs, mask=ok, other=0.0)
        im = tl.load(field_im + j * n_pix + offs, mask=ok, other=0.0)
        inten += w * (re * re + im * im)
    inten = inten * (dose * dose)
    z = tl.sigmoid(theta_z * (inten - i_th))
    diff = z - tl.load(target + offs, mask=ok, other=0.0)
    common = diff * diff * diff * z * (1.0 - z)
    tl.store(common_out + offs, common, mask=ok)


@triton.jit
def _grad_fields(field_re, field_im, common_in, grad_re, grad_im,
                 n_pix, dose, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    k = tl.program_id(1)
    ok = offs < n_pix
    common = tl.load(common_in + offs, mask=ok, other=0.0)
    # this program's kernel
    re_k = tl.load(field_re + k * n_pix + offs, mask=ok, other=0.0)
    im_k = tl.load(field_im + k * n_pix + offs, mask=ok, other=0.0)
    scale = dose * common
    tl.store(grad_re + k * n_pix + offs, re_k * scale, mask=ok)
    tl.store(grad_im + k * n_pix + offs, im_k * scale, mask=ok)


def run(field_re, field_im, weights, target, dose, theta_z, i_th):
    n_kernels, H, W = field_re.shape
    n_pix = H * W
    grad_re = torch.empty_like(field_re)
    grad_im = torch.empty_like(field_im)
    common = torch.empty((H, W), device=field_re.device, dtype=torch.float32)
    _common_term[(triton.cdiv(n_pix, BLOCK),)](field_re, field_im, weights, target, common,
                                               n_pix, n_kernels, dose, theta_z, i_th,
                                               BLOCK=BLOCK, num_warps=4)
    grid = (triton.cdiv(n_pix, BLOCK), n_kernels)
    _grad_fields[grid](field_re, field_im, common, grad_re, grad_im,
                       n_pix, dose, BLOCK=BLOCK, num_warps=4)
    return grad_re, grad_im

"""FNO SpectralConv mode mixing: out[k] = x[k] @ W[k] per retained Fourier mode (complex, re/im planes)."""
import torch
import triton
import triton.language as tl

_NUM_PROGRAMS = 40  # Atlas A2 (910B): 40 vector cores


@triton.jit
def _spectral_mode_mix(xr_ptr, xi_ptr, wr_ptr, wi_ptr, yr_ptr, yi_ptr, M, B, I, O,
                       BB: tl.constexpr, BI: tl.constexpr, BO: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    rb = tl.arange(0, BB)
    ri = tl.arange(0, BI)
    ro = tl.arange(0, BO)
    bmask = rb < B
    imask = ri < I
    omask = ro < O
    wmask = imask[:, None] & omask[None, :]
    xmask = bmask[:, None] & imask[None, :]
    ymask = bmask[:, None] & omask[None, :]
    for m in range(pid, M, nprog):
        w_off = m * I * O + ri[:, None] * O + ro[None, :]
        wr = tl.load(wr_ptr + w_off, mask=wmask, other=0.0)
        wi = tl.load(wi_ptr + w_off, mask=wmask, other=0.0)
        # the whole batch of this mode as one [B, I] tile
        x_off = (m * B + rb[:, None]) * I + ri[None, :]
        xr = tl.load(xr_ptr + x_off, mask=xmask, other=0.0)
        xi = tl.load(xi_ptr + x_off, mask=xmask, other=0.0)
        # (xr + i xi) @ (wr + i wi) as four real matmuls on the cube unit
        yr = tl.dot(xr, wr) - tl.dot(xi, wi)
        yi = tl.dot(xr, wi) + tl.dot(xi, wr)
        y_off = (m * B + rb[:, None]) * O + ro[None, :]
        tl.store(yr_ptr + y_off, yr, mask=ymask)
        tl.store(yi_ptr + y_off, yi, mask=ymask)


def run(x_re: torch.Tensor, x_im: torch.Tensor, w_re: torch.Tensor, w_im: torch.Tensor) -> tuple:
    M, B, I = x_re.shape
    O = w_re.shape[2]
    y_re = torch.empty((M, B, O), device=x_re.device, dtype=x_re.dtype)
    y_im = torch.empty((M, B, O), device=x_re.device, dtype=x_re.dtype)
    BB = max(16, triton.next_power_of_2(B))
    BI = max(16, triton.next_power_of_2(I))
    BO = max(16, triton.next_power_of_2(O))
    grid = (min(_NUM_PROGRAMS, M),)
    _spectral_mode_mix[grid](x_re, x_im, w_re, w_im, y_re, y_im, M, B, I, O, BB=BB, BI=BI, BO=BO)
    return y_re, y_im

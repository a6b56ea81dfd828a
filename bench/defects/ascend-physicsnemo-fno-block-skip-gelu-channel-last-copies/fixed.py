"""FNO layer epilogue: y = gelu(Conv1x1(x) + bias + spectral branch), PhysicsNeMo FNO2DEncoder."""
import torch
import triton
import triton.language as tl

_NUM_PROGRAMS = 40  # Atlas A2 (910B): 40 vector cores


@triton.jit
def _fno_skip_gelu(x_ptr, s_ptr, w_ptr, b_ptr, y_ptr, B, HW, C, O,
                   BP: tl.constexpr, BC: tl.constexpr, BO: tl.constexpr):
    # channel-first: x [B, C, HW], spectral branch and y [B, O, HW]; tiles of BP pixels
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    rc = tl.arange(0, BC)
    ro = tl.arange(0, BO)
    cmask = rc < C
    omask = ro < O
    w = tl.load(w_ptr + ro[:, None] * C + rc[None, :], mask=omask[:, None] & cmask[None, :], other=0.0)
    bias = tl.load(b_ptr + ro, mask=omask, other=0.0)
    n_pb = tl.cdiv(HW, BP)
    for t in range(pid, B * n_pb, nprog):
        b = t // n_pb
        pix = (t % n_pb) * BP + tl.arange(0, BP)
        pmask = pix < HW
        xt = tl.load(x_ptr + b * C * HW + rc[:, None] * HW + pix[None, :],
                     mask=cmask[:, None] & pmask[None, :], other=0.0)
        acc = tl.dot(w, xt)  # [BO, BP] = weight @ x[b, :, pixels]
        ymask = omask[:, None] & pmask[None, :]
        y_off = b * O * HW + ro[:, None] * HW + pix[None, :]
        s = tl.load(s_ptr + y_off, mask=ymask, other=0.0)
        z = acc + bias[:, None] + s
        y = 0.5 * z * (1.0 + tl.erf(z * 0.7071067811865476))
        tl.store(y_ptr + y_off, y, mask=ymask)


def run(x: torch.Tensor, x_spec: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    B, C, H, W = x.shape
    O = weight.shape[0]
    HW = H * W
    y = torch.empty((B, O, H, W), device=x.device, dtype=x.dtype)
    BP = 128
    BC = max(16, triton.next_power_of_2(C))
    BO = max(16, triton.next_power_of_2(O))
    grid = (min(_NUM_PROGRAMS, B * triton.cdiv(HW, BP)),)
    _fno_skip_gelu[grid](x, x_spec, weight, bias, y, B, HW, C, O, BP=BP, BC=BC, BO=BO)
    return y

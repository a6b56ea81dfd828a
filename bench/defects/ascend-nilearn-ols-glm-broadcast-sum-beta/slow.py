"""nilearn OLSModel.fit on the NPU: beta = pinv(X) @ Y and the residual variance, per block of voxels."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _ols_fit(y_ptr, x_ptr, px_ptr, beta_ptr, disp_ptr, T, P, V, inv_df,
             stride_yt, stride_xt, stride_pp, stride_bp,
             BP: tl.constexpr, BT: tl.constexpr, BV: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    regs = tl.arange(0, BP)
    frames = tl.arange(0, BT)
    reg_ok = regs < P
    for blk in range(pid, tl.cdiv(V, BV), nprog):
        vox = blk * BV + tl.arange(0, BV)
        vox_ok = vox < V
        # pass 1: beta = pinv(X) @ Y over the block's voxels
        beta = tl.zeros([BP, BV], dtype=tl.float32)
        for t0 in range(0, T, BT):
            t = t0 + frames
            t_ok = t < T
            px = tl.load(px_ptr + regs[:, None] * stride_pp + t[None, :],
                         mask=reg_ok[:, None] & t_ok[None, :], other=0.0)
            y = tl.load(y_ptr + t[:, None] * stride_yt + vox[None, :],
                        mask=t_ok[:, None] & vox_ok[None, :], other=0.0)
            beta += tl.sum(px[:, :, None] * y[None, :, :], axis=1)
        # pass 2: residual sum of squares
        sse = tl.zeros([BV], dtype=tl.float32)
        for t0 in range(0, T, BT):
            t = t0 + frames
            t_ok = t < T
            x = tl.load(x_ptr + t[:, None] * stride_xt + regs[None, :],
                        mask=t_ok[:, None] & reg_ok[None, :], other=0.0)
            y = tl.load(y_ptr + t[:, None] * stride_yt + vox[None, :],
                        mask=t_ok[:, None] & vox_ok[None, :], other=0.0)
            fit = tl.sum(x[:, :, None] * beta[None, :, :], axis=1)
            r = y - fit
            sse += tl.sum(r * r, axis=0)
        tl.store(beta_ptr + regs[:, None] * stride_bp + vox[None, :], beta,
                 mask=reg_ok[:, None] & vox_ok[None, :])
        tl.store(disp_ptr + vox, sse * inv_df, mask=vox_ok)


def run(Y: torch.Tensor, X: torch.Tensor, pinv_x: torch.Tensor) -> tuple:
    T, V = Y.shape
    P = X.shape[1]
    beta = torch.empty((P, V), device=Y.device, dtype=torch.float32)
    disp = torch.empty((V,), device=Y.device, dtype=torch.float32)
    BP, BT, BV = max(16, triton.next_power_of_2(P)), 16, 32
    grid = (min(_VECTOR_CORES, triton.cdiv(V, BV)),)
    _ols_fit[grid](Y, X, pinv_x, beta, disp, T, P, V, 1.0 / (T - P),
                   Y.stride(0), X.stride(0), pinv_x.stride(0), beta.stride(0),
                   BP=BP, BT=BT, BV=BV)
    return beta, disp

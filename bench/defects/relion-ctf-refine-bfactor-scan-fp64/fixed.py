"""relion_ctf_refine per-particle B-factor / scale scan (BFactorRefiner::findBKRec2D) for S trial B-factors."""
import torch
import triton
import triton.language as tl

BLOCK_PIX = 32


@triton.jit
def _bfactor_scan(obs, pred, wgt, err, scale, n_pix, W, D, SH, b0, db, min_scale,
                  S: tl.constexpr, SP: tl.constexpr, BLOCK_PIX: tl.constexpr):
    p = tl.program_id(0)
    # sums and envelopes in fp32: the tolerance of the fit is far above fp32 rounding
    s = tl.arange(0, SP)
    bfac = b0 + s.to(tl.float32) * db
    num = tl.zeros([SP, BLOCK_PIX], dtype=tl.float32)
    den = tl.zeros([SP, BLOCK_PIX], dtype=tl.float32)
    e0 = tl.zeros([BLOCK_PIX], dtype=tl.float32)
    for k0 in range(0, n_pix, BLOCK_PIX):
        k = k0 + tl.arange(0, BLOCK_PIX)
        row = k // W
        xi = k - row * W
        yi = tl.where(2 * row < D, row, row - D)
        ring = tl.floor(tl.sqrt((xi * xi + yi * yi).to(tl.float32)) + 0.5)
        use = (k < n_pix) & (ring < SH)

        src = p * n_pix + k
        o_re = tl.load(obs + 2 * src, mask=use, other=0.0)
        o_im = tl.load(obs + 2 * src + 1, mask=use, other=0.0)
        p_re = tl.load(pred + 2 * src, mask=use, other=0.0)
        p_im = tl.load(pred + 2 * src + 1, mask=use, other=0.0)
        w = tl.load(wgt + k, mask=use, other=0.0)
        e0 += w * (o_re * o_re + o_im * o_im)
        wc = w * (p_re * o_re + p_im * o_im)
        wp = w * (p_re * p_re + p_im * p_im)

        # envelope exp(-B r^2 / 4) of every trial B-factor at every pixel of the block
        q = -0.25 * ring * ring
        b = tl.exp(bfac[:, None] * q[None, :])
        num += b * wc[None, :]
        den += b * b * wp[None, :]
    num_s = tl.sum(num, axis=1)
    den_s = tl.sum(den, axis=1)
    e = tl.sum(e0, axis=0)
    a = tl.where(den_s > 1e-20, num_s / den_s, num_s / 1e-20)
    a = tl.maximum(a, min_scale)
    err_s = e - 2.0 * a * num_s + a * a * den_s
    ok = s < S
    tl.store(err + p * S + s, err_s.to(tl.float32), mask=ok)
    tl.store(scale + p * S + s, a.to(tl.float32), mask=ok)


def run(obs, pred, weight, angpix, min_b, max_b, min_scale, steps) -> tuple:
    n, d, w, _ = obs.shape
    px2 = (d * angpix) ** 2
    err = torch.empty((n, steps), device=obs.device, dtype=torch.float32)
    scale = torch.empty((n, steps), device=obs.device, dtype=torch.float32)
    _bfactor_scan[(n,)](obs, pred, weight, err, scale, d * w, w, d, d // 2 + 1, min_b / px2,
                        (max_b - min_b) / (steps - 1) / px2, min_scale,
                        S=steps, SP=triton.next_power_of_2(steps), BLOCK_PIX=BLOCK_PIX, num_warps=4)
    return err, scale

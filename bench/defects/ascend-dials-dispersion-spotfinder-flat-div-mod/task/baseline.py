"""DIALS dispersion spot finder: 7 x 7 local count / sum / sum-of-squares, then the dispersion and
signal test statistics per pixel."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _dispersion_fwd(img, disp_out, sig_out, H, W,
                    KY: tl.constexpr, KX: tl.constexpr, BH: tl.constexpr, BW: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    n_ct = tl.cdiv(W, BW)
    for blk in range(pid, tl.cdiv(H, BH) * n_ct, nprog):
        tr = blk // n_ct
        tc = blk - tr * n_ct
        row = tr * BH + tl.arange(0, BH)
        col = tc * BW + tl.arange(0, BW)
        inside = (row < H)[:, None] & (col < W)[None, :]
        cnt = tl.zeros([BH, BW], dtype=tl.float32)
        s1 = tl.zeros([BH, BW], dtype=tl.float32)
        s2 = tl.zeros([BH, BW], dtype=tl.float32)
        for dy in tl.static_range(2 * KY + 1):
            r = row + (dy - KY)
            rok = (r >= 0) & (r < H)
            for dx in tl.static_range(2 * KX + 1):
                c = col + (dx - KX)
                ok = rok[:, None] & ((c >= 0) & (c < W))[None, :]
                v = tl.load(img + r[:, None] * W + c[None, :], mask=ok, other=-1).to(tl.float32)
                good = v >= 0.0
                v = tl.where(good, v, 0.0)
                cnt += good.to(tl.float32)
                s1 += v
                s2 += v * v
        offs = row[:, None] * W + col[None, :]
        centre = tl.load(img + offs, mask=inside, other=-1).to(tl.float32)
        valid = (centre >= 0.0) & (cnt >= 2.0) & (s1 > 0.0)
        m = tl.where(valid, cnt, 2.0)
        x = tl.where(valid, s1, 1.0)
        mean = x / m
        var = (m * s2 - x * x) / (m * (m - 1.0))
        disp_t = (var / mean - 1.0) * tl.sqrt((m - 1.0) * 0.5)
        sig_t = (centre - mean) / tl.sqrt(mean)
        tl.store(disp_out + offs, tl.where(valid, disp_t, 0.0), mask=inside)
        tl.store(sig_out + offs, tl.where(valid, sig_t, 0.0), mask=inside)


def run(image: torch.Tensor, ky: int, kx: int) -> tuple:
    H, W = image.shape
    disp = torch.empty((H, W), device=image.device, dtype=torch.float32)
    sig = torch.empty((H, W), device=image.device, dtype=torch.float32)
    BW = min(512, triton.next_power_of_2(W))
    BH = 2048 // BW
    grid = (min(_VECTOR_CORES, triton.cdiv(H, BH) * triton.cdiv(W, BW)),)
    _dispersion_fwd[grid](image, disp, sig, H, W, KY=ky, KX=kx, BH=BH, BW=BW)
    return disp, sig

"""One Richardson-Lucy iteration (skimage richardson_lucy): two 'same' convolutions with the PSF."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _rl_correlate(src, psf, aux, dst, P, H, W, filter_eps,
                  K: tl.constexpr, FLIP: tl.constexpr, RATIO: tl.constexpr,
                  BH: tl.constexpr, BW: tl.constexpr):
    # dst = aux / corr(src)  (RATIO, zero below filter_eps)   or   dst = aux * corr(src)
    # corr(src)[i, j] = sum_{a, c} k[a, c] * src[i + a - R, j + c - R], k = psf (flipped if FLIP)
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    R: tl.constexpr = K // 2
    HW = H * W
    n_rb = tl.cdiv(H, BH)
    n_cb = tl.cdiv(W, BW)
    per_plane = n_rb * n_cb
    for t in range(pid, P * per_plane, nprog):
        plane = t // per_plane
        rem = t % per_plane
        rows = (rem // n_cb) * BH + tl.arange(0, BH)
        cols = (rem % n_cb) * BW + tl.arange(0, BW)
        base = plane * HW
        acc = tl.zeros((BH, BW), dtype=tl.float32)
        for a in range(K):
            rr = rows + (a - R)
            rmask = (rr >= 0) & (rr < H)
            for c in range(K):
                cc = cols + (c - R)
                cmask = (cc >= 0) & (cc < W)
                if FLIP:
                    w = tl.load(psf + (K - 1 - a) * K + (K - 1 - c))
                else:
                    w = tl.load(psf + a * K + c)
                x = tl.load(src + base + rr[:, None] * W + cc[None, :],
                            mask=rmask[:, None] & cmask[None, :], other=0.0)
                acc += w * x
        omask = (rows < H)[:, None] & (cols < W)[None, :]
        o_off = base + rows[:, None] * W + cols[None, :]
        y = tl.load(aux + o_off, mask=omask, other=0.0)
        if RATIO:
            res = tl.where(acc < filter_eps, 0.0, y / acc)
        else:
            res = y * acc
        tl.store(dst + o_off, res, mask=omask)


def run(image: torch.Tensor, estimate: torch.Tensor, psf: torch.Tensor, filter_epsilon: float) -> torch.Tensor:
    P, H, W = image.shape
    K = psf.shape[0]
    BH, BW = 16, 16
    tiles = P * triton.cdiv(H, BH) * triton.cdiv(W, BW)
    grid = (min(_VECTOR_CORES, tiles),)
    relative_blur = torch.empty_like(image)
    new_estimate = torch.empty_like(estimate)
    # relative_blur = image / convolve(estimate, psf, "same")
    _rl_correlate[grid](estimate, psf, image, relative_blur, P, H, W, filter_epsilon,
                        K=K, FLIP=True, RATIO=True, BH=BH, BW=BW)
    # estimate *= convolve(relative_blur, psf_mirror, "same")
    _rl_correlate[grid](relative_blur, psf, estimate, new_estimate, P, H, W, filter_epsilon,
                        K=K, FLIP=False, RATIO=False, BH=BH, BW=BW)
    return new_estimate

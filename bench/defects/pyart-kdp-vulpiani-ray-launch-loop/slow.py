"""KDP by the Vulpiani et al. (2012) iterative method (Py-ART kdp_vulpiani / _kdp_vulpiani_profile)."""
import torch
import triton
import triton.language as tl

FILL = -9999.0
TH1, TH2, STD_TH = -2.0, 20.0, 5.0   # C band


@triton.jit
def _vulpiani_profile(psidp, kdp_out, phidp_out, ray, n_gates, scale, two_dr, th1, th2, std_th, fill,
                      L2: tl.constexpr, N_ITER: tl.constexpr, BLOCK_G: tl.constexpr):
    row = ray * n_gates
    g = tl.arange(0, BLOCK_G)
    inside = g < n_gates
    core = (g >= L2) & (g < n_gates - L2)

    # first guess: window difference of psidp, limits, undefined -> 0
    psi = tl.load(psidp + row + g, mask=inside, other=fill)
    valid = psi != fill
    hi = tl.load(psidp + row + g + L2, mask=core, other=fill)
    lo = tl.load(psidp + row + g - L2, mask=core, other=fill)
    kdp = (hi - lo) * scale
    kdp = tl.where(core & (hi != fill) & (lo != fill) & (kdp > th1) & (kdp < th2), kdp, 0.0)

    # texture: population std of kdp over [j - L2, j + L2]; the row of kdp_out holds the shifted copies
    tl.store(kdp_out + row + g, kdp, mask=inside)
    tl.debug_barrier()
    acc = tl.zeros([BLOCK_G], dtype=tl.float32)
    for o in tl.static_range(2 * L2 + 1):
        acc += tl.load(kdp_out + row + g + (o - L2), mask=core, other=0.0)
    mean = acc / (2 * L2 + 1)
    acc = tl.zeros([BLOCK_G], dtype=tl.float32)
    for o in tl.static_range(2 * L2 + 1):
        d = tl.load(kdp_out + row + g + (o - L2), mask=core, other=0.0) - mean
        acc += d * d
    tex = tl.sqrt(acc / (2 * L2 + 1))
    kdp = tl.where(core & (tex > std_th), 0.0, kdp)

    # iterations: integrate to phidp, differentiate over the window, limits; phidp_out row as scratch
    for it in range(N_ITER):
        rec = tl.cumsum(kdp, axis=0) * two_dr
        tl.debug_barrier()
        tl.store(phidp_out + row + g, rec, mask=inside)
        tl.debug_barrier()
        hi = tl.load(phidp_out + row + g + L2, mask=core, other=0.0)
        lo = tl.load(phidp_out + row + g - L2, mask=core, other=0.0)
        kdp = (hi - lo) * scale
        kdp = tl.where(core & (kdp > th1) & (kdp < th2), kdp, 0.0)

    kdp = tl.where(valid, kdp, 0.0)
    rec = tl.cumsum(kdp, axis=0) * two_dr
    tl.debug_barrier()
    tl.store(kdp_out + row + g, tl.where(valid, kdp, fill), mask=inside)
    tl.store(phidp_out + row + g, tl.where(valid, rec, fill), mask=inside)


def run(psidp: torch.Tensor, dr: float, windsize: int, n_iter: int) -> tuple:
    n_rays, n_gates = psidp.shape
    drm = dr / 1000.0
    kdp = torch.empty_like(psidp)
    phidp = torch.empty_like(psidp)
    block = triton.next_power_of_2(n_gates)
    for ray in range(n_rays):
        _vulpiani_profile[(1,)](psidp, kdp, phidp, ray, n_gates, 1.0 / (2.0 * windsize * drm), 2.0 * drm,
                                TH1, TH2, STD_TH, FILL,
                                L2=windsize // 2, N_ITER=n_iter, BLOCK_G=block, num_warps=4)
    return kdp, phidp

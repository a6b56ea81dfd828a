"""Spectral angle mapper: angle between every pixel spectrum and every library spectrum."""
import torch
import triton
import triton.language as tl

BLOCK_P = 32   # pixels per program


@triton.jit
def _arccos(c):
    # Abramowitz & Stegun 4.4.46 on |c|, |error| <= 2e-8 rad
    a = tl.abs(c)
    p = -0.0012624911
    p = p * a + 0.0066700901
    p = p * a - 0.0170881256
    p = p * a + 0.0308918810
    p = p * a - 0.0501743046
    p = p * a + 0.0889789874
    p = p * a - 0.2145988016
    p = p * a + 1.5707963050
    r = tl.sqrt(1.0 - a) * p
    return tl.where(c < 0.0, 3.141592653589793 - r, r)


@triton.jit
def _sam_all_members(x, members, out, n_pix, n_bands, n_members,
                     BLOCK_P: tl.constexpr, BLOCK_B: tl.constexpr):
    pix = tl.program_id(0) * BLOCK_P + tl.arange(0, BLOCK_P)
    bands = tl.arange(0, BLOCK_B)
    pix_ok = pix < n_pix
    band_ok = bands < n_bands
    spec = tl.load(x + pix[:, None] * n_bands + bands[None, :],
                   mask=pix_ok[:, None] & band_ok[None, :], other=0.0)
    pix_norm = tl.sqrt(tl.sum(spec * spec, axis=1))
    for m in range(n_members):
        ref = tl.load(members + m * n_bands + bands, mask=band_ok, other=0.0)
        ref_norm = tl.sqrt(tl.sum(ref * ref, axis=0))
        cos = tl.sum(spec * ref[None, :], axis=1) / (pix_norm * ref_norm)
        cos = tl.minimum(tl.maximum(cos, -1.0), 1.0)
        tl.store(out + pix * n_members + m, _arccos(cos), mask=pix_ok)


def run(x: torch.Tensor, members: torch.Tensor) -> torch.Tensor:
    h, w, b = x.shape
    n_members = members.shape[0]
    x = x.contiguous()
    members = members.contiguous()
    n = h * w
    out = torch.empty((h, w, n_members), device=x.device, dtype=torch.float32)
    grid = (triton.cdiv(n, BLOCK_P),)
    _sam_all_members[grid](x, members, out, n, b, n_members,
                           BLOCK_P=BLOCK_P, BLOCK_B=triton.next_power_of_2(b), num_warps=4)
    return out

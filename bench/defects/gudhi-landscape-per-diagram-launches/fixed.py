"""Persistence landscapes (GUDHI Landscape): the 5 largest tent functions of each diagram on a sample grid."""
import torch
import triton
import triton.language as tl

BLOCK_P = 32


@triton.jit
def _landscapes(points, offsets, out, lo, step, R,
                BLOCK_T: tl.constexpr, BLOCK_P: tl.constexpr):
    dgm = tl.program_id(0)
    start = tl.load(offsets + dgm)
    end = tl.load(offsets + dgm + 1)
    s = tl.arange(0, BLOCK_T)
    t = lo + s.to(tl.float32) * step
    cols = tl.arange(0, BLOCK_P)
    l1 = tl.zeros([BLOCK_T], dtype=tl.float32)
    l2 = tl.zeros([BLOCK_T], dtype=tl.float32)
    l3 = tl.zeros([BLOCK_T], dtype=tl.float32)
    l4 = tl.zeros([BLOCK_T], dtype=tl.float32)
    l5 = tl.zeros([BLOCK_T], dtype=tl.float32)
    for p0 in range(start, end, BLOCK_P):
        p = p0 + cols
        ok = p < end
        birth = tl.load(points + 2 * p, mask=ok, other=0.0)
        death = tl.load(points + 2 * p + 1, mask=ok, other=0.0)
        mid = 0.5 * (birth + death)
        half = 0.5 * (death - birth)
        tent = tl.maximum(half[None, :] - tl.abs(t[:, None] - mid[None, :]), 0.0)
        tent = tl.where(ok[None, :], tent, -1.0)
        # at most five values of this chunk can enter the five layers: take them largest first
        for _ in tl.static_range(5):
            v = tl.max(tent, axis=1)
            at = tl.argmax(tent, axis=1)
            tent = tl.where(cols[None, :] == at[:, None], -1.0, tent)
            top = tl.maximum(l1, v)
            v = tl.minimum(l1, v)
            l1 = top
            top = tl.maximum(l2, v)
            v = tl.minimum(l2, v)
            l2 = top
            top = tl.maximum(l3, v)
            v = tl.minimum(l3, v)
            l3 = top
            top = tl.maximum(l4, v)
            v = tl.minimum(l4, v)
            l4 = top
            l5 = tl.maximum(l5, v)
    row = out + dgm * 5 * R + s
    keep = s < R
    tl.store(row, 1.4142135623730951 * l1, mask=keep)
    tl.store(row + R, 1.4142135623730951 * l2, mask=keep)
    tl.store(row + 2 * R, 1.4142135623730951 * l3, mask=keep)
    tl.store(row + 3 * R, 1.4142135623730951 * l4, mask=keep)
    tl.store(row + 4 * R, 1.4142135623730951 * l5, mask=keep)


def run(points: torch.Tensor, offsets: torch.Tensor, lo: float, hi: float, num_landscapes: int,
        resolution: int) -> torch.Tensor:
    assert num_landscapes == 5, "the kernel keeps GUDHI's default of five layers"
    n_dgm = offsets.shape[0] - 1
    out = torch.empty((n_dgm, num_landscapes * resolution), device=points.device, dtype=torch.float32)
    step = (hi - lo) / (resolution - 1)
    _landscapes[(n_dgm,)](points, offsets, out, lo, step, resolution,
                          BLOCK_T=triton.next_power_of_2(resolution), BLOCK_P=BLOCK_P, num_warps=4)
    return out

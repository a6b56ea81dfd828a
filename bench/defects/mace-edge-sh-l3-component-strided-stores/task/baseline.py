"""MACE edge attributes: e3nn spherical harmonics l = 0..3 (normalize=True, component normalisation)."""
import math

import torch
import triton
import triton.language as tl

BLOCK_E = 256

SQRT3 = tl.constexpr(math.sqrt(3.0))
SQRT5 = tl.constexpr(math.sqrt(5.0))
SQRT7 = tl.constexpr(math.sqrt(7.0))
SQRT15 = tl.constexpr(math.sqrt(15.0))
C30 = tl.constexpr(math.sqrt(42.0) / 6.0)
C32 = tl.constexpr(math.sqrt(168.0) / 8.0)


@triton.jit
def _edge_sh_l3(vec, sh, n_edges, BLOCK_E: tl.constexpr):
    e = tl.program_id(0) * BLOCK_E + tl.arange(0, BLOCK_E)
    ok = e < n_edges
    x = tl.load(vec + 3 * e, mask=ok, other=1.0)
    y = tl.load(vec + 3 * e + 1, mask=ok, other=0.0)
    z = tl.load(vec + 3 * e + 2, mask=ok, other=0.0)
    inv = 1.0 / tl.maximum(tl.sqrt(x * x + y * y + z * z), 1e-12)
    x = x * inv
    y = y * inv
    z = z * inv

    sh_1_0 = SQRT3 * x
    sh_1_1 = SQRT3 * y
    sh_1_2 = SQRT3 * z
    y2 = y * y
    x2z2 = x * x + z * z
    sh_2_0 = SQRT15 * x * z
    sh_2_1 = SQRT15 * x * y
    sh_2_2 = SQRT5 * (y2 - 0.5 * x2z2)
    sh_2_3 = SQRT15 * y * z
    sh_2_4 = 0.5 * SQRT15 * (z * z - x * x)
    sh_3_0 = C30 * (sh_2_0 * z + sh_2_4 * x)
    sh_3_1 = SQRT7 * sh_2_0 * y
    sh_3_2 = C32 * (4.0 * y2 - x2z2) * x
    sh_3_3 = 0.5 * SQRT7 * y * (2.0 * y2 - 3.0 * x2z2)
    sh_3_4 = C32 * z * (4.0 * y2 - x2z2)
    sh_3_5 = SQRT7 * sh_2_4 * y
    sh_3_6 = C30 * (sh_2_4 * z - sh_2_0 * x)

    # pack the 16 components into a [BLOCK_E, 16] tile on chip (join pairs up the even and odd
    # components at each level, so the flattened minor axes keep the component order)
    one = tl.full([BLOCK_E], 1.0, tl.float32)
    tile = tl.join(
        tl.join(tl.join(tl.join(one, sh_2_4), tl.join(sh_2_0, sh_3_3)),
                tl.join(tl.join(sh_1_1, sh_3_1), tl.join(sh_2_2, sh_3_5))),
        tl.join(tl.join(tl.join(sh_1_0, sh_3_0), tl.join(sh_2_1, sh_3_4)),
                tl.join(tl.join(sh_1_2, sh_3_2), tl.join(sh_2_3, sh_3_6))))
    tile = tl.reshape(tile, [BLOCK_E, 16])
    k = tl.arange(0, 16)
    tl.store(sh + 16 * e[:, None] + k[None, :], tile, mask=ok[:, None])

def run(vectors: torch.Tensor) -> torch.Tensor:
    n_edges = vectors.shape[0]
    sh = torch.empty(n_edges, 16, device=vectors.device, dtype=vectors.dtype)
    _edge_sh_l3[(triton.cdiv(n_edges, BLOCK_E),)](vectors, sh, n_edges, BLOCK_E=BLOCK_E, num_warps=4)
    return sh

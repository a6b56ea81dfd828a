"""Momentum-exchange force on a halfway bounce-back body (XLB MomentumTransfer, D3Q27)."""
import torch
import triton
import triton.language as tl

BLOCK = 128


@triton.jit
def _momentum_transfer(f, boundary_map, missing_mask, c, opp, force, n_vox, body_id,
                       Q: tl.constexpr, QP: tl.constexpr, BLOCK: tl.constexpr):
    vox = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    inside = vox < n_vox
    l = tl.arange(0, QP)
    l_ok = l < Q
    # edge voxel: tagged with the body's BC id and its own centre (l = 0, the rest velocity) not missing
    bc = tl.load(boundary_map + vox, mask=inside, other=0)
    centre_missing = tl.load(missing_mask + vox, mask=inside, other=1)
    edge = inside & (bc == body_id) & (centre_missing == 0)
    ok = edge[:, None] & l_ok[None, :]
    missing = tl.load(missing_mask + l[None, :] * n_vox + vox[:, None], mask=ok, other=0) != 0
    lo = tl.load(opp + l, mask=l_ok, other=0)
    # halfway bounce-back: the population pulled in along l is the post-collision f[opp(l)] reflected at
    # the wall, so phi_l = f_post_collision[opp(l)] + f_post_stream[l] = 2 f[opp(l)]
    f_out = tl.load(f + lo[None, :] * n_vox + vox[:, None], mask=ok & missing, other=0.0)
    phi = 2.0 * f_out
    cx = tl.load(c + 0 * Q + lo, mask=l_ok, other=0).to(tl.float32)[None, :]
    cy = tl.load(c + 1 * Q + lo, mask=l_ok, other=0).to(tl.float32)[None, :]
    cz = tl.load(c + 2 * Q + lo, mask=l_ok, other=0).to(tl.float32)[None, :]
    mx = tl.sum(phi * cx, axis=1)
    my = tl.sum(phi * cy, axis=1)
    mz = tl.sum(phi * cz, axis=1)
    # sum the block's momentum exchange (zero off the body), then one atomic per component
    tl.atomic_add(force + 0, tl.sum(mx, axis=0))
    tl.atomic_add(force + 1, tl.sum(my, axis=0))
    tl.atomic_add(force + 2, tl.sum(mz, axis=0))


def run(f: torch.Tensor, boundary_map: torch.Tensor, missing_mask: torch.Tensor, c: torch.Tensor,
        opp: torch.Tensor, body_id: int) -> torch.Tensor:
    Q = f.shape[0]
    n_vox = f[0].numel()
    force = torch.zeros(3, device=f.device, dtype=torch.float32)
    grid = (triton.cdiv(n_vox, BLOCK),)
    _momentum_transfer[grid](f, boundary_map, missing_mask, c, opp, force, n_vox, body_id,
                             Q=Q, QP=triton.next_power_of_2(Q), BLOCK=BLOCK, num_warps=4)
    return force

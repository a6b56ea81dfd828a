"""Sphere vs oriented-box collision cost: [spheres, obstacles] tiles, hinge summed along the obstacle axis."""
import torch
import triton
import triton.language as tl


@triton.jit
def _box_sdf(px, py, pz, obb_ptr, half_ptr, o, o_mask):
    r00 = tl.load(obb_ptr + o * 12 + 0, mask=o_mask, other=1.0)
    r01 = tl.load(obb_ptr + o * 12 + 1, mask=o_mask, other=0.0)
    r02 = tl.load(obb_ptr + o * 12 + 2, mask=o_mask, other=0.0)
    r10 = tl.load(obb_ptr + o * 12 + 3, mask=o_mask, other=0.0)
    r11 = tl.load(obb_ptr + o * 12 + 4, mask=o_mask, other=1.0)
    r12 = tl.load(obb_ptr + o * 12 + 5, mask=o_mask, other=0.0)
    r20 = tl.load(obb_ptr + o * 12 + 6, mask=o_mask, other=0.0)
    r21 = tl.load(obb_ptr + o * 12 + 7, mask=o_mask, other=0.0)
    r22 = tl.load(obb_ptr + o * 12 + 8, mask=o_mask, other=1.0)
    tx = tl.load(obb_ptr + o * 12 + 9, mask=o_mask, other=0.0)
    ty = tl.load(obb_ptr + o * 12 + 10, mask=o_mask, other=0.0)
    tz = tl.load(obb_ptr + o * 12 + 11, mask=o_mask, other=0.0)
    hx = tl.load(half_ptr + o * 3 + 0, mask=o_mask, other=1.0)
    hy = tl.load(half_ptr + o * 3 + 1, mask=o_mask, other=1.0)
    hz = tl.load(half_ptr + o * 3 + 2, mask=o_mask, other=1.0)
    qx = tl.abs(r00 * px + r01 * py + r02 * pz + tx) - hx
    qy = tl.abs(r10 * px + r11 * py + r12 * pz + ty) - hy
    qz = tl.abs(r20 * px + r21 * py + r22 * pz + tz) - hz
    ox = tl.maximum(qx, 0.0)
    oy = tl.maximum(qy, 0.0)
    oz = tl.maximum(qz, 0.0)
    inside = tl.minimum(tl.maximum(tl.maximum(qx, qy), qz), 0.0)
    return tl.sqrt(ox * ox + oy * oy + oz * oz) + inside


@triton.jit
def sphere_obb_cost_kernel(sph_ptr, obb_ptr, half_ptr, out_ptr, n_spheres, n_obs, eta,
                           BLOCK_S: tl.constexpr, BLOCK_O: tl.constexpr):
    pid = tl.program_id(0)
    s = pid * BLOCK_S + tl.arange(0, BLOCK_S)
    s_mask = s < n_spheres
    o = tl.arange(0, BLOCK_O)[None, :]
    o_mask = o < n_obs
    px = tl.load(sph_ptr + s * 4 + 0, mask=s_mask, other=0.0)[:, None]
    py = tl.load(sph_ptr + s * 4 + 1, mask=s_mask, other=0.0)[:, None]
    pz = tl.load(sph_ptr + s * 4 + 2, mask=s_mask, other=0.0)[:, None]
    rad = tl.load(sph_ptr + s * 4 + 3, mask=s_mask, other=0.0)[:, None]
    sd = _box_sdf(px, py, pz, obb_ptr, half_ptr, o, o_mask)
    hinge = tl.where(o_mask, tl.maximum(rad + eta - sd, 0.0), 0.0)
    tl.store(out_ptr + s, tl.sum(hinge, axis=1), mask=s_mask)


def run(spheres: torch.Tensor, obb_inv: torch.Tensor, half: torch.Tensor, eta: float) -> torch.Tensor:
    n_spheres, n_obs = spheres.shape[0], obb_inv.shape[0]
    out = torch.empty(n_spheres, device=spheres.device, dtype=torch.float32)
    BLOCK_O = triton.next_power_of_2(n_obs)
    BLOCK_S = max(1, 2048 // BLOCK_O)
    grid = (triton.cdiv(n_spheres, BLOCK_S),)
    sphere_obb_cost_kernel[grid](spheres, obb_inv, half, out, n_spheres, n_obs, eta,
                                 BLOCK_S=BLOCK_S, BLOCK_O=BLOCK_O, num_warps=4)
    return out

"""WarpX doChargeDepositionShapeN<1>: CIC charge deposition of macro-particles onto the nodal rho grid (3-D)."""
import torch
import triton
import triton.language as tl

BLOCK = 512


@triton.jit
def _deposit_rho_cic(xyz, w, rho, n, stride_xyz, xmin, ymin, zmin, dxi, dyi, dzi, q_invvol,
                     NXN, NYN, BLOCK: tl.constexpr):
    # one program per block of BLOCK macro-particles, one particle per lane
    p = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    live = p < n
    x = tl.load(xyz + p, mask=live, other=0.0)
    y = tl.load(xyz + stride_xyz + p, mask=live, other=0.0)
    z = tl.load(xyz + 2 * stride_xyz + p, mask=live, other=0.0)
    wq = tl.load(w + p, mask=live, other=0.0) * q_invvol
    xs = (x - xmin) * dxi
    ys = (y - ymin) * dyi
    zs = (z - zmin) * dzi
    i = xs.to(tl.int32)
    j = ys.to(tl.int32)
    k = zs.to(tl.int32)
    sx1 = xs - i.to(tl.float32)
    sy1 = ys - j.to(tl.float32)
    sz1 = zs - k.to(tl.float32)
    sx0 = 1.0 - sx1
    sy0 = 1.0 - sy1
    sz0 = 1.0 - sz1
    node = (k * NYN + j) * NXN + i
    plane = NXN * NYN
    tl.atomic_add(rho + node, sz0 * sy0 * sx0 * wq, mask=live, sem="relaxed")
    tl.atomic_add(rho + node + 1, sz0 * sy0 * sx1 * wq, mask=live, sem="relaxed")
    tl.atomic_add(rho + node + NXN, sz0 * sy1 * sx0 * wq, mask=live, sem="relaxed")
    tl.atomic_add(rho + node + NXN + 1, sz0 * sy1 * sx1 * wq, mask=live, sem="relaxed")
    tl.atomic_add(rho + node + plane, sz1 * sy0 * sx0 * wq, mask=live, sem="relaxed")
    tl.atomic_add(rho + node + plane + 1, sz1 * sy0 * sx1 * wq, mask=live, sem="relaxed")
    tl.atomic_add(rho + node + plane + NXN, sz1 * sy1 * sx0 * wq, mask=live, sem="relaxed")
    tl.atomic_add(rho + node + plane + NXN + 1, sz1 * sy1 * sx1 * wq, mask=live, sem="relaxed")


def run(xyz, w, xmin, ymin, zmin, dx, dy, dz, q, nx, ny, nz) -> torch.Tensor:
    n = xyz.shape[1]
    rho = torch.zeros((nz + 1, ny + 1, nx + 1), device=xyz.device, dtype=torch.float32)
    grid = (triton.cdiv(n, BLOCK),)
    _deposit_rho_cic[grid](xyz, w, rho, n, xyz.stride(0), xmin, ymin, zmin, 1.0 / dx, 1.0 / dy, 1.0 / dz,
                           q / (dx * dy * dz), nx + 1, ny + 1, BLOCK=BLOCK, num_warps=4)
    return rho

"""N-body accelerations: [64 x 32] interaction tiles in fp32, one rsqrt per pair."""
import torch
import triton
import triton.language as tl


@triton.jit
def nbody_accel_kernel(body_ptr, out_ptr, N, eps2, BLOCK_I: tl.constexpr, BLOCK_J: tl.constexpr):
    i = tl.program_id(0) * BLOCK_I + tl.arange(0, BLOCK_I)
    im = i < N
    xi = tl.load(body_ptr + i * 4 + 0, mask=im, other=0.0)
    yi = tl.load(body_ptr + i * 4 + 1, mask=im, other=0.0)
    zi = tl.load(body_ptr + i * 4 + 2, mask=im, other=0.0)
    ax = tl.zeros([BLOCK_I, BLOCK_J], dtype=tl.float32)
    ay = tl.zeros([BLOCK_I, BLOCK_J], dtype=tl.float32)
    az = tl.zeros([BLOCK_I, BLOCK_J], dtype=tl.float32)
    for start in range(0, N, BLOCK_J):
        j = start + tl.arange(0, BLOCK_J)
        jm = j < N
        xj = tl.load(body_ptr + j * 4 + 0, mask=jm, other=0.0)
        yj = tl.load(body_ptr + j * 4 + 1, mask=jm, other=0.0)
        zj = tl.load(body_ptr + j * 4 + 2, mask=jm, other=0.0)
        mj = tl.load(body_ptr + j * 4 + 3, mask=jm, other=0.0)
        dx = xj[None, :] - xi[:, None]
        dy = yj[None, :] - yi[:, None]
        dz = zj[None, :] - zi[:, None]
        r2 = dx * dx + dy * dy + dz * dz + eps2
        inv_r = tl.rsqrt(r2)
        w = mj[None, :] * (inv_r * inv_r * inv_r)
        ax += w * dx
        ay += w * dy
        az += w * dz
    tl.store(out_ptr + i * 3 + 0, tl.sum(ax, axis=1), mask=im)
    tl.store(out_ptr + i * 3 + 1, tl.sum(ay, axis=1), mask=im)
    tl.store(out_ptr + i * 3 + 2, tl.sum(az, axis=1), mask=im)


def run(bodies: torch.Tensor) -> torch.Tensor:
    N = bodies.shape[0]
    out = torch.empty((N, 3), device=bodies.device, dtype=torch.float32)
    BLOCK_I, BLOCK_J = 64, 32
    nbody_accel_kernel[(triton.cdiv(N, BLOCK_I),)](bodies, out, N, 1e-4, BLOCK_I=BLOCK_I, BLOCK_J=BLOCK_J)
    return out

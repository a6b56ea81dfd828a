"""nvblox projective TSDF integration: one depth frame fused into a list of 8x8x8 voxel blocks."""
import torch
import triton
import triton.language as tl


@triton.jit
def _integrate_blocks(block_idx, depth, pose, camera, dist_in, weight_in, dist_out, weight_out,
                      H, W, voxel_size, truncation, max_weight, max_distance,
                      VPS: tl.constexpr):
    blk = tl.program_id(0)
    column = tl.program_id(1)            # (x, y) of one z-column of the block, like threadIdx.(z, y)
    vx = column // VPS
    vy = column % VPS
    vz = tl.arange(0, VPS)
    offs = blk * (VPS * VPS * VPS) + column * VPS + vz

    bx = tl.load(block_idx + 3 * blk)
    by = tl.load(block_idx + 3 * blk + 1)
    bz = tl.load(block_idx + 3 * blk + 2)
    r00 = tl.load(pose + 0)
    r01 = tl.load(pose + 1)
    r02 = tl.load(pose + 2)
    t0 = tl.load(pose + 3)
    r10 = tl.load(pose + 4)
    r11 = tl.load(pose + 5)
    r12 = tl.load(pose + 6)
    t1 = tl.load(pose + 7)
    r20 = tl.load(pose + 8)
    r21 = tl.load(pose + 9)
    r22 = tl.load(pose + 10)
    t2 = tl.load(pose + 11)
    fx = tl.load(camera + 0)
    fy = tl.load(camera + 1)
    cx = tl.load(camera + 2)
    cy = tl.load(camera + 3)

    # voxel centre in the layer frame, then in the camera frame
    px = ((bx * VPS + vx).to(tl.float32) + 0.5) * voxel_size
    py = ((by * VPS + vy).to(tl.float32) + 0.5) * voxel_size
    pz = ((bz * VPS + vz).to(tl.float32) + 0.5) * voxel_size
    xc = r00 * px + r01 * py + r02 * pz + t0
    yc = r10 * px + r11 * py + r12 * pz + t1
    zc = r20 * px + r21 * py + r22 * pz + t2

    # closest pixel of the projection
    u = fx * xc / zc + cx
    v = fy * yc / zc + cy
    col = tl.floor(u).to(tl.int32)
    row = tl.floor(v).to(tl.int32)
    seen = (zc > 0.0) & (zc <= max_distance) & (col >= 0) & (col < W) & (row >= 0) & (row < H)
    d = tl.load(depth + row * W + col, mask=seen, other=0.0)
    sdf = d - zc
    update = seen & (d > 0.0) & (sdf >= -truncation)

    dist = tl.load(dist_in + offs)
    w = tl.load(weight_in + offs)
    fused = (sdf + dist * w) / (1.0 + w)
    fused = tl.minimum(tl.maximum(fused, -truncation), truncation)
    new_w = tl.minimum(w + 1.0, max_weight)
    tl.store(dist_out + offs, tl.where(update, fused, dist))
    tl.store(weight_out + offs, tl.where(update, new_w, w))


def run(block_idx, depth, pose, camera, distance, weight, voxel_size, truncation, max_weight, max_distance):
    n = block_idx.shape[0]
    H, W = depth.shape
    vps = 8
    dist_out = torch.empty_like(distance)
    weight_out = torch.empty_like(weight)
    _integrate_blocks[(n, vps * vps)](block_idx, depth, pose, camera, distance, weight, dist_out, weight_out,
                                      H, W, voxel_size, truncation, max_weight, max_distance, VPS=vps)
    return dist_out, weight_out

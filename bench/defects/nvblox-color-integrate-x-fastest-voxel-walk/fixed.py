"""nvblox projective colour integration: one RGB frame blended into the colour blocks of the truncation band."""
import torch
import triton
import triton.language as tl


@triton.jit
def _integrate_color(block_idx, depth, rgb, pose, camera, color_in, weight_in, color_out, weight_out,
                     H, W, voxel_size, truncation, max_weight, max_distance,
                     VPS: tl.constexpr):
    blk = tl.program_id(0)
    i = tl.arange(0, VPS * VPS * VPS)    # the whole block, in storage order voxels[x][y][z]
    vz = i % VPS
    vy = (i // VPS) % VPS
    vx = i // (VPS * VPS)
    offs = blk * (VPS * VPS * VPS) + i

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

    # closest pixel of the projection; occlusion test against the sphere-traced depth
    u = fx * xc / zc + cx
    v = fy * yc / zc + cy
    col = tl.floor(u).to(tl.int32)
    row = tl.floor(v).to(tl.int32)
    seen = (zc > 0.0) & (zc <= max_distance) & (col >= 0) & (col < W) & (row >= 0) & (row < H)
    pix = row * W + col
    surface = tl.load(depth + pix, mask=seen, other=0.0)
    update = seen & (tl.abs(surface - zc) <= truncation)

    w = tl.load(weight_in + offs)
    total = w + 1.0
    first = w / total
    second = 1.0 / total
    for ch in tl.static_range(3):
        c_old = tl.load(color_in + offs * 3 + ch)
        c_pix = tl.load(rgb + pix * 3 + ch, mask=update, other=0)
        blended = tl.floor(c_old.to(tl.float32) * first + c_pix.to(tl.float32) * second + 0.5)
        blended = tl.minimum(tl.maximum(blended, 0.0), 255.0).to(tl.uint8)
        tl.store(color_out + offs * 3 + ch, tl.where(update, blended, c_old))
    tl.store(weight_out + offs, tl.where(update, tl.minimum(total, max_weight), w))


def run(block_idx, depth, rgb, pose, camera, color, weight, voxel_size, truncation, max_weight, max_distance):
    n = block_idx.shape[0]
    H, W = depth.shape
    vps = 8
    color_out = torch.empty_like(color)
    weight_out = torch.empty_like(weight)
    _integrate_color[(n,)](block_idx, depth, rgb, pose, camera, color, weight, color_out, weight_out,
                           H, W, voxel_size, truncation, max_weight, max_distance, VPS=vps)
    return color_out, weight_out

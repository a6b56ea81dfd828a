"""torch_cluster-style batched farthest point sampling: the clouds of the batch are CSR segments of pos,
each cloud's sampling steps are walked by a program with the cloud's coordinates held in registers."""
import torch
import triton
import triton.language as tl


@triton.jit
def _sq_dist(x, y, z, px, py, pz):
    dx = x - px
    dy = y - py
    dz = z - pz
    return dx * dx + dy * dy + dz * dz


@triton.jit
def _fps_cloud(pos_ptr, ptr_ptr, out_ptr_ptr, idx_ptr, cloud, BLOCK: tl.constexpr):
    start = tl.load(ptr_ptr + cloud)
    n = tl.load(ptr_ptr + cloud + 1) - start
    o_start = tl.load(out_ptr_ptr + cloud)
    m = tl.load(out_ptr_ptr + cloud + 1) - o_start

    offs = tl.arange(0, BLOCK)
    inside = offs < n
    base = pos_ptr + (start + offs).to(tl.int64) * 3
    x = tl.load(base + 0, mask=inside, other=0.0)
    y = tl.load(base + 1, mask=inside, other=0.0)
    z = tl.load(base + 2, mask=inside, other=0.0)
    dist = tl.where(inside, float("inf"), -1.0)

    cur = 0
    tl.store(idx_ptr + o_start, start.to(tl.int64))
    for i in range(1, m):
        p = pos_ptr + (start + cur).to(tl.int64) * 3
        px = tl.load(p + 0)
        py = tl.load(p + 1)
        pz = tl.load(p + 2)
        d = _sq_dist(x, y, z, px, py, pz)
        dist = tl.where(inside, tl.minimum(dist, d), dist)
        cur = tl.argmax(dist, axis=0)
        tl.store(idx_ptr + o_start + i, (start + cur).to(tl.int64))


@triton.jit
def fps_kernel(pos_ptr, ptr_ptr, out_ptr_ptr, idx_ptr, cloud, BLOCK: tl.constexpr):
    _fps_cloud(pos_ptr, ptr_ptr, out_ptr_ptr, idx_ptr, cloud, BLOCK)


def run(pos: torch.Tensor, ptr: torch.Tensor, out_ptr: torch.Tensor, max_points: int,
        num_samples: int) -> torch.Tensor:
    num_clouds = ptr.numel() - 1
    idx = torch.empty(num_samples, dtype=torch.int64, device=pos.device)
    BLOCK = triton.next_power_of_2(max_points)
    launch = {"num_warps": 4 if BLOCK <= 2048 else 8}
    for cloud in range(num_clouds):
        fps_kernel[(1,)](pos, ptr, out_ptr, idx, cloud, BLOCK=BLOCK, **launch)
    return idx

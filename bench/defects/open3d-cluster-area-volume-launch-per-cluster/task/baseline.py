"""Per-cluster surface area and enclosed volume of a mesh's connected triangle clusters."""
import torch
import triton
import triton.language as tl

BLOCK = 512


@triton.jit
def _cluster_area_volume(V, F, cluster_ptr, out, BLOCK: tl.constexpr):
    c = tl.program_id(0)
    start = tl.load(cluster_ptr + c)
    end = tl.load(cluster_ptr + c + 1)
    # reference point on the cluster: keeps the divergence-theorem terms small in fp32
    p = tl.load(F + 3 * start)
    px = tl.load(V + 3 * p)
    py = tl.load(V + 3 * p + 1)
    pz = tl.load(V + 3 * p + 2)
    offs = tl.arange(0, BLOCK)
    acc_area = tl.zeros([BLOCK], dtype=tl.float32)
    acc_vol = tl.zeros([BLOCK], dtype=tl.float32)
    for f0 in range(start, end, BLOCK):
        f = f0 + offs
        ok = f < end
        i0 = tl.load(F + 3 * f, mask=ok, other=0)
        i1 = tl.load(F + 3 * f + 1, mask=ok, other=0)
        i2 = tl.load(F + 3 * f + 2, mask=ok, other=0)
        ax = tl.load(V + 3 * i0, mask=ok, other=0.0) - px
        ay = tl.load(V + 3 * i0 + 1, mask=ok, other=0.0) - py
        az = tl.load(V + 3 * i0 + 2, mask=ok, other=0.0) - pz
        bx = tl.load(V + 3 * i1, mask=ok, other=0.0) - px
        by = tl.load(V + 3 * i1 + 1, mask=ok, other=0.0) - py
        bz = tl.load(V + 3 * i1 + 2, mask=ok, other=0.0) - pz
        cx = tl.load(V + 3 * i2, mask=ok, other=0.0) - px
        cy = tl.load(V + 3 * i2 + 1, mask=ok, other=0.0) - py
        cz = tl.load(V + 3 * i2 + 2, mask=ok, other=0.0) - pz
        # area from the edge cross product, volume from the tetrahedron (p, a, b, c)
        e1x, e1y, e1z = bx - ax, by - ay, bz - az
        e2x, e2y, e2z = cx - ax, cy - ay, cz - az
        nx = e1y * e2z - e1z * e2y
        ny = e1z * e2x - e1x * e2z
        nz = e1x * e2y - e1y * e2x
        acc_area += tl.where(ok, 0.5 * tl.sqrt(nx * nx + ny * ny + nz * nz), 0.0)
        acc_vol += ax * (by * cz - bz * cy) + ay * (bz * cx - bx * cz) + az * (bx * cy - by * cx)
    tl.store(out + 2 * c, tl.sum(acc_area, axis=0))
    tl.store(out + 2 * c + 1, tl.sum(acc_vol, axis=0) / 6.0)


def run(V: torch.Tensor, F: torch.Tensor, cluster_ptr: torch.Tensor) -> torch.Tensor:
    n_clusters = cluster_ptr.shape[0] - 1
    out = torch.empty(n_clusters, 2, device=V.device, dtype=torch.float32)
    _cluster_area_volume[(n_clusters,)](V, F, cluster_ptr, out, BLOCK=BLOCK, num_warps=4)
    return out

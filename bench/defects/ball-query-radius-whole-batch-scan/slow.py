"""Ball query (torch_cluster.radius) for PointNet++: each program takes 16 queries and ranks the
points within radius that belong to the same cloud as each query."""
import torch
import triton
import triton.language as tl


@triton.jit
def _sq_dist(qx, qy, qz, px, py, pz):
    dx = qx[:, None] - px[None, :]
    dy = qy[:, None] - py[None, :]
    dz = qz[:, None] - pz[None, :]
    return dx * dx + dy * dy + dz * dz


@triton.jit
def ball_query_kernel(pos_x_ptr, pos_y_ptr, batch_x_ptr, batch_y_ptr, nbr_ptr, num_ptr,
                      n_x, n_y, r, max_nbrs,
                      BLOCK_Q: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid = tl.program_id(0)
    q = pid * BLOCK_Q + tl.arange(0, BLOCK_Q)
    q_ok = q < n_y
    qx = tl.load(pos_y_ptr + q * 3 + 0, mask=q_ok, other=0.0)
    qy = tl.load(pos_y_ptr + q * 3 + 1, mask=q_ok, other=0.0)
    qz = tl.load(pos_y_ptr + q * 3 + 2, mask=q_ok, other=0.0)
    cloud = tl.load(batch_y_ptr + q, mask=q_ok, other=-1)
    r2 = r * r
    count = tl.zeros([BLOCK_Q], dtype=tl.int32)
    for start in range(0, n_x, BLOCK_N):
        offs = start + tl.arange(0, BLOCK_N)
        p_ok = offs < n_x
        px = tl.load(pos_x_ptr + offs * 3 + 0, mask=p_ok, other=0.0)
        py = tl.load(pos_x_ptr + offs * 3 + 1, mask=p_ok, other=0.0)
        pz = tl.load(pos_x_ptr + offs * 3 + 2, mask=p_ok, other=0.0)
        p_cloud = tl.load(batch_x_ptr + offs, mask=p_ok, other=-2)
        d2 = _sq_dist(qx, qy, qz, px, py, pz)
        same = p_cloud[None, :] == cloud[:, None]
        hit = (d2 <= r2) & same
        hits = hit.to(tl.int32)
        slot = count[:, None] + tl.cumsum(hits, axis=1) - 1
        tl.store(nbr_ptr + q[:, None] * max_nbrs + slot, offs[None, :].to(tl.int64) + tl.zeros_like(slot),
                 mask=hit & (slot < max_nbrs))
        count += tl.sum(hits, axis=1)
    kept = tl.minimum(count, max_nbrs)
    k = tl.arange(0, BLOCK_K)
    pad = q_ok[:, None] & (k[None, :] >= kept[:, None]) & (k[None, :] < max_nbrs)
    tl.store(nbr_ptr + q[:, None] * max_nbrs + k[None, :], tl.full([BLOCK_Q, BLOCK_K], -1, tl.int64), mask=pad)
    tl.store(num_ptr + q, kept.to(tl.int64), mask=q_ok)


def run(pos_x: torch.Tensor, pos_y: torch.Tensor, batch_x: torch.Tensor, batch_y: torch.Tensor,
        r: float, max_num_neighbors: int):
    n_x, n_y = pos_x.shape[0], pos_y.shape[0]
    nbr = torch.empty((n_y, max_num_neighbors), dtype=torch.int64, device=pos_y.device)
    num = torch.empty(n_y, dtype=torch.int64, device=pos_y.device)
    meta = dict(BLOCK_Q=16, BLOCK_N=64, BLOCK_K=triton.next_power_of_2(max_num_neighbors))
    grid = (triton.cdiv(n_y, meta["BLOCK_Q"]),)
    ball_query_kernel[grid](pos_x, pos_y, batch_x, batch_y, nbr, num, n_x, n_y, r, max_num_neighbors,
                            num_warps=4, **meta)
    return nbr, num

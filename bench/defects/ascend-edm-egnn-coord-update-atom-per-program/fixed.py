"""EDM EGNN coordinate update: x_i + sum_j (x_i - x_j) / (|x_i - x_j| + 1) * tanh(phi_ij) * range, dense molecules."""
import torch
import triton
import triton.language as tl

VECTOR_CORES = 40


@triton.jit
def _tanh(v):
    return 1.0 - 2.0 / (tl.exp(2.0 * v) + 1.0)


@triton.jit
def _egnn_coord_update(x, phi, node_mask, out, B, n, coords_range,
                       BLOCK_I: tl.constexpr, BLOCK_N: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    tiles = tl.cdiv(n, BLOCK_I)
    ii = tl.arange(0, BLOCK_I)
    j = tl.arange(0, BLOCK_N)
    j_live = j < n
    for t in range(pid, B * tiles, nprog):
        mol = t // tiles
        i = (t - mol * tiles) * BLOCK_I + ii
        i_live = i < n
        base = mol * n
        xj = tl.load(x + (base + j) * 3, mask=j_live, other=0.0)
        yj = tl.load(x + (base + j) * 3 + 1, mask=j_live, other=0.0)
        zj = tl.load(x + (base + j) * 3 + 2, mask=j_live, other=0.0)
        mj = tl.load(node_mask + base + j, mask=j_live, other=0.0)
        xi = tl.load(x + (base + i) * 3, mask=i_live, other=0.0)
        yi = tl.load(x + (base + i) * 3 + 1, mask=i_live, other=0.0)
        zi = tl.load(x + (base + i) * 3 + 2, mask=i_live, other=0.0)
        mi = tl.load(node_mask + base + i, mask=i_live, other=0.0)
        w = tl.load(phi + (base + i)[:, None] * n + j[None, :],
                    mask=i_live[:, None] & j_live[None, :], other=0.0)
        dx = xi[:, None] - xj[None, :]
        dy = yi[:, None] - yj[None, :]
        dz = zi[:, None] - zj[None, :]
        inv = 1.0 / (tl.sqrt(dx * dx + dy * dy + dz * dz + 1e-8) + 1.0)
        g = _tanh(w) * coords_range * mj[None, :] * inv
        tl.store(out + (base + i) * 3, (xi + tl.sum(dx * g, axis=1)) * mi, mask=i_live)
        tl.store(out + (base + i) * 3 + 1, (yi + tl.sum(dy * g, axis=1)) * mi, mask=i_live)
        tl.store(out + (base + i) * 3 + 2, (zi + tl.sum(dz * g, axis=1)) * mi, mask=i_live)


def run(x: torch.Tensor, phi: torch.Tensor, node_mask: torch.Tensor, coords_range: float) -> torch.Tensor:
    B, n, _ = x.shape
    out = torch.empty_like(x)
    BLOCK_I = 8
    grid = (max(1, min(VECTOR_CORES, B * triton.cdiv(n, BLOCK_I))),)
    _egnn_coord_update[grid](x, phi, node_mask, out, B, n, coords_range,
                             BLOCK_I=BLOCK_I, BLOCK_N=triton.next_power_of_2(n))
    return out

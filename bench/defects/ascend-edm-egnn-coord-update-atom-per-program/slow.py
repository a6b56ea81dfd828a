"""EDM EGNN coordinate update: x_i + sum_j (x_i - x_j) / (|x_i - x_j| + 1) * tanh(phi_ij) * range, dense molecules."""
import torch
import triton
import triton.language as tl


@triton.jit
def _tanh(v):
    return 1.0 - 2.0 / (tl.exp(2.0 * v) + 1.0)


@triton.jit
def _egnn_coord_update(x, phi, node_mask, out, n, coords_range, BLOCK_N: tl.constexpr):
    row = tl.program_id(0)
    mol = row // n
    j = tl.arange(0, BLOCK_N)
    j_live = j < n
    xi = tl.load(x + row * 3)
    yi = tl.load(x + row * 3 + 1)
    zi = tl.load(x + row * 3 + 2)
    mi = tl.load(node_mask + row)
    xj = tl.load(x + (mol * n + j) * 3, mask=j_live, other=0.0)
    yj = tl.load(x + (mol * n + j) * 3 + 1, mask=j_live, other=0.0)
    zj = tl.load(x + (mol * n + j) * 3 + 2, mask=j_live, other=0.0)
    mj = tl.load(node_mask + mol * n + j, mask=j_live, other=0.0)
    w = tl.load(phi + row * n + j, mask=j_live, other=0.0)
    dx = xi - xj
    dy = yi - yj
    dz = zi - zj
    inv = 1.0 / (tl.sqrt(dx * dx + dy * dy + dz * dz + 1e-8) + 1.0)
    g = _tanh(w) * coords_range * mj * inv
    tl.store(out + row * 3, (xi + tl.sum(dx * g, axis=0)) * mi)
    tl.store(out + row * 3 + 1, (yi + tl.sum(dy * g, axis=0)) * mi)
    tl.store(out + row * 3 + 2, (zi + tl.sum(dz * g, axis=0)) * mi)


def run(x: torch.Tensor, phi: torch.Tensor, node_mask: torch.Tensor, coords_range: float) -> torch.Tensor:
    B, n, _ = x.shape
    out = torch.empty_like(x)
    _egnn_coord_update[(B * n,)](x, phi, node_mask, out, n, coords_range,
                                 BLOCK_N=triton.next_power_of_2(n))
    return out

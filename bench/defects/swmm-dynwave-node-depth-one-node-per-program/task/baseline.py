"""EPA SWMM dynamic wave: node continuity of one Picard trial (updateNodeFlows + setNodeDepth)."""
import torch
import triton
import triton.language as tl

MAX_DEGREE = 8
MIN_SURFAREA = 1.167
BLOCK_N = 128


@triton.jit
def _node_depth(node_ptr, inc_link, inc_dir, q, a_surf, y_old, y_last, net_old, lat, a_node, y_full,
                y_new, net_out, n_nodes, dt, omega,
                MIN_SURFAREA: tl.constexpr, MAX_DEGREE: tl.constexpr, BLOCK_N: tl.constexpr):
    # BLOCK_N nodes per program, their incident links gathered as one [BLOCK_N, MAX_DEGREE] tile
    i = tl.program_id(0) * BLOCK_N + tl.arange(0, BLOCK_N)
    ok = i < n_nodes
    first = tl.load(node_ptr + i, mask=ok, other=0)
    last = tl.load(node_ptr + i + 1, mask=ok, other=0)
    k = first[:, None] + tl.arange(0, MAX_DEGREE)[None, :]
    has = k < last[:, None]
    link = tl.load(inc_link + k, mask=has, other=0)
    sign = tl.load(inc_dir + k, mask=has, other=0.0)
    flow = tl.load(q + link, mask=has, other=0.0)
    surf = tl.load(a_surf + link, mask=has, other=0.0)
    net = tl.load(lat + i, mask=ok, other=0.0) + tl.sum(sign * flow, axis=1)
    area = tl.maximum(tl.load(a_node + i, mask=ok, other=0.0) + 0.5 * tl.sum(surf, axis=1), MIN_SURFAREA)
    y = tl.load(y_old + i, mask=ok, other=0.0) + 0.5 * (tl.load(net_old + i, mask=ok, other=0.0) + net) * dt / area
    y = (1.0 - omega) * tl.load(y_last + i, mask=ok, other=0.0) + omega * y
    y = tl.minimum(tl.maximum(y, 0.0), tl.load(y_full + i, mask=ok, other=0.0))
    tl.store(y_new + i, y, mask=ok)
    tl.store(net_out + i, net, mask=ok)


def run(node_ptr, inc_link, inc_dir, q, a_surf, y_old, y_last, net_old, lat, a_node, y_full,
        dt: float, omega: float) -> tuple:
    n_nodes = y_old.numel()
    y_new = torch.empty_like(y_old)
    net = torch.empty_like(y_old)
    _node_depth[(triton.cdiv(n_nodes, BLOCK_N),)](node_ptr, inc_link, inc_dir, q, a_surf, y_old, y_last,
                                                  net_old, lat, a_node, y_full, y_new, net, n_nodes, dt, omega,
                                                  MIN_SURFAREA=MIN_SURFAREA, MAX_DEGREE=MAX_DEGREE,
                                                  BLOCK_N=BLOCK_N, num_warps=4)
    return y_new, net
